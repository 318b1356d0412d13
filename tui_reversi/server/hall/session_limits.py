"""The limits an operator puts on a session's games (`serve --idle-timeout`,
`--session-limit`): past either, the session's game is hung up and its player
told why, in one sentence that says how to come back."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

from ..config import ServeConfig, format_duration

AGAIN = "connect again to carry on."


class SessionLimits:
    """The idle timeout and the session's time limit: each ends the session
    through `end(reason for the log, message for the player)`."""

    def __init__(self, config: ServeConfig, end: Callable[[str, str], None]) -> None:
        self._idle = config.idle_timeout  # (0: no such limit)
        self._limit = config.session_limit
        self._end = end
        self._last_input = time.monotonic()
        self._idle_timer: asyncio.TimerHandle | None = None
        self._limit_timer: asyncio.TimerHandle | None = None

    def input(self) -> None:
        """The player sent something: the idle time starts again."""
        self._last_input = time.monotonic()

    def start(self) -> None:
        """Run from the session's first game on; its next games (from the lobby)
        go on under the same ones."""
        if self._idle_timer is not None or self._limit_timer is not None:
            return
        loop = asyncio.get_running_loop()
        if self._idle > 0:
            self._idle_timer = loop.call_later(self._idle, self._check_idle)
        if self._limit > 0:
            limit = format_duration(self._limit)
            message = f"this server ends sessions after {limit}; {AGAIN}"
            reason = f"session time limit ({limit})"
            self._limit_timer = loop.call_later(self._limit, self._end, reason, message)

    def stop(self) -> None:
        for timer in (self._idle_timer, self._limit_timer):
            if timer is not None:
                timer.cancel()
        self._idle_timer = self._limit_timer = None

    def _check_idle(self) -> None:
        quiet = time.monotonic() - self._last_input
        if quiet >= self._idle:
            idle = format_duration(self._idle)
            self._end(f"idle for {idle}", f"closed after {idle} without a key press; {AGAIN}")
        else:
            loop = asyncio.get_running_loop()
            self._idle_timer = loop.call_later(self._idle - quiet, self._check_idle)
