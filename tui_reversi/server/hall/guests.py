"""A guest is nobody else: a client without a key plays under a name the
server draws, `guest-` and 64 random bits (16 hex digits), kept in the store
so that no later guest is ever given it; people read it short, `guest-7f3a9c`.
Whatever a guest leaves (an adjourned game, a folder) is that name's, so
never a later guest's; a guest's folder goes when the guest leaves with
nothing adjourned, since nobody can ever log in under the name again.
"""

from __future__ import annotations

import re
import secrets
import shutil
from pathlib import Path

from ...net.remote import GUEST_PREFIX
from ..config import player_directory_name

GUEST_BITS = 64
_GUEST = re.compile(rf"{GUEST_PREFIX}[0-9a-f]{{{GUEST_BITS // 4}}}")


def new_guest_name() -> str:
    """A guest's name: `guest-` and GUEST_BITS random bits, in hex."""
    return f"{GUEST_PREFIX}{secrets.token_hex(GUEST_BITS // 8)}"


def remove_folder(players_dir: Path, name: str) -> bool:
    """Remove a guest's folder (its saved games, autosave, settings); True if it went."""
    folder = players_dir / player_directory_name(name)
    if not _GUEST.fullmatch(name) or folder.is_symlink() or not folder.is_dir():
        return False
    shutil.rmtree(folder, ignore_errors=True)
    return not folder.exists()
