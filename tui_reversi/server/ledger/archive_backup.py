"""`serve --backup FILE`: a copy of a running single server's archive (archive.py),
made with SQLite's online backup API while the server plays on.

The copy is one read transaction of the archive (`Connection.backup` with every
page in one step), so it is the archive as it was at one instant: a game's end,
its ratings and its row in `unfinished` are all in it or none. The archive is in
WAL mode: the server's writes go on meanwhile, to its log. The copy is written
beside FILE and renamed onto it once whole, so FILE is never half a backup.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
from dataclasses import dataclass
from pathlib import Path

from ...core.errors import reason
from ..config import ServeError

# What a backup holds, counted for the operator's line: (label, query).
_COUNTED = (
    ("finished games", "SELECT count(*) FROM games"),
    ("games not over", "SELECT count(*) FROM unfinished"),
    ("ratings", "SELECT count(*) FROM ratings"),
    ("keys", "SELECT count(*) FROM account_keys"),
)


@dataclass(frozen=True)
class Backup:
    """A backup written: where, its size in bytes, and what it holds."""

    path: Path
    size: int
    counts: tuple[int, ...]

    def __str__(self) -> str:
        held = ", ".join(
            f"{n} {label}" for n, (label, _) in zip(self.counts, _COUNTED, strict=True)
        )
        return f"backed up to {self.path} ({self.size:,} bytes: {held})"


def back_up(archive: Path, target: Path) -> Backup:
    """Copy the SQLite archive at `archive` to `target` (replacing it if there),
    consistent and without stopping its server; ServeError (one sentence) if the
    archive is missing or unreadable or `target` cannot be written."""
    if not archive.is_file():
        raise ServeError(
            f"--backup: there is no archive at {archive} (is --data-dir the server's?)"
        )
    if target.is_dir():
        raise ServeError(f"--backup: {target} is a directory; name the file to write")
    if not target.parent.is_dir():
        raise ServeError(
            f"--backup: there is no directory {target.parent} to write {target.name} in"
        )
    partial = target.with_name(f".{target.name}.partial")
    try:
        _copy(archive, partial)
        counts = _counted(partial)
        os.replace(partial, target)
    except sqlite3.Error as error:
        raise ServeError(f"--backup: {archive} cannot be copied: {error}") from None
    except OSError as error:
        raise ServeError(f"--backup: cannot write {target}: {reason(error)}") from None
    finally:
        with contextlib.suppress(FileNotFoundError):
            partial.unlink()
    return Backup(target, target.stat().st_size, counts)


def _copy(archive: Path, partial: Path) -> None:
    """Every page of the archive into `partial` (mode 0600: the archive holds keys)."""
    with contextlib.suppress(FileNotFoundError):
        partial.unlink()
    os.close(os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
    # (Not read-only: a reader of a WAL archive must be able to open its index.)
    source = sqlite3.connect(archive)
    try:
        copy = sqlite3.connect(partial)
        try:
            source.backup(copy)  # (pages=-1: all of them under one read transaction)
            # The copy stands alone: no log beside it for a restore to forget.
            copy.execute("PRAGMA journal_mode=DELETE")
        finally:
            copy.close()
    finally:
        source.close()


def _counted(path: Path) -> tuple[int, ...]:
    """What the backup holds; sqlite3.Error if it is not an archive."""
    db = sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True)
    try:
        return tuple(db.execute(query).fetchone()[0] for _, query in _COUNTED)
    finally:
        db.close()
