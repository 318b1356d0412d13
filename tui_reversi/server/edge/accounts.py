"""Names bound to SSH keys: who may play under which name.

A name belongs to the keys that claimed it. Under the open default (`--auth
none`) a client that offers a public key claims a free name with it on first
use and keeps it; a client without a key plays as a guest under a name the
server gives (`guest-7f3a`), unrated. Under `--auth keys` the authorized-keys
file gives each key its name: the key's comment, up to any `@`
(`ssh-ed25519 AAAA... alice@laptop` is alice's). Under `--auth password`
the password lets people in, but a name claimed by a key needs that key.

One key is one name's; a name may have several keys: from a session logged
in as the name, `keys add` shows a one-time code that a new key redeems
(`ssh alice@host keys add CODE`). The bindings live in an `AccountStore`
(ledger/account_keys.py; the archive's SQLite here), behind the same kind of
interface as the tables'. What a name may be is names.py's (ledger/names.py:
`name_refusal`, asked of a new name at login and of a rename alike).
"""

from __future__ import annotations

from pathlib import Path

import asyncssh

from ...core.errors import reason
from ..config import ServeError

# What is echoed back of a code or a fingerprint a client typed.
ECHO_LIMIT = 60


def key_text(key: asyncssh.SSHKey) -> str:
    """A public key as the store keeps it: 'ssh-ed25519 AAAA...', no comment."""
    kind, data, *_ = key.export_public_key("openssh").decode("ascii").split()
    return f"{kind} {data}"


def fingerprint(text: str) -> str:
    """'SHA256:...' for a key as the store keeps it."""
    return asyncssh.import_public_key(text).get_fingerprint()


def named_keys(path: Path) -> tuple[asyncssh.SSHAuthorizedKeys, dict[str, str]]:
    """The authorized-keys file, and the name each key in it is given (its comment
    up to any '@'; keys without a comment have none). ServeError if unreadable."""
    try:
        text = path.read_text(encoding="utf-8")
        authorized = asyncssh.import_authorized_keys(text)
    except OSError as error:
        raise ServeError(f"cannot read {path}: {reason(error)}") from None
    except (ValueError, UnicodeDecodeError) as error:
        raise ServeError(f"cannot use {path}: {error}") from None
    names: dict[str, str] = {}
    for line in text.splitlines():
        words = line.split()
        if not words or words[0].startswith("#"):
            continue
        for start in range(len(words)):  # the key starts after its options, if any
            try:
                key = asyncssh.import_public_key(" ".join(words[start:]))
            except (asyncssh.KeyImportError, ValueError):
                continue
            name = (key.get_comment() or "").partition("@")[0]
            if name:
                names.setdefault(key_text(key), name)
            break
    return authorized, names
