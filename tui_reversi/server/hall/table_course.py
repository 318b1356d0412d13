"""How each table's game goes on or stops: a player gone (left, dropped and
their seat held a while, or their game crashed), adjourned and resumed, ended;
kept in the store after every change (table_store.py).

A game that goes away says why by how it goes: `leave` first (the player
quit: a game with a move played is theirs to lose, else it ends), or its
session told the tables its player's connection dropped (the seat is held,
then forfeited or adjourned, as the server is set), or neither: it crashed
or was killed, and the game is adjourned at once, clocks stopped, with
everyone at the table told in one sentence. A guest has no key to come back
with: a guest's seat is never held (a guest who drops has left), and a game
with a guest at it is never adjourned: it ends, unrated, there and then.

A player banned from the server (`banned`) is no drop: their seat is not held,
and a game with a move played is lost by them at once, as lichess ends a
closed account's games (a forfeit, rated as any).
"""

from __future__ import annotations

import asyncio
import functools
import math
from collections.abc import Awaitable, Callable
from typing import Protocol, TypeVar

from ...core import Color, Ending
from ...net.remote import is_guest
from ...net.server_line import line
from ...storage import StorageError
from ..config import format_duration
from ..ledger.ratings import Rating
from ..ledger.store import PlayedGame, Store
from ..ledger.table_phase import Phase
from ..tally import GAMES_ENDED, TALLY
from .conduct import PlayerNotes
from .table import Seat, Table
from .table_clocks import TableClocks
from .table_store import played, rated_lines, rating_changes, unfinished
from .table_writes import Call, Done, TableWrites

Argument = TypeVar("Argument")


class GameWatch(Protocol):
    """What watches every game's end beside its course (conduct.py's `Playbans`,
    boost_watch.py's `BoostWatch`), given to the tables by their start."""

    def ended(self, table: Table, end: Ending, notes: PlayerNotes) -> None:
        """`table`'s game ended as `end` says (told before its clocks stop); what the
        watch says to a player goes through `notes` (the last word their game shows)."""

    def rated(
        self,
        table: Table,
        before: dict[str, Rating],
        after: dict[str, Rating],
        notes: PlayerNotes,
    ) -> None:
        """`table`'s game was kept and rated, its players' ratings moved from `before`
        to `after`; what the watch says to a player goes through `notes`."""

    async def close(self) -> None:
        """Let what it does in the background finish (the tables close)."""


