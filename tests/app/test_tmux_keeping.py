"""The real `tui-reversi` in tmux. Killed in the middle of a game with SIGKILL,
by closing its terminal (SIGHUP, as a dropped SSH connection does) and with
SIGTERM: the next start offers the game and resumes it at the same position
with the same move list. A game copied to the clipboard (OSC 52, caught by
tmux) and pasted back in imports as the same game. A private tmux server,
temporary XDG directories."""

import json
import os
import re
import signal
import time
from pathlib import Path

import pytest

from tui_reversi.core import Game

from .test_tmux import SCRIPT, Tmux, pytestmark  # noqa: F401  (skipped without tmux)

MOVES = ("f5", "d6", "c3", "d3", "c4")
# The discs after MOVES, as board() reads them off a screen.
_DISCS = str(Game.from_transcript("".join(MOVES)).position)
PLAYED = [_DISCS[row * 8 : row * 8 + 8] for row in range(8)]


@pytest.fixture
def terminal(tmp_path):
    """Starts `tui-reversi ARGS` in a fresh tmux session called `game`."""
    server = Tmux(f"tui-reversi-resume-{os.getpid()}")
    env = {
        "XDG_DATA_HOME": str(tmp_path / "data"),
        "XDG_CONFIG_HOME": str(tmp_path / "config"),
        "TERM": "xterm-256color",
        "NO_COLOR": "1",  # the discs told apart by shape, as board() reads them
    }
    exports = " ".join(f"{k}={v}" for k, v in env.items())

    def start(*args: str) -> int:
        command = f"exec env {exports} {SCRIPT} {' '.join(args)}"
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:  # a server just killed may still be going away
            server("new-session", "-d", "-s", "game", "-x", "80", "-y", "24", command)
            pid = server("display-message", "-p", "-t", "game", "#{pane_pid}").strip()
            if pid:
                server("set-option", "-t", "game", "remain-on-exit", "on")
                return int(pid)
            time.sleep(0.1)
        raise AssertionError("tmux did not start tui-reversi")

    server.start = start
    server.autosave = tmp_path / "data" / "tui-reversi" / "autosave.json"
    yield server
    socket = server("display-message", "-p", "#{socket_path}").strip()
    server("kill-server")
    if socket:  # tmux leaves its socket file behind
        Path(socket).unlink(missing_ok=True)


def board(screen: str) -> list[str]:
    """The discs on the board as 8 strings of X, O and -."""
    rows = []
    for line in screen.splitlines():
        if re.match(r"^[1-8] [│|]", line):
            cells = re.split(r"[│|]", line[:35])[1:9]
            rows.append("".join("X" if "●" in c else "O" if "○" in c else "-" for c in cells))
    assert len(rows) == 8, screen
    return rows


def log(screen: str) -> list[str]:
    """The move log's moves, in order."""
    side = "\n".join(line[36:] for line in screen.splitlines())
    return re.findall(r"\b\d+ ([a-h][1-8]|pass)\b", side)


