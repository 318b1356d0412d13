"""One session's wait in the pairing queue (`ssh -t host play`, pairing.py): the
line that counts the wait each second, the computer offered after ALONE_AFTER,
and the keys that leave the queue (esc, q, ctrl+c, ctrl+d) or take the
computer instead (c). The session says what follows (a table, a game, goodbye,
or, for a playban the queue found, why the wait is over)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

from ..config import format_duration
from .pairing import PairingQueue, Seeker, nearest_level

# After this long alone in the queue, a player is offered a game against the computer.
ALONE_AFTER = 60.0
# The keys that leave the queue.
LEAVE_KEYS = ("\x1b", "q", "\x03", "\x04")
# Back to the start of the waiting line, and clear it.
CLEAR_LINE = b"\r\x1b[K"


def offer_lines(level: str) -> tuple[str, str]:
    """The computer's offer to a player alone in the queue, in lines that fit 60 columns."""
    return (
        "Nobody yet: c plays the computer instead,",
        f"{level}, the level nearest your rating; or wait on.",
    )


class QueueWait:
    """`seeker`'s wait in `queue`: start(), key(data) for what the player types,
    stop() if the connection goes."""

    def __init__(
        self,
        queue: PairingQueue,
        seeker: Seeker,
        *,
        say: Callable[[str], None],
        send: Callable[[bytes], None],
        seated: Callable[[str, str], None],
        computer: Callable[[str], None],
        left: Callable[[], None],
        barred: Callable[[str], None],
    ) -> None:
        self.queue = queue
        self.seeker = seeker
        self._say, self._send = say, send
        self._seated, self._computer, self._left = seated, computer, left
        self._barred = barred
        self.level_offered: str | None = None  # the computer level offered, once
        self.waiting = False
        self._timer: asyncio.TimerHandle | None = None

    def start(self) -> None:
        """Join the queue and show the wait (until seated, which may be at once)."""
        self.waiting = True
        self.queue.join(self.seeker, self._paired, self.out)
        self._show()

    def stop(self) -> None:
        """Out of the queue, nothing said (the connection has gone)."""
        self.waiting = False
        self.queue.leave(self.seeker)
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def key(self, data: bytes) -> None:
        """What the player typed while waiting: c (once offered) or a key that leaves."""
        keys = data.decode("latin-1").lower()
        if self.level_offered is not None and "c" in keys:
            self.stop()
            self._send(CLEAR_LINE)
            self._computer(self.level_offered)
        elif any(key in keys for key in LEAVE_KEYS):
            self.stop()
            self._send(CLEAR_LINE)
            self._left()

    def _paired(self, secret: str, code: str) -> None:
        self.stop()
        self._send(CLEAR_LINE)
        self._seated(secret, code)

    def out(self, why: str) -> None:
        """Taken out of the queue (a playban the queue found, a ban): `why` is the one
        sentence said."""
        self.stop()
        self._send(CLEAR_LINE)
        self._barred(why)

    def _show(self) -> None:
        if not self.waiting:
            return
        waited = time.monotonic() - self.seeker.since
        try:
            if waited >= ALONE_AFTER and self.level_offered is None:
                self.level_offered = nearest_level(self.seeker.rating)
                self._send(CLEAR_LINE)
                # Two lines that each fit 60 columns: the terminal's own wrap
                # cut the one sentence at 80, a line starting "; or wait on."
                for line in offer_lines(self.level_offered):
                    self._say(line)
            counted = f"Waiting {format_duration(waited)}; esc leaves the queue."
            self._send(CLEAR_LINE + counted.encode())
        except BrokenPipeError:  # the channel closes as the connection goes: stop() follows
            return
        self._timer = asyncio.get_running_loop().call_later(1.0, self._show)
