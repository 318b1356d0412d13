"""The errors storage raises. Each message is one sentence for a person."""

from __future__ import annotations

from ..core import ReversiError


class StorageError(ReversiError):
    """A file or text that cannot be read, written or understood: a damaged
    saved game, a full disk, an unknown format. The CLI prints the message and
    exits with status 2; the app shows it."""


class FutureFormatError(StorageError):
    """A record written by a newer tui-reversi, in a format this one does not know."""


class NameTakenError(StorageError):
    """Saving under a name that is taken: another saved game's, or an
    existing file's for an export. Ask, then save again with replace=True."""
