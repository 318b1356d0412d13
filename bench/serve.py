"""Serving figures for `tui-reversi serve`: first frame, memory, sessions one machine holds.

Starts `tui-reversi serve` in a subprocess on a free loopback port, connects
asyncssh clients with terminals and prints:

- connect to first frame: from opening the TCP connection to the first byte of
  the game's screen, and to the end of its first burst of output (the frame);
  the same game started on a local pty in the same run is the baseline, so
  the difference is what SSH and the server add;
- memory per session: PSS of each game's process tree, and how much the server
  itself grows per session;
- sessions held: for each number of concurrent sessions, every player typing
  a square name at a steady rate, the key-to-screen latency (p50, p95, max)
  and the CPU used by the server and the games.

Measures and prints; asserts nothing. On a shared machine run it under nice:

    nice python bench/serve.py                        # the stand-in game (tests/server)
    nice python bench/serve.py --app --levels 1,5,10  # the real app, white played by easy
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import asyncssh

from tui_reversi.server.session import game_options

ROOT = Path(__file__).resolve().parent.parent
STANDIN = ROOT / "tests" / "server" / "standin.py"
QUIET = 0.25  # a frame is over when the game has been quiet this long
SQUARES = [f"{c}{r}" for r in "36452718" for c in "cdefbgah"]  # central squares first
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
PAGE = os.sysconf("SC_PAGE_SIZE")


def start_server(data_dir: Path, game_command: str | None) -> tuple[subprocess.Popen, int]:
    command = [sys.executable, "-m", "tui_reversi", "serve", "--port", "0"]
    command += ["--data-dir", str(data_dir), "--max-sessions", "500", "--max-per-address", "1000"]
    command += ["--idle-timeout", "0", "--session-limit", "0"]
    if game_command:
        command += ["--game-command", game_command]
    server = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, cwd=ROOT
    )
    banner = ""
    while "play with" not in banner:
        line = server.stdout.readline()
        if not line:
            raise SystemExit("the server did not start")
        banner += line
    port = int(re.search(r"listening on \S+:(\d+)", banner).group(1))
    return server, port


class Session:
    """One player: a connection, a terminal, and the timing of what comes back."""

    def __init__(self) -> None:
        self.conn: asyncssh.SSHClientConnection | None = None
        self.process: asyncssh.SSHClientProcess | None = None
        self.started = 0.0
        self.opened = 0.0
        self.first_byte = 0.0
        self.frame = 0.0
        self.last_output = 0.0
        self.waiting_since: float | None = None
        self.latencies: list[float] = []
        self.reader: asyncio.Task | None = None

    async def open(self, port: int, user: str, options: str | None) -> None:
        self.started = time.perf_counter()
        self.conn = await asyncssh.connect(
            "127.0.0.1", port, username=user, known_hosts=None, agent_path=None, client_keys=None
        )
        self.process = await self.conn.create_process(
            options, term_type="xterm-256color", term_size=(100, 30), encoding=None
        )
        self.opened = time.perf_counter()
        self.reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        while True:
            chunk = await self.process.stdout.read(65536)
            if not chunk:
                return
            now = time.perf_counter()
            if not self.first_byte:
                self.first_byte = now
            self.last_output = now
            if self.waiting_since is not None:
                self.latencies.append(now - self.waiting_since)
                self.waiting_since = None

    async def first_frame(self) -> None:
        """Wait for the first burst of output to end; its end is the first frame."""
        while not self.first_byte or time.perf_counter() - self.last_output < QUIET:
            await asyncio.sleep(0.01)
        self.frame = self.last_output

    def press(self, keys: bytes) -> None:
        if self.waiting_since is None:
            self.waiting_since = time.perf_counter()
        self.process.stdin.write(keys)

    async def close(self) -> None:
        self.conn.close()
        await self.conn.wait_closed()
        if self.reader:
            self.reader.cancel()


def processes() -> dict[int, tuple[int, int, int]]:
    """pid -> (parent, session, cpu ticks) for every process we can see."""
    table = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        fields = stat.rpartition(")")[2].split()
        table[int(entry)] = (int(fields[1]), int(fields[3]), int(fields[11]) + int(fields[12]))
    return table


def games_of(server_pid: int, table: dict) -> list[int]:
    """Every process in a session led by a child of the server: the games and their helpers."""
    leaders = {pid for pid, (parent, _, _) in table.items() if parent == server_pid}
    return [pid for pid, (_, session, _) in table.items() if session in leaders]


def kib(pid: int, field: str) -> int:
    try:
        text = Path(f"/proc/{pid}/smaps_rollup").read_text()
    except OSError:
        return 0
    match = re.search(rf"^{field}:\s+(\d+) kB", text, re.M)
    return int(match.group(1)) if match else 0


def cpu_seconds(server_pid: int) -> float:
    table = processes()
    pids = [server_pid, *games_of(server_pid, table)]
    return sum(table[pid][2] for pid in pids if pid in table) / CLOCK_TICKS


async def first_frames(port: int, options: str | None, count: int) -> None:
    open_times, byte_times, frame_times = [], [], []
    for n in range(count):
        session = Session()
        await session.open(port, f"first{n}", options)
        await session.first_frame()
        open_times.append(session.opened - session.started)
        byte_times.append(session.first_byte - session.started)
        frame_times.append(session.frame - session.started)
        await session.close()
    print(
        f"SSH handshake + session: median {ms(statistics.median(open_times))}"
        f"  (min {ms(min(open_times))}, max {ms(max(open_times))})"
    )
    print(
        f"connect to first byte:    median {ms(statistics.median(byte_times))}"
        f"  (min {ms(min(byte_times))}, max {ms(max(byte_times))}, {count} connections)"
    )
    print(
        f"connect to first frame:   median {ms(statistics.median(frame_times))}"
        f"  (min {ms(min(frame_times))}, max {ms(max(frame_times))})"
    )


async def local_first_frames(argv: list[str], count: int) -> None:
    """The same game started on a local pty, no SSH: the baseline for the figures above."""
    from tui_reversi.server.config import player_environment
    from tui_reversi.server.pty_process import PtyProcess

    frame_times = []
    with tempfile.TemporaryDirectory(prefix="bench-serve-local-") as home:
        env = player_environment(
            home=Path(home), user="local", term="xterm-256color", client_env={},
            ssh_connection="127.0.0.1 1 127.0.0.1 2",
        )  # fmt: skip
        for _ in range(count):
            seen = {"first": 0.0, "last": 0.0}

            def output(data: bytes, seen=seen) -> None:
                seen["last"] = time.perf_counter()
                seen["first"] = seen["first"] or seen["last"]

            started = time.perf_counter()
            game = await PtyProcess.start(
                argv, env=env, cwd=Path(home), size=(100, 30, 0, 0),
                on_output=output,
            )  # fmt: skip
            while not seen["first"] or time.perf_counter() - seen["last"] < QUIET:
                await asyncio.sleep(0.01)
            frame_times.append(seen["last"] - started)
            game.hang_up(1.0)
            await game.wait()
    print(
        f"local pty, first frame:   median {ms(statistics.median(frame_times))}"
        f"  (min {ms(min(frame_times))}, max {ms(max(frame_times))}; no SSH)"
    )


async def hold(
    server: subprocess.Popen,
    port: int,
    options: str | None,
    sessions: int,
    seconds: float,
    rate: float,
) -> dict:
    """`sessions` players at once, each pressing a square name every 1/rate s."""
    server_rss = kib(server.pid, "Rss")
    players = [Session() for _ in range(sessions)]
    started = time.perf_counter()
    for batch in range(0, sessions, 10):
        await asyncio.gather(
            *(
                p.open(port, f"p{batch + i}", options)
                for i, p in enumerate(players[batch : batch + 10])
            )
        )
    await asyncio.gather(*(p.first_frame() for p in players))
    ready = max(p.frame for p in players) - started
    table = processes()
    games = games_of(server.pid, table)
    pss = sum(kib(pid, "Pss") for pid in games)
    grown = kib(server.pid, "Rss") - server_rss
    cpu_before, wall_before = cpu_seconds(server.pid), time.perf_counter()

    async def play(index: int, player: Session) -> None:
        await asyncio.sleep(index / sessions / rate)  # spread the players out
        move = index
        deadline = time.perf_counter() + seconds
        while time.perf_counter() < deadline:
            player.press(SQUARES[move % len(SQUARES)].encode())
            move += 1
            await asyncio.sleep(1 / rate)

    await asyncio.gather(*(play(i, p) for i, p in enumerate(players)))
    cpu = (cpu_seconds(server.pid) - cpu_before) / (time.perf_counter() - wall_before)
    latencies = sorted(x for p in players for x in p.latencies)
    await asyncio.gather(*(p.close() for p in players))
    return {
        "sessions": sessions,
        "ready": ready,
        "pss": pss / sessions,
        "server_growth": grown / sessions,
        "cpu": cpu,
        "p50": percentile(latencies, 0.50),
        "p95": percentile(latencies, 0.95),
        "max": latencies[-1] if latencies else float("nan"),
        "answered": len(latencies),
    }


def percentile(values: list[float], fraction: float) -> float:
    if not values:
        return float("nan")
    return values[min(len(values) - 1, int(fraction * len(values)))]


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.0f} ms"


async def wait_for_no_games(server_pid: int) -> int:
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline:
        left = games_of(server_pid, processes())
        if not left:
            return 0
        await asyncio.sleep(0.1)
    return len(left)


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--app", action="store_true", help="serve the real app (white: easy)")
    parser.add_argument(
        "--game-command",
        metavar="CMD",
        help="what each session runs (default: the app with --app, else the stand-in)",
    )
    parser.add_argument("--levels", default="1,5,10,20", help="concurrent sessions to try")
    parser.add_argument("--seconds", type=float, default=10.0, help="play time per level")
    parser.add_argument("--rate", type=float, default=1.0, help="key presses per second each")
    parser.add_argument("--first", type=int, default=10, help="connections timed for frame 1")
    parser.add_argument(
        "--good-ms",
        type=float,
        default=200.0,
        help="p95 key-to-screen latency a level must keep to count as held",
    )
    args = parser.parse_args()
    levels = [int(level) for level in args.levels.split(",")]
    options = "white easy" if args.app else None
    game = "the app, white: easy" if args.app else "the stand-in (tests/server/standin.py)"
    print(f"tui-reversi serve, {game}; {os.cpu_count()} CPUs, Python {sys.version.split()[0]}")
    with tempfile.TemporaryDirectory(prefix="bench-serve-") as temporary:
        standin = shlex.join([sys.executable, str(STANDIN)])
        game_command = args.game_command or (None if args.app else standin)
        server, port = start_server(Path(temporary), game_command)
        try:
            await first_frames(port, options, args.first)
            local = shlex.split(game_command or f"{sys.executable} -m tui_reversi")
            await local_first_frames([*local, *game_options(options)], args.first)
            print(
                f"\n{'sessions':>8} {'ready':>8} {'PSS/game':>9} {'server+':>8} "
                f"{'CPU':>6} {'p50':>7} {'p95':>7} {'max':>7} {'answers':>7}"
            )
            held = 0
            for level in levels:
                row = await hold(server, port, options, level, args.seconds, args.rate)
                print(
                    f"{row['sessions']:>8} {row['ready']:>7.1f}s {row['pss'] / 1024:>7.1f}MB "
                    f"{row['server_growth'] / 1024:>6.2f}MB {row['cpu'] * 100:>5.0f}% "
                    f"{ms(row['p50']):>7} {ms(row['p95']):>7} {ms(row['max']):>7} "
                    f"{row['answered']:>7}"
                )
                left = await wait_for_no_games(server.pid)
                if left:
                    print(f"  !! {left} game processes still there 15 s after their players left")
                if row["p95"] * 1000 <= args.good_ms:
                    held = level
            print(
                f"\nheld with p95 key-to-screen under {args.good_ms:.0f} ms: {held} sessions"
                " (CPU is % of one core: server plus games)"
            )
        finally:
            server.terminate()
            server.wait(timeout=30)


if __name__ == "__main__":
    asyncio.run(main())
