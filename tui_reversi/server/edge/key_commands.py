"""`ssh host keys`: a player's SSH keys on this server, listed, added (with a
one-time code shown here and typed from the new key's machine) and removed.
Plain lines; no terminal needed. The rules are accounts.py's."""

from __future__ import annotations

import contextlib
from datetime import UTC, datetime

from ...storage import StorageError
from ..config import ServeError, format_duration
from ..ledger.account_keys import CODE_LIFETIME
from ..ledger.browser_passes import PASSES_PER_NAME
from .accounts import ECHO_LIMIT, fingerprint
from .browser_passes import BrowserPasses
from .guessing import code_failed, code_refusal
from .login import Accounts, Login

USAGE = (
    "keys, keys add, keys add CODE (from the new key), keys remove FINGERPRINT, "
    "keys web (bind a browser), keys web list, keys web remove ID|all"
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
    if login.guest:
        return ["tui-reversi: guests have no keys: connect with an SSH key to claim a name."], 1
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
        if words[:1] == ["web"] and passes is not None:
            answer = await _web(login, passes, name, words[1:], page)
            if answer is not None:
                return answer
        if len(words) == 2 and words[0] == "add":
            return await _redeemed(login, accounts, name, words[1])
        if len(words) == 2 and words[0] == "remove":
            return await _removed(accounts, passes, name, words[1])
    except StorageError as error:
        accounts.log(str(error))
        return ["tui-reversi: the server cannot change keys now; please try again later."], 1
    return [f"tui-reversi: {' '.join(words)[:ECHO_LIMIT]!r} is not a keys command: {USAGE}"], 2


async def _web(
    login: Login, passes: BrowserPasses, name: str, words: list[str], page: str | None
) -> tuple[list[str], int] | None:
    """`keys web`: a code that binds a browser; `keys web list`, `keys web remove ID|all`;
    None for anything else after `web`."""
    if login.adding_key:
        return ["tui-reversi: run  keys web  from a key that is yours already."], 1
    if not words:
        if page is None:
            return ["tui-reversi: this server has no browser page; play with ssh."], 1
        code = await passes.issue(name, login.key)
        lasts = format_duration(CODE_LIFETIME)
        return [
            f"tui-reversi: to play as {name} in a browser, open this address within "
            f"{lasts} and press its button (the code works once, and is shown only now):",
            f"  {page}?code={code}",
            # (two lines within 80 columns)
            f"A browser stays bound until {passes.lifetime} pass without a game in it, or until",
            f"you unbind it (keys web list); binding an {PASSES_PER_NAME + 1}th unbinds the one "
            "used longest ago.",
        ], 0
    if words == ["list"]:
        return await _passes_listed(login, passes, name), 0
    if len(words) == 2 and words[0] == "remove":
        which = words[1]
        removed = await passes.remove(name, None if which == "all" else which)
        if which == "all":
            return [f"tui-reversi: {_browsers(removed)} unbound from {name}; none is now."], 0
        if not removed:
            echoed = which[:ECHO_LIMIT]
            return [f"tui-reversi: {name} has no browser {echoed!r} bound; see  keys web list"], 1
        return [f"tui-reversi: browser {which} is no longer bound to {name}."], 0
    return None  # (not one of these: keys_command says so)


async def _passes_listed(login: Login, passes: BrowserPasses, name: str) -> list[str]:
    bound = await passes.listed(name)
    if not bound:
        return [f"tui-reversi: no browser is bound to {name}; bind one with  keys web"]
    lines = [
        f"tui-reversi: the browsers bound to {name} (unbind one with  keys web remove ID,"
        " or all with  keys web remove all):"
    ]
    for held in bound:
        used = f"last played {_when(held.used)}" if held.used is not None else "not played yet"
        lines.append(f"  {held.id}  bound {_when(held.made)}, {used}")
        if held.key is None:
            lines.append(f"  {'':8}  by a key this server did not note")
        else:
            this = "  (this connection's)" if held.key == login.key else ""
            lines.append(f"  {'':8}  by key {fingerprint(held.key)}{this}")
    return lines


def _when(moment: float) -> str:
    return datetime.fromtimestamp(moment, UTC).strftime("%Y-%m-%d %H:%M UTC")


def _browsers(count: int) -> str:
    return "1 browser" if count == 1 else f"{count} browsers"


async def _listed(login: Login, accounts: Accounts, name: str, auth: str) -> list[str]:
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


async def _removed(
    accounts: Accounts, passes: BrowserPasses | None, name: str, which: str
) -> tuple[list[str], int]:
    store = accounts.store
    keys = await store.keys_of(name)
    found = [held for held in keys if fingerprint(held.key) == which]
    if not found:
        return [f"tui-reversi: {name} has no key {which[:ECHO_LIMIT]!r} here; see  keys"], 1
    if len(keys) == 1:
        return [f"tui-reversi: that is {name}'s only key here; add another first."], 1
    # (The browsers it bound go with it: the store unbinds them in the same stroke.)
    held_passes = await passes.listed(name) if passes is not None else []
    bound = [held for held in held_passes if held.key == found[0].key]
    await store.remove_key(name, found[0].key)
    accounts.log(f"key {which} removed from {name}")
    unbound = f" The {_browsers(len(bound))} it bound are unbound." if bound else ""
    if len(bound) == 1:
        unbound = " The browser it bound is unbound."
    return [f"tui-reversi: key {which} is no longer {name}'s.{unbound}"], 0
