"""Each table's writes to the store, by a task of their own: a slow database
slows the tables waiting on it, not the whole node.

A table's writes run one after the other, in order, each awaited (the store's
coroutines: store.py); what the table says meanwhile (`Table.withheld`) is told
once they are done, so a move is still kept before anyone is told of it. Its
clock starts again when it is told, if the wait was long enough to matter: the
wait is nobody's time. A write that
fails does not hold the table up: what it missed is written when the store is
back (GameCourse.store_back).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

from ...storage import StorageError
from .table import Table

# A write (its problems: none if it was kept), and what is done with its problems.
Call = Callable[[], Awaitable[list[str]]]
Done = Callable[[list[str]], None]
# A wait shorter than this (seconds: a local file's, a quick database's) is charged
# to the clock as the network's lag is; a longer one restarts the clock once told.
RESTART_AFTER = 0.25


class TableWrites:
    """The writes waited for, by table: write(), and drained() for tests and shutdown."""

    def __init__(self, restart_clock: Callable[[Table], None]) -> None:
        self._restart_clock = restart_clock
        self._pending: dict[Table, asyncio.Task[None]] = {}
        self._since: dict[Table, float] = {}  # when its news began to wait (loop time)

    def write(self, table: Table, call: Call, done: Done) -> None:
        """Await `call` (a write for `table`: the problems it met) after the table's
        earlier ones; then done(problems). The table's news waits."""
        if table.withheld is None:
            table.withheld = []
            self._since[table] = asyncio.get_running_loop().time()
        earlier = self._pending.get(table)
        self._pending[table] = asyncio.create_task(self._run(table, call, done, earlier))

    async def _run(
        self, table: Table, call: Call, done: Done, earlier: asyncio.Task[None] | None
    ) -> None:
        if earlier is not None:
            await asyncio.wait({earlier})
        try:
            try:
                problems = await call()
            except StorageError as error:
                problems = [str(error)]
            done(problems)
        finally:
            if self._pending.get(table) is asyncio.current_task():
                del self._pending[table]
                self._tell(table)

    def _tell(self, table: Table) -> None:
        """The table's writes are done: tell what waited for them."""
        said, table.withheld = table.withheld or [], None
        waited = asyncio.get_running_loop().time() - self._since.pop(table, 0.0)
        for data in said:
            table.broadcast(data)
        if said and waited >= RESTART_AFTER:
            self._restart_clock(table)

    async def settled(self, table: Table) -> None:
        """Wait until `table`'s writes are done and what they held back is told."""
        while (pending := self._pending.get(table)) is not None:
            await asyncio.wait({pending})

    async def drained(self) -> None:
        """Wait until every write asked for is done."""
        while self._pending:
            await asyncio.wait(set(self._pending.values()))
