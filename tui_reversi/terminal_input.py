"""Bytes from the terminal that are not UTF-8 (a 0xff, binary data pasted in)
are dropped instead of killing the app.

Textual's Linux driver decodes input with a strict UTF-8 decoder: one
invalid byte raises UnicodeDecodeError in its input thread, and the app is
left deaf or ends (Textualize/textual#6456, open upstream). Until a Textual
release decodes leniently, its driver gets a decoder that turns invalid
bytes into U+FFFD and then drops them, so they never become keys or paste.
"""

from __future__ import annotations

import codecs
from collections.abc import Callable
from importlib.metadata import version

# The newest Textual known to need this. A newer one is left alone: the pty
# test (tests/app/test_terminal_input.py) then says whether it still needs it.
STRICT_UP_TO = (8, 2, 8)

REPLACEMENT = "\ufffd"


def textual_version() -> tuple[int, ...]:
    parts = []
    for part in version("textual").split(".")[:3]:
        digits = "".join(ch for ch in part if ch.isdigit())
        parts.append(int(digits or 0))
    return tuple(parts)


class _LenientDecoder:
    """UTF-8, with invalid bytes decoded to U+FFFD and dropped."""

    def __init__(self, errors: str = "replace") -> None:
        self._utf8 = codecs.getincrementaldecoder("utf-8")(errors="replace")

    def decode(self, data: bytes, final: bool = False) -> str:
        return self._utf8.decode(data, final).replace(REPLACEMENT, "")

    def reset(self) -> None:
        self._utf8.reset()


def _incremental_decoder(encoding: str) -> Callable[[], object]:
    if codecs.lookup(encoding).name == "utf-8":
        return _LenientDecoder
    return codecs.getincrementaldecoder(encoding)


def tolerate_invalid_utf8() -> bool:
    """Give Textual's Linux driver the lenient decoder, on the Textual versions
    that need it. True if it was installed."""
    if textual_version() > STRICT_UP_TO:
        return False
    try:
        from textual.drivers import linux_driver
    except ImportError:  # Windows: another driver, another decoder
        return False
    # The driver looks the name up in its module each time its input thread starts.
    setattr(linux_driver, "getincrementaldecoder", _incremental_decoder)  # noqa: B010
    return True
