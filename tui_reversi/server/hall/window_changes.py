"""The player's window size, given to their game (ssh_session.py): at once while
the budget of window changes allows (session_edge.py's `Requests`), else the
latest size once it does. Only the latest size matters, so a flood of changes
costs almost nothing: those that come while one waits replace it.
"""

from __future__ import annotations

import asyncio

from .session_edge import Requests
from .session_phases import Playing
from .session_terminal import PlayerTerminal, Size


class WindowChanges:
    """`changed` with each size the client sends; `stop` when the session ends."""

    def __init__(self, requests: Requests, terminal: PlayerTerminal, playing: Playing) -> None:
        self._requests = requests
        self._terminal = terminal
        self._playing = playing
        self._waiting: asyncio.TimerHandle | None = None  # a change waiting on the budget

    def changed(self, size: Size) -> None:
        """The player's window is `size` now."""
        self._terminal.size = size
        self._apply()

    def stop(self) -> None:
        """No change waits any more."""
        if self._waiting is not None:
            self._waiting.cancel()
            self._waiting = None

    def _apply(self) -> None:
        """The latest size to the game, now if the budget allows, else when it does."""
        process = self._playing.process
        if process is None or self._waiting is not None:
            return
        if self._requests.window_change():
            process.resize(*self._terminal.size)
            return
        wait = self._requests.window_change_wait()
        loop = asyncio.get_running_loop()
        self._waiting = loop.call_later(wait, self._waited)

    def _waited(self) -> None:
        self._waiting = None
        self._apply()
