"""`tui-reversi serve --games-per-process 3`, for real: four players over
OpenSSH in a private tmux, the real app, three games in one process and the
fourth in another. Each plays their own board; one player's hang-up, resize
or crash is theirs alone."""

import os
import resource
import shlex
import shutil
import signal
import time
from pathlib import Path

import pytest

from tui_reversi.crash import TEST_CRASH_VARIABLE

from ..app.test_tmux import Tmux
from ..app.test_tmux_keeping import log
from ..web.browser import children_of
from .conftest import identity
from .test_table_game import SSH_OPTIONS, Server, screen, sit_down, wait_screen

pytestmark = pytest.mark.skipif(
    shutil.which("tmux") is None or shutil.which("ssh") is None,
    reason="needs tmux and an OpenSSH client",
)

PLAYERS = ("alice", "bob", "carol", "dave")
FIRST_MOVES = {"alice": "f5", "bob": "d3", "carol": "c4", "dave": "e6"}


@pytest.fixture
def hall(tmp_path, monkeypatch):
    """A server with three games a process (and the test-only crash key), and a
    private tmux; `hall.ssh(name, user, command)` opens `user`'s terminal in pane `name`."""
    monkeypatch.setenv(TEST_CRASH_VARIABLE, "f12")
    server = Server(tmp_path, "--games-per-process", "3")
    tmux = Tmux(f"tui-reversi-hosted-{os.getpid()}")

    def ssh(name: str, user: str, command: str = "") -> None:
        key = shlex.join(identity(user, tmp_path / "keys"))
        line = (
            f"env NO_COLOR=1 ssh -o SendEnv=NO_COLOR {SSH_OPTIONS} {key} -t "
            f"-p {server.port} {user}@127.0.0.1 {command}"
        )
        tmux.open_pane(name, line)

    tmux.ssh = ssh
    tmux.server = server
    try:
        yield tmux
    finally:
        tmux("kill-server")
        server.stop()


def terminals_of(pid: int) -> set[str]:
    """The pseudo-terminals a process holds open: a host's, one a game."""
    found = set()
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        try:
            target = os.readlink(fd)
        except OSError:
            continue
        if target.startswith("/dev/pts/"):
            found.add(target)
    return found


def games_by_host(hall) -> list[int]:
    """How many games each game process holds, fewest first."""
    parent = int(hall.server.wait_for(r"preloaded parent \(pid (\d+)").group(1))
    return sorted(len(terminals_of(host)) for host in children_of(parent))


def seated(hall, user: str) -> str:
    return wait_screen(
        hall, user, lambda s: f"Black {user}" in s and "Black to play" in s, f"{user}'s board"
    )


def played(hall, user: str, moves: list[str]) -> str:
    """`user`'s screen once their move log starts with `moves`."""
    return wait_screen(hall, user, lambda s: log(s)[: len(moves)] == moves, f"{user}'s {moves}")


def wait_games(hall, expected: list[int]) -> None:
    """Until the game processes hold `expected` games each, fewest first."""
    deadline = time.monotonic() + 30
    while (found := games_by_host(hall)) != expected:
        assert time.monotonic() < deadline, f"games a process: {found}, not {expected}"
        time.sleep(0.1)


def test_three_players_share_a_process_and_each_hang_up_resize_and_crash_is_theirs(hall):
    for user in PLAYERS:
        hall.ssh(user, user)
        seated(hall, user)  # in turn: the first three fill the first host
    wait_games(hall, [1, 3])
    for user in PLAYERS:
        hall("send-keys", "-t", user, *FIRST_MOVES[user])
    for user in PLAYERS:
        played(hall, user, [FIRST_MOVES[user]])
        assert f"Black {user}" in screen(hall, user)

    # A resize redraws that player's board at the new size.
    assert max(len(line) for line in screen(hall, "bob").splitlines()) <= 80
    hall("resize-window", "-t", "bob", "-x", "100", "-y", "30")
    wait_screen(
        hall,
        "bob",
        lambda s: max(len(line) for line in s.splitlines()) > 80 and log(s)[:1] == ["d3"],
        "bob's board at 100 columns",
    )

    # Alice hangs up: her game alone ends (saved), the others in her process play on.
    hall("kill-session", "-t", "alice")
    hall.server.wait_for(r"disconnect .*user=alice")
    wait_games(hall, [1, 2])
    hall("send-keys", "-t", "bob", "u")
    wait_screen(hall, "bob", lambda s: log(s) == [] and "Black to move" in s, "bob's undo")

    # Carol's app crashes: she reads the one sentence, bob and dave play on.
    hall("send-keys", "-t", "carol", "F12")
    wait_screen(
        hall,
        "carol",
        lambda s: "the server's operator has the crash report" in "".join(s.splitlines()),
        "the crash's sentence",
    )
    hall.server.wait_for(r"game crashed \(exit status 70\)")
    wait_games(hall, [1, 1])
    hall("send-keys", "-t", "dave", "u")
    wait_screen(hall, "dave", lambda s: log(s) == [] and "Black to move" in s, "dave's undo")
    for user, move in (("bob", "c4"), ("dave", "f5")):
        hall("send-keys", "-t", user, *move)
    played(hall, "bob", ["c4"])
    played(hall, "dave", ["f5"])

    # Alice's game was saved at her hang-up: she finds it again.
    hall.ssh("alice", "alice")
    wait_screen(hall, "alice", lambda s: "Resume your unfinished game?" in s, "the saved game")
    hall("send-keys", "-t", "alice", "r")
    played(hall, "alice", ["f5"])
    assert "Black alice" in screen(hall, "alice")


def test_a_host_that_dies_ends_its_games_as_killed_games_end_and_a_table_is_adjourned(hall):
    code = sit_down(hall)
    parent = int(hall.server.wait_for(r"preloaded parent \(pid (\d+)").group(1))
    (host,) = children_of(parent)  # both players' games in one process
    resource.prlimit(host, resource.RLIMIT_CORE, (0, 0))  # (the test leaves no core file)
    os.kill(host, signal.SIGSEGV)
    for name in ("alice", "bob"):
        wait_screen(
            hall,
            name,
            lambda s: f"Table {code}'s game is adjourned" in "".join(s.splitlines()),
            f"{name}'s adjourned game",
        )
    hall.server.wait_for(rf"game host \(pid {host}\) killed by signal 11; its 2 games ended")
