"""Games forked from the preloaded parent keep every guarantee of a fresh process."""

import json
import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from tui_reversi import fork_sharing
from tui_reversi.server.edge import arcade as arcade_module

from .conftest import Player, process_gone, wait_until

# What the preloaded parent itself is started with (its environment block).
PARENT_VARIABLES = {"PATH", "LANG", "PYTHONSAFEPATH"}


@pytest.mark.parametrize("preload", [True, False], ids=["preloaded", "fresh"])
async def test_a_game_holds_only_its_own_terminal_and_none_of_the_servers_secrets(
    serve, monkeypatch, preload
):
    monkeypatch.setenv("TUI_REVERSI_SERVE_PASSWORD", "hunter2")
    monkeypatch.setenv("TEXTUAL_DRIVER", "not-for-players")
    arcade = await serve(preload=preload)
    alice = await Player.connect(arcade, "alice")
    first = await alice.facts()
    bob = await Player.connect(arcade, "bob")
    second = await bob.facts()
    for facts in (first, second):
        # Only descriptors 0-2, all on the game's own pty: not the host key, not the
        # server's sockets, not the other player's terminal.
        assert sorted(facts["fds"]) == [0, 1, 2]
        terminals = set(facts["fds"].values())
        assert len(terminals) == 1 and terminals.pop().startswith("/dev/pts/")
        for variables in (facts["env"], facts["env_block"]):
            assert "TUI_REVERSI_SERVE_PASSWORD" not in variables
            assert "TEXTUAL_DRIVER" not in variables
        assert set(facts["env_block"]) <= set(facts["env"]) | PARENT_VARIABLES
        assert facts["leader"] == "True" and facts["ctty"] == "True"
    assert first["fds"][0] != second["fds"][0]
    forked_by = arcade.preloaded.pid if preload else os.getpid()
    assert first["ppid"] == second["ppid"] == forked_by


async def test_the_preloaded_parent_comes_back_after_it_dies_and_its_games_play_on(serve):
    arcade = await serve()
    alice = await Player.connect(arcade, "alice")
    first = await alice.facts()
    dead = arcade.preloaded.pid
    os.kill(dead, signal.SIGKILL)
    await wait_until(
        lambda: any("preloaded parent restarted" in line for line in arcade.log_lines),
        "the log to say the parent was restarted",
    )
    assert any(f"(pid {dead}) killed by signal 9" in line for line in arcade.log_lines)
    alice.send(b"k")
    await alice.expect("KEY 6b")
    bob = await Player.connect(arcade, "bob")
    second = await bob.facts()
    assert second["ppid"] == arcade.preloaded.pid != dead
    # The orphaned game still ends its session when it ends, and nothing is left.
    alice.send(b"q")
    await alice.finished()
    await wait_until(lambda: process_gone(first["pid"]), "alice's game to go")
    await wait_until(lambda: arcade.places_taken == 1, "alice's seat to be freed")


async def test_where_fork_is_missing_games_start_afresh_and_the_log_says_so(serve, monkeypatch):
    monkeypatch.setattr(arcade_module, "fork_available", lambda: False)
    arcade = await serve()
    assert any("cannot fork" in line for line in arcade.log_lines)
    assert "fresh Python" in arcade.game_start
    player = await Player.connect(arcade)
    facts = await player.facts()
    assert facts["ppid"] == os.getpid()
    player.send(b"q")
    assert (await player.finished()).exit_status == 0


FIRST_FRAME = Path(__file__).with_name("first_frame.py")
# Imported by the stand-in itself to run the game; a real game runs it as __main__.
RUNNER = {"tui_reversi.__main__"}


async def test_a_forked_games_first_frame_imports_nothing_the_parent_could_have_loaded(serve):
    # What a game imports after the fork is built again, unshared, in every game.
    arcade = await serve(preload=True, game_command=(sys.executable, str(FIRST_FRAME)))
    player = await Player.connect(arcade, "alice", command="new white easy")
    await player.expect("FIRSTFRAME", timeout=120)
    assert (await player.finished()).exit_status == 0
    found = re.search(rb"FIRSTFRAME (\{.*?\})\r?\n", player.output)
    assert found is not None, player.output[-500:]
    late = set(json.loads(found.group(1))["modules"]) - RUNNER
    ours = {name for name in late if name.split(".")[0] in ("textual", "rich", "tui_reversi")}
    assert ours == set()


def test_fork_sharing_is_on_unless_the_servers_environment_turns_it_off(monkeypatch):
    monkeypatch.delenv(fork_sharing.SWITCH, raising=False)
    assert fork_sharing.wanted(fork_sharing.told())
    monkeypatch.setenv(fork_sharing.SWITCH, "off")
    assert not fork_sharing.wanted(fork_sharing.told())


@pytest.mark.skipif(sys.version_info < (3, 12), reason="Python 3.11 has no immortal objects")
def test_what_the_parent_made_immortal_is_used_in_a_forked_game_without_writing_its_count():
    script = """
import ctypes, os, sys
from tui_reversi import fork_sharing
made = {"a table": [1, 2, 3]}
fork_sharing.make_immortal()
count = ctypes.c_ssize_t.from_address(id(made)).value
pid = os.fork()
if pid == 0:
    used = [made] * 1000  # a game using the parent's object
    os._exit(0 if ctypes.c_ssize_t.from_address(id(made)).value == count else 1)
_, status = os.waitpid(pid, 0)
sys.exit(os.waitstatus_to_exitcode(status))
"""
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, timeout=120)
    assert done.returncode == 0, done.stderr
