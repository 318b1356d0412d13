"""Which keys are which name's, and the one-time codes that add a key to a name,
as the ledger keeps them: the records, the stores' interfaces (`AccountStore`,
`KeyCodeStore`) and the codes of one process (`KeyCodes`). The rules of who
may claim which name are the edge's (edge/accounts.py).

A guest's name is the server's to give (`guest-7f3a`, net/remote.py's
`is_guest`): the ledger tells them apart because games with a guest are not rated.
"""

from __future__ import annotations

import hmac
import secrets
import time
from dataclasses import dataclass
from typing import Protocol

# `ssh -i NEW-KEY alice+key@host keys add CODE`: a new key asking to be added to alice.
ADDING_SUFFIX = "+key"
# How long a code to add a key lasts (wrong tries count against the key: edge/guessing.py).
CODE_LIFETIME = 600.0
_CODE_LETTERS = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"


@dataclass(frozen=True, slots=True)
class AccountKey:
    """One key of a name's: the key, and when it was bound (UTC, ISO 8601)."""

    key: str
    added: str


class AccountStore(Protocol):
    """Which keys are which name's: the interface a shared store (PostgreSQL)
    would implement for a fleet of servers. Methods raise StorageError (one
    sentence) when the store fails."""

    async def key_owner(self, key: str) -> str | None:
        """The name `key` is bound to, if any."""

    async def keys_of(self, name: str) -> list[AccountKey]:
        """`name`'s keys, oldest first (none: the name is free)."""

    async def claim(self, name: str, key: str) -> bool:
        """Bind `key` to `name` if `name` has no key and `key` no name; True if bound now."""

    async def add_key(self, name: str, key: str) -> bool:
        """Bind `key` to `name` too, if `key` has no name yet; True if bound now."""

    async def remove_key(self, name: str, key: str) -> bool:
        """Unbind `key` from `name`; True if it was bound to it."""


@dataclass
class _Code:
    code: str
    expires: float


class KeyCodeStore(Protocol):
    """Where the one-time codes to add a key wait (a fleet's are in its database, so
    a code shown on one node is redeemed on any). Methods may raise StorageError."""

    async def issue(self, name: str) -> str:
        """A new code for `name`, replacing any it had."""

    async def pending(self, name: str) -> bool:
        """True while `name` has a code that a new key may redeem."""

    async def redeem(self, name: str, code: str) -> bool:
        """True (and the code is spent) if `code` is `name`'s; a wrong one changes nothing."""


def new_code() -> str:
    """A one-time code to add a key: 'ABCD-EF23', easy to read out and type."""
    raw = "".join(secrets.choice(_CODE_LETTERS) for _ in range(8))
    return f"{raw[:4]}-{raw[4:]}"


def same_code(typed: str, code: str) -> bool:
    """Whether `typed` is `code` (case and spaces aside), in constant time."""
    return hmac.compare_digest(typed.strip().upper().encode(), code.encode())


class KeyCodes:
    """One-time codes to add a key to a name, in this process (a `KeyCodeStore`, its
    methods coroutines only to share the interface of the database's):
    `issue` in a session logged in as the name, `redeem` from the new key within
    CODE_LIFETIME."""

    def __init__(self) -> None:
        self._codes: dict[str, _Code] = {}

    async def issue(self, name: str) -> str:
        code = new_code()
        self._codes[name] = _Code(code, time.monotonic() + CODE_LIFETIME)
        return code

    async def pending(self, name: str) -> bool:
        """True while `name` has a code that a new key may redeem."""
        held = self._codes.get(name)
        if held is not None and time.monotonic() > held.expires:
            del self._codes[name]
            held = None
        return held is not None

    async def redeem(self, name: str, code: str) -> bool:
        """True (and the code is spent) if `code` is `name`'s; a wrong one changes nothing."""
        if not await self.pending(name) or not same_code(code, self._codes[name].code):
            return False
        del self._codes[name]
        return True

    def rename(self, old: str, new: str) -> None:
        """`old` is called `new` now (renames.py): its code, if any, is `new`'s."""
        held = self._codes.pop(old, None)
        if held is not None:
            self._codes[new] = held
