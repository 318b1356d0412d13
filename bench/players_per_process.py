"""What several players' games in one process would cost and give: memory a
player and key latency beside a thinking computer, K games a process against
one, in one run.

Not how `tui-reversi serve` runs games today (one process a player, forked
from the preloaded parent: tui_reversi/launcher.py): a measurement of the
lever judged next, made with the real app. A helper process preloads as the
launcher does (`launcher.preload()`, the garbage collector frozen), then forks
one game process per K players; each runs K real games
(tui_reversi/hosted_game.py's HostedGame: a new game against `easy` with the
player to move, as bench/players_per_node.py's idle players, each with its
own HOME and files), each in a thread of its own with its own event loop, on
a pty of its own through tui_reversi/pty_driver.py (no signals: a process has
one controlling terminal). This bench holds the pty masters and reads every
screen, as the server would.

For each K it prints, with every board drawn and idle: PSS a player (the game
processes' PSS plus the helper's, shared out, over the players), a process's
private dirty memory, and players per GB. Then the time from a cursor key to
the first byte of the redraw on one app of the first process, while the
process is idle and while a hard search runs in it (the engine as a computer
player runs it, in a thread, polling its `cancelled()`: at K=1 the player's
own computer, as today; at K > 1 a neighbour's), median and 90th percentile
over the presses. With --merge it offers every page to the kernel's page
merger (KSM) first. Measures and prints; asserts nothing. Run it
under nice (the machine is shared):

    nice -n 10 .venv/bin/python bench/players_per_process.py --players 16 --per-process 1 2 4 8
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import ctypes
import fcntl
import gc
import os
import signal
import statistics
import struct
import subprocess
import sys
import tempfile
import termios
import threading
import time
import warnings
from pathlib import Path

with warnings.catch_warnings():  # (asyncssh's, about DSA keys, which nothing here uses)
    warnings.simplefilter("ignore")
    from serve import BOARD, load, pss_kib, rollup_kib

ROOT = Path(__file__).resolve().parent.parent
RIGHT = b"\x1b[C"  # a cursor key: the board redraws its cursor
LEFT = b"\x1b[D"
PRESSES = 60
PR_SET_MEMORY_MERGE = 67  # prctl: Linux 6.4 and later
QUIET = 0.2  # seconds without output before a key is pressed: the last redraw is over
MIDGAME = "f5d6c3d3c4f4f6f3e6e7d7c5b6"  # a position where the hard search works for its second


# -- the helper (a preloaded parent and its game processes) -------------------------------


def serve_games(per_process: int, merge: bool, slaves: list[int]) -> int:
    """Preload, fork a process per `per_process` ptys, run their apps; wait for them."""
    sys.path.insert(0, str(ROOT))
    from tui_reversi import launcher

    if merge:  # every anonymous page of this process and its children offered to KSM
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_MEMORY_MERGE, 1, 0, 0, 0)
    gc.disable()
    launcher.preload()
    gc.freeze()
    children = []
    for first in range(0, len(slaves), per_process):
        pid = os.fork()
        if pid == 0:
            group = slaves[first : first + per_process]
            for fd in slaves:
                if fd not in group:
                    os.close(fd)
            os._exit(run_apps(group))
        children.append(pid)
    for fd in slaves:
        os.close(fd)
    signal.signal(signal.SIGTERM, lambda number, frame: [os.kill(c, 9) for c in children])
    for pid in children:
        with contextlib.suppress(ChildProcessError, InterruptedError):
            os.waitpid(pid, 0)
    return 0


def run_apps(ttys: list[int]) -> int:
    """K games (tui_reversi/hosted_game.py), a thread each; SIGUSR2 starts a hard
    search beside them."""
    from tui_reversi.hosted_game import HostedGame

    gc.enable()
    thinking = threading.Event()
    signal.signal(signal.SIGUSR2, lambda number, frame: thinking.set())
    games = []
    for tty in ttys:
        home = Path(os.environ["HOME"]) / f"player-{tty}"  # each player's files their own
        home.mkdir(exist_ok=True)
        env = {**os.environ, "HOME": str(home)}
        argv = ["--new", "--black", "human", "--white", "easy"]
        games.append(HostedGame(argv, env, str(home), tty))
    threads = [threading.Thread(target=game.run) for game in games]
    threads.append(threading.Thread(target=think, args=(thinking,), daemon=True))
    for thread in threads:
        thread.start()
    for thread in threads[:-1]:
        thread.join()
    return 0


def think(start: threading.Event) -> None:
    """A computer player's work in this process: hard searches, one after another."""
    from tui_reversi.core import Game
    from tui_reversi.players import Limit, analyse

    start.wait()
    position = Game.from_transcript(MIDGAME).position
    while True:
        analyse(position, limit=Limit(time=1.0), cancelled=lambda: False)


