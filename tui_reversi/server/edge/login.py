"""One connection's way in: the name it asked for, the key it proved, the
name it plays under, and why it was refused (accounts.py has the rules).

`PlayerConnection` (connection.py) answers asyncssh's authentication hooks (its
coroutines: the store is asked without holding up anyone else) by asking its
`Login`: `key_allowed` for every key a client offers (asked once
without a signature, once with), `guest_allowed` when a client without a
usable key asks to come in by keyboard-interactive, `password_refusal` before
a password is compared, and `settle` once asyncssh has let the client in.

A new key asks to be added to a name as `NAME+key` (ADDING_SUFFIX): any key
may come in so, always, to run `keys add CODE` and nothing else, so that
nobody learns from being let in whether a code waits for NAME.
"""

from __future__ import annotations

from collections.abc import Callable

import asyncssh

from ...net.remote import is_guest
from ...storage import StorageError
from ..config import ServeConfig, ServeError
from ..hall.guests import new_guest_name
from ..ledger.account_keys import ADDING_SUFFIX, KeyCodeStore
from ..ledger.names import look_alike_refusal, name_refusal
from ..ledger.store import Store
from .accounts import key_text, named_keys

# Guest names drawn before giving up (each is new with odds of 1 - 2**-64 anyway).
GUEST_DRAWS = 8

# Said to a client asking for a name an admin renamed (ledger/renames.py): it stays
# reserved, so that nobody passes for the renamed player.
RENAMED_AWAY = (
    "the name {} was renamed by this server's admins and is nobody's now; choose another name."
)

# Said to a client while the store cannot be asked (a fleet's database away).
CANNOT_CHECK = (
    "the server cannot check keys just now (its database is away); try again in a minute."
)


class Accounts:
    """The server's side: the store, the authorized-keys file, the codes to add a key."""

    def __init__(self, config: ServeConfig, log: Callable[[str], None], store: Store) -> None:
        self._config = config
        self.log = log
        self.store = store
        # (a fleet's are shared by its nodes)
        self.codes: KeyCodeStore = store.codes

    def file_names(self) -> tuple[asyncssh.SSHAuthorizedKeys, dict[str, str]]:
        """Under --auth keys: the file's keys and their names, read afresh (new keys
        work without a restart). ServeError if the file cannot be used."""
        path = self._config.authorized_keys
        assert path is not None
        return named_keys(path)

    async def holds(self, name: str, key: str) -> bool:
        """Whether `key` is still `name`'s: in the store, or (--auth keys) in the
        authorized-keys file. Raises StorageError."""
        if await self.store.key_owner(key) == name:
            return True
        if self._config.auth != "keys":
            return False
        try:
            return self.file_names()[1].get(key) == name
        except ServeError:
            return False  # (said at every login: an unreadable file gives nobody a key)

    async def guest_name(self, in_use: set[str]) -> str:
        """A name for a guest that nobody has had: 64 random bits, kept in the store
        so that no later guest is ever given it (if the store fails, the bits alone)."""
        name = new_guest_name()
        for _ in range(GUEST_DRAWS):
            try:
                if name not in in_use and await self.store.enter_name(name, new=True) is None:
                    break
            except StorageError as error:
                self.log(str(error))
                break
            name = new_guest_name()
        return name


