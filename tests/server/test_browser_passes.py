"""The codes that bind a browser to a keyed name, and the passes they become: kept
in the store (both stores alike), listed and removed with `keys web`, gone with
the key that made them, at most 10 a name, lapsing 30 days after their last use."""

from __future__ import annotations

import json
import re

import asyncssh

from tui_reversi.server.edge.browser_passes import MOVED_SUFFIX, PASSES_FILE, BrowserPasses
from tui_reversi.server.ledger.account_keys import CODE_LIFETIME
from tui_reversi.server.ledger.archive import Archive
from tui_reversi.server.ledger.browser_passes import PASS_IDLE, PASSES_PER_NAME, digest
from tui_reversi.web import page_address

from .conftest import key_of
from .test_accounts import run
from .test_store import open_store as open_store  # (the fixture: both stores)

NOW = 1_800_000_000.0
KEY = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIBrowserPassesTestKeyOne"
OTHER_KEY = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIBrowserPassesTestKeyTwo"


async def test_a_code_names_its_player_until_it_is_traded_once_for_a_pass(open_store):
    store = await open_store()
    code = await store.issue_pass_code("alice", KEY, NOW)
    # Looking at a code spends nothing (the page shows whom it binds to first).
    assert await store.pass_code_holder(code.lower(), NOW) == "alice"
    assert await store.pass_code_holder(code, NOW) == "alice"
    made, unbound = await store.trade_pass_code(code, digest("token"), NOW + 1)
    assert (made.name, made.key, made.used, unbound) == ("alice", KEY, None, [])
    assert await store.trade_pass_code(code, digest("again"), NOW + 2) is None  # one use
    assert await store.pass_code_holder(code, NOW + 2) is None
    used = await store.pass_holder(digest("token"), NOW + 3)
    assert (used.id, used.name, used.used) == (made.id, "alice", NOW + 3)
    assert await store.pass_holder(digest("tokens"), NOW + 3) is None
    # Another node's store (one database) knows the same pass.
    again = await open_store()
    assert (await again.pass_holder(digest("token"), NOW + 4)).name == "alice"


async def test_a_new_code_replaces_the_old_and_a_lapsed_one_is_refused(open_store):
    store = await open_store()
    first = await store.issue_pass_code("alice", KEY, NOW)
    second = await store.issue_pass_code("alice", KEY, NOW)
    assert await store.trade_pass_code(first, digest("a"), NOW) is None
    late = NOW + CODE_LIFETIME + 1
    assert await store.pass_code_holder(second, late) is None
    assert await store.trade_pass_code(second, digest("b"), late) is None


async def test_a_pass_lapses_30_days_after_its_last_use_and_each_use_moves_that_on(open_store):
    store = await open_store()
    code = await store.issue_pass_code("bob", KEY, NOW)
    await store.trade_pass_code(code, digest("bob's"), NOW)
    later = NOW + PASS_IDLE - 60
    assert (await store.pass_holder(digest("bob's"), later)).expires == later + PASS_IDLE
    assert await store.pass_holder(digest("bob's"), later + PASS_IDLE - 60) is not None
    unused = later + PASS_IDLE - 60 + PASS_IDLE + 1
    assert await store.pass_holder(digest("bob's"), unused) is None
    assert await store.passes_of("bob", unused) == []


async def test_binding_an_eleventh_browser_unbinds_the_one_used_longest_ago(open_store):
    store = await open_store()
    made = []
    for number in range(PASSES_PER_NAME):
        code = await store.issue_pass_code("carol", KEY, NOW + number)
        made.append((await store.trade_pass_code(code, digest(f"p{number}"), NOW + number))[0])
    await store.pass_holder(digest("p0"), NOW + 100)  # the first made, played in lately
    code = await store.issue_pass_code("carol", KEY, NOW + 200)
    eleventh, unbound = await store.trade_pass_code(code, digest("p10"), NOW + 200)
    assert unbound == [made[1].id]
    kept = {held.id for held in await store.passes_of("carol", NOW + 200)}
    assert len(kept) == PASSES_PER_NAME and made[0].id in kept and eleventh.id in kept
    assert await store.pass_holder(digest("p1"), NOW + 201) is None


