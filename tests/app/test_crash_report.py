"""A bug in the app, made on purpose with the test-only crash key, as a
player sees it in a real terminal: the terminal put back, one sentence that
says where the report is, a non-zero exit, and the game kept."""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

import pytest

from tui_reversi.crash import CRASH_STATUS, TEST_CRASH_VARIABLE

from .test_tmux import SCRIPT, Tmux

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")


@pytest.fixture
def tmux(tmp_path):
    server = Tmux(f"tui-reversi-crash-{os.getpid()}")
    yield server
    server("kill-server")
    Path(f"/tmp/tmux-{os.getuid()}/{server.socket}").unlink(missing_ok=True)


def start(tmux: Tmux, tmp_path: Path, *options: str, again: bool = False) -> None:
    """Start the game in the session's pane; `again`: in the same pane, in place of
    what runs there (a new session after the last one was killed could reach the
    tmux server while it was still going away, and stay blank)."""
    env = (
        f"XDG_DATA_HOME={tmp_path / 'data'} XDG_CONFIG_HOME={tmp_path / 'config'} "
        f"TERM=xterm-256color {TEST_CRASH_VARIABLE}=f12"
    )
    command = f"env {env} {SCRIPT} {' '.join(options)}; echo exited-$?; sleep 60"
    if again:
        tmux("respawn-pane", "-k", "-t", "game", command)
    else:
        tmux("new-session", "-d", "-s", "game", "-x", "80", "-y", "24", command)


def test_a_bug_ends_the_game_with_one_sentence_and_a_report(tmux, tmp_path):
    start(tmux, tmp_path, "--white", "human")
    tmux.wait_for("Black to play")
    tmux("send-keys", "-t", "game", "f", "5")
    tmux.wait_for("1 f5")
    tmux("send-keys", "-t", "game", "F12")
    screen = tmux.wait_for("exited-")
    assert f"exited-{CRASH_STATUS}" in screen
    assert "Traceback" not in screen and "┌───┬" not in screen  # the terminal is put back
    said = tmux("capture-pane", "-p", "-J", "-t", "game")  # wrapped lines joined
    lines = [line for line in said.splitlines() if line.strip()]
    assert lines[-1] == f"exited-{CRASH_STATUS}" and len(lines) == 2, said  # one sentence
    match = re.fullmatch(r"tui-reversi: an unexpected error stopped the game; (.*)\.", lines[0])
    assert match, said
    assert "your game is saved and the next start offers it" in match[1]
    report = Path(re.search(r"the crash report is in (\S+\.txt)", match[1])[1])
    assert report.is_relative_to(tmp_path / "data" / "tui-reversi")
    text = report.read_text()
    assert "DeliberateCrash" in text and "game: f5" in text and "Traceback" in text
    # The next start offers the game, one move in.
    start(tmux, tmp_path, again=True)
    tmux.wait_for("Resume")
    tmux("send-keys", "-t", "game", "r")
    tmux.wait_for("1 f5")
