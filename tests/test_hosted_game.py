"""Several games in one process (hosted_game.py), as a player at each pty sees them.

A process of its own (tests/host_of_games.py, the launcher's host mode in small)
runs three real games in threads, each on a pty of its own with an environment
and a working directory of its own; the test holds the pty masters and reads
each screen back with pyte, as the server would pass it on. The process's own
environment names none of the games' folders: whatever a game read from it
instead of its own would show up there.
"""

import json
import os
import re
import select
import signal
import struct
import subprocess
import sys
import threading
import time
from fcntl import ioctl
from pathlib import Path
from termios import TIOCSWINSZ

import pytest

pyte = pytest.importorskip("pyte", reason="pyte (the test's terminal emulator) is not installed")

HOST = Path(__file__).with_name("host_of_games.py")
RIGHT = b"\x1b[C"
CTRL_Q = b"\x11"
PACKAGES = ("textual", "rich", "tui_reversi")
WAIT = 60.0  # seconds for anything to show: a shared, loaded machine


class Terminal:
    """One player's pty: the master end, and the screen drawn on it."""

    def __init__(self, columns: int, rows: int) -> None:
        self.master, self.slave = os.openpty()
        self.raw = b""
        self.resize(columns, rows)

    def resize(self, columns: int, rows: int) -> None:
        ioctl(self.master, TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))
        self.columns, self.rows = columns, rows
        self.screen = pyte.Screen(columns, rows)
        self.stream = pyte.ByteStream(self.screen)

    def read(self) -> None:
        """Whatever the game has drawn since the last read."""
        while select.select([self.master], [], [], 0)[0]:
            try:
                data = os.read(self.master, 65536)
            except OSError:  # the game has let its pty go
                return
            if not data:
                return
            self.raw += data
            self.stream.feed(data)

    def text(self) -> str:
        self.read()
        return "\n".join(self.screen.display)

    def wait_until(self, check, what: str) -> str:
        """The screen once `check(lines)` holds (polled: it may be half drawn)."""
        deadline = time.monotonic() + WAIT
        while time.monotonic() < deadline:
            self.read()
            lines = list(self.screen.display)
            if check(lines):
                return "\n".join(lines)
            time.sleep(0.05)
        raise AssertionError(f"{what} never showed; the screen was:\n{self.text()}")

    def drawn_at_its_size(self) -> str:
        """The board with the key bar on the last row and the panels' right
        border on the last column: laid out for this pty's size."""
        return self.wait_until(
            lambda lines: (
                lines[-1].rstrip().endswith("? Help")
                and any(line.endswith("╮") for line in lines)
                and "┌───" in "\n".join(lines)
            ),
            f"the board at {self.columns}x{self.rows}",
        )

    def cursor(self) -> list[tuple[int, int]]:
        """Where the board's cursor is drawn: [x] in a small square, corners in a large one."""
        self.read()
        return [
            (row, found.start())
            for row, line in enumerate(self.screen.display)
            for found in re.finditer(r"\[|┌(?!─)", line)
        ]

    def cursor_moved(self, before: list[tuple[int, int]], what: str) -> None:
        self.wait_until(lambda lines: self.cursor() not in ([], before), what)

    def press(self, keys: bytes) -> None:
        os.write(self.master, keys)


