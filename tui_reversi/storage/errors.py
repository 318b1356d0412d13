"""The errors storage raises. Each message is one sentence for a person."""

from __future__ import annotations

from ..core import ReversiError

_SHOWN_CHARS = 60  # enough to recognise a file name or a value in a sentence


def shown(text: str, limit: int = _SHOWN_CHARS) -> str:
    """`text` from a player or a file as part of a one-line message: control
    and other unprintable characters escaped (a newline shows as \\n), and
    cut to about `limit` characters with an ellipsis in the middle."""
    if len(text) > limit:
        half = limit // 2
        text = f"{text[: half - 1]}…{text[-half:]}"
    if text.isprintable():
        return text
    return "".join(ch if ch.isprintable() else repr(ch)[1:-1] for ch in text)


class StorageError(ReversiError):
    """A file or text that cannot be read, written or understood: a damaged
    saved game, a full disk, an unknown format. The CLI prints the message and
    exits with status 2; the app shows it."""


class FutureFormatError(StorageError):
    """A record written by a newer tui-reversi, in a format this one does not know."""


class NameTakenError(StorageError):
    """Saving under a name that is taken: another saved game's, or an
    existing file's for an export. Ask, then save again with replace=True."""
