"""The ssh commands the server's hints show can be pasted: the address players
reach it at (`--public-address`, else the one their connection reached), the
port only when it is not 22, and the reader's own name (a guest's lands it as
a guest again); a friend's has no name. Real SSH on loopback, the stand-in game."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tui_reversi.net.ssh_command import SSH_COMMAND_VARIABLE, parse_address, ssh_command

from .conftest import Player
from .test_accounts import run
from .test_tables import Game, seat

# The lines of the games waiting at tables: while one is open, so is its table.
waiting: list[Game] = []


async def open_table(arcade, user: str = "dave") -> str:
    """`user` opens a table and waits at it: its code."""
    game = await Game.connect(await seat(arcade, user, "table"))
    await game.hear_until("ready")
    waiting.append(game)
    (code,) = arcade.tables.tables
    return code


async def test_the_hints_name_the_public_address_and_the_readers_own_name(serve):
    arcade = await serve(public_address=("games.example.org", 2200))
    await open_table(arcade)
    friend = await Player.connect(arcade, "alice", command="table")
    env = (await friend.facts())["env"]
    assert env[SSH_COMMAND_VARIABLE] == "ssh -t -p 2200 games.example.org"
    status, lobby = await run(arcade, "carol", "lobby")
    assert status == 0
    assert "anyone may sit down: ssh -t -p 2200 carol@games.example.org join CODE" in lobby
    status, shown = await run(arcade, "carol", "keys add")
    assert status == 0
    new_key = r"ssh -i NEW-KEY -p 2200 carol\+key@games\.example\.org"
    assert re.search(rf"\n  {new_key} keys add \S+\n", shown)


async def test_port_22_is_left_out(serve):
    arcade = await serve(public_address=("2001:db8::5", 22))
    await open_table(arcade)
    _, lobby = await run(arcade, "carol", "lobby")
    assert "anyone may sit down: ssh -t carol@2001:db8::5 join CODE" in lobby


async def test_without_a_public_address_the_hints_name_the_address_reached(serve):
    arcade = await serve()
    code = await open_table(arcade)
    _, lobby = await run(arcade, "carol", "lobby")
    assert f"anyone may sit down: ssh -t -p {arcade.port} carol@127.0.0.1 join CODE" in lobby
    assert f"  {code}  dave 1500? waits (Black)" in lobby


async def test_a_guests_hint_lands_it_as_a_guest_again(serve):
    arcade = await serve()
    await open_table(arcade)
    _, lobby = await run(arcade, "zed", "lobby", guest=True)
    assert "You play as a guest here" in lobby
    hint = f"ssh -t -p {arcade.port} zed@127.0.0.1"
    assert f"anyone may sit down: {hint} join CODE" in lobby
    # What that command does (no key, as zed): a guest again, not refused.
    status, again = await run(arcade, "zed", "lobby", guest=True)
    assert status == 0 and "You play as a guest here" in again


def test_ssh_command_writes_what_ssh_reads():
    assert ssh_command("games.example.org", 22) == "ssh -t games.example.org"
    written = ssh_command("games.example.org", 2222, "alice")
    assert written == "ssh -t -p 2222 alice@games.example.org"
    assert ssh_command("h", 22, "alice", terminal=False, key="NEW-KEY") == "ssh -i NEW-KEY alice@h"
    # A name a shell or ssh would read otherwise is passed with -l, quoted.
    assert ssh_command("h", 22, "-oProxyCommand=x") == "ssh -t -l -oProxyCommand=x h"
    assert ssh_command("h", 22, "al ice") == "ssh -t -l 'al ice' h"


_LABEL = st.from_regex(r"[a-z0-9]([a-z0-9-]{0,10}[a-z0-9])?", fullmatch=True)


@given(st.lists(_LABEL, min_size=1, max_size=4), st.integers(1, 65535))
def test_an_address_is_read_back_as_it_was_written(labels, port):
    host = ".".join(labels)
    assert parse_address(f"{host}:{port}") == (host, port)


@pytest.mark.parametrize(
    ("given_text", "why"),
    [
        ("games.example.org", "say HOST:PORT"),
        ("alice@games.example.org:22", "say HOST:PORT"),
        ("games example:22", "say HOST:PORT"),
        ("games.example.org:0", "the port must be 1-65535"),
        ("games.example.org:ssh", "the port must be 1-65535"),
        ("[games]:22", "'games' is no IPv6 address"),
    ],
)
def test_a_bad_public_address_is_one_sentence_and_exit_2(tmp_path, given_text, why):
    argv = [sys.executable, "-m", "tui_reversi", "serve", "--data-dir", str(tmp_path)]
    done = subprocess.run(
        [*argv, "--public-address", given_text], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 2
    assert done.stderr.startswith(
        f"tui-reversi serve: --public-address: {given_text!r} is not an address players can reach: "
    )
    assert why in done.stderr and done.stderr.count("\n") == 1
