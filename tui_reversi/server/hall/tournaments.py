"""The tournament director: each node runs one, and together they run every
tournament in the store (ledger/tournaments.py) by its rules (ledger/arena.py,
ledger/swiss.py), fleet-wide, as quick pairing does (pairing.py).

Each TICK a director reads the tournaments not finished and, for each:
- makes the next arena of each of the operator's schedules (arena_schedule.py);
- starts it when its time comes, and ends an arena when its time is up (or a
  Swiss after its last round), naming the winner;
- an arena: pairs the players waiting (their session is in the tournament's wait,
  tournament_wait.py) by the standings, seating the pairs whose higher player's
  session is on this node; a Swiss: once every game of the round is over and its
  players are back (or ROUND_GAP has passed), one node pairs the next round;
- keeps the results of the games at its tables, once they end;
- hands each of its sessions the seat found for it (on any node), and tells
  those whose game has ended.
A pair is claimed in the store, both players or neither, before a table is
opened: of two nodes pairing one player at once, one seats them.

Nobody with a playban or a ban is paired (pairing_bars.py, read from the store
at each look, so made on any node): in an arena they are left out of the
pairings while it lasts (their session told once, and waiting on); in a Swiss
they are withdrawn, without a bye (their entry paused, their session told and
out of it). A ban ends the banned player's session besides (moderation_watch.py).
"""

from __future__ import annotations

import asyncio
import contextlib
import time
import traceback
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Protocol

from ...core import Color, Variant
from ...net.terms import TableRefused, TimeControl
from ...storage import StorageError
from ..ledger.arena import arena_pairs
from ..ledger.store import Store
from ..ledger.swiss import pair_round
from ..ledger.table_phase import Phase
from ..ledger.table_view import TableView
from ..ledger.tournament_standings import Standing, free_in_order, standings, swiss_players
from ..ledger.tournaments import (
    ARENA,
    BLACK_WON,
    BYE,
    COMING,
    DRAWN,
    FINISHED,
    NO_RESULT,
    OVER,
    PAUSED,
    PLAYING,
    RUNNING,
    WAITING,
    WHITE_WON,
    Entry,
    Tournament,
    TournamentGame,
)
from .arena_schedule import ArenaSchedule
from .pairing_bars import Bars, read_bars
from .table import Table
from .tables import Tables
from .tournament_pages import over_text, title

# How often the director looks at the tournaments again.
TICK = 1.0
# After a Swiss round's last game, how long the next waits for players not back yet.
ROUND_GAP = 10.0


class Present(Protocol):
    """A session waiting in a tournament (tournament_wait.py's `TournamentWait`)."""

    def seated(self, secret: str, code: str) -> None:
        """A seat at a table for the player's next game."""

    def game_over(self) -> None:
        """The player's game has ended: back to the wait."""

    def finished(self, said: str) -> bool:
        """The tournament is over (`said`: who won): True if the session has left it;
        False if its player is still at their last game (told when it ends)."""

    def kept_out(self, said: str | None) -> None:
        """An arena leaves the player out of its pairings for now (`said`: why, in one
        sentence; told once), or no longer (None)."""

    def withdrawn(self, said: str) -> None:
        """A Swiss has withdrawn the player (`said`: why, in one sentence): out of it,
        after the game they are at, if any."""


@dataclass
class Seen:
    """A tournament as the director last read it (the waits show it between looks)."""

    tournament: Tournament
    entries: list[Entry] = field(default_factory=list)
    games: list[TournamentGame] = field(default_factory=list)
    lines: list[Standing] = field(default_factory=list)


