"""What a game session is doing, one phase at a time: ssh_session.py's
`GameSession` holds the current one and gives it the player's keys and the
news that the connection went. A phase ends by the session moving on.

    (command read) --> playing (keys kept for the game until it runs) --> ended
          |                 ^                                   ^
          +--> asking ------+  (take over, separate game) ------+ (leave, no answer)
          +--> queued ------+  (paired, or the computer) -------+ (left the queue)
          +--> in a tournament <--> playing (each of its games) --+ (left it, or it ended)
          +--> ended (lines printed, or refused)

The player's own game goes to a tournament and back likewise, from the app's lobby.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass

from .pty_process import INPUT_HIGH_WATER, PtyProcess
from .queue_wait import QueueWait
from .session_edge import Allowance
from .take_over_question import TakeOverQuestion
from .tournament_wait import TournamentWait
from .tournaments import TournamentDirector

# What a phase that waits on the player does when the connection goes (given why).
Gone = Callable[[Exception | None], None]
# How the session ends in one sentence when a wait is over: why (for the log), what
# the player reads, and the exit status.
Goodbye = Callable[[str, str, int], None]


class Phase:
    """A session's phase: it takes the player's keys, and stops when the session
    moves on or the connection goes."""

    name = "ended"

    def key(self, data: bytes) -> None:
        """The player typed `data`."""

    def stop(self) -> None:
        """The session moves on: nothing is waited for any more."""

    def lost(self, exc: Exception | None) -> None:
        """The player's connection went (`exc`: why, if it broke)."""
        self.stop()


# After a command has printed its lines, or was refused: keys go nowhere.
ENDED = Phase()


class Playing(Phase):
    """The session's games: keys go to the game running (`process`), kept until
    the first one runs, within the input allowance."""

    name = "playing"

    def __init__(
        self,
        allowance: Allowance,
        *,
        dropped: Callable[[], None],
        full: Callable[[], None],
        gone: Gone,
    ) -> None:
        self._allowance = allowance
        self._dropped, self._full, self._gone = dropped, full, gone
        self._told_dropped = False
        self._pending = bytearray()
        self.process: PtyProcess | None = None  # the game running, or the last one

    def key(self, data: bytes) -> None:
        data = self._allowance.admit(data)
        if self._allowance.dropped and not self._told_dropped:
            self._told_dropped = True  # (once a session)
            self._dropped()
        if not data:
            return
        if self.process is None:
            self._pending += data
            return
        self.process.write(data)
        if self.process.input_buffered > INPUT_HIGH_WATER:
            self._full()

    def take_pending(self) -> bytes:
        """The keys typed before the first game ran, given once."""
        pending = bytes(self._pending)
        self._pending.clear()
        return pending

    def lost(self, exc: Exception | None) -> None:
        if self.process is not None and self.process.running:
            self._gone(exc)


class Asking(Phase):
    """The player's game is open in another session: the question waits for a
    key that answers it (`answered` is given the answer)."""

    name = "asking"

    def __init__(
        self, question: TakeOverQuestion, *, answered: Callable[[str], None], gone: Gone
    ) -> None:
        self.question = question
        self._answered, self._gone = answered, gone

    def key(self, data: bytes) -> None:
        answer = self.question.key(data)
        if answer is not None:
            self._answered(answer)

    def stop(self) -> None:
        self.question.stop()

    def lost(self, exc: Exception | None) -> None:
        self.stop()
        self._gone(exc)


class Queued(Phase):
    """`play`: the player waits in the pairing queue; their keys go to the wait
    (to leave it, or to take the offer of a game against the computer)."""

    name = "queued"

    def __init__(self, wait: QueueWait, *, gone: Gone) -> None:
        self._wait, self._gone = wait, gone

    def key(self, data: bytes) -> None:
        self._wait.key(data)

    def out(self, why: str) -> None:
        """Out of the queue for `why` (a ban), said in one sentence."""
        self._wait.out(why)

    def stop(self) -> None:
        self._wait.stop()

    def lost(self, exc: Exception | None) -> None:
        self.stop()
        self._gone(exc)


@dataclass(frozen=True, slots=True)
class Seated:
    """The tournament's director found the player's next game: their seat's
    `secret`, at table `code`."""

    secret: str
    code: str


@dataclass(frozen=True, slots=True)
class Left:
    """The player's time in the tournament is over: `said` tells them why (they
    left, or it ended); None when the session stops (the connection went, or
    the server ends it)."""

    said: str | None


class InTournament(Phase):
    """`tournament join ID` (or the app's lobby): the player waits in a tournament
    between its games (tournament_wait.py), their keys going to the wait (b
    berserks, esc leaves it); `next()` gives what happens, a seat or the end.
    During a game the session is playing, and comes back to this phase after it."""

    name = "in a tournament"

    def __init__(
        self,
        director: TournamentDirector,
        tournament_id: int,
        player: str,
        rating: float,
        *,
        say: Callable[[str], None],
        send: Callable[[bytes], None],
        hang_up: Callable[[], bool],
        gone: Gone,
    ) -> None:
        self._happened: asyncio.Queue[Seated | Left] = asyncio.Queue()
        self._hang_up, self._gone = hang_up, gone
        # The director told the game over, and its board was hung up (not a crash).
        self.hurried = False
        self.wait = TournamentWait(
            director,
            tournament_id,
            player,
            rating,
            say=say,
            send=send,
            seated=lambda secret, code: self._happened.put_nowait(Seated(secret, code)),
            over=self._game_over,
            left=lambda said: self._happened.put_nowait(Left(said)),
        )

    async def next(self) -> Seated | Left:
        """What happens next: a seat for the player's next game, or their leaving."""
        return await self._happened.get()

    def key(self, data: bytes) -> None:
        if self.wait.waiting:  # (seated meanwhile: the game's, once it runs)
            self.wait.key(data)

    def stop(self) -> None:
        self.wait.stop()
        self._happened.put_nowait(Left(None))

    def lost(self, exc: Exception | None) -> None:
        self.stop()
        self._gone(exc)

    def _game_over(self) -> None:
        """The tournament's game is over: its board goes, for the wait and the next."""
        self.hurried = self._hang_up() or self.hurried