class Host:
    """The process hosting the games, its reports of their ends."""

    def __init__(self, games: list[dict], terminals: list[Terminal], tmp: Path) -> None:
        spec = tmp / "games.json"
        spec.write_text(json.dumps(games))
        host_home = tmp / "host-home"
        host_home.mkdir()
        self.home = host_home
        self.process = subprocess.Popen(
            [sys.executable, str(HOST), str(spec)],
            pass_fds=[terminal.slave for terminal in terminals],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env={
                "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
                "HOME": str(host_home),
                "LANG": "C.UTF-8",
                "PYTHONPATH": str(Path(__file__).resolve().parent.parent),
            },
            cwd=host_home,
        )
        for terminal in terminals:
            os.close(terminal.slave)
        self.terminals = terminals
        self.exits: dict[int, int] = {}
        self.late: list[str] | None = None
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            words = line.split()
            if len(words) == 3 and words[0] == "EXIT":
                self.exits[int(words[1])] = int(words[2])
            elif line.startswith("LATE "):
                self.late = json.loads(line.removeprefix("LATE "))

    def signal(self, game: int, number: int) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(f"signal {game} {number}\n")
        self.process.stdin.flush()

    def modules_imported_late(self) -> list[str]:
        """The modules the host imported after it preloaded (as the launcher does)."""
        assert self.process.stdin is not None
        self.process.stdin.write("modules\n")
        self.process.stdin.flush()
        deadline = time.monotonic() + WAIT
        while self.late is None and time.monotonic() < deadline:
            time.sleep(0.05)
        assert self.late is not None, "the host never said what it imported"
        return self.late

    def exit_of(self, game: int) -> int:
        deadline = time.monotonic() + WAIT
        while game not in self.exits and time.monotonic() < deadline:
            # Read as the server does, all along: what a game writes just before it
            # lets its pty go is lost if it is still unread then.
            for terminal in self.terminals:
                terminal.read()
            time.sleep(0.01)
        assert game in self.exits, f"game {game} never ended; the host said {self.exits}"
        return self.exits[game]

    def stop(self) -> str:
        if self.process.poll() is None:
            self.process.kill()
        _, errors = self.process.communicate(timeout=WAIT)
        return errors


# A chromatic colour in an SGR sequence: a basic colour other than black, white and
# grey, a 256-colour index off the grey ramp and the cube's diagonal, or RGB not grey.
_GREY_INDEXES = {0, 7, 8, 15, 16, 59, 102, 145, 188, 231, *range(232, 256)}


def colours_used(raw: bytes) -> bool:
    for parameters in re.findall(rb"\x1b\[([0-9;]*)m", raw):
        numbers = [int(n) for n in parameters.split(b";") if n]
        index = 0
        while index < len(numbers):
            number = numbers[index]
            if number in (38, 48) and index + 1 < len(numbers):
                if numbers[index + 1] == 5 and index + 2 < len(numbers):
                    if numbers[index + 2] not in _GREY_INDEXES:
                        return True
                    index += 3
                    continue
                if numbers[index + 1] == 2 and index + 4 < len(numbers):
                    red, green, blue = numbers[index + 2 : index + 5]
                    if not red == green == blue:
                        return True
                    index += 5
                    continue
            if number in (*range(31, 37), *range(41, 47), *range(91, 97), *range(101, 107)):
                return True
            index += 1
    return False


def autosave_of(home: Path) -> Path:
    return home / ".local" / "share" / "tui-reversi" / "autosave.json"


def wait_for_file(path: Path, text: str) -> None:
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        if path.exists() and text in path.read_text(errors="replace"):
            return
        time.sleep(0.05)
    raise AssertionError(f"{path} never held {text!r}")


