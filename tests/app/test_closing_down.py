"""The app closing down, as a player sees it: the real app in a real pty.

Ctrl+C once the terminal is back in cooked mode is SIGINT, not a key: as the
app closes down after a quit and while it writes the final autosave, it must
not cut either short. Where the moment matters, the child signals itself at
it (as the terminal would on ctrl+c), and the last autosave waits for that
moment so that the signal lands inside it. And whatever is still under way
at a quit is dropped without a word: no traceback after the game."""

from __future__ import annotations

import fcntl
import os
import pty
import select
import signal
import struct
import subprocess
import sys
import termios
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

SCRIPT = Path(sys.executable).parent / "tui-reversi"

# The child: the app as `tui-reversi` runs it, with a ctrl+c (SIGINT) right
# after the terminal is put back, another as the event loop is closed, and
# one more in the middle of the last save.
CHILD = """
import asyncio.runners, os, signal, sys, threading
from textual.drivers.linux_driver import LinuxDriver
from tui_reversi.__main__ import main
from tui_reversi.storage.autosave import Autosave

cooked = threading.Event()
stop = LinuxDriver.stop_application_mode

def stop_then_ctrl_c(self):
    stop(self)
    cooked.set()
    os.kill(os.getpid(), signal.SIGINT)

close = asyncio.runners.Runner.close

def ctrl_c_then_close(self):
    if cooked.is_set():
        os.kill(os.getpid(), signal.SIGINT)
    close(self)

save = Autosave.save

def save_through_ctrl_c(self, record):
    if record.moves:  # the last save: wait for the quit, ctrl+c, then write
        cooked.wait(10)
        os.kill(os.getpid(), signal.SIGINT)
    return save(self, record)

LinuxDriver.stop_application_mode = stop_then_ctrl_c
asyncio.runners.Runner.close = ctrl_c_then_close
Autosave.save = save_through_ctrl_c
sys.exit(main(sys.argv[1:]))
"""


class Terminal:
    """A child process on a pty of its own (80x24), and all it wrote."""

    def __init__(self, argv: list[str], env: dict[str, str]) -> None:
        self.pid, self.fd = pty.fork()
        if self.pid == 0:  # the child
            fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
            os.execve(argv[0], argv, env)
        self.output = b""
        self.ended = False

    def read(self, seconds: float) -> bool:
        """Read for `seconds`; False once the child has closed the terminal."""
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            if select.select([self.fd], [], [], 0.02)[0]:
                try:
                    data = os.read(self.fd, 65536)
                except OSError:  # EIO: the child is gone
                    return False
                if not data:
                    return False
                self.output += data
        return True

    def wait_for(self, text: bytes, timeout: float = 20.0) -> None:
        deadline = time.monotonic() + timeout
        while text not in self.output:
            assert time.monotonic() < deadline, f"no {text!r} in {self.output[-2000:]!r}"
            assert self.read(0.05), f"the app ended: {self.output[-2000:]!r}"

    def type(self, keys: bytes) -> None:
        os.write(self.fd, keys)

    def exit_status(self, timeout: float = 20.0) -> int:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            self.read(0.05)
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                self.ended = True
                return os.waitstatus_to_exitcode(status)
        pytest.fail(f"the app did not end: {self.output[-2000:]!r}")

    def close(self) -> None:
        if not self.ended:
            os.kill(self.pid, signal.SIGKILL)
            os.waitpid(self.pid, 0)
        os.close(self.fd)


@pytest.fixture
def terminal(tmp_path: Path) -> Iterator[Callable[[list[str]], Terminal]]:
    """Starts a command on a pty, with its own data and config directories;
    whatever is still running at the end is killed."""
    started: list[Terminal] = []

    def start(argv: list[str]) -> Terminal:
        started.append(Terminal(argv, environment(tmp_path)))
        return started[-1]

    yield start
    for each in started:
        each.close()


