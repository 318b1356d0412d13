"""What a game session is doing, one phase at a time: ssh_session.py's
`GameSession` holds the current one and gives it the player's keys and the
news that the connection went. A phase ends by the session moving on.

    (command read) --> playing (keys kept for the game until it runs) --> ended
          |                 ^                                   ^
          +--> asking ------+  (take over, separate game) ------+ (leave, no answer)
          +--> queued ------+  (paired, or the computer) -------+ (left the queue)
          +--> ended (lines printed, or refused)
"""

from __future__ import annotations

from collections.abc import Callable

from .pty_process import INPUT_HIGH_WATER, PtyProcess
from .queue_wait import QueueWait
from .session_edge import Allowance
from .take_over_question import TakeOverQuestion

# What a phase that waits on the player does when the connection goes (given why).
Gone = Callable[[Exception | None], None]


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

    def stop(self) -> None:
        self._wait.stop()

    def lost(self, exc: Exception | None) -> None:
        self.stop()
        self._gone(exc)