def test_three_games_in_one_process_each_keep_their_own_terminal_files_and_signals(tmp_path):
    homes = [tmp_path / name for name in ("alice", "bob", "carol")]
    for home in homes:
        home.mkdir()
    carols_folder = tmp_path / "carol-work"  # her working directory, apart from her home
    carols_folder.mkdir()
    (carols_folder / "opening.txt").write_text("f5d6\n")
    terminals = [Terminal(80, 24), Terminal(100, 30), Terminal(90, 26)]
    base = {"LANG": "C.UTF-8", "TERM": "xterm-256color", "COLORTERM": "truecolor"}
    games = [
        {
            "argv": ["--new", "--white", "easy"],
            "env": {**base, "HOME": str(homes[0]), "TUI_REVERSI_FILES_ROOT": str(homes[0])},
            "cwd": str(homes[0]),
            "tty": terminals[0].slave,
        },
        {
            "argv": ["--new", "--white", "easy"],
            "env": {
                **base,
                "HOME": str(homes[1]),
                "NO_COLOR": "1",
                "TUI_REVERSI_STACKS": "stacks.txt",  # relative: in his working directory
            },
            "cwd": str(homes[1]),
            "tty": terminals[1].slave,
        },
        {
            "argv": ["--load", "opening.txt", "--white", "easy"],  # relative: her folder's
            "env": {**base, "HOME": str(homes[2])},
            "cwd": str(carols_folder),
            "tty": terminals[2].slave,
        },
    ]
    host = Host(games, terminals, tmp_path)
    alice, bob, carol = terminals
    try:
        # Each board is laid out at its own pty's size, in colour but for NO_COLOR's.
        for terminal in terminals:
            terminal.drawn_at_its_size()
        carol.wait_until(lambda lines: "1 f5" in "\n".join(lines), "carol's loaded opening")
        assert colours_used(alice.raw) and colours_used(carol.raw)
        assert not colours_used(bob.raw)

        # A key at one terminal moves that game's cursor alone.
        for terminal in terminals:
            terminal.wait_until(lambda lines, terminal=terminal: terminal.cursor(), "a cursor")
        cursors = [terminal.cursor() for terminal in terminals]
        alice.press(RIGHT)
        alice.cursor_moved(cursors[0], "alice's cursor moving")
        assert [bob.cursor(), carol.cursor()] == cursors[1:]

        # Each game is autosaved in its own player's folder.
        alice.press(b"f5")
        alice.wait_until(lambda lines: "1 f5" in "\n".join(lines), "alice's move")
        bob.press(b"d3")
        bob.wait_until(lambda lines: "1 d3" in "\n".join(lines), "bob's move")
        wait_for_file(autosave_of(homes[0]), '"f5')
        wait_for_file(autosave_of(homes[1]), '"d3')
        assert '"d3' not in autosave_of(homes[0]).read_text()

        # Games drawn and played import nothing the host could have preloaded.
        late = host.modules_imported_late()
        assert [name for name in late if name.split(".")[0] in PACKAGES] == []

        # A resize told by SIGWINCH: bob's board is laid out again at the new size.
        bob.resize(110, 32)
        host.signal(1, signal.SIGWINCH)
        bob.drawn_at_its_size()

        # SIGUSR1: bob's threads' stacks, and what his app shows, in his stacks file.
        host.signal(1, signal.SIGUSR1)
        wait_for_file(homes[1] / "stacks.txt", "App state:\nscreens: GameScreen")
        assert "(this game's)" in (homes[1] / "stacks.txt").read_text()

        # SIGHUP ends alice's game as a hang-up does, her game saved; the others play on.
        host.signal(0, signal.SIGHUP)
        assert host.exit_of(0) == 128 + signal.SIGHUP
        alice.read()
        assert b"stopped; the game is saved" in alice.raw
        assert "f5" in autosave_of(homes[0]).read_text()
        before = bob.cursor()
        bob.press(RIGHT)
        bob.cursor_moved(before, "bob's cursor moving")

        # SIGKILL ends carol's at once.
        host.signal(2, signal.SIGKILL)
        assert host.exit_of(2) == -signal.SIGKILL

        bob.press(CTRL_Q)
        assert host.exit_of(1) == 0
        assert host.process.wait(timeout=WAIT) == 0
    finally:
        errors = host.stop()
        for terminal in terminals:
            os.close(terminal.master)
    assert errors == ""
    # Nothing went where the process's own environment points.
    assert list(host.home.iterdir()) == []


def host_one(script: str, home: Path) -> subprocess.CompletedProcess[str]:
    """`script` run in a Python of its own (it hosts a game: nothing of it stays in
    the test's process), given `home`."""
    return subprocess.run(
        [sys.executable, "-c", script, str(home)], capture_output=True, text=True, timeout=WAIT
    )


STUCK_GAME = """
import os, sys, threading
from tui_reversi.hosted_game import HostedGame

master, slave = os.openpty()
game = HostedGame(["--new"], {"HOME": sys.argv[1]}, sys.argv[1], slave)
playing = threading.Event()


def stuck() -> int:  # a game whose thread never comes back
    playing.set()
    threading.Event().wait()
    return 0


game._play_game = stuck
ended = []
runner = threading.Thread(target=lambda: ended.append(game.run()))
runner.start()
playing.wait()
game.signal(9)
runner.join()
try:
    os.read(master, 100)
    let_go = False
except OSError:  # EIO: nothing holds the pty's other end any more
    let_go = True
print(ended, let_go)
"""