def environment(home: Path) -> dict[str, str]:
    return {
        **os.environ,
        "XDG_DATA_HOME": str(home / "data"),
        "XDG_CONFIG_HOME": str(home / "config"),
        "TERM": "xterm-256color",
    }


def autosaved(home: Path) -> str:
    """The unfinished game the next start offers, as a transcript."""
    found = subprocess.run(
        [SCRIPT, "games", "export", "--autosave", "--format", "transcript"],
        env=environment(home),
        capture_output=True,
        text=True,
    )
    return found.stdout.strip() or found.stderr


@pytest.mark.parametrize("sent", ["SIGINT", "SIGQUIT"])  # ctrl+c, ctrl+\\
def test_ctrl_c_as_the_app_closes_down_and_saves_changes_nothing(terminal, tmp_path, sent):
    child = CHILD.replace("signal.SIGINT", f"signal.{sent}")
    app = terminal([sys.executable, "-c", child, "--white", "human", "--new"])
    app.wait_for(b"Black to play")
    app.type(b"f5")
    app.wait_for(b"f5")
    app.type(b"\x11")  # ctrl+q
    status = app.exit_status()
    said = app.output.decode(errors="replace")
    assert status == 0, said[-2000:]
    assert "interrupted" not in said and "Traceback" not in said, said[-2000:]
    assert autosaved(tmp_path) == "f5"  # the whole game, its last move too


@pytest.mark.parametrize("sent", [signal.SIGINT, signal.SIGQUIT])
def test_sigint_while_playing_ends_the_game_saved_as_sigterm_does(terminal, tmp_path, sent):
    """Not a key (raw mode has none for it): `kill -INT` from elsewhere. The
    app closes down as on SIGTERM, terminal put back and game saved."""
    app = terminal([str(SCRIPT), "--white", "human", "--new"])
    app.wait_for(b"Black to play")
    app.type(b"f5")
    app.wait_for(b"f5")
    os.kill(app.pid, sent)
    status = app.exit_status()
    said = app.output.decode(errors="replace")
    assert status == 128 + sent, said[-2000:]
    stopped = "tui-reversi: stopped; the game is saved and the next start offers it"
    assert said.rstrip().endswith(stopped), said[-500:]
    assert "\x1b[?1049l" in said  # the alternate screen left: the terminal is put back
    assert autosaved(tmp_path) == "f5"


# The child: Textual's keys panel (the palette's "Keys") open, its Markdown
# still being parsed when the player quits (Markdown.update, not awaited).
SLOW_MARKDOWN = """
import sys, time
from markdown_it import MarkdownIt
from tui_reversi.__main__ import main

parse = MarkdownIt.parse

def slow_parse(self, *args, **kwargs):
    time.sleep(1.0)
    return parse(self, *args, **kwargs)

MarkdownIt.parse = slow_parse
sys.exit(main(sys.argv[1:]))
"""


def test_a_quit_while_the_keys_panel_is_drawn_says_nothing(terminal, tmp_path):
    """Found by bench/fuzz.py: asyncio printed '_GatheringFuture exception was
    never retrieved' and a CancelledError traceback after the game."""
    app = terminal([sys.executable, "-c", SLOW_MARKDOWN, "--white", "human", "--new"])
    app.wait_for(b"Black to play")
    app.type(b"\x10")  # ctrl+p
    app.wait_for(b"Search for commands")
    app.type(b"keys")
    app.wait_for(b"summary of available keys")
    app.type(b"\r")  # the keys panel opens; its Markdown is parsed in a thread, slowly
    app.wait_for(b"Cursor up")  # drawn, and the help for the focused widget on its way
    app.type(b"\x11")  # ctrl+q before that parse is done
    status = app.exit_status()
    said = app.output.decode(errors="replace")
    after = said[said.rfind("\x1b[?1049l") :]  # what is left on the terminal
    assert status == 0, said[-2000:]
    assert "Traceback" not in after and "never retrieved" not in after, after
