"""How fast the app feels in a real terminal (tmux): time to the first board
frame, key-to-screen latency while the computer thinks, and memory (RSS).

    .venv/bin/python bench/startup.py [--runs 7] [--keys 30]

Figures are medians over several runs on a shared, noisy machine; compare
them as ratios taken in the same run (e.g. latency thinking / idle), never
as absolute promises. Targets (issue 4): first frame < 0.5 s, key latency
< 50 ms while thinking, RSS < 60 MiB.

The latency part plays f5 against the real `hard` engine given two minutes
for its move, so that it is searching (in its player's thread, holding the
GIL as a search does) all the while the cursor keys are timed.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SOCKET = f"tui-reversi-bench-{os.getpid()}"


def tmux(*args: str) -> str:
    done = subprocess.run(["tmux", "-L", SOCKET, *args], capture_output=True, text=True)
    return done.stdout


def screen() -> str:
    return tmux("capture-pane", "-p", "-t", "bench")


# Each poll starts a tmux client; polling faster would steal the CPU being measured.
POLL = 0.01


def wait_for(predicate, timeout: float = 30.0, poll: float = POLL) -> float:
    """Seconds until predicate(screen) holds; raises after `timeout`."""
    start = time.perf_counter()
    while time.perf_counter() - start < timeout:
        if predicate(screen()):
            return time.perf_counter() - start
        time.sleep(poll)
    raise SystemExit(f"bench: timed out; the screen was:\n{screen()}")


def start(command: str, width: int = 80, height: int = 24) -> float:
    """Start `command` in a fresh tmux session; returns the launch clock."""
    home = tempfile.mkdtemp(prefix="tui-reversi-bench-")
    env = f"env XDG_DATA_HOME={home}/data XDG_CONFIG_HOME={home}/config TERM=xterm-256color"
    launched = time.perf_counter()
    tmux(
        "new-session",
        "-d",
        "-s",
        "bench",
        "-x",
        str(width),
        "-y",
        str(height),
        f"exec {env} {command}",
    )
    return launched


def stop() -> None:
    socket = tmux("display-message", "-p", "#{socket_path}").strip()
    tmux("kill-server")
    # The server dies asynchronously; a new session must not reach the old one.
    for _ in range(200):
        done = subprocess.run(["tmux", "-L", SOCKET, "ls"], capture_output=True)
        if done.returncode != 0:
            break
        time.sleep(0.01)
    if socket:
        Path(socket).unlink(missing_ok=True)  # tmux leaves its socket file behind


def app_pid() -> str:
    return tmux("display-message", "-p", "-t", "bench", "#{pane_pid}").strip()


def cpu_seconds() -> float:
    """The app's user + system CPU time so far: less at the mercy of other
    work on the machine than the wall clock."""
    fields = Path(f"/proc/{app_pid()}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rss_mib() -> float:
    pid = app_pid()
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def board_drawn(text: str) -> bool:
    return "a   b   c   d   e   f   g   h" in text and "8 │" in text and "Quit" in text


def app_command(tree: Path = ROOT) -> str:
    """The command that starts the app from the package in `tree` (another
    checkout gives a before/after figure)."""
    return f"env PYTHONPATH={tree} {sys.executable} -m tui_reversi --white easy"


def first_frame(command: str) -> tuple[float, float, float]:
    """Seconds from launch to the first board frame, the CPU seconds the app
    used for it, and its RSS then (MiB)."""
    launched = start(command)
    while not board_drawn(screen()):
        if time.perf_counter() - launched > 30:
            raise SystemExit(f"bench: no board after 30 s:\n{screen()}")
        time.sleep(POLL)
    elapsed = time.perf_counter() - launched
    cpu = cpu_seconds()
    time.sleep(0.3)
    rss = rss_mib()
    stop()
    return elapsed, cpu, rss


def first_frames(runs: int, commands: dict[str, str]) -> dict[str, list[tuple]]:
    """first_frame for each command, `runs` times, taking turns so that a
    change in the machine's load falls on all of them alike."""
    figures: dict[str, list[tuple]] = {name: [] for name in commands}
    for _ in range(runs):
        for name, command in commands.items():
            figures[name].append(first_frame(command))
    return figures


