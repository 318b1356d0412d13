"""One session's place in a tournament (`ssh -t host tournament join ID`, or the
app's lobby), held by the session's phase in a tournament (session_phases.py): between
games it shows the standings and a line counting the time left, each second,
and takes the keys that pause (esc, q, ctrl+c, ctrl+d: leaving pauses; joining
again comes back) or berserk the next arena game (b). The director
(tournaments.py) hands it a seat for each game and says when that game is over;
the session plays it and comes back here. A playban leaves the player out of an
arena's pairings while it lasts (told once, the line says so) and withdraws
them from a Swiss (told, and out: tournaments.py)."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable, Coroutine
from typing import Any

from ...storage import StorageError
from ..config import format_duration
from ..ledger.store import Store
from ..ledger.tournaments import ARENA, BYE, COMING, FINISHED
from .queue_wait import CLEAR_LINE, LEAVE_KEYS
from .tournament_pages import over_text, standings_lines, title
from .tournaments import Seen, TournamentDirector

# After a game ends, how long its board stays before the player is back in the wait.
GAME_OVER_PAUSE = 3.0
# The standings' lines shown between games.
SHOWN_BETWEEN_GAMES = 10


class TournamentWait:
    """`name`'s place in tournament `tournament_id`: start() (raises StorageError),
    key(data) while waiting, back() after a game, stop() when the connection goes."""

    def __init__(
        self,
        director: TournamentDirector,
        tournament_id: int,
        name: str,
        rating: float,
        *,
        say: Callable[[str], None],
        send: Callable[[bytes], None],
        seated: Callable[[str, str], None],
        over: Callable[[], None],
        left: Callable[[str], None],
    ) -> None:
        self.director = director
        self._store: Store = director.store
        self.tournament_id = tournament_id
        self.name = name
        self.rating = rating
        self._say, self._send = say, send
        self._seated, self._over, self._left = seated, over, left
        self.waiting = False  # in the wait (not at a table)
        self.playing = False  # at a table of the tournament
        self.berserk = False
        self._told_over = False
        self._kept_out: str | None = None  # why an arena pairs the player no more, for now
        self._withdrawn: str | None = None  # why a Swiss has withdrawn the player
        self._timer: asyncio.TimerHandle | None = None
        self._tasks: set[asyncio.Task[None]] = set()

    async def start(self) -> None:
        """Enter (or come back to) the tournament and show the wait."""
        # Waiting before the store says so: a seat found at once (on PostgreSQL, while
        # this awaits) is taken, not dropped.
        self.waiting, self.playing, self._told_over = True, False, False
        self.director.arrive(self.tournament_id, self.name, self)
        try:
            await self._store.enter(
                self.tournament_id, self.name, self.rating, self.director.node, time.time()
            )
        except StorageError:
            self.waiting = False
            self.director.depart(self.tournament_id, self.name, self)
            raise
        seen = self.director.seen(self.tournament_id)
        # (the standings once they count this player: not before the director's next look)
        if seen is not None and any(line.name == self.name for line in seen.lines):
            for line in standings_lines(seen.tournament, seen.lines, SHOWN_BETWEEN_GAMES):
                self._say(line)
        self._show()

    async def back(self) -> None:
        """The player's game is over and gone: waiting again for their next pairing,
        or told who won if the tournament ended meanwhile."""
        self.berserk, self.playing = False, False
        if self._withdrawn is not None:  # (withdrawn during the game: out now)
            self.stop()
            self._left(self._withdrawn)
            return
        try:
            tournament = await self._store.tournament(self.tournament_id)
            if tournament is not None and tournament.state != FINISHED:
                await self.start()
                return
        except StorageError as error:
            self.director.depart(self.tournament_id, self.name, self)
            self._left(f"the tournament cannot be read: {error}")
            return
        self.director.depart(self.tournament_id, self.name, self)
        self._left(over_text(tournament) if tournament else "the tournament has gone.")

    def stop(self) -> None:
        """Out of the tournament, paused (the player left, or their connection went)."""
        self.waiting = False
        self.director.depart(self.tournament_id, self.name, self)
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        self._later(self._store.set_entry(self.tournament_id, self.name, "paused"))

    def key(self, data: bytes) -> None:
        """What the player typed while waiting: b berserks, a key that leaves pauses."""
        keys = data.decode("latin-1").lower()
        seen = self.director.seen(self.tournament_id)
        if "b" in keys and seen is not None and seen.tournament.kind == ARENA:
            self.berserk = not self.berserk
            self._later(self._store.want_berserk(self.tournament_id, self.name, self.berserk))
            self._show(again=False)
        elif any(key in keys for key in LEAVE_KEYS):
            self.stop()
            self._send(CLEAR_LINE)
            self._left("you left the tournament (paused); join it again to come back.")

    # -- from the director (tournaments.py's Present) --------------------------------------

    def seated(self, secret: str, code: str) -> None:
        if not self.waiting:
            return
        self.waiting, self.playing, self._told_over = False, True, False
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        self._send(CLEAR_LINE)
        self._seated(secret, code)

    def game_over(self) -> None:
        if self._told_over:
            return
        self._told_over = True
        if self.playing:  # (its board stays a moment, then the session comes back)
            asyncio.get_running_loop().call_later(GAME_OVER_PAUSE, self._over)
        else:  # a bye, or a game its player had quit: waiting again at once
            self._later(self.back())

    def finished(self, said: str) -> bool:
        self.waiting = False
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if self.playing or self._told_over:  # (back() tells them, after their game)
            return False
        self._send(CLEAR_LINE)
        self._left(said)
        return True

    def kept_out(self, said: str | None) -> None:
        if said is not None and self._kept_out is None and self.waiting:
            self._send(CLEAR_LINE)
            self._say(said)
        self._kept_out = said

    def withdrawn(self, said: str) -> None:
        self._withdrawn = said
        if self.waiting:
            self.stop()
            self._send(CLEAR_LINE)
            self._left(said)

    # -- the line that counts ---------------------------------------------------------------

    def _show(self, again: bool = True) -> None:
        if not self.waiting:
            return
        seen = self.director.seen(self.tournament_id)
        try:
            self._send(CLEAR_LINE + self._line(seen).encode())
        except BrokenPipeError:  # the channel closes as the connection goes: stop() follows
            return
        if again:
            self._timer = asyncio.get_running_loop().call_later(1.0, self._show)

    def _line(self, seen: Seen | None) -> str:
        if seen is None:
            return "Looking at the tournament..."
        tournament = seen.tournament
        now = time.time()
        mine = next((line for line in seen.lines if line.name == self.name), None)
        place = f"#{mine.rank}, {mine.score:g} points; " if mine is not None else ""
        keys = "b berserks (on), " if self.berserk else "b berserks, "
        keys = keys if tournament.kind == ARENA else ""
        if tournament.state == COMING:
            when = f"starts in {format_duration(max(0.0, tournament.starts - now))}"
        elif tournament.state == FINISHED:
            when = "over"
        elif tournament.ends is not None:
            when = f"{format_duration(max(0.0, tournament.ends - now))} left"
        else:
            when = f"round {max(tournament.round, 1)} of {tournament.rounds}"
            bye = any(
                game.round == tournament.round and game.result == BYE and game.black == self.name
                for game in seen.games
            )
            when += ", a bye for you (a point)" if bye else ""
        if self._kept_out is not None:  # (instead of berserk: the line fits 80 columns)
            keys = "not paired (a playban); "
        return f"{title(tournament)}: {when}; {place}{keys}esc leaves."

    def _later(self, work: Coroutine[Any, Any, None]) -> None:
        async def run() -> None:
            with contextlib.suppress(StorageError):
                await work

        task = asyncio.create_task(run())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
