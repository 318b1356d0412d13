"""One real-terminal smoke test: the installed `tui-reversi` in tmux at 80x24,
a move against Easy, ctrl+c (must not quit or break anything), ctrl+q."""

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

SCRIPT = Path(sys.executable).parent / "tui-reversi"

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")


class Tmux:
    """A private tmux server (its own socket) running one command."""

    def __init__(self, socket: str) -> None:
        self.socket = socket

    def __call__(self, *args: str) -> str:
        done = subprocess.run(
            ["tmux", "-L", self.socket, *args], capture_output=True, text=True, timeout=10
        )
        return done.stdout

    def open_pane(self, name: str, command: str, columns: int = 80, rows: int = 24) -> None:
        """A session `name` at `columns`x`rows` running `command`, kept on the screen
        after the command exits. Both in one tmux call: a command that ends at once
        (a refused ssh) would otherwise take its session, and its last words, with it
        before the option is set."""
        self(
            "new-session", "-d", "-s", name, "-x", str(columns), "-y", str(rows), command,
            ";", "set-option", "-t", name, "remain-on-exit", "on",
        )  # fmt: skip

    def screen(self) -> str:
        return self("capture-pane", "-p", "-t", "game")

    def wait_for(self, text: str, timeout: float = 20.0) -> str:
        return self.wait_until(lambda screen: text in screen, repr(text), timeout)

    def wait_until(self, check, what: str, timeout: float = 20.0) -> str:
        """The screen once `check(screen)` holds (an AssertionError in it
        counts as not yet: the screen may be half drawn)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            screen = self.screen()
            try:
                if check(screen):
                    return screen
            except AssertionError:
                pass
            time.sleep(0.05)
        raise AssertionError(f"{what} never appeared; the screen was:\n{self.screen()}")


@pytest.fixture
def tmux(tmp_path):
    assert SCRIPT.exists(), f"the console script is not installed next to {sys.executable}"
    server = Tmux(f"tui-reversi-test-{os.getpid()}")
    env = {
        "XDG_DATA_HOME": str(tmp_path / "data"),
        "XDG_CONFIG_HOME": str(tmp_path / "config"),
        "TERM": "xterm-256color",
    }
    exports = " ".join(f"{k}={v}" for k, v in env.items())
    command = f"env {exports} {SCRIPT} --white easy; echo tui-reversi-exited-$?; sleep 60"
    server("new-session", "-d", "-s", "game", "-x", "80", "-y", "24", command)
    socket = Path(server("display-message", "-p", "#{socket_path}").strip())
    yield server
    server("kill-server")
    socket.unlink(missing_ok=True)  # tmux leaves its socket file behind


def test_play_a_move_against_easy_and_quit_with_ctrl_q(tmux):
    tmux.wait_for("Black to play")
    first = tmux.wait_for("^q Quit")
    assert "a   b   c   d   e   f   g   h" in first
    assert "^q Quit" in first.rstrip().splitlines()[23]  # the footer is on the last line
    tmux("send-keys", "-t", "game", "f", "5")
    tmux.wait_for("1 f5")
    # Easy answered, and it is our turn again: White's reply is in the log.
    tmux.wait_until(lambda s: "Black to move" in s and "  2 " in s, "Easy's reply")
    tmux("send-keys", "-t", "game", "C-c")  # the reflex: says how to quit, quits nothing
    tmux.wait_for("to quit")
    tmux("send-keys", "-t", "game", "C-q")
    screen = tmux.wait_for("tui-reversi-exited-0")
    assert "Traceback" not in screen
    # The terminal is back to normal: the board is gone with the alternate screen.
    assert "┌───┬" not in screen
