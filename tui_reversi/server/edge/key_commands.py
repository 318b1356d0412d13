"""`ssh host keys`: a player's SSH keys on this server, listed, added (with a
one-time code shown here and typed from the new key's machine) and removed.
Plain lines; no terminal needed. The rules are accounts.py's."""

from __future__ import annotations

import contextlib

from ...storage import StorageError
from ..config import ServeError, format_duration
from ..ledger.account_keys import CODE_LIFETIME
from .accounts import ECHO_LIMIT, fingerprint
from .browser_passes import BrowserPasses
from .guessing import code_failed, code_refusal
from .login import Accounts, Login

USAGE = (
    "keys, keys add, keys add CODE (from the new key), keys remove FINGERPRINT, "
    "keys web (bind a browser)"
)


async def keys_command(
    login: Login,
    accounts: Accounts,
    name: str,
    auth: str,
    words: list[str],
    ssh: str,
    passes: BrowserPasses | None = None,
    page: str | None = None,
) -> tuple[list[str], int]:
    """What `keys ...` (`words` after `keys`) says to `name`, logged in by `login`
    under --auth `auth`, and the exit status; `ssh` is how this player reaches the
    server with a new key ('ssh -i NEW-KEY -p 2222 alice+key@host'); `passes` binds
    browsers (`keys web`) to the page at `page` ('http://host:8080/'; None: no page)."""
    store = accounts.store
    if login.guest:
        return ["tui-reversi: guests have no keys: connect with an SSH key to claim a name."], 1
    if store is None:
        return ["tui-reversi: this server keeps no accounts."], 1
    try:
        if not words:
            return await _listed(login, accounts, name, auth), 0
        if words == ["add"]:
            code = await accounts.codes.issue(name)
            lasts = format_duration(CODE_LIFETIME)
            return [
                f"tui-reversi: to add a key to {name}, run this within {lasts} on the "
                "machine that has it (the code works once):",
                f"  {ssh} keys add {code}",
            ], 0
        if words == ["web"] and passes is not None:
            if login.adding_key:
                return ["tui-reversi: run  keys web  from a key that is yours already."], 1
            if page is None:
                return ["tui-reversi: this server has no browser page; play with ssh."], 1
            code = passes.issue(name)
            lasts = format_duration(CODE_LIFETIME)
            return [
                f"tui-reversi: to play as {name} in a browser, open this address within "
                f"{lasts} (the code works once, and is shown only now):",
                f"  {page}?code={code}",
            ], 0
        if len(words) == 2 and words[0] == "add":
            return await _redeemed(login, accounts, name, words[1])
        if len(words) == 2 and words[0] == "remove":
            return await _removed(accounts, name, words[1])
    except StorageError as error:
        accounts.log(str(error))
        return ["tui-reversi: the server cannot change keys now; please try again later."], 1
    return [f"tui-reversi: {' '.join(words)[:ECHO_LIMIT]!r} is not a keys command: {USAGE}"], 2


async def _listed(login: Login, accounts: Accounts, name: str, auth: str) -> list[str]:
    assert accounts.store is not None
    keys = [
        (held.key, f"added {held.added[:16].replace('T', ' ')} UTC")
        for held in await accounts.store.keys_of(name)
    ]
    if auth == "keys":
        with contextlib.suppress(ServeError):  # (logged at every login already)
            given = accounts.file_names()[1]
            keys += [(key, "in the server's authorized-keys file") for key, who in given.items()
                     if who == name]  # fmt: skip
    if not keys:
        return [f"tui-reversi: no key is {name}'s here; a key you connect with claims the name."]
    lines = [f"tui-reversi: {name}'s keys here (remove one with  keys remove FINGERPRINT):"]
    for key, how in keys:
        this = "  (this connection's)" if key == login.key else ""
        lines.append(f"  {fingerprint(key)}  {how}{this}")
    return lines


async def _redeemed(
    login: Login, accounts: Accounts, name: str, code: str
) -> tuple[list[str], int]:
    store = accounts.store
    assert store is not None
    if not login.adding_key or login.key is None:
        return ["tui-reversi: this key is yours already; run  keys add CODE  from the new key."], 1
    # Wrong tries count against this key and address, never against the code (guessing.py).
    refusal = await code_refusal(store, login.key, login.address)
    if refusal is not None:
        return [f"tui-reversi: {refusal}"], 1
    if not await accounts.codes.redeem(name, code):
        await code_failed(store, login.key, login.address)
        echoed = code[:ECHO_LIMIT]
        return [f"tui-reversi: {echoed!r} is not {name}'s code, or it was used or lapsed."], 1
    if not await store.add_key(name, login.key):
        return ["tui-reversi: this key is someone else's here already."], 1
    login.adding_key = False
    accounts.log(f"key {fingerprint(login.key)} added to {name}")
    return [f"tui-reversi: key {fingerprint(login.key)} is {name}'s now."], 0


async def _removed(accounts: Accounts, name: str, which: str) -> tuple[list[str], int]:
    store = accounts.store
    assert store is not None
    keys = await store.keys_of(name)
    found = [held for held in keys if fingerprint(held.key) == which]
    if not found:
        return [f"tui-reversi: {name} has no key {which[:ECHO_LIMIT]!r} here; see  keys"], 1
    if len(keys) == 1:
        return [f"tui-reversi: that is {name}'s only key here; add another first."], 1
    await store.remove_key(name, found[0].key)
    accounts.log(f"key {which} removed from {name}")
    return [f"tui-reversi: key {which} is no longer {name}'s."], 0