async def test_passes_are_removed_one_or_all_and_go_with_the_key_that_made_them(open_store):
    store = await open_store()
    await store.claim("dave", KEY)
    await store.add_key("dave", OTHER_KEY)
    digests = {}
    for token, key in (("one", KEY), ("two", KEY), ("three", OTHER_KEY), ("four", OTHER_KEY)):
        code = await store.issue_pass_code("dave", key, NOW)
        digests[token] = (await store.trade_pass_code(code, digest(token), NOW))[0].id
    pending = await store.issue_pass_code("dave", KEY, NOW)
    assert await store.remove_passes("dave", "nothing") == 0
    assert await store.remove_passes("erin", digests["one"]) == 0  # (not erin's)
    assert await store.remove_passes("dave", digests["one"]) == 1
    assert await store.pass_holder(digest("one"), NOW) is None
    # The key goes: what it made goes with it (its code too), the other key's stay.
    assert await store.remove_key("dave", KEY)
    assert await store.pass_holder(digest("two"), NOW) is None
    assert await store.pass_code_holder(pending, NOW) is None
    assert {held.id for held in await store.passes_of("dave", NOW)} == {
        digests["three"],
        digests["four"],
    }
    assert await store.remove_passes("dave", None) == 2
    assert await store.passes_of("dave", NOW) == []


def store_holds(store):
    async def holds(name: str, key: str) -> bool:
        return await store.key_owner(key) == name

    return holds


async def test_an_older_servers_file_of_passes_is_moved_into_the_store_once(tmp_path):
    data = tmp_path / "server"
    data.mkdir()
    old = {
        digest("kept"): {"name": "alice", "until": 4_000_000_000.0},
        digest("lapsed"): {"name": "bob", "until": 1.0},
    }
    (data / PASSES_FILE).write_text(json.dumps(old))
    notes: list[str] = []
    store = Archive(data / "archive.sqlite3", data / "players")
    passes = BrowserPasses(data, notes.append, store_holds(store))
    await passes.start(store)
    (held,) = await passes.listed("alice")
    assert held.key is None and held.expires <= held.made + PASS_IDLE  # (30 days at most)
    assert await passes.name_of("kept") == "alice"
    assert await passes.name_of("lapsed") is None
    assert not (data / PASSES_FILE).exists() and (data / (PASSES_FILE + MOVED_SUFFIX)).exists()
    assert notes == [f"1 browsers' passes moved from {data / PASSES_FILE} into the store"]
    await BrowserPasses(data, notes.append, store_holds(store)).start(store)  # (nothing to move)
    assert len(notes) == 1
    await store.close()


