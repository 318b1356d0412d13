"""How much input a game is given: what a person can type, click and paste,
never a flood. What goes past the allowance is dropped, not queued, so a
paste of megabytes costs the game (and the server) nothing."""

from __future__ import annotations

import time
from collections.abc import Callable

# A burst a game takes at once (a long paste into the chat, a flurry of mouse
# reports), and how fast the allowance fills again after it.
INPUT_BURST = 16 * 1024
INPUT_RATE = 2 * 1024  # bytes a second

_PASTE_START = b"\x1b[200~"
_PASTE_END = b"\x1b[201~"


class InputAllowance:
    """A token bucket over the bytes a client sends its game. Input comes in
    chunks (a key press, a packet of a paste); a chunk that does not fit in
    what is left is dropped whole, so no key's escape sequence is cut, and a
    bracketed paste that was let begin is always let end."""

    def __init__(self, now: Callable[[], float] = time.monotonic) -> None:
        self._now = now
        self._left = float(INPUT_BURST)
        self._since = now()
        self._in_paste = False
        self.dropped = 0  # bytes dropped so far
        self.burst = INPUT_BURST  # (what a player is told it takes at once)

    def admit(self, data: bytes) -> bytes:
        """What of `data` the game gets: all of it, or nothing (or a paste's end)."""
        now = self._now()
        self._left = min(INPUT_BURST, self._left + (now - self._since) * INPUT_RATE)
        self._since = now
        if len(data) <= self._left:
            self._left -= len(data)
            self._follow_paste(data)
            return data
        self.dropped += len(data)
        if self._in_paste and _PASTE_END in data:
            self._in_paste = False
            return _PASTE_END
        return b""

    def _follow_paste(self, data: bytes) -> None:
        start, end = data.rfind(_PASTE_START), data.rfind(_PASTE_END)
        if start > end:
            self._in_paste = True
        elif end > start:
            self._in_paste = False
