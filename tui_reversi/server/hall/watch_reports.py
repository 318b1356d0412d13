"""The reports the boosting watch files by itself (boost_watch.py's
`AutoReport`, the fourth boost or sandbag in 3 hours), put in the moderators'
queue as a player's report is (ledger/moderation.py): on the name, for its
reason, with the watch's sentence, the latest game against the latest of its
opponents and the chat of the table it was caught at. Its reporter is
WATCH_REPORTER, whom nothing is told. Filed in a task of its own, for the
watch counts inside a game's ending and the store is asked.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Iterable

from ...storage import StorageError
from ..ledger.moderation import WATCH_REPORTER, Report
from ..ledger.store import Store
from .boost_watch import AutoReport
from .safety import REPORT_WORDS, latest_game, plain, table_chat
from .table import Table


class WatchReports:
    """The watch's reports, filed: file() (BoostWatch's `file`); close() at the end."""

    def __init__(
        self,
        store: Store,
        tables: Callable[[], Iterable[Table]],
        log: Callable[[str], None],
        now: Callable[[], float] = time.time,
    ) -> None:
        self._store = store
        self._tables = tables  # this node's tables, as they are when a report is filed
        self._log = log
        self._now = now
        self._filing: set[asyncio.Task[None]] = set()

    def file(self, report: AutoReport) -> None:
        """File `report` in the moderators' queue (in a task: see the module)."""
        task = asyncio.create_task(self._filed(report))
        self._filing.add(task)
        task.add_done_callback(self._filing.discard)

    async def _filed(self, report: AutoReport) -> None:
        store, name = self._store, report.name
        latest = report.opponents[0] if report.opponents else None
        at = [table for table in self._tables() if table.code == report.table]
        chat = table_chat(at, name, latest) if latest else ()
        try:
            game = await latest_game(store, name, latest) if latest else None
            number = await store.file_report(
                Report(
                    0,
                    WATCH_REPORTER,
                    name,
                    report.reason,
                    plain(report.text, REPORT_WORDS),
                    game,
                    chat,
                    self._now(),
                )
            )
        except StorageError as error:
            self._log(f"boosting watch: the report on {name} cannot be kept: {error}")
            return
        self._log(f"boosting watch: report {number} on {name} ({report.reason}) filed")

    async def close(self) -> None:
        """Wait for the reports being filed (the store is still open)."""
        if self._filing:
            await asyncio.wait(set(self._filing))
