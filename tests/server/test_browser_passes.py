"""The codes that bind a browser to a keyed name, and the passes they become."""

from __future__ import annotations

import re
import stat

from tui_reversi.server.edge import browser_passes
from tui_reversi.server.edge.browser_passes import PASSES_FILE, BrowserPasses
from tui_reversi.web import page_address

from .test_accounts import run


def test_a_code_becomes_a_pass_for_its_name_once(tmp_path):
    passes = BrowserPasses(tmp_path)
    code = passes.issue("alice")
    traded = passes.trade(code.lower())  # typed in any case
    assert traded is not None
    name, token = traded
    assert name == "alice" and passes.name_of(token) == "alice"
    assert passes.trade(code) is None  # one use
    assert passes.name_of(token + "x") is None
    # Only the pass's digest is kept, in a file only the server reads.
    kept = (tmp_path / PASSES_FILE).read_text()
    assert token not in kept and "alice" in kept
    assert stat.S_IMODE((tmp_path / PASSES_FILE).stat().st_mode) == 0o600
    # A restart keeps the binding.
    assert BrowserPasses(tmp_path).name_of(token) == "alice"


def test_a_new_code_replaces_the_old_and_a_lapsed_one_is_refused(tmp_path, monkeypatch):
    passes = BrowserPasses(tmp_path)
    first = passes.issue("alice")
    second = passes.issue("alice")
    assert passes.trade(first) is None
    clock = [0.0]
    monkeypatch.setattr(browser_passes.time, "monotonic", lambda: clock[0])
    third = passes.issue("alice")
    clock[0] = browser_passes.CODE_LIFETIME + 1
    assert passes.trade(third) is None
    assert passes.trade(second) is None


def test_a_lapsed_pass_binds_nothing(tmp_path, monkeypatch):
    passes = BrowserPasses(tmp_path)
    _name, token = passes.trade(passes.issue("bob"))
    later = browser_passes.time.time() + browser_passes.PASS_LIFETIME + 1
    monkeypatch.setattr(browser_passes.time, "time", lambda: later)
    assert passes.name_of(token) is None


async def test_keys_web_prints_the_pages_real_address_with_the_code(serve):
    arcade = await serve()
    status, said = await run(arcade, "alice", "keys web")
    assert (status, said) == (1, "tui-reversi: this server has no browser page; play with ssh.\n")
    arcade.page_address = lambda host: page_address(host, 8080)
    status, said = await run(arcade, "alice", "keys web")
    assert status == 0
    address = r"^  http://127\.0\.0\.1:8080/\?code=[A-Z0-9]{4}-[A-Z0-9]{4}$"
    assert re.search(address, said, re.M), said


async def test_keys_web_names_the_public_address_and_a_proxys_https(serve):
    arcade = await serve(public_address=("games.example.org", 22))
    arcade.page_address = lambda host: page_address(host, 8080, behind_proxy=True)
    status, said = await run(arcade, "alice", "keys web")
    assert status == 0 and "\n  https://games.example.org/?code=" in said, said