class GameCourse:
    """The course of every table's game: gone(), adjourn(), resume(), back(),
    end() and save(); `tables` is the server's, to forget a table nobody plays at."""

    def __init__(
        self,
        tables: dict[str, Table],
        clocks: TableClocks,
        store: Store,
        log: Callable[[str], None],
        *,
        watches: tuple[GameWatch, ...] = (),
        hold: float,
        adjourn: bool,
    ) -> None:
        self._tables = tables
        self._clocks = clocks
        self._log = log
        self.hold = hold  # seconds a dropped player's seat waits (0: the game ends)
        self._adjourn = adjourn  # a dropped player's time out adjourns (else: forfeits)
        self.store = store
        # Tables whose last change could not be written (the store failing): written
        # when it is back (store_back), so no move is lost to a database gone a while.
        self.unsaved: set[str] = set()
        # Games that ended while the store could not be reached: kept when it is back.
        self.unkept: list[tuple[Table, PlayedGame]] = []
        # Tables whose game the store keeps as this node's, as far as this node knows:
        # a fleet's node back from being cut off asks who keeps them now (fleet_port.py).
        self.written: set[str] = set()
        self.store_down: Callable[[], bool] = lambda: False  # (set by a fleet's tables)
        self.writes = TableWrites(clocks.restart)
        # Told the players' names whenever a game of theirs is kept (the lobby's records).
        self.kept_names: Callable[[tuple[str, str]], None] = lambda _names: None
        # Sentences to one player, once the table's writes are out (the last word they see).
        self.notes = PlayerNotes(self.writes.settled)
        # What watches every game's end (the playbans, the boosting watch).
        self.watches = watches

    def gone(self, seat: Seat, *, leaving: bool = False, crashed: bool = False) -> None:
        """A seat's game has gone. A player who left loses a game with a move
        played (else it ends with no result); a dropped one's seat is held for
        them a while, unless they are a guest, who cannot come back: a guest
        who drops has left; a crashed game adjourns it at once; the other is
        told whichever it was."""
        table, color = seat.table, seat.color
        assert color is not None
        if color in table.held or color in table.links:
            return  # held already, or back already
        if table.rematch is not None:  # an offer nobody can answer now
            table.rematch = None
            table.broadcast(line("news", f"{table.shown(color)} left: no rematch."))
        name = table.shown(color)
        guest = is_guest(table.name(color))
        if table.phase is Phase.ADJOURNED:  # it waits for both, whoever comes and goes...
            away = not any(is_guest(table.name(linked)) for linked in table.links)
            if table.has_guest and away:  # (...but never for a guest who went: see adjourn)
                self.not_kept(table, f"{name} left")
            self._clear_away(table)
            return
        if table.phase is Phase.OPEN:
            table.end(Ending("left", None, "The table closed before anyone joined."))
        elif table.phase is not Phase.ENDED:
            if crashed:
                # Never the player's doing: no hold to run out, no clock to lose on.
                self._log(f"table {table.code}: {name}'s game went without a word")
                until = f"the game is adjourned until {name} is back."
                self.adjourn(table, f"{name}'s game stopped unexpectedly", until)
            elif (leaving or guest) and table.game.moves:
                why = "left the table" if leaving else "went, and a guest cannot come back"
                self._lost(table, color, f"{name} {why}")
            elif leaving or guest or self.hold <= 0:
                how = f"{name} left the table: the game ends here."
                self.end(table, Ending("left", None, how))
            else:
                table.hold(color, asyncio.get_running_loop().time() + self.hold)
                self._log(f"table {table.code}: {table.name(color)} dropped; seat held")
                self._tick(table, color)
        self._clear_away(table)

    def _clear_away(self, table: Table) -> None:
        """Forget a table nobody plays at any more (spectators keep what they saw)."""
        gone = not table.links and not table.phase.waits
        if gone and self._tables.get(table.code) is table:
            del self._tables[table.code]
            self._log(f"table {table.code} closed")

    def _tick(self, table: Table, color: Color) -> None:
        """Tell the table how long the dropped player's seat still waits; at
        zero, the game is theirs to lose."""
        deadline = table.held.get(color)
        if deadline is None or table.phase is Phase.ENDED:
            return
        loop = asyncio.get_running_loop()
        left = deadline - loop.time()
        name = table.shown(color)
        if left <= 0 and not table.game.moves:
            # Nothing was played: nothing to win, lose or keep.
            self.end(table, Ending("left", None, f"{name} did not come back: no move was played."))
            self._clear_away(table)
            return
        if left <= 0 and self._adjourn and not table.has_guest:
            until = f"the game is adjourned. Either of you resumes it with  join {table.code}"
            self.adjourn(table, f"{name} did not come back in time", until)
            return
        if left <= 0:
            table.release(color)
            self._lost(table, color, f"{name} did not come back in time")
            self._clear_away(table)
            return
        wait = format_duration(math.ceil(left))
        table.broadcast(line("news", f"{name} dropped out: their seat is held for {wait}."))
        table.timers[color] = loop.call_later(min(1.0, left), self._tick, table, color)

    def _lost(self, table: Table, color: Color, why: str) -> None:
        """`color`'s player is gone for good from a game with a move played (`why`:
        'bob left the table'): a forfeit, rated and kept, to the other if they are
        still there; if nobody stayed, the game waits for both, unless a guest is
        at it (never kept for later): the other wins anyway, unrated."""
        other = table.shown(color.other)
        if color.other not in table.links and not table.has_guest:
            until = f"the game is adjourned. Either of you resumes it with  join {table.code}"
            self.adjourn(table, why, until)
            return
        how = f"{why}: {other} ({color.other.label}) wins."
        self.end(table, Ending("left", color.other, how))

    def banned(self, table: Table, color: Color) -> None:
        """`color`'s player is banned from the server: a game with a move played is
        theirs to lose at once, whoever else is at the table (rated, kept); one with
        none ends with no result. Everyone at the table is told in one sentence."""
        if table.phase is Phase.ENDED or color not in table.names:
            return
        table.rematch = None
        name = table.shown(color)
        self._log(f"table {table.code}: {table.name(color)} is banned")
        # (A ban is not how either played: no outcome, sandbag or boost is counted.)
        if table.phase is Phase.OPEN or not table.game.moves:
            how = f"{name} is banned from this server: the game ends here, with no result."
            self.end(table, Ending("banned", None, how), watched=False)
        else:
            winner = color.other
            how = f"{name} is banned from this server: {table.shown(winner)} ({winner.label}) wins."
            self.end(table, Ending("banned", winner, how), watched=False)
        self._clear_away(table)

    def adjourn(self, table: Table, why: str, until: str) -> None:
        """Nobody loses: the game waits, clocks stopped, for both to sit down
        again; it is kept, and everyone at the table is told `why` ('bob's game
        stopped unexpectedly') and `until` ('the game is adjourned until bob is
        back.'). A game with a guest is never kept for later (a guest has no key
        to come back with): it ends here, with no result."""
        if table.has_guest:
            self.not_kept(table, why)
            return
        how = f"{why}: {until}"
        self._stop_waiting(table)
        table.takeback = None
        table.move_to(Phase.ADJOURNED)
        self._log(f"table {table.code}: adjourned ({how})")
        if table.time_control is not None:
            table.broadcast(table.clock_line(self._clocks.now()))
        table.broadcast(line("adjourned", how))
        self.save(table)

    def not_kept(self, table: Table, why: str) -> None:
        """`table`'s game, which has a guest at it, would be adjourned `why` ('bob's
        game stopped unexpectedly'): it ends here instead, with no result (unrated
        whatever happens), and everyone at the table is told so in one sentence."""
        how = f"{why}: a game with a guest is not kept for later, so it ends here."
        self.end(table, Ending("left", None, how))

    def resume(self, table: Table) -> None:
        """An adjourned game's players are both back: it goes on."""
        if table.phase is Phase.ADJOURNED and len(table.links) == 2:
            table.move_to(Phase.PLAYING)
            self._log(f"table {table.code}: resumed")
            table.broadcast(line("resumed", "You are both back: the game goes on."))
            self._clocks.run(table)
            self.save(table)

    def back(self, table: Table, color: Color) -> None:
        """A held seat's player has come back."""
        if table.release(color) is None:
            return
        timer = table.timers.pop(color, None)
        if timer is not None:
            timer.cancel()
        self._log(f"table {table.code}: {table.name(color)} is back")
        table.broadcast(line("news", f"{table.shown(color)} is back."))

    def _stop_waiting(self, table: Table) -> None:
        """Stop the running clock and let go of every held seat."""
        self._clocks.stop(table)
        for timer in table.timers.values():
            timer.cancel()
        table.timers.clear()
        table.held.clear()

    def end(self, table: Table, end: Ending, *, watched: bool = True) -> None:
        """The game is over, told and recorded: `end` says how; `watched`: told to
        the watches (the playbans, the boosting watch) as how its players played."""
        for watch in self.watches if watched else ():  # (before the clocks stop: conduct.py)
            watch.ended(table, end, self.notes)
        unjoined = table.phase is Phase.OPEN  # (nobody sat down against its host: no game)
        self._stop_waiting(table)
        table.end(end)  # (an adjourned game can end too: it waits no more)
        TALLY.count(GAMES_ENDED, end.reason)
        self._log(f"table {table.code}: {end.text}")
        if table.time_control is not None:
            table.broadcast(table.clock_line(self._clocks.now()))
        table.broadcast(table.over_line())
        if unjoined:
            return
        store, code = self.store, table.code
        if not table.game.moves:  # a game with no move is no result: neither rated nor kept
            self._write(
                table, functools.partial(_problems, store.forget_table, code), self._forgot(code)
            )
            return
        game = played(table, end)
        if self.store_down():
            self._log(f"table {table.code}: its game is archived when the store is back")
            self.unkept.append((table, game))
            return
        self._keep(table, game, watched=watched)

    def _keep(self, table: Table, game: PlayedGame, *, watched: bool = True) -> None:
        """Archive the ended game and rate it; the table is told how the ratings moved
        (and, `watched`, the watches: rated())."""
        store = self.store
        moved: list[str] = []
        rated: dict[str, str] = {}  # each player's rating after it, as shown

        async def keep() -> list[str]:
            # The game is kept even when the ratings cannot be read: only the line goes.
            try:
                before = await store.ratings(game.names)
            except StorageError:
                return await store.keep(game)
            problems = await store.keep(game)
            if not problems:
                after = await store.ratings(game.names)
                moved.append(rating_changes(before, after))
                if moved[0] and watched:  # (rated)
                    for watch in self.watches:
                        watch.rated(table, before, after, self.notes)
                rated.update((name, after[name].shown) for name in after)
            return problems

        def kept(problems: list[str]) -> None:
            self._forgot(table.code)(problems)
            self.kept_names(game.names)
            if moved and moved[0]:  # a rated game: the panels show the new ratings
                for rated_line in rated_lines(rated):
                    table.broadcast(rated_line)
                table.broadcast(line("rerated", moved[0]))

        self._write(table, functools.partial(_problems_of, keep), kept)

    def save(self, table: Table) -> None:
        """Keep the game as it is now, to outlive the server (both seats taken)."""
        store = self.store
        if not (table.phase.in_play or table.phase is Phase.ADJOURNED):
            return
        kept = unfinished(table)
        self._write(
            table,
            functools.partial(_problems, store.save_table, kept),
            lambda met: self._saved(table, met),
        )

    def _write(self, table: Table, call: Call, done: Done) -> None:
        """A write for `table`, after its earlier ones (table_writes.py)."""
        self.writes.write(table, call, done)

    def _said(self, problems: list[str]) -> None:
        for problem in problems:
            self._log(problem)

    def _forgot(self, code: str) -> Done:
        """What is done once table `code`'s game is kept as ended, or forgotten."""

        def done(problems: list[str]) -> None:
            self._said(problems)
            if not problems:
                self.written.discard(code)

        return done

    def _saved(self, table: Table, problems: list[str]) -> None:
        if not problems:
            self.unsaved.discard(table.code)
            self.written.add(table.code)
            return
        if table.code not in self.unsaved:  # (said once, not at every move)
            self._log(f"{problems[0]}; table {table.code} is written when the store is back")
        self.unsaved.add(table.code)

    def kept_here(self) -> list[str]:
        """The codes of the games the store keeps as this node's, as far as it knows."""
        return sorted(self.written)

    def let_go(self, table: Table) -> None:
        """`table`'s game is another node's now (taken over): nothing more of it is
        written from here."""
        self.unsaved.discard(table.code)
        self.written.discard(table.code)
        self.unkept = [(kept, game) for kept, game in self.unkept if kept is not table]
        self._stop_waiting(table)

    def store_back(self) -> None:
        """The store can be reached again: write every table it missed."""
        for code in sorted(self.unsaved):
            table = self._tables.get(code)
            if table is None or table.phase is Phase.ENDED:
                self.unsaved.discard(code)
            else:
                self.save(table)
        unkept, self.unkept = self.unkept, []
        for table, game in unkept:
            self._keep(table, game)


async def _problems(write: Callable[[Argument], Awaitable[None]], argument: Argument) -> list[str]:
    """write(argument)'s problems: none, or the sentence of its StorageError."""
    try:
        await write(argument)
    except StorageError as error:
        return [str(error)]
    return []


async def _problems_of(write: Callable[[], Awaitable[list[str]]]) -> list[str]:
    """write()'s problems, with the sentence of a StorageError it raised among them."""
    try:
        return await write()
    except StorageError as error:
        return [str(error)]