def test_sigkill_ends_a_hosted_game_whose_thread_is_stuck_and_lets_its_pty_go(tmp_path):
    done = host_one(STUCK_GAME, tmp_path)
    assert done.stdout.split() == ["[-9]", "True"], done.stderr


BAD_OPTION = """
import os, sys
from tui_reversi.hosted_game import HostedGame

master, slave = os.openpty()
status = HostedGame(["--black", "nobody"], {"HOME": sys.argv[1]}, sys.argv[1], slave).run()
said = b""
try:
    while chunk := os.read(master, 4096):
        said += chunk
except OSError:  # EIO: the game has closed its pty
    pass
print(status)
print(said.decode())
"""


def test_a_hosted_games_bad_option_is_said_on_its_own_terminal_with_status_2(tmp_path):
    done = host_one(BAD_OPTION, tmp_path)
    status, said = done.stdout.split("\n", 1)
    assert status == "2", done.stderr
    assert "tui-reversi: argument --black: invalid choice: 'nobody'" in said
    assert done.stderr == ""  # nothing on the process's own standard error


# A script's pty, and what the game draws on it read all along (as the server does) into `said`.
READ_ALONG = """
import os, threading

master, slave = os.openpty()
said = []


def read() -> None:
    try:
        while chunk := os.read(master, 65536):
            said.append(chunk)
    except OSError:  # EIO: the game has closed its pty
        pass
"""


EARLY_SIGNAL = (
    READ_ALONG
    + """
import sys
from tui_reversi.hosted_game import HostedGame


reader = threading.Thread(target=read)
reader.start()
game = HostedGame(["--new"], {"HOME": sys.argv[1]}, sys.argv[1], slave)
game.signal(15)  # before it runs: it ends as soon as it does
print(game.run())
reader.join()
print(b"".join(said).decode(errors="replace"))
"""
)


def test_a_signal_before_the_game_runs_ends_it_as_soon_as_it_does(tmp_path):
    done = host_one(EARLY_SIGNAL, tmp_path)
    status, said = done.stdout.split("\n", 1)
    assert status == str(128 + signal.SIGTERM), done.stderr
    assert "\x1b[?1049l" in said  # the terminal put back
    assert "tui-reversi: stopped; the game is saved" in said


CRASHING_GAME = (
    READ_ALONG
    + """
import sys, time
from tui_reversi.hosted_game import HostedGame

home = sys.argv[1]


reader = threading.Thread(target=read)
reader.start()
env = {
    "HOME": home,
    "TUI_REVERSI_TEST_CRASH": "f12",
    "TUI_REVERSI_CRASH_REPORT": "report.txt",  # relative: in its own folder
}
game = HostedGame(["--new"], env, home, slave)
ended = []
runner = threading.Thread(target=lambda: ended.append(game.run()))
runner.start()
while b"Help" not in b"".join(said):
    time.sleep(0.05)
os.write(master, b"\\x1b[24~")  # f12
runner.join()
reader.join()
print(ended[0])
print(b"".join(said).decode(errors="replace"))
"""
)


def test_a_hosted_games_crash_is_reported_where_its_own_environment_says(tmp_path):
    done = host_one(CRASHING_GAME, tmp_path)
    status, said = done.stdout.split("\n", 1)
    assert status == "70", done.stderr  # crash.CRASH_STATUS, as its own process's
    assert "the server's operator has the crash report" in said
    report = (tmp_path / "report.txt").read_text()
    assert "DeliberateCrash" in report
    assert "command: tui-reversi --new" in report
    assert done.stderr == ""