def gone(pid: int, timeout: float = 10.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return True
        try:
            with open(f"/proc/{pid}/stat") as stat:  # a zombie waits for tmux to reap it
                if stat.read().split(") ")[1].startswith("Z"):
                    return True
        except OSError:  # (reaped between the two looks)
            return True
        time.sleep(0.05)
    return False


def terminal_modes(terminal, expected: str | None = None, timeout: float = 5.0) -> str:
    """The pane's alternate screen and mouse reporting; with `expected`, once
    they are that (tmux reads the app's last output a moment after the app has
    gone) or the timeout has passed. (Not the cursor: tmux hides it itself when
    it writes "Pane is dead" into a pane kept after its program ended.)"""
    deadline = time.monotonic() + timeout
    while True:
        modes = terminal(
            "display-message",
            "-p",
            "-t",
            "game",
            "alt=#{alternate_on} mouse=#{mouse_any_flag}#{mouse_button_flag}#{mouse_sgr_flag}",
        ).strip()
        if expected is None or modes == expected or time.monotonic() > deadline:
            return modes
        time.sleep(0.05)


def wait_saved(path, transcript: str, timeout: float = 10.0) -> None:
    """The autosave holds `transcript` (written off the UI thread, within moments)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            if json.loads(path.read_text())["moves"] == transcript:
                return
        except (OSError, ValueError):
            pass
        time.sleep(0.02)
    raise AssertionError(f"the autosave never held {transcript}")


@pytest.mark.parametrize("how", ["SIGKILL", "SIGHUP (terminal closed)", "SIGTERM"])
def test_a_killed_game_resumes_at_the_same_position_with_the_same_moves(terminal, how):
    pid = terminal.start("--white", "human", "--no-animation")  # no flip half-way
    terminal.wait_for("Black to play")
    for ply, move in enumerate(MOVES, 1):
        terminal("send-keys", "-t", "game", *move)
        terminal.wait_for(f"{ply} {move}")
    to_play = "Black to play" if len(MOVES) % 2 == 0 else "White to play"
    terminal.wait_until(
        lambda s: to_play in s and board(s) == PLAYED and log(s) == list(MOVES), "the game"
    )
    wait_saved(terminal.autosave, "".join(MOVES))

    if how == "SIGKILL":
        os.kill(pid, signal.SIGKILL)
    elif how == "SIGTERM":
        assert terminal_modes(terminal) != "alt=0 mouse=000"  # the app's own modes
        os.kill(pid, signal.SIGTERM)
        assert gone(pid)
        # The terminal is given back as it was: the main screen, no mouse reports.
        normal = "alt=0 mouse=000"
        assert terminal_modes(terminal, normal) == normal
    else:
        terminal("kill-session", "-t", "game")
    assert gone(pid), f"tui-reversi outlived {how}"
    terminal("kill-server")

    pid = terminal.start()
    # (the dialog's lines, waited for whole: a capture can catch it half drawn)
    terminal.wait_until(
        lambda s: "Resume your unfinished game?" in s and "Move 6, White to move" in s,
        "the offer to resume",
    )
    terminal("send-keys", "-t", "game", "r")
    # The message can be on screen before the board and the log are redrawn.
    terminal.wait_until(
        lambda screen: (
            "Resumed at move 6" in screen and board(screen) == PLAYED and log(screen) == list(MOVES)
        ),
        "the resumed game, as it was",
    )
    terminal("send-keys", "-t", "game", "f", "4")  # and play goes on
    terminal.wait_for("6 f4")
    terminal("send-keys", "-t", "game", "C-q")
    assert gone(pid)


def test_a_game_copied_as_ggf_pastes_back_as_the_same_game(terminal, tmp_path):
    game = tmp_path / "game.txt"
    game.write_text("".join(MOVES))
    terminal.start("--load", str(game), "--white", "human", "--no-animation")
    terminal("set-option", "-g", "set-clipboard", "on")  # tmux keeps what OSC 52 sends
    terminal.wait_until(
        lambda s: "White to play" in s and board(s) == PLAYED and log(s) == list(MOVES),
        "the loaded game",
    )
    terminal("send-keys", "-t", "game", "x")
    terminal.wait_for("Export the game")
    terminal("send-keys", "-t", "game", "c")
    terminal.wait_for("Copied the GGF game to the clipboard")
    ggf = terminal("show-buffer")
    assert ggf.startswith("(;GM[Othello]") and "B[C4];)" in ggf
    terminal("send-keys", "-t", "game", "n")  # a new game...
    terminal.wait_for("Start · esc Cancel")
    terminal("send-keys", "-t", "game", "Enter")
    terminal.wait_for("No moves yet")
    terminal("paste-buffer", "-p", "-t", "game")  # ...and the copy pasted onto the board
    terminal.wait_for("Import a game")
    terminal("send-keys", "-t", "game", "Enter")
    terminal.wait_until(
        lambda screen: (
            "Imported a game of 5 moves" in screen
            and board(screen) == PLAYED
            and log(screen) == list(MOVES)
        ),
        "the pasted game, as it was",
    )