class Login:
    """How one connection comes in (see the module's docstring)."""

    def __init__(self, accounts: Accounts, mode: str, address: str) -> None:
        self._accounts = accounts
        self._mode = mode
        self._address = address
        self.asked = ""  # the name the client asked for
        self.key: str | None = None  # the last key allowed (key_text), proved if let in
        self.adding_key = False  # let in only to redeem a code for `name` (keys add CODE)
        self.refusal: str | None = None  # why a key or the client was refused, for the client
        self.guest = False

    @property
    def address(self) -> str:
        """Where the client connected from."""
        return self._address

    @property
    def name(self) -> str:
        """The name asked for, without ADDING_SUFFIX."""
        return self.asked.removesuffix(ADDING_SUFFIX)

    async def key_allowed(self, key: asyncssh.SSHKey) -> bool:
        """May this key log in as the name asked for?"""
        text = key_text(key)
        try:
            owner = await self._owner(key, text)
            claimed = await self._claimed(self.asked)
            alike = await self._look_alike(self.asked) if owner is None else None
            renamed = owner is None and await self._accounts.store.renamed_away(self.asked)
        except (StorageError, ServeError) as error:
            self._accounts.log(str(error))
            self.refusal = CANNOT_CHECK
            return False
        allowed = owner == self.asked
        self.adding_key = False
        if self.asked.endswith(ADDING_SUFFIX) and owner is None:
            why = name_refusal(self.name) if self._mode != "keys" else None
            self.refusal = self.refusal or why
            allowed = self.adding_key = why is None  # to run `keys add CODE`, and nothing else
        elif owner is not None and not allowed:
            self.refusal = f"this key is {owner}'s here: connect as {owner}."
        elif not allowed and self._mode == "none":
            why = name_refusal(self.asked)
            if why is None and claimed:
                why = f"the name {self.asked} is claimed by another key; choose another name."
            if why is None and alike is not None:
                why = look_alike_refusal(self.asked, alike)
            if why is None and renamed:
                why = RENAMED_AWAY.format(self.asked)
            self.refusal = self.refusal or why
            allowed = why is None
        elif not allowed and self._mode == "keys":
            self.refusal = self.refusal or (
                f"no key you offered is given the name {self.asked} on this server."
            )
        if allowed:
            self.key = text
        return allowed

    async def guest_allowed(self) -> bool:
        """A client without a usable key: a guest, under the open default, if it
        asked for no claimed name and offered no key that is someone else's."""
        if self._mode != "none" or self.refusal is not None:
            return False
        try:
            if await self._claimed(self.asked):
                self.refusal = (
                    f"the name {self.asked} is claimed by a key: connect with that key, "
                    "or as another name to play as a guest."
                )
                return False
        except StorageError as error:
            self._accounts.log(str(error))
            self.refusal = CANNOT_CHECK
            return False
        self.guest = True
        return True

    async def password_refusal(self) -> str | None:
        """Under --auth password: why the name asked for cannot come in by password."""
        why = name_refusal(self.asked)
        if why is not None:
            return why
        try:
            if await self._claimed(self.asked):
                return f"the name {self.asked} is claimed by a key: connect with that key."
            alike = await self._look_alike(self.asked)
            if alike is not None:
                return look_alike_refusal(self.asked, alike)
            if await self._accounts.store.renamed_away(self.asked):
                return RENAMED_AWAY.format(self.asked)
        except StorageError as error:
            self._accounts.log(str(error))
            return CANNOT_CHECK
        return None

    async def settle(self, in_use: set[str]) -> tuple[str, str | None]:
        """Let in: the name to play under, and a sentence if it cannot be after all."""
        store = self._accounts.store
        try:
            if self.guest:
                return await self._accounts.guest_name(in_use), None
            if self.adding_key:
                return self.name, None
            alike = await store.enter_name(self.asked)
            if alike is not None and self._mode != "keys":  # (under keys, the file's word)
                return self.asked, look_alike_refusal(self.asked, alike)
            if self.key is not None and self._mode == "none":
                free = await store.key_owner(self.key) is None
                if free and not await store.claim(self.asked, self.key):
                    return self.asked, f"the name {self.asked} was claimed meanwhile."
        except StorageError as error:
            self._accounts.log(str(error))
            return self.asked, "the server cannot keep your name now; try again later."
        return self.asked, None

    async def _look_alike(self, name: str) -> str | None:
        """The name someone has here that `name` looks like (names.py), if any."""
        if is_guest(name):
            return None
        return await self._accounts.store.look_alike(name)

    async def _owner(self, key: asyncssh.SSHKey, text: str) -> str | None:
        """The name a key is bound to: by the authorized-keys file (--auth keys), else the store."""
        if self._mode == "keys":
            authorized, names = self._accounts.file_names()
            name = names.get(text)
            options = authorized.validate(key, self._address, self._address)  # (from=...)
            if name is not None and options is not None:
                return name
        return await self._accounts.store.key_owner(text)

    async def _claimed(self, name: str) -> bool:
        """True if some key is bound to `name` (in the store, or the file's under --auth keys)."""
        if await self._accounts.store.keys_of(name):
            return True
        if self._mode == "keys":
            try:
                return name in self._accounts.file_names()[1].values()
            except ServeError:
                return False
        return is_guest(name)