# -- the bench: ptys, screens, figures ----------------------------------------------------


class Screen:
    """One player's pty master: what the app drew, and how soon it answered a key."""

    def __init__(self, master: int, name: str) -> None:
        self.master = master
        self.name = name  # the pty's slave side, as /proc/PID/fd shows it
        self.seen = b""
        self.board_drawn = asyncio.Event()
        self.pressed_at: float | None = None
        self.last_output = 0.0
        self.latencies: list[float] = []
        asyncio.get_running_loop().add_reader(master, self._readable)

    def _readable(self) -> None:
        try:
            data = os.read(self.master, 65536)
        except OSError:
            data = b""
        if not data:
            asyncio.get_running_loop().remove_reader(self.master)
            return
        now = self.last_output = time.perf_counter()
        if not self.board_drawn.is_set():
            self.seen = self.seen[-16:] + data
            if BOARD in self.seen:
                self.board_drawn.set()
        elif self.pressed_at is not None:
            self.latencies.append(now - self.pressed_at)
            self.pressed_at = None

    def press(self, key: bytes) -> None:
        self.pressed_at = time.perf_counter()
        os.write(self.master, key)

    def close(self) -> None:
        with contextlib.suppress(ValueError, OSError):
            asyncio.get_running_loop().remove_reader(self.master)
        os.close(self.master)


def processes_under(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError):
                if int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1]) == pid:
                    found.append(int(entry.name))
    return found


async def presses(screen: Screen) -> list[float]:
    """Cursor keys, one at a time, each once the screen has been quiet for 0.2 s
    after the last was answered (or 2 s went by)."""
    screen.latencies.clear()
    for n in range(PRESSES):
        while time.perf_counter() - screen.last_output < QUIET:
            await asyncio.sleep(0.02)
        screen.press(RIGHT if n % 2 == 0 else LEFT)
        for _ in range(200):
            if screen.pressed_at is None:
                break
            await asyncio.sleep(0.01)
        screen.pressed_at = None
        await asyncio.sleep(0.1)
    return list(screen.latencies)


def spread(latencies: list[float]) -> str:
    if len(latencies) < 2:
        return "no answer"
    ms = sorted(1000 * value for value in latencies)
    p90 = ms[min(len(ms) - 1, int(0.9 * len(ms)))]
    return f"median {statistics.median(ms):5.1f} ms, p90 {p90:5.1f} ms ({len(ms)} presses)"


