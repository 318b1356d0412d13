"""A bug in a served game, made with the test-only crash key: the player
reads one sentence and no server path; the server's log has the report."""

import os
import shlex

import pytest

from tests.server.conftest import identity
from tui_reversi.crash import CRASH_STATUS, TEST_CRASH_VARIABLE

from .conftest import SSH, SSH_OPTIONS, TMUX, Tmux

pytestmark = pytest.mark.skipif(
    SSH is None or TMUX is None, reason="needs the OpenSSH client and tmux"
)


@pytest.fixture
def tmux():
    session = Tmux(f"tui-reversi-serve-crash-{os.getpid()}")
    yield session
    session.kill_server()


def test_a_crash_over_ssh_is_one_sentence_for_the_player_and_a_report_in_the_log(
    server, tmux, tmp_path
):
    running = server(game=None, env={TEST_CRASH_VARIABLE: "f12"})
    alice = identity("alice", tmp_path / "keys")
    ssh = shlex.join([SSH, "-p", str(running.port), *SSH_OPTIONS, *alice, "alice@127.0.0.1"])
    tmux(
        "new-session",
        "-d",
        "-s",
        "game",
        "-x",
        "80",
        "-y",
        "24",
        f"{ssh}; echo exited-$?; sleep 30",
    )
    tmux.wait_for(r"Black to play")
    tmux("send-keys", "-t", "game", "f", "5")
    tmux.wait_for(r"1 f5")
    tmux("send-keys", "-t", "game", "F12")
    tmux.wait_for(r"exited-\d+")
    screen = tmux("capture-pane", "-p", "-J", "-t", "game")
    lines = [line for line in screen.splitlines() if line.strip()]
    assert lines == [
        "tui-reversi: an unexpected error stopped the game; your game is saved and the next "
        "start offers it, and the server's operator has the crash report.",
        f"exited-{CRASH_STATUS}",
    ], screen
    _, log = running.stop()
    assert f"game crashed (exit status {CRASH_STATUS})" in log
    (report,) = (tmp_path / "server" / "crash-reports").iterdir()
    assert f"crash-report path={report} user=alice" in log
    assert "DeliberateCrash" in log and "game: f5" in log
    assert not (
        tmp_path / "server" / "players" / "alice" / "data" / "tui-reversi" / "crash-reports"
    ).exists()