HELD_COLLECTIONS = (
    READ_ALONG
    + """
import gc, sys, time, weakref
from tui_reversi.app import ReversiApp
from tui_reversi.hosted_game import HostedGame

apps = weakref.WeakSet()  # (gc.get_objects() would not see a frozen app)
built = ReversiApp.__init__


def counted(app, *args, **options):
    built(app, *args, **options)
    apps.add(app)


ReversiApp.__init__ = counted
home = sys.argv[1]
threading.Thread(target=read, daemon=True).start()
gc.disable()  # as another game's computer holds collections while it searches
game = HostedGame(["--new"], {"HOME": home}, home, slave)
runner = threading.Thread(target=game.run)
runner.start()
while b"Help" not in b"".join(said):
    time.sleep(0.05)
os.write(master, b"f5")  # a move autosaved: the game is well past its first frame
autosave = os.path.join(home, ".local", "share", "tui-reversi", "autosave.json")
while not (os.path.exists(autosave) and "f5" in open(autosave).read().lower()):
    time.sleep(0.05)
os.write(master, b"\\x11")  # ctrl+q
runner.join()
print(gc.isenabled())
gc.enable()  # the search is over
gc.collect()
print(len(apps))
"""
)


def test_a_hosted_game_started_while_collections_are_held_leaves_them_and_its_app_goes(tmp_path):
    done = host_one(HELD_COLLECTIONS, tmp_path)
    # The hold is left to whoever holds it, and nothing of the ended game is kept
    # (its first frame froze every object in the process: kept for ever).
    assert done.stdout.split() == ["False", "0"], done.stderr


# Two players' games hosted in the script's process, homes in argv: `start(argv, env)`
# starts the next in its home, its pty read all along; `shown(i)`: what game i drew,
# `ended[i]`: its exit status; `wait(check)` polls for at most a minute.
TWO_PLAYERS = """
import os, sys, threading, time
from tui_reversi.hosted_game import HostedGame

homes = sys.argv[1:3]
masters, said, games, ended = [], [[], []], [], {}


def read(index):  # as the server does, all along
    try:
        while chunk := os.read(masters[index], 65536):
            said[index].append(chunk)
    except OSError:  # EIO: the game has closed its pty
        pass


def shown(index):
    return b"".join(said[index]).decode(errors="replace")


def wait(what):
    deadline = time.monotonic() + 60
    while not what() and time.monotonic() < deadline:
        time.sleep(0.05)


def start(argv, env):
    index = len(games)
    master, slave = os.openpty()
    masters.append(master)
    threading.Thread(target=read, args=(index,), daemon=True).start()
    games.append(HostedGame(argv, env, homes[index], slave))
    playing = threading.Thread(target=lambda: ended.setdefault(index, games[index].run()))
    playing.daemon = True  # (a game that never ends leaves the test its output)
    playing.start()
"""


