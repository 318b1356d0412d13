"""The real app served over SSH, played with OpenSSH in tmux.

The same paths are covered with stand-ins in tests/server.
"""

import os
import re
import shlex
import signal
import sys
import tempfile
import time
from pathlib import Path

import pytest

from tests.server.conftest import identity
from tests.server.log_reading import read_events

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
    # The private tmux outlives the dropped session: a new one started while it was
    # exiting was refused ("server exited unexpectedly"). The fixture stops it.
    tmux("set-option", "-s", "exit-empty", "off")
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


def pane(tmux, target: str, pattern: str, *, fmt: str | None = None) -> str:
    """Wait until pane `target` shows `pattern` (or its `fmt` value does); what it shows."""
    deadline = time.monotonic() + PATIENCE
    while True:
        if fmt is None:
            shown = tmux("capture-pane", "-p", "-J", "-t", target)
        else:
            shown = tmux("display-message", "-p", "-t", target, fmt)
        if re.search(pattern, shown):
            return shown
        if time.monotonic() > deadline:
            pytest.fail(f"{pattern!r} never showed in {target}:\n{shown}")
        time.sleep(0.05)


def test_ctrl_c_on_a_server_whose_log_goes_through_tee_stops_it_as_on_a_terminal(tmux, tmp_path):
    """`serve 2>&1 | tee log`, then ctrl+c: the same key ends the tee, and the
    server, writing to a pipe nobody reads, stopped without hanging up its
    games. Each player's terminal is put back (it leaves the alternate
    screen) and the server says it stops, on its terminal now."""
    log = tmp_path / "log"
    serve = shlex.join([sys.executable, "-m", "tui_reversi", "serve", "--port", "0"])
    tmux("new-session", "-d", "-s", "serve", "-x", "150", "-y", "30")
    tmux("set-option", "-t", "serve", "remain-on-exit", "on")
    data = tmp_path / "server"
    tmux("send-keys", "-t", "serve", f"HOME={tmp_path} {serve} --data-dir {data} 2>&1 | tee {log}")
    tmux("send-keys", "-t", "serve", "Enter")
    port = re.search(r"play with: ssh -p (\d+)", pane(tmux, "serve", r"play with: ssh -p \d+"))
    key = identity("alice", tmp_path / "keys")
    ssh = shlex.join([SSH, "-p", port.group(1), *SSH_OPTIONS, *key, "-t", "alice@127.0.0.1"])
    player = f"{ssh}; echo SSH-ENDED; sleep {PATIENCE}"  # the pane stays to look at
    tmux("new-session", "-d", "-s", "game", *("-x", "100", "-y", "30"), player)
    tmux.wait_for(COORDINATES)
    pane(tmux, "game", "1", fmt="#{alternate_on}")
    tmux("send-keys", "-t", "serve", "C-c")
    pane(tmux, "game", "SSH-ENDED")
    pane(tmux, "game", "0", fmt="#{alternate_on}")  # the player's terminal is back
    assert "the server is shutting down" in pane(tmux, "game", "SSH-ENDED")
    shown = pane(tmux, "serve", "tui-reversi serve: stopped")
    assert "stopping; hanging up every game" in shown
    (ended,) = [fields for event, fields in read_events(shown) if event == "disconnect"]
    assert ended["peer"].startswith("127.0.0.1:") and ended["user"] == "alice"
    assert ended["why"] == "server shutting down"
