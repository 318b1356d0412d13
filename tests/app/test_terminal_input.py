"""Bytes a terminal may send that are not UTF-8: one 0xff, or binary data
pasted in. The real app in a real pty (tmux, at 80x24): it lives on, and
the game with it."""

from __future__ import annotations

import inspect
import os
import random
import shutil
from pathlib import Path

import pytest
from textual.drivers import linux_driver

from tui_reversi.terminal_input import STRICT_UP_TO, textual_version

from .test_tmux import SCRIPT, Tmux

needs_tmux = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")


@pytest.fixture
def game(tmp_path):
    """The app in a private tmux at 80x24, Human v Human, in its own directories."""
    server = Tmux(f"tui-reversi-bytes-{os.getpid()}")
    env = f"XDG_DATA_HOME={tmp_path / 'data'} XDG_CONFIG_HOME={tmp_path / 'config'}"
    command = f"env {env} TERM=xterm-256color {SCRIPT} --white human; echo exited-$?; sleep 60"
    server("new-session", "-d", "-s", "game", "-x", "80", "-y", "24", command)
    socket = Path(server("display-message", "-p", "#{socket_path}").strip())
    server.wait_for("Black to play")
    yield server
    server("kill-server")
    socket.unlink(missing_ok=True)


def send_bytes(tmux: Tmux, data: bytes) -> None:
    tmux("send-keys", "-t", "game", "-H", *(f"{byte:02x}" for byte in data))


def play_and_quit(tmux: Tmux) -> None:
    """The game goes on after the bytes: a move lands, ctrl+q quits cleanly."""
    tmux("send-keys", "-t", "game", "f", "5")
    tmux.wait_for("1 f5")
    tmux("send-keys", "-t", "game", "C-q")
    screen = tmux.wait_for("exited-")
    assert "exited-0" in screen and "Traceback" not in screen, screen


@needs_tmux
def test_an_invalid_utf8_byte_is_ignored(game):
    send_bytes(game, b"\xff")
    send_bytes(game, b"\xc3")  # a sequence cut short...
    send_bytes(game, b"(")  # ...by a byte that cannot continue it
    send_bytes(game, b"\xe2\x82")  # and one cut short at the end
    play_and_quit(game)


@needs_tmux
def test_a_bracketed_paste_of_binary_data_is_refused_in_one_sentence(game):
    junk = random.Random(11).randbytes(300)
    junk = junk.replace(b"\x1b", b"")  # an escape would end the paste early
    send_bytes(game, b"\x1b[200~" + junk + b"\x1b[201~")
    game.wait_for("esc Cancel")  # a paste onto the board is offered as an import
    game("send-keys", "-t", "game", "Enter")  # what was pasted is no game: one sentence
    screen = game.wait_for("The text is not a game")
    assert "no such file" not in screen and "Cannot import" not in screen, screen
    game("send-keys", "-t", "game", "Escape")
    game.wait_until(lambda screen: "Import a game" not in screen, "the dialog closing")
    play_and_quit(game)


def test_textual_still_decodes_terminal_input_strictly():
    """Fails once Textual decodes invalid UTF-8 itself (Textualize/textual#6456):
    then tui_reversi/terminal_input.py can go."""
    source = inspect.getsource(linux_driver.LinuxDriver.run_input_thread)
    assert 'getincrementaldecoder("utf-8")()' in source


def test_the_workaround_is_pinned_to_the_textual_in_use():
    """A newer Textual than the pin is left alone: check it (the tests above)
    and move STRICT_UP_TO, or drop the workaround."""
    assert textual_version() <= STRICT_UP_TO, (
        f"Textual {'.'.join(map(str, textual_version()))} is newer than the decoder "
        "workaround's pin: does it still need it?"
    )