def two_players(script: str, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    """`script` (TWO_PLAYERS and more) run in a Python of its own, alice's and bob's
    homes made in `tmp_path`."""
    homes = [tmp_path / "alice", tmp_path / "bob"]
    for home in homes:
        home.mkdir()
    return subprocess.run(
        [sys.executable, "-c", script, *map(str, homes)],
        capture_output=True,
        text=True,
        timeout=3 * WAIT,
    )


FAILING_THREAD = (
    TWO_PLAYERS
    + """
from tui_reversi.storage.writer import AutosaveWriter
from tui_reversi.surroundings import current

writing = AutosaveWriter._run


def with_a_bug(writer):  # the autosave's thread, with a bug where BUGGY is set
    if current().get("BUGGY"):
        raise KeyError("a bug in the autosave's thread")
    writing(writer)


AutosaveWriter._run = with_a_bug
for index, home in enumerate(homes):
    env = {"HOME": home, "TUI_REVERSI_CRASH_REPORT": "report.txt"}
    if index == 0:
        env["BUGGY"] = "1"
    start(["--new"], env)
wait(lambda: "Help" in shown(0) and "Help" in shown(1))
os.write(masters[0], b"f5")  # the move's autosave fails
wait(lambda: 0 in ended)
# The game's last words may still be on their way through the pty when its run
# returns: read until they come (or the wait gives up, and False is printed).
wait(lambda: "operator has the crash report" in shown(0))
print(ended.get(0))
print("operator has the crash report" in shown(0))
os.write(masters[1], b"f5")  # the other game plays on, its autosave written
autosave = os.path.join(homes[1], ".local", "share", "tui-reversi", "autosave.json")
wait(lambda: os.path.exists(autosave) and "f5" in open(autosave).read().lower())
os.write(masters[1], b"\\x11")  # ctrl+q
wait(lambda: 1 in ended)
print(ended.get(1))
"""
)


def test_a_bug_in_a_hosted_games_thread_ends_that_game_with_a_report_and_no_other(tmp_path):
    done = two_players(FAILING_THREAD, tmp_path)
    # As in a process of its own: the game ends with crash.CRASH_STATUS, its report
    # where its environment says; bob's game, in the same process, plays to its quit.
    assert done.stdout.split() == ["70", "True", "0"], done.stderr
    report = (tmp_path / "alice" / "report.txt").read_text()
    assert "a bug in the autosave's thread" in report
    assert not (tmp_path / "bob" / "report.txt").exists()


def test_games_hosted_one_after_another_leave_no_app_and_no_thread_behind():
    bench = Path(__file__).resolve().parent.parent / "bench" / "hosted_garbage.py"
    done = subprocess.run(
        [sys.executable, str(bench), "--games", "4", "--at-once", "2"],
        capture_output=True,
        text=True,
        timeout=4 * WAIT,
    )
    # Each game played a move, its computer answered in a thread, and it quit.
    assert "exits [0]," in done.stdout, done.stdout + done.stderr
    left = done.stdout.splitlines()[-1]
    assert left == "left after 4 games: live apps 0, key parsers 0, threads 0"


# A served player's game (its own folder its files root), started, read all along;
# `wait(check)` polls for at most a minute.
SERVED_PLAYER = (
    READ_ALONG
    + """
import glob, sys, time
from tui_reversi.hosted_game import HostedGame

player = sys.argv[1]
threading.Thread(target=read, daemon=True).start()
env = {"HOME": player, "TERM": "xterm-256color", "TUI_REVERSI_FILES_ROOT": player}
game = HostedGame(["--new"], env, player, slave)
runner = threading.Thread(target=game.run)
runner.start()


def wait(what):
    deadline = time.monotonic() + 60
    while not what() and time.monotonic() < deadline:
        time.sleep(0.05)

"""
)


SCREENSHOT = (
    SERVED_PLAYER
    + """

def screenshots():
    return glob.glob(os.path.join(os.environ["HOME"], "**", "*.svg"), recursive=True) + glob.glob(
        os.path.join(player, "**", "*.svg"), recursive=True
    )


wait(lambda: b"Help" in b"".join(said))
os.write(master, b"\\x10")  # ctrl+p: the command palette
wait(lambda: b"Search for commands" in b"".join(said))
os.write(master, b"screenshot")
wait(lambda: b"Save an SVG" in b"".join(said))
os.write(master, b"\\r")
wait(screenshots)
os.write(master, b"\\x11")  # ctrl+q
runner.join()
print(*(os.path.relpath(path, os.path.dirname(player)) for path in screenshots()))
"""
)


def test_a_hosted_players_screenshot_is_saved_in_their_own_folder_not_the_processs(tmp_path):
    player, process_home = tmp_path / "alice", tmp_path / "server"
    player.mkdir()
    (process_home / "Downloads").mkdir(parents=True)  # where Textual would save it
    done = subprocess.run(
        [sys.executable, "-c", SCREENSHOT, str(player)],
        capture_output=True,
        text=True,
        timeout=3 * WAIT,
        env={**os.environ, "HOME": str(process_home)},
    )
    saved = done.stdout.split()
    assert len(saved) == 1, done.stdout + done.stderr
    assert saved[0].startswith("alice/tui-reversi_") and saved[0].endswith(".svg")


SAVE_AND_EXPORT = (
    SERVED_PLAYER
    + """

def files(*pattern):
    return glob.glob(os.path.join(player, ".local", "share", "tui-reversi", "games", *pattern))


wait(lambda: b"Help" in b"".join(said))
os.write(master, b"s")  # save the game under the name offered
wait(lambda: b"Save the game" in b"".join(said))
os.write(master, b"\\r")
wait(lambda: files("*.json"))
os.write(master, b"x")  # export it, then write the file offered
wait(lambda: b"Export the game" in b"".join(said))
os.write(master, b"w")  # (the file name box takes the focus at once)
os.write(master, b"\\r")
wait(lambda: files("*.ggf"))
os.write(master, b"\\x11")  # ctrl+q
runner.join()
print(len(files("*.json")), len(files("*.ggf")))
"""
)


def test_a_hosted_players_saved_and_exported_games_go_to_their_own_folder(tmp_path):
    player, process_home = tmp_path / "alice", tmp_path / "server"
    player.mkdir()
    process_home.mkdir()
    done = subprocess.run(
        [sys.executable, "-c", SAVE_AND_EXPORT, str(player)],
        capture_output=True,
        text=True,
        timeout=3 * WAIT,
        env={**os.environ, "HOME": str(process_home), "XDG_DATA_HOME": str(process_home)},
    )
    assert done.stdout.split() == ["1", "1"], done.stdout + done.stderr
    assert list(process_home.iterdir()) == []


TWO_TABLES = (
    TWO_PLAYERS
    + """
import signal, socket

names, tables = ("alice", "bob"), []

def table(listener, index):  # the server's end of one player's table
    line, _ = listener.accept()
    tables.append(line)
    assert line.makefile("rb").readline() == f"hello secret-{index}\\n".encode()
    line.sendall(f"seated T{index}AAA black othello\\nplayers {names[index]} -\\nready\\n".encode())
    wait(lambda: "Help" in shown(index))
    line.sendall(f"news Welcome, {names[index]}: this is your table.\\n".encode())


for index, home in enumerate(homes):
    listener = socket.socket(socket.AF_UNIX)
    listener.bind(os.path.join(home, "table.sock"))
    listener.listen()
    threading.Thread(target=table, args=(listener, index), daemon=True).start()
    env = {
        "HOME": home,
        "TUI_REVERSI_TABLE_SOCKET": "table.sock",  # relative: in the game's own folder
        "TUI_REVERSI_TABLE_SECRET": f"secret-{index}",
        "TUI_REVERSI_SSH_COMMAND": f"ssh -t {names[index]}.example",
    }
    start([], env)
for index, name in enumerate(names):
    wait(lambda index=index: f"Welcome, {name}" in shown(index))
    other = names[1 - index]
    print(name, f"Welcome, {name}" in shown(index), f"{name}.example" in shown(index))
    print(other, f"Welcome, {other}" in shown(index), f"{other}.example" in shown(index))
for index, game in enumerate(games):
    game.signal(signal.SIGHUP)
    wait(lambda index=index: index in ended)
print(ended)
"""
)


def test_two_hosted_games_at_tables_hear_only_their_own_tables_server(tmp_path):
    done = two_players(TWO_TABLES, tmp_path)
    # Each game's line to its table (a thread of its own) brings its table's news to
    # its own screen, with the ssh command of its own environment to invite a friend.
    assert done.stdout.splitlines() == [
        "alice True True",
        "bob False False",
        "bob True True",
        "alice False False",
        f"{{0: {128 + signal.SIGHUP}, 1: {128 + signal.SIGHUP}}}",
    ], done.stdout + done.stderr


SIXTEEN_AND_TRUE_COLOUR = (
    TWO_PLAYERS
    + """
start(["--new"], {"HOME": homes[0], "TERM": "linux"})  # 16 colours: the 16-colour theme
start(["--new"], {"HOME": homes[1], "TERM": "xterm-256color", "COLORTERM": "truecolor"})
for index in (0, 1):
    wait(lambda index=index: "Help" in shown(index))
    os.write(masters[index], b"\\x11")  # ctrl+q
    wait(lambda index=index: index in ended)
for index in (0, 1):
    print("true colour" if "38;2;" in shown(index) else "16 colours")
"""
)


def test_each_hosted_game_draws_in_the_colours_its_own_terminal_has(tmp_path):
    done = two_players(SIXTEEN_AND_TRUE_COLOUR, tmp_path)
    # alice's `linux` console is drawn in its 16 colours, bob's truecolor terminal in RGB.
    assert done.stdout.splitlines() == ["16 colours", "true colour"], done.stdout + done.stderr
