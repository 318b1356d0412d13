"""The question to a player whose game is open in another session (live_game.py):
take it over here, play a separate game beside it, or leave it as it is; the keys
that answer it, and the wait after which it goes unanswered.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

from ..config import format_duration
from .sessions import HallSession
from .take_over_elsewhere import GameElsewhere

# How long the question about a game open elsewhere waits for an answer.
ANSWER_WAIT = 60.0

# Asked when the player's game is already open in another session; keys -> answers.
ELSEWHERE_KEYS = {"t": "take over", "n": "separate", "q": "leave", "\x03": "leave", "\x04": "leave"}


class TakeOverQuestion:
    """The question about `other`: asked on start(), answered by key(data), and
    `unanswered` called with the wait if no key answers it in ANSWER_WAIT."""

    def __init__(
        self,
        other: HallSession | GameElsewhere,
        *,
        say: Callable[[str], None],
        unanswered: Callable[[float], None],
    ) -> None:
        self.other = other
        self._say = say
        self._unanswered = unanswered
        self._timer: asyncio.TimerHandle | None = None

    def start(self) -> None:
        """Tell the player their game is open elsewhere and ask what to do."""
        other = self.other
        since = format_duration(time.monotonic() - other.started)
        where = f"from {other.address}, for {since}"
        if isinstance(other, GameElsewhere):
            where = other.address
        self._say(f"tui-reversi: your game is open in another session ({where}).")
        self._say("  t  take it over here: that session is told and ended, its game saved first")
        self._say("  n  play a separate game here; the other one carries on")
        self._say("  q  leave it as it is")
        wait = ANSWER_WAIT
        self._timer = asyncio.get_running_loop().call_later(wait, self._unanswered, wait)

    def key(self, data: bytes) -> str | None:
        """The answer the first answering key in `data` gives ('take over',
        'separate', 'leave'), the question then over; None if no key answers it."""
        for key in data.decode("latin-1").lower():
            answer = ELSEWHERE_KEYS.get(key)
            if answer is not None:
                self.stop()
                return answer
        return None

    def stop(self) -> None:
        """No answer is waited for any more (answered, or the connection went)."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
