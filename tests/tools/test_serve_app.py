"""The real app served over SSH, played with OpenSSH in tmux.

The same paths are covered with stand-ins in tests/server.
"""

import os
import shlex
import signal
import tempfile
import time
from pathlib import Path

import pytest

from tests.server.conftest import identity

from .conftest import PATIENCE, SSH, SSH_OPTIONS, TMUX, Tmux

pytestmark = pytest.mark.skipif(
    SSH is None or TMUX is None, reason="needs the OpenSSH client and tmux"
)

COORDINATES = r"a\s+b\s+c\s+d\s+e\s+f\s+g\s+h"


@pytest.fixture
def tmux():
    session = Tmux(f"tui-reversi-serve-app-{os.getpid()}")
    yield session
    session.kill_server()


def play_over_ssh(tmux, port, user):
    key = identity(user, Path(tempfile.gettempdir()) / f"tui-reversi-test-keys-{os.getpid()}")
    ssh = shlex.join([SSH, "-p", str(port), *SSH_OPTIONS, *key, f"{user}@127.0.0.1"])
    tmux("new-session", "-d", "-s", "game", "-x", "100", "-y", "30", f"exec {ssh}")


def screen(tmux):
    return tmux("capture-pane", "-p", "-t", "game")


def wait_for_change(tmux, before):
    deadline = time.monotonic() + PATIENCE
    while screen(tmux) == before:
        assert time.monotonic() < deadline, "the screen never changed"
        time.sleep(0.05)


def test_the_board_renders_over_ssh_and_a_key_press_changes_the_screen(server, tmux):
    running = server(game=None)
    play_over_ssh(tmux, running.port, "alice")
    tmux.wait_for(COORDINATES)
    time.sleep(0.3)  # let the first frame settle before comparing screens
    before = screen(tmux)
    tmux("send-keys", "-t", "game", "d3")
    wait_for_change(tmux, before)


def test_reconnecting_as_the_same_user_offers_the_autosaved_game(server, tmux, tmp_path):
    running = server(game=None)
    play_over_ssh(tmux, running.port, "alice")
    tmux.wait_for(COORDINATES)
    tmux("send-keys", "-t", "game", "d3")
    autosave = tmp_path / "server/players/alice/data/tui-reversi/autosave.json"
    deadline = time.monotonic() + PATIENCE
    while not autosave.exists():
        assert time.monotonic() < deadline, "the move was never autosaved"
        time.sleep(0.05)
    client = int(tmux("list-panes", "-t", "game", "-F", "#{pane_pid}").split()[0])
    os.kill(client, signal.SIGKILL)  # the connection drops mid-game
    tmux.wait_until_gone()
    play_over_ssh(tmux, running.port, "alice")
    tmux.wait_for(r"(?i)resume")