async def measure(players: int, per_process: int, merge: float) -> dict[str, object]:
    masters, slaves, names = [], [], []
    for _ in range(players):
        master, slave = os.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
        os.set_blocking(master, False)
        masters.append(master)
        slaves.append(slave)
        names.append(os.ttyname(slave))
    with tempfile.TemporaryDirectory(prefix="bench-per-process-") as home:
        helper = subprocess.Popen(
            [sys.executable, __file__, "--serve", str(per_process), "merge" if merge else "-"]
            + [str(slave) for slave in slaves],
            pass_fds=slaves,
            env={
                "PATH": "/usr/bin:/bin",
                "HOME": home,
                "LANG": "C.UTF-8",
                "TERM": "xterm-256color",
                "NO_COLOR": "1",
            },
            cwd=home,
            stdin=subprocess.DEVNULL,
        )
        for slave in slaves:
            os.close(slave)
        screens = [Screen(master, name) for master, name in zip(masters, names, strict=True)]
        try:
            waits = (screen.board_drawn.wait() for screen in screens)
            await asyncio.wait_for(asyncio.gather(*waits), 300)
            await asyncio.sleep(3.0)  # what the first frame set going settles
            ksmd_before = ksmd_seconds()
            await asyncio.sleep(merge)
            games = processes_under(helper.pid)
            pss = sum(pss_kib(pid) for pid in games) + pss_kib(helper.pid)
            dirty = sum(rollup_kib(pid, "Private_Dirty") for pid in games) / len(games)
            figures: dict[str, object] = {
                "MB": pss / players / 1024,
                "process dirty MB": dirty / 1024,
                "ksmd cores": (ksmd_seconds() - ksmd_before) / merge if merge else 0.0,
            }
            # A player of the first process; its neighbours there idle, then one thinking.
            watched = next(screen for screen in screens if owner(screen, games[0]))
            figures["idle"] = await presses(watched)
            os.kill(games[0], signal.SIGUSR2)
            await asyncio.sleep(1.0)
            figures["thinking"] = await presses(watched)
            return figures
        finally:
            helper.terminate()
            helper.wait(timeout=30)
            for screen in screens:
                screen.close()


def ksmd_seconds() -> float:
    """CPU seconds the kernel's page merger (ksmd) has used, 0 where there is none."""
    for entry in Path("/proc").iterdir():
        with contextlib.suppress(OSError):
            if entry.name.isdigit() and (entry / "comm").read_text().strip() == "ksmd":
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
                return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return 0.0


def owner(screen: Screen, pid: int) -> bool:
    """Whether game process `pid` holds this screen's pty."""
    holds = False
    with contextlib.suppress(OSError):
        for fd in Path(f"/proc/{pid}/fd").iterdir():
            with contextlib.suppress(OSError):
                holds = holds or os.readlink(fd) == screen.name
    return holds


async def main() -> None:
    assert __doc__ is not None
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=16, help="players seated at once")
    parser.add_argument(
        "--per-process", type=int, nargs="+", default=[1, 2, 4, 8], help="K: games a process"
    )
    parser.add_argument(
        "--merge",
        type=float,
        default=0.0,
        help="offer every game's pages to the kernel's page merger (KSM, which must be on:"
        " /sys/kernel/mm/ksm/run) and wait this many seconds before measuring",
    )
    args = parser.parse_args()
    print(f"{args.players} players, real apps at 80x24 on ptys, Python {sys.version.split()[0]}")
    print(f"before: {load()}; nice {os.nice(0)}", flush=True)
    for per_process in args.per_process:
        figures = await measure(args.players, per_process, args.merge)
        mb = float(figures["MB"])  # type: ignore[arg-type]
        print(
            f"K={per_process:<2}: PSS {mb:5.1f} MB a player, {1024 / mb:4.0f} players per GB;"
            f" a process's private dirty {figures['process dirty MB']:5.1f} MB"
            + (f"; ksmd {100 * figures['ksmd cores']:4.1f}% of a core" if args.merge else ""),
            flush=True,
        )
        for state, said in (("idle", "the process idle"), ("thinking", "a hard search in it")):
            print(f"      key to redraw, {said:>19}: {spread(figures[state])}")  # type: ignore[arg-type]
    print(f"after: {load()}")


if __name__ == "__main__":
    if sys.argv[1:2] == ["--serve"]:
        merging = sys.argv[3] == "merge"
        sys.exit(serve_games(int(sys.argv[2]), merging, [int(fd) for fd in sys.argv[4:]]))
    asyncio.run(main())
