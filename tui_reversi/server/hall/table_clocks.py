"""The clocks of the tables of `tui-reversi serve`: the server's are the ones
that count. With a time control, the side to move's clock runs from the
moment the server told both games of the last move; the mover gains the
increment; a flag falls at zero and the game is lost. A clock starts only
once both players' games have shown the board (each says `begun`), so
nobody loses the seconds a game takes to start.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from ...core import Ending
from ..ledger.table_phase import Phase
from .table import Seat, Table

# The clocks wait for both games to say their board is up (`begun`), but no longer
# than this after a game sat down: one that never says so cannot stop them for good.
BEGIN_GRACE = 10.0


class TableClocks:
    """Every table's clocks: run() after a move, stop() before the next, a
    flag watched for all the while; `end` ends a game whose flag fell."""

    def __init__(self, now: Callable[[], float], end: Callable[[Table, Ending], None]) -> None:
        self.now = now  # the clocks' time: injectable, so a test can make a flag fall
        self._end = end
        # The games sat down that have not said `begun` yet: when the clocks stop waiting.
        self._beginning: dict[Seat, asyncio.TimerHandle] = {}

    def check_flag(self, table: Table) -> bool:
        """If the side to move has run out of time, the game ends: True."""
        if table.since is None or table.phase is Phase.ENDED:
            return False
        color = table.game.position.to_move
        if table.time_left(color, self.now()) > 0:
            return False
        other = color.other
        how = f"{table.shown(color)}'s time ran out: {table.shown(other)} ({other.label}) wins."
        self._end(table, Ending("flag", other, how))
        return True

    def run(self, table: Table) -> None:
        """Start the side to move's clock, tell both games, and watch for its flag;
        not before both games have begun (see `begun`)."""
        if table.time_control is None or table.phase is Phase.ENDED or len(table.begun) < 2:
            return
        table.since = self.now()
        table.broadcast(table.clock_line(table.since))
        left = table.time_left(table.game.position.to_move, table.since)
        loop = asyncio.get_running_loop()
        table.flag_timer = loop.call_later(left + 0.05, self._flag_due, table)

    def restart(self, table: Table) -> None:
        """The running clock starts again from now: the time a move waited to be
        written before it was told is nobody's (table_writes.py)."""
        if table.since is None or table.phase is Phase.ENDED:
            return
        if table.flag_timer is not None:
            table.flag_timer.cancel()
            table.flag_timer = None
        self.run(table)

    def _flag_due(self, table: Table) -> None:
        table.flag_timer = None
        if (
            not self.check_flag(table)
            and table.since is not None
            and table.phase is not Phase.ENDED
        ):
            left = table.time_left(table.game.position.to_move, self.now())
            loop = asyncio.get_running_loop()
            table.flag_timer = loop.call_later(max(0.05, left), self._flag_due, table)

    def stop(self, table: Table, *, add_increment: bool = False) -> None:
        """Stop the running clock (charging the mover), adding the increment after a move."""
        if table.flag_timer is not None:
            table.flag_timer.cancel()
            table.flag_timer = None
        if table.time_control is None or table.since is None:
            return
        color = table.game.position.to_move
        table.remaining[color] = table.time_left(color, self.now())
        if add_increment:
            table.remaining[color] += table.time_control.increment
        table.since = None

    def sat_down(self, seat: Seat) -> None:
        """A game has sat down at `seat`: its board is not up yet, so a clock that
        is to start waits for it (BEGIN_GRACE at most)."""
        if seat.color is None:
            return
        seat.table.begun.discard(seat.color)
        loop = asyncio.get_running_loop()
        self._beginning[seat] = loop.call_later(BEGIN_GRACE, self.begun, seat)

    def begun(self, seat: Seat) -> None:
        """The seat's game shows the board (or took too long to say so): once both
        have, the clock of the side to move starts."""
        self.let_go(seat)
        table, color = seat.table, seat.color
        if color is None or color in table.begun:
            return
        table.begun.add(color)
        if table.since is None and table.phase.in_play:
            self.run(table)

    def let_go(self, seat: Seat) -> None:
        """The seat's game has gone (or begun): no more waiting for it."""
        waiting = self._beginning.pop(seat, None)
        if waiting is not None:
            waiting.cancel()
