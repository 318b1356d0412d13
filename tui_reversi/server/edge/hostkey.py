"""The server's host key: ed25519, created once with mode 0600, then reused.

Players' SSH clients remember the key on first connect, so it must survive
restarts; a key others can read is refused the way OpenSSH refuses one.
"""

from __future__ import annotations

import contextlib
import os
import stat
from pathlib import Path

import asyncssh

from ...core.errors import reason
from ..config import ServeError


def load_or_create_host_key(path: Path) -> tuple[asyncssh.SSHKey, bool]:
    """The key at `path`, creating it first if there is none; and whether it was created."""
    if not path.exists():
        _create(path)
        created = True
    else:
        created = False
    try:
        mode = stat.S_IMODE(path.stat().st_mode)
    except OSError as error:
        raise ServeError(f"cannot read the host key {path}: {reason(error)}") from None
    if mode & 0o077:
        raise ServeError(
            f"the host key {path} is readable by others (mode {mode:04o}); run: chmod 600 {path}"
        )
    try:
        key = asyncssh.read_private_key(path)
    except (OSError, ValueError, asyncssh.KeyImportError) as error:
        raise ServeError(f"cannot use the host key {path}: {reason(error)}") from None
    return key, created


def _create(path: Path) -> None:
    """Write a new ed25519 key atomically: a partial key never sits at `path`."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    except OSError as error:
        raise ServeError(f"cannot create {path.parent}: {reason(error)}") from None
    key = asyncssh.generate_private_key("ssh-ed25519", comment="tui-reversi serve")
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "wb") as file:
            file.write(key.export_private_key())
            file.flush()
            os.fsync(file.fileno())
        # link() refuses to replace a key another server wrote meanwhile.
        os.link(temporary, path)
    except FileExistsError:
        pass
    except OSError as error:
        raise ServeError(f"cannot write the host key {path}: {reason(error)}") from None
    finally:
        with contextlib.suppress(OSError):
            temporary.unlink()
