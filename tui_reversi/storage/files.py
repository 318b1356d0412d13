"""Reading and writing the player's files without ever losing one.

- `write_atomic` writes a temporary file beside the target, flushes and
  fsyncs it, renames it over the target and fsyncs the directory: a crash at
  any moment leaves either the old file or the new one, never a mixture.
- `read_limited` reads a regular file up to a size limit: a FIFO, a device, a
  directory or a huge file is refused with a sentence instead of hanging or
  filling memory.
- `move_aside` renames a bad file to a timestamped name that no other file
  has, so nothing is overwritten or deleted.
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from datetime import UTC, datetime
from pathlib import Path

from ..core.errors import reason
from .errors import StorageError

DIR_MODE = 0o700  # the player's games are nobody else's business


def ensure_dir(directory: Path) -> None:
    """Create `directory` (and its parents) if needed, private to the user."""
    directory.mkdir(parents=True, exist_ok=True, mode=DIR_MODE)


def write_atomic(path: Path, data: bytes) -> None:
    """Replace `path` with `data` so that a crash leaves the old or the new
    content, whole. The file is private to the user (mode 0600).

    Raises StorageError with the OS's reason ('no space left on device').
    """
    try:
        ensure_dir(path.parent)
        fd, temp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    except (FileExistsError, NotADirectoryError):
        blocker = next((p for p in path.parents if p.exists() and not p.is_dir()), path.parent)
        raise StorageError(f"could not write {path}: {blocker} is not a directory") from None
    except OSError as error:
        raise StorageError(f"could not write {path}: {reason(error)}") from None
    try:
        with os.fdopen(fd, "wb") as file:
            file.write(data)
            file.flush()
            os.fsync(file.fileno())
        os.replace(temp, path)
    except BaseException as error:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        if isinstance(error, OSError):
            raise StorageError(f"could not write {path}: {reason(error)}") from None
        raise
    _fsync_dir(path.parent)


def _fsync_dir(directory: Path) -> None:
    """Make the rename itself durable. Some systems cannot open a directory;
    the rename is still atomic there, only its durability is up to the OS."""
    try:
        fd = os.open(directory, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def read_limited(path: Path, limit: int, source: str | None = None) -> bytes:
    """The bytes of the regular file at `path` (symlinks followed), at most
    `limit` of them. Raises FileNotFoundError if there is no such file, and
    StorageError for anything else that stops it being read, a sentence that
    starts with `source` (default: the path)."""
    source = source or str(path)
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(path, flags)
    except FileNotFoundError:
        raise
    except OSError as error:
        raise StorageError(f"{source} cannot be opened: {reason(error)}") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise StorageError(f"{source} is not a regular file")
        if info.st_size > limit:
            raise StorageError(f"{source} is too large ({_size(info.st_size)})")
        chunks = []
        size = 0
        while size <= limit:
            chunk = os.read(fd, min(1 << 16, limit + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        if size > limit:  # grew while we read it
            raise StorageError(f"{source} is too large (over {_size(limit)})")
        return b"".join(chunks)
    except OSError as error:
        raise StorageError(f"{source} cannot be read: {reason(error)}") from None
    finally:
        os.close(fd)


def _size(count: int) -> str:
    if count < 1 << 20:
        return f"{count / 1024:.0f} KiB"
    return f"{count / (1 << 20):.1f} MiB"


def timestamp(moment: datetime | None = None) -> str:
    """A compact UTC time for file names: 20250102T120304Z."""
    return (moment or datetime.now(UTC)).astimezone(UTC).strftime("%Y%m%dT%H%M%SZ")


def move_aside(path: Path, label: str) -> Path:
    """Rename `path` to `<name>.<label>-<UTC time>` in the same directory,
    adding -2, -3... if that name is taken, and return the new path. Never
    replaces another file. Raises StorageError if the rename fails."""
    stem = f"{path.name}.{label}-{timestamp()}"
    for attempt in range(1, 1000):
        target = path.with_name(stem if attempt == 1 else f"{stem}-{attempt}")
        try:
            _rename_no_replace(path, target)
        except FileExistsError:
            continue
        except OSError as error:
            raise StorageError(f"could not move {path} aside: {reason(error)}") from None
        return target
    raise StorageError(f"could not move {path} aside: too many files named {stem}")


def _rename_no_replace(source: Path, target: Path) -> None:
    # A hard link fails if the target exists, where a rename would replace it.
    try:
        os.link(source, target, follow_symlinks=False)
    except FileExistsError:
        raise
    except (OSError, NotImplementedError):
        # No hard links here (some network and FAT file systems): check, then rename.
        if os.path.lexists(target):
            raise FileExistsError(target) from None
        os.rename(source, target)
        return
    os.unlink(source)
