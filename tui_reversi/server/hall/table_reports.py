"""Reporting the opponent across the table, from the game-over dialog: the
table protocol's `report REASON [words]` from a seated game. It is filed as
`ssh host report NAME REASON [words]` is (safety.py's `file_report`: the
latest game of the two, this table's chat as it is), in a task of its own,
for the store is asked; the game is told the answer as `news`, or why not as
`refused`, on its own line.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from ...core.errors import capitalised
from ...net.server_line import line
from ...storage import StorageError
from ..ledger.store import Store
from .games_socket import tell
from .moderation_watch import Moderation
from .safety import Refused, file_report
from .table import Seat


class TableReports:
    """The reports the seated games file: file(); close() at the end."""

    def __init__(self, store: Store, moderation: Moderation, log: Callable[[str], None]) -> None:
        self._store = store
        self._moderation = moderation
        self._log = log
        self._filing: set[asyncio.Task[None]] = set()

    def file(self, seat: Seat, words: list[str]) -> str | None:
        """`seat`'s player reports the player across the table for `words` (a
        reason, then what they add); why not at once, in one sentence, if so."""
        color = seat.color
        if color is None:
            return "You are watching: report a player from the lobby (r on them)."
        opponent = seat.table.names.get(color.other)
        if opponent is None:
            return "Nobody sits across from you to report."
        task = asyncio.create_task(self._filed(seat, opponent, words))
        self._filing.add(task)
        task.add_done_callback(self._filing.discard)
        return None

    async def _filed(self, seat: Seat, opponent: str, words: list[str]) -> None:
        table = seat.table
        try:
            said = await file_report(
                self._store, [table], self._moderation, seat.name, opponent, words
            )
        except Refused as refusal:
            self._answer(seat, "refused", str(refusal))
            return
        except StorageError as error:
            self._log(f"table {table.code}: {seat.name}'s report cannot be kept: {error}")
            self._answer(seat, "refused", "Your report cannot be kept just now; try again soon.")
            return
        self._log(f"table {table.code}: {seat.name} reported {opponent}")
        self._answer(seat, "news", said)

    def _answer(self, seat: Seat, kind: str, text: str) -> None:
        writer = seat.table.links.get(seat.color) if seat.color is not None else None
        if writer is not None:
            tell(writer, line(kind, capitalised(text)))

    async def close(self) -> None:
        """Wait for the reports being filed (the store is still open)."""
        if self._filing:
            await asyncio.wait(set(self._filing))
