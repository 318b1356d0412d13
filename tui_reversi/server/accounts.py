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
(the archive's SQLite here), behind the same kind of interface as the tables'.
"""

from __future__ import annotations

import hmac
import re
import secrets
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

import asyncssh

from ..core.errors import reason
from .config import ServeError

GUEST_PREFIX = "guest-"
# A name a person may claim: letters, digits, '.', '_', '-'; never a guest's.
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,31}")
NAME_RULE = (
    "a name here is 1 to 32 letters, digits, '.', '_' or '-', starting with a letter or digit"
)

# How long a code to add a key lasts (wrong tries count against the key: guessing.py).
CODE_LIFETIME = 600.0
_CODE_LETTERS = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
# What is echoed back of a code or a fingerprint a client typed.
ECHO_LIMIT = 60


def is_guest(name: str) -> bool:
    """True for the names the server gives clients without a key."""
    return name.startswith(GUEST_PREFIX)


def name_refusal(name: str) -> str | None:
    """Why `name` cannot be a person's name here (one sentence), or None if it can."""
    if is_guest(name):
        return f"names starting with {GUEST_PREFIX} are the server's to give to guests."
    if not _NAME.fullmatch(name):
        return f"{NAME_RULE}."
    return None


def key_text(key: asyncssh.SSHKey) -> str:
    """A public key as the store keeps it: 'ssh-ed25519 AAAA...', no comment."""
    kind, data, *_ = key.export_public_key("openssh").decode("ascii").split()
    return f"{kind} {data}"


def fingerprint(text: str) -> str:
    """'SHA256:...' for a key as the store keeps it."""
    return asyncssh.import_public_key(text).get_fingerprint()


@dataclass(frozen=True, slots=True)
class AccountKey:
    """One key of a name's: the key, and when it was bound (UTC, ISO 8601)."""

    key: str
    added: str


class AccountStore(Protocol):
    """Which keys are which name's: the interface a shared store (PostgreSQL)
    would implement for a fleet of servers. Methods raise StorageError (one
    sentence) when the store fails."""

    def key_owner(self, key: str) -> str | None:
        """The name `key` is bound to, if any."""

    def keys_of(self, name: str) -> list[AccountKey]:
        """`name`'s keys, oldest first (none: the name is free)."""

    def claim(self, name: str, key: str) -> bool:
        """Bind `key` to `name` if `name` has no key and `key` no name; True if bound now."""

    def add_key(self, name: str, key: str) -> bool:
        """Bind `key` to `name` too, if `key` has no name yet; True if bound now."""

    def remove_key(self, name: str, key: str) -> bool:
        """Unbind `key` from `name`; True if it was bound to it."""


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


@dataclass
class _Code:
    code: str
    expires: float


class KeyCodeStore(Protocol):
    """Where the one-time codes to add a key wait (a fleet's are in its database, so
    a code shown on one node is redeemed on any). Methods may raise StorageError."""

    def issue(self, name: str) -> str:
        """A new code for `name`, replacing any it had."""

    def pending(self, name: str) -> bool:
        """True while `name` has a code that a new key may redeem."""

    def redeem(self, name: str, code: str) -> bool:
        """True (and the code is spent) if `code` is `name`'s; a wrong one changes nothing."""


def new_code() -> str:
    """A one-time code to add a key: 'ABCD-EF23', easy to read out and type."""
    raw = "".join(secrets.choice(_CODE_LETTERS) for _ in range(8))
    return f"{raw[:4]}-{raw[4:]}"


def same_code(typed: str, code: str) -> bool:
    """Whether `typed` is `code` (case and spaces aside), in constant time."""
    return hmac.compare_digest(typed.strip().upper().encode(), code.encode())


class KeyCodes:
    """One-time codes to add a key to a name, in this process (a `KeyCodeStore`):
    `issue` in a session logged in as the name, `redeem` from the new key within
    CODE_LIFETIME."""

    def __init__(self) -> None:
        self._codes: dict[str, _Code] = {}

    def issue(self, name: str) -> str:
        code = new_code()
        self._codes[name] = _Code(code, time.monotonic() + CODE_LIFETIME)
        return code

    def pending(self, name: str) -> bool:
        """True while `name` has a code that a new key may redeem."""
        held = self._codes.get(name)
        if held is not None and time.monotonic() > held.expires:
            del self._codes[name]
            held = None
        return held is not None

    def redeem(self, name: str, code: str) -> bool:
        """True (and the code is spent) if `code` is `name`'s; a wrong one changes nothing."""
        if not self.pending(name) or not same_code(code, self._codes[name].code):
            return False
        del self._codes[name]
        return True