def cursor_row(text: str) -> str:
    """The board line holding the cursor bracket, as a fingerprint."""
    for line in text.splitlines():
        if "[" in line and "│" in line:
            return line[:36]
    return ""


def key_latency(keys: int, thinking: bool) -> tuple[list[float], float]:
    mode = "--serve-thinking" if thinking else "--serve-idle"
    start(f"{sys.executable} {Path(__file__).resolve()} {mode}")
    wait_for(board_drawn)
    if thinking:
        tmux("send-keys", "-t", "bench", "f", "5")
        wait_for(lambda text: "thinking" in text)
    latencies = []
    for i in range(keys):
        before = cursor_row(screen())
        key = "Right" if i % 2 == 0 else "Left"
        sent = time.perf_counter()
        tmux("send-keys", "-t", "bench", key)
        while cursor_row(screen()) == before:
            if time.perf_counter() - sent > 5:
                raise SystemExit(f"bench: the cursor never moved:\n{screen()}")
            time.sleep(POLL / 5)
        latencies.append(time.perf_counter() - sent)
        time.sleep(0.05)
    still_thinking = "thinking" in screen()
    memory = rss_mib()
    stop()
    if thinking and not still_thinking:
        raise SystemExit("bench: the computer stopped thinking before the keys were done")
    return latencies, memory


# -- the app under test for the latency part -----------------------------------------


def serve(thinking: bool) -> None:
    from tui_reversi.app import create_app
    from tui_reversi.engine import book
    from tui_reversi.players import Limit, create_player
    from tui_reversi.storage import Settings

    # The keys are timed while the engine searches: no opening book, whose
    # reply to f5 would come at once (the evaluation is the default one).
    book._books[book.BOOK_PATH] = None

    def factory(level, variant):
        return create_player("hard", variant=variant)

    white = "hard" if thinking else "human"
    settings = Settings(white=white, animation=False)
    create_app(settings=settings, player_factory=factory, limit=Limit(time=120.0)).run()


def ms(values: list[float]) -> str:
    values = sorted(values)
    p90 = values[min(len(values) - 1, int(len(values) * 0.9))]
    return f"median {statistics.median(values) * 1000:.1f} ms, p90 {p90 * 1000:.1f} ms"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=7, help="start-ups to time (default 7)")
    parser.add_argument("--keys", type=int, default=30, help="key presses to time (default 30)")
    parser.add_argument(
        "--baseline",
        type=Path,
        metavar="DIR",
        help="also time the first frame of the package in DIR (e.g. `git archive` of main), "
        "taking turns with this tree",
    )
    parser.add_argument(
        "--frames-only", action="store_true", help="time the first frame only, not the keys"
    )
    parser.add_argument("--serve-thinking", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--serve-idle", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve_thinking or args.serve_idle:
        serve(args.serve_thinking)
        return 0
    if shutil.which("tmux") is None:
        print("bench: tmux is not installed", file=sys.stderr)
        return 2
    try:
        commands = {"this tree": app_command()}
        if args.baseline is not None:
            commands[f"baseline {args.baseline}"] = app_command(args.baseline.resolve())
        frames = first_frames(args.runs, commands)
        for name, runs in frames.items():
            times, cpu, rss = zip(*runs, strict=True)
            print(
                f"first board frame in tmux at 80x24, {name} ({args.runs} runs): "
                f"median {statistics.median(times):.3f} s, "
                f"min {min(times):.3f} s, max {max(times):.3f} s; "
                f"CPU used: median {statistics.median(cpu):.2f} s; "
                f"RSS then: median {statistics.median(rss):.1f} MiB"
            )
        if args.frames_only:
            return 0
        idle, _ = key_latency(args.keys, thinking=False)
        busy, busy_rss = key_latency(args.keys, thinking=True)
        print(f"key-to-screen latency, idle ({args.keys} keys): {ms(idle)}")
        print(f"key-to-screen latency while the hard engine thinks: {ms(busy)}")
        print(
            f"thinking / idle latency (medians): "
            f"{statistics.median(busy) / statistics.median(idle):.2f}x"
        )
        print(f"RSS while the computer thinks: {busy_rss:.1f} MiB")
        print(
            f"(figures include tmux polling: start-up every {POLL * 1000:.0f} ms, keys every "
            f"{POLL * 200:.0f} ms, plus a few ms per capture-pane)"
        )
    finally:
        stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
