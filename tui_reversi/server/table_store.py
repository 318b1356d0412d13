"""What the tables keep beyond this process, behind one interface: `TableStore`
(the archive's SQLite here; PostgreSQL or Redis could back it for a fleet of
servers), and the tables as the store keeps them.

Every game with both seats taken is kept after each change, finished games
are recorded with their result, and after a restart the kept games come back
adjourned, their clocks as they were.
"""

from __future__ import annotations

from typing import Protocol

from ..core import Color
from .archive import Ending, PlayedGame, UnfinishedGame
from .table import Table


class TableStore(Protocol):
    """What the tables keep beyond this process: the one interface a shared
    store (PostgreSQL, Redis) would implement for a fleet of servers. Methods
    raise StoreError (one sentence) when the store fails; keep() reports its
    problems instead, as it also writes the players' saved games."""

    def save_table(self, unfinished: UnfinishedGame) -> None:
        """Keep a game not over yet (both seats taken), replacing what was kept of it."""

    def unfinished_tables(self) -> tuple[list[UnfinishedGame], list[str]]:
        """The games kept not over, and a sentence for each that cannot be read."""

    def keep(self, played: PlayedGame) -> list[str]:
        """Record a finished game (and forget it as unfinished); problems met, if any."""

    def forget_table(self, code: str) -> None:
        """Forget a game kept not over that ends with no result to keep (no move played)."""

    def rating(self, name: str) -> tuple[float, int]:
        """`name`'s rating and how many rated games it rests on."""


def unfinished(table: Table) -> UnfinishedGame:
    """`table` (both seats taken, not over) as the store keeps it."""
    left = (0.0, 0.0)
    if table.time_control is not None:  # a running clock as of its last start
        left = (table.remaining[Color.BLACK], table.remaining[Color.WHITE])
    names = (table.name(Color.BLACK), table.name(Color.WHITE))
    return UnfinishedGame(
        table.code,
        table.game.copy(),
        names,
        table.time_control,
        left,
        table.started,
        table.adjourned,
    )


def brought_back(kept: UnfinishedGame) -> Table:
    """A game kept from before a restart: adjourned, its clocks as they were."""
    names = dict(zip(Color, kept.names, strict=True))
    table = Table(kept.code, kept.game.variant, names, time_control=kept.time_control)
    table.game, table.started, table.adjourned = kept.game.copy(), kept.started, True
    if kept.time_control is not None:
        table.remaining = dict(zip(Color, kept.left, strict=True))
    return table


def played(table: Table, end: Ending) -> PlayedGame:
    """`table`'s game, over, as the store records it."""
    names = (table.name(Color.BLACK), table.name(Color.WHITE))
    return PlayedGame(table.code, table.game.copy(), names, table.started, end)