class TournamentDirector:
    """This node's part in running the tournaments: start(), arrive()/depart()
    for the sessions, seen() for what they show, close()."""

    def __init__(
        self,
        store: Store,
        tables: Tables,
        log: Callable[[str], None],
        now: Callable[[], float] = time.time,
        schedules: Sequence[ArenaSchedule] = (),
    ) -> None:
        self.store = store
        self.tables = tables
        self.schedules = tuple(schedules)
        self._scheduled: dict[str, float] = {}  # a schedule's text -> its next arena's start
        self._log = log
        self.now = now
        self._present: dict[tuple[int, str], Present] = {}
        self._tables: dict[int, tuple[int, Table]] = {}  # game id -> (tournament, its table here)
        self._seen: dict[int, Seen] = {}
        self._round_over: dict[int, float] = {}  # a Swiss's round all over, since
        self._running: asyncio.Task[None] | None = None

    def start(self) -> None:
        """Look at the tournaments every TICK, until close()."""
        self._running = asyncio.create_task(self._direct_while_up())

    async def close(self) -> None:
        if self._running is not None:
            self._running.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._running

    @property
    def node(self) -> str:
        return self.store.node

    def seen(self, tournament_id: int) -> Seen | None:
        """The tournament as last read (None before the first look)."""
        return self._seen.get(tournament_id)

    def arrive(self, tournament_id: int, name: str, present: Present) -> None:
        """`name`'s session waits in the tournament here (the store is told by it)."""
        self._present[(tournament_id, name)] = present

    def depart(self, tournament_id: int, name: str, present: Present) -> None:
        """`present` is no longer there (another session of the name may be since)."""
        if self._present.get((tournament_id, name)) is present:
            del self._present[(tournament_id, name)]

    def present(self, tournament_id: int, name: str) -> Present | None:
        """The session of `name` waiting in (or playing) the tournament here, if any."""
        return self._present.get((tournament_id, name))

    async def look(self) -> None:
        """Look at every tournament not finished now (a TICK's work; tests call it)."""
        for schedule in self.schedules:
            coming = schedule.next_arena(self.now())
            if self._scheduled.get(schedule.text) != coming.starts:
                if await self.store.schedule_tournament(coming):
                    self._log(f"tournaments: an arena of the schedule {schedule.text!r} is made")
                self._scheduled[schedule.text] = coming.starts
        for tournament in await self.store.tournaments():
            if tournament.state != FINISHED or tournament.id in self._seen:
                await self._direct(tournament)

    async def _direct_while_up(self) -> None:
        while True:
            try:
                await self.look()
            except StorageError as error:
                self._log(f"tournaments: the store cannot be read or written: {error}")
            except Exception:  # a bug: told whole, and the tournaments go on at the next look
                for line in traceback.format_exc().splitlines():
                    self._log(f"tournaments: bug: {line}")
            await asyncio.sleep(TICK)

    async def _direct(self, tournament: Tournament) -> None:
        store = self.store
        now = self.now()
        if tournament.state == COMING and now >= tournament.starts:
            await store.advance(tournament.id, RUNNING, 0, (COMING, 0))
            tournament = await store.tournament(tournament.id) or tournament
            self._log(f"tournament {tournament.id} ({tournament.kind}) starts")
        await self._keep_results(tournament, now)
        seen = Seen(tournament, await store.entries(tournament.id))
        seen.games = await store.tournament_games(tournament.id)
        seen.lines = standings(tournament, seen.entries, seen.games)
        self._seen[tournament.id] = seen
        if tournament.state == RUNNING:
            bars = await self._hold_back(seen)
            if tournament.kind == ARENA:
                await self._run_arena(seen, now, bars)
            else:
                await self._run_swiss(seen, now, bars)
        await self._hand_over(seen)
        if seen.tournament.state == FINISHED:
            self._announce(seen)
            # (a player still at their last game is handed its end by the next looks)
            if not any(key[0] == tournament.id for key in self._present):
                del self._seen[tournament.id]

    # -- arenas -------------------------------------------------------------------------

    async def _run_arena(self, seen: Seen, now: float, bars: Bars) -> None:
        tournament = seen.tournament
        if tournament.ends is not None and now >= tournament.ends:
            await self._finish(seen)
            return
        here = {entry.name for entry in seen.entries if entry.node == self.node}
        free = free_in_order(seen.lines, seen.entries, seen.games)
        free = [player for player in free if not bars.keep_out(player.name)]
        for one, other in arena_pairs(free):
            if one.name in here:  # (the others are other nodes' to seat)
                await self._seat(seen, one.name, other.name, 0)

    # -- Swiss --------------------------------------------------------------------------

    async def _run_swiss(self, seen: Seen, now: float, bars: Bars) -> None:
        tournament, store = seen.tournament, self.store
        if any(game.result is None for game in seen.games):
            self._round_over.pop(tournament.id, None)
            return
        if tournament.round >= tournament.rounds:
            await self._finish(seen)
            return
        since = self._round_over.setdefault(tournament.id, now)
        present = [
            entry
            for entry in seen.entries
            if entry.state != PAUSED and not bars.keep_out(entry.name)
        ]
        waiting = [entry for entry in present if entry.state == WAITING]
        if len(waiting) < 2 or (len(waiting) < len(present) and now - since < ROUND_GAP):
            return
        number = tournament.round + 1
        if not await store.advance(tournament.id, RUNNING, number, (RUNNING, tournament.round)):
            return  # (another node pairs it)
        names = {entry.name for entry in waiting}
        players = [
            player for player in swiss_players(seen.entries, seen.games) if player.name in names
        ]
        try:
            pairing = pair_round(players)
        except ValueError as error:
            self._log(f"tournament {tournament.id}: round {number} cannot be paired: {error}")
            await self._finish(seen)
            return
        self._log(f"tournament {tournament.id}: round {number} of {tournament.rounds} paired")
        if pairing.bye is not None:
            bye = TournamentGame(0, number, pairing.bye, "", "", self.node, (False, False), BYE, 0)
            await store.start_game(tournament.id, bye, {}, now)
            await store.set_entry(tournament.id, pairing.bye, OVER)
        for black, white in pairing.boards:
            await self._seat(seen, black, white, number, black_first=True)

    # -- both ---------------------------------------------------------------------------

    async def _hold_back(self, seen: Seen) -> Bars:
        """The playbans and bans of the tournament's players, read from the store: in a
        Swiss, each of them waiting is withdrawn (paused: no bye); this node's sessions
        are told, one sentence each (a ban's own sentence ends the session besides)."""
        tournament = seen.tournament
        # (a session here whose entry another node has withdrawn is still to be told)
        here = {name for held, name in self._present if held == tournament.id}
        names = [e.name for e in seen.entries if e.state != PAUSED or e.name in here]
        now = time.time()  # (bans are kept on the wall clock, whatever the director's is)
        bars = await read_bars(self.store, names, now)
        swiss = tournament.kind != ARENA
        for number, entry in enumerate(seen.entries):
            barred = bars.keep_out(entry.name)
            if swiss and barred and entry.state in (WAITING, OVER):
                await self.store.set_entry(tournament.id, entry.name, PAUSED, was=entry.state)
                seen.entries[number] = replace(entry, state=PAUSED)
                self._log(f"tournament {tournament.id}: {entry.name} withdrawn (banned)")
            present = self._present.get((tournament.id, entry.name))
            ban = bars.playbans.get(entry.name)
            if present is None or (barred and ban is None):
                continue  # (banned from the server: the session ends, and says why)
            why = ban.sentence(now) if ban is not None else None
            if swiss and why is not None:
                present.withdrawn(f"you are withdrawn from {title(tournament)}, no bye: {why}")
            elif not swiss:
                present.kept_out(
                    None if why is None else f"{title(tournament)} pairs you no more for now: {why}"
                )
        return bars

    async def _seat(
        self, seen: Seen, one: str, other: str, number: int, *, black_first: bool = False
    ) -> None:
        """A table here for `one` and `other` (claimed first: both or neither), with
        `one` at Black if `black_first`, else by the standings (the higher Black
        unless they had Black last); each player's seat kept for their node."""
        store, tournament = self.store, seen.tournament
        if not await store.claim_pair(tournament.id, (one, other)):
            return
        colour = Color.BLACK if black_first or not _had_black_last(seen.games, one) else Color.WHITE
        clock = TimeControl.parse(tournament.clock) if tournament.clock else None
        try:
            table, one_secret = self.tables.open(one, Variant(tournament.variant), clock, colour)
            _, other_secret = self.tables.sit(table.code, other)
        except TableRefused as refusal:
            self._log(f"tournament {tournament.id}: {one} and {other} not seated: {refusal}")
            for name in (one, other):
                await store.set_entry(tournament.id, name, WAITING, was=PLAYING)
            return
        table.rated = tournament.rated
        berserk = {entry.name: entry.berserk for entry in seen.entries}
        black, white = table.names[Color.BLACK], table.names[Color.WHITE]
        for name, color in ((black, Color.BLACK), (white, Color.WHITE)):
            if berserk.get(name) and clock is not None:  # half their clock, for a point more
                table.remaining[color] = clock.base / 2
        game = TournamentGame(
            0,
            number,
            black,
            white,
            table.code,
            self.node,
            (berserk.get(black, False), berserk.get(white, False)),
            None,
            0,
        )
        seats = {one: f"{self.node} {one_secret}", other: f"{self.node} {other_secret}"}
        game_id = await store.start_game(tournament.id, game, seats, self.now())
        self._tables[game_id] = (tournament.id, table)
        self._log(f"tournament {tournament.id}: {black} and {white} at table {table.code}")

    async def _keep_results(self, tournament: Tournament, now: float) -> None:
        """The results of this node's tables of the tournament that have ended. An
        arena's game seen ended once its time is up is kept without a result: only the
        games over before the end count (as lichess's), so the winner told at the end
        stays first in the standings."""
        store = self.store
        late = tournament.kind == ARENA and tournament.ends is not None and now >= tournament.ends
        for game_id, (held, table) in list(self._tables.items()):
            if held != tournament.id or table.ended is None:
                continue
            del self._tables[game_id]
            moves = len(table.game.moves)
            result = NO_RESULT if late else _result(table)
            await store.end_game(tournament.id, game_id, result, moves, self.now())

    async def _hand_over(self, seen: Seen) -> None:
        """Hand this node's waiting sessions their seats; tell those whose game ended."""
        store = self.store
        tournament = seen.tournament
        for entry in seen.entries:
            present = self._present.get((tournament.id, entry.name))
            if present is None:
                continue
            if entry.seat is not None and entry.state == PLAYING:
                node, _, secret = entry.seat.partition(" ")
                game = next(
                    (g for g in reversed(seen.games) if entry.name in (g.black, g.white)), None
                )
                if game is None:
                    continue
                if node != self.node:  # a table on another node: a seat here, through it
                    view = TableView(
                        game.code,
                        Phase.PLAYING,
                        game.black,
                        game.white,
                        tournament.variant,
                        tournament.clock,
                        1,
                        node,
                    )
                    secret = self.tables.seat_from(node, secret, view, entry.name)
                await store.seat_taken(tournament.id, entry.name)
                present.seated(secret, game.code)
            elif entry.state == OVER:
                present.game_over()

    async def _finish(self, seen: Seen) -> None:
        store = self.store
        winner = seen.lines[0].name if seen.lines and seen.lines[0].games else None
        if await store.finish(seen.tournament.id, winner):
            self._log(f"tournament {seen.tournament.id} is over, won by {winner or 'nobody'}")
        finished = await store.tournament(seen.tournament.id)
        if finished is not None:
            seen.tournament = finished

    def _announce(self, seen: Seen) -> None:
        """The sessions here waiting in a finished tournament are told who won."""
        tournament = seen.tournament
        said = over_text(tournament)
        for key in [key for key in self._present if key[0] == tournament.id]:
            if self._present[key].finished(said):
                del self._present[key]


def _had_black_last(games: list[TournamentGame], name: str) -> bool:
    last = next((game for game in reversed(games) if name in (game.black, game.white)), None)
    return last is not None and last.black == name


def _result(table: Table) -> str:
    """A tournament game's result from its ended table."""
    end = table.ending
    if end is None or not table.game.moves:
        return NO_RESULT
    if end.winner is not None:
        return BLACK_WON if end.winner == Color.BLACK else WHITE_WON
    return DRAWN if end.reason == "normal" else NO_RESULT