async def test_keys_web_lists_a_players_browsers_and_removes_them_and_with_their_key(serve):
    arcade = await serve()
    arcade.page_address = lambda host: page_address(host, 8080)
    passes = arcade.browser_passes

    async def bound_from(keys: list[asyncssh.SSHKey]) -> str:
        status, said = await run(arcade, "alice", "keys web", client_keys=keys)
        assert status == 0, said
        code = re.search(r"\?code=(\S+)$", said, re.M).group(1)
        return await passes.trade(code)

    from_first = await bound_from([key_of("alice")])
    status, shown = await run(arcade, "alice", "keys add")
    code = re.search(r"keys add (\S+)$", shown, re.M).group(1)
    laptop = asyncssh.generate_private_key("ssh-ed25519")
    await run(arcade, "alice+key", f"keys add {code}", client_keys=[laptop])
    from_laptop = await bound_from([laptop])
    status, listed = await run(arcade, "alice", "keys web list", client_keys=[laptop])
    assert status == 0
    first, second = await passes.listed("alice")
    assert listed.splitlines()[0].startswith("tui-reversi: the browsers bound to alice")
    assert f"  {first.id}  bound " in listed and f"  {second.id}  bound " in listed
    assert f"by key {laptop.get_fingerprint()}  (this connection's)" in listed
    assert f"by key {key_of('alice').get_fingerprint()}\n" in listed
    # The first key is removed: the browser it bound is unbound with it.
    fingerprint = key_of("alice").get_fingerprint()
    status, said = await run(arcade, "alice", f"keys remove {fingerprint}", client_keys=[laptop])
    assert status == 0 and said.endswith("The browser it bound is unbound.\n"), said
    assert await passes.name_of(from_first) is None
    assert await passes.name_of(from_laptop) == "alice"
    status, said = await run(arcade, "alice", "keys web remove zzz", client_keys=[laptop])
    assert (status, said) == (
        1,
        "tui-reversi: alice has no browser 'zzz' bound; see  keys web list\n",
    )
    status, said = await run(arcade, "alice", f"keys web remove {second.id}", client_keys=[laptop])
    assert (status, said) == (0, f"tui-reversi: browser {second.id} is no longer bound to alice.\n")
    assert await passes.name_of(from_laptop) is None
    status, said = await run(arcade, "alice", "keys web list", client_keys=[laptop])
    assert said == "tui-reversi: no browser is bound to alice; bind one with  keys web\n"
    status, said = await run(arcade, "alice", "keys web remove all", client_keys=[laptop])
    assert (status, said) == (0, "tui-reversi: 0 browsers unbound from alice; none is now.\n")
    status, said = await run(arcade, "alice", "keys web forget", client_keys=[laptop])
    assert status == 2 and "'web forget' is not a keys command" in said


async def test_keys_web_prints_the_pages_real_address_with_the_code(serve):
    arcade = await serve()
    status, said = await run(arcade, "alice", "keys web")
    assert (status, said) == (1, "tui-reversi: this server has no browser page; play with ssh.\n")
    arcade.page_address = lambda host: page_address(host, 8080)
    status, said = await run(arcade, "alice", "keys web")
    assert status == 0
    address = r"^  http://127\.0\.0\.1:8080/\?code=[A-Z0-9]{4}-[A-Z0-9]{4}$"
    assert re.search(address, said, re.M), said
    assert "30 days" in said and "an 11th unbinds the one used longest ago" in said
    assert max(len(line) for line in said.splitlines()[2:]) <= 80


async def test_keys_web_names_the_public_address_and_a_proxys_https(serve):
    arcade = await serve(public_address=("games.example.org", 22))
    arcade.page_address = lambda host: page_address(host, 8080, behind_proxy=True)
    status, said = await run(arcade, "alice", "keys web")
    assert status == 0 and "\n  https://games.example.org/?code=" in said, said


async def test_a_key_gone_from_the_authorized_keys_file_takes_its_browsers_with_it(serve, tmp_path):
    alice = asyncssh.generate_private_key("ssh-ed25519", comment="alice")
    bob = asyncssh.generate_private_key("ssh-ed25519", comment="bob")
    authorized = tmp_path / "authorized_keys"
    authorized.write_bytes(alice.export_public_key() + bob.export_public_key())
    arcade = await serve(auth="keys", authorized_keys=authorized)
    arcade.page_address = lambda host: page_address(host, 8080)
    _, said = await run(arcade, "alice", "keys web", client_keys=[alice])
    browser = await arcade.browser_passes.trade(re.search(r"\?code=(\S+)$", said, re.M).group(1))
    assert await arcade.browser_passes.name_of(browser) == "alice"
    authorized.write_bytes(bob.export_public_key())  # the operator takes alice's line out
    assert await arcade.browser_passes.name_of(browser) is None
    assert await arcade.browser_passes.listed("alice") == []
    assert any(
        "browser pass" in line and "its key is not theirs" in line for line in arcade.log_lines
    )
