"""Serving figures for `tui-reversi serve`, the old way and the new way in one run.

The old way starts a fresh Python for every game (`--no-preload`); the new way
forks every game from the preloaded parent. For each way this starts
`tui-reversi serve` on a free loopback port, connects asyncssh clients with
80x24 terminals and prints:

- connect to board: from opening the TCP connection until the board's key bar
  has arrived, for players arriving one at a time and 20 at once (p50, p95);
- sessions held: for each number of concurrent sessions, every player moving
  the cursor (l, h) once a second: key-to-screen latency (p50, p95), CPU used,
  and PSS per session (the games, plus the preloaded parent shared out);
- abrupt drops: 100 connections, 20 at a time, each dropped without an SSH
  goodbye at a random moment of its start; then how many game processes are
  left 15 s later, and whether the next player still gets a board.

With `--people N` it measures people playing each other instead (the new way
only): N tables at once (`table`, then `join CODE`), every mover typing a
legal square about once a second; from the mover's key press until the
opponent's screen starts to change (move to opponent's screen, p50, p95), and
PSS per table (both games, plus the preloaded parent shared out).

It prints the machine's load average before and after: the machine is shared.
Measures and prints; asserts nothing. Run it under nice, once:

    nice -n 10 python bench/serve.py                      # both ways, levels 1,20,50,100
    nice -n 10 python bench/serve.py --ways new --levels 1,20
    nice -n 10 python bench/serve.py --people 10
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import re
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import asyncssh

ROOT = Path(__file__).resolve().parent.parent
BOARD = b"Quit"  # on the key bar: the board's frame has been drawn
OPTIONS = "new white easy"  # every player starts a new game (no resume offer)
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


def start_server(data_dir: Path, preload: bool) -> tuple[subprocess.Popen[str], int, str]:
    command = [sys.executable, "-m", "tui_reversi", "serve", "--port", "0"]
    command += ["--data-dir", str(data_dir), "--max-sessions", "500", "--max-per-address", "1000"]
    command += ["--idle-timeout", "0", "--session-limit", "0"]
    if not preload:
        command.append("--no-preload")
    server = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, cwd=ROOT
    )
    port, banner = read_banner(server)
    start = re.search(r"games start (.*)", banner)
    assert start is not None
    return server, port, start.group(1)


def read_banner(server: subprocess.Popen[str]) -> tuple[int, str]:
    """The port a starting `serve` listens on, and its banner (up to the auth line)."""
    assert server.stdout is not None
    banner = ""
    while "auth " not in banner:
        line = server.stdout.readline()
        if not line:
            raise SystemExit(f"the server did not start (exit status {server.wait()})")
        banner += line
    found = re.search(r"listening on \S+:(\d+)", banner)
    assert found is not None
    return int(found.group(1)), banner


_KEYS: dict[str, asyncssh.SSHKey] = {}


def key_of(user: str) -> asyncssh.SSHKey:
    """The SSH key a player connects with: one per name, which it claims."""
    if user not in _KEYS:
        _KEYS[user] = asyncssh.generate_private_key("ssh-ed25519")
    return _KEYS[user]


class Player:
    """One player: a connection, a terminal, and the timing of what comes back."""

    def __init__(self, user: str, command: str = OPTIONS) -> None:
        self.command = command
        self.user = user
        self.conn: asyncssh.SSHClientConnection | None = None
        self.process: asyncssh.SSHClientProcess[bytes] | None = None
        self.started = 0.0
        self.board = 0.0
        self.seen = b""
        self.waiting_since: float | None = None
        self.latencies: list[float] = []
        self.reader: asyncio.Task[None] | None = None
        self.board_drawn = asyncio.Event()
        self.text = b""  # the latest output, for finding a table's code

    async def open(self, port: int) -> None:
        self.started = time.perf_counter()
        self.conn = await asyncssh.connect(
            "127.0.0.1",
            port,
            username=self.user,
            known_hosts=None,
            agent_path=None,
            client_keys=[key_of(self.user)],  # (each name is its key's)
        )
        self.process = await self.conn.create_process(
            self.command, term_type="xterm-256color", term_size=(80, 24), encoding=None
        )
        self.reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        assert self.process is not None
        while True:
            chunk = await self.process.stdout.read(65536)
            if not chunk:
                return
            now = time.perf_counter()
            self.text = (self.text + chunk)[-4096:]
            if not self.board:
                self.seen = self.seen[-16:] + chunk
                if BOARD in self.seen:
                    self.board = now
                    self.board_drawn.set()
            elif self.waiting_since is not None:
                self.latencies.append(now - self.waiting_since)
                self.waiting_since = None

    def press(self, keys: bytes) -> None:
        assert self.process is not None
        self.waiting_since = time.perf_counter()
        self.process.stdin.write(keys)

    def abort(self) -> None:
        if self.conn is not None:
            self.conn.abort()

    async def close(self) -> None:
        if self.conn is not None:
            self.conn.close()
            await self.conn.wait_closed()
        if self.reader is not None:
            self.reader.cancel()


def processes() -> dict[int, tuple[int, int]]:
    """pid -> (parent, cpu ticks) for every process we can see."""
    table = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        fields = stat.rpartition(")")[2].split()
        table[int(entry)] = (int(fields[1]), int(fields[11]) + int(fields[12]))
    return table


def descendants(pid: int, table: dict[int, tuple[int, int]]) -> list[int]:
    children: dict[int, list[int]] = {}
    for child, (parent, _) in table.items():
        children.setdefault(parent, []).append(child)
    found, todo = [], [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


def preloaded_parent(server_pid: int) -> int | None:
    for pid in descendants(server_pid, processes()):
        try:
            if b"tui_reversi.launcher" in Path(f"/proc/{pid}/cmdline").read_bytes():
                return pid
        except OSError:
            continue
    return None


def games(server_pid: int) -> list[int]:
    """The game processes (and anything they started): all the server's, but the parent."""
    parent = preloaded_parent(server_pid)
    return [pid for pid in descendants(server_pid, processes()) if pid != parent]


def pss_kib(pid: int) -> int:
    return rollup_kib(pid, "Pss")


def rollup_kib(pid: int, field: str) -> int:
    """One figure of /proc/PID/smaps_rollup (Pss, Private_Dirty...), in kB; 0 if it has gone."""
    try:
        text = Path(f"/proc/{pid}/smaps_rollup").read_text()
    except OSError:
        return 0
    found = re.search(rf"^{field}:\s+(\d+) kB", text, re.M)
    return int(found.group(1)) if found else 0


def cpu_seconds(server_pid: int) -> float:
    table = processes()
    pids = [server_pid, *descendants(server_pid, table)]
    return sum(table[pid][1] for pid in pids if pid in table) / CLOCK_TICKS


def percentile(values: list[float], fraction: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.0f} ms"


async def arrive(port: int, users: list[str]) -> list[Player]:
    """`users` connect at the same moment; returns once every board is drawn."""
    players = [Player(user) for user in users]
    await asyncio.gather(*(player.open(port) for player in players))
    await asyncio.wait_for(asyncio.gather(*(player.board_drawn.wait() for player in players)), 300)
    return players


async def connect_to_board(port: int, alone: int, together: int) -> dict[str, float]:
    times = []
    for n in range(alone):
        (player,) = await arrive(port, [f"alone{n}"])
        times.append(player.board - player.started)
        await player.close()
    crowd = await arrive(port, [f"crowd{n}" for n in range(together)])
    crowd_times = [player.board - player.started for player in crowd]
    await asyncio.gather(*(player.close() for player in crowd))
    return {
        "alone p50": percentile(times, 0.5),
        "alone p95": percentile(times, 0.95),
        f"{together} at once p50": percentile(crowd_times, 0.5),
        f"{together} at once p95": percentile(crowd_times, 0.95),
    }


async def hold(server: subprocess.Popen[str], port: int, sessions: int, seconds: float) -> dict:
    """`sessions` players at once, each moving the cursor once a second."""
    players: list[Player] = []
    for batch in range(0, sessions, 10):
        users = [f"s{sessions}p{n}" for n in range(batch, min(batch + 10, sessions))]
        players += await arrive(port, users)
    await asyncio.sleep(1.0)  # first-frame work settles
    parent = preloaded_parent(server.pid)
    game_pss = sum(pss_kib(pid) for pid in games(server.pid))
    parent_pss = pss_kib(parent) if parent else 0
    cpu_before, wall_before = cpu_seconds(server.pid), time.perf_counter()

    async def play(index: int, player: Player) -> None:
        await asyncio.sleep(index / sessions)  # spread the players over the second
        deadline = time.perf_counter() + seconds
        keys = [b"l", b"h"]
        while time.perf_counter() < deadline:
            player.press(keys[0])
            keys.reverse()
            await asyncio.sleep(1.0)

    await asyncio.gather(*(play(i, p) for i, p in enumerate(players)))
    await asyncio.sleep(0.5)
    cpu = (cpu_seconds(server.pid) - cpu_before) / (time.perf_counter() - wall_before)
    latencies = [x for p in players for x in p.latencies]
    pressed = sum(1 for p in players for _ in p.latencies) + sum(
        1 for p in players if p.waiting_since is not None
    )
    await asyncio.gather(*(p.close() for p in players))
    return {
        "sessions": sessions,
        "pss": (game_pss + parent_pss) / sessions,
        "cpu": cpu,
        "p50": percentile(latencies, 0.50),
        "p95": percentile(latencies, 0.95),
        "answered": f"{len(latencies)}/{pressed}",
    }


async def drops(server: subprocess.Popen[str], port: int, total: int, at_once: int) -> dict:
    """`total` connections, `at_once` at a time, each dropped mid-start without a goodbye."""
    chance = random.Random(18)

    async def drop(n: int) -> None:
        player = Player(f"drop{n}")
        with_board = chance.random() < 0.5
        try:
            await player.open(port)
            if with_board:
                await asyncio.wait_for(player.board_drawn.wait(), 60)
            else:
                await asyncio.sleep(chance.uniform(0, 0.5))
        finally:
            player.abort()
            if player.reader is not None:
                player.reader.cancel()

    for wave in range(0, total, at_once):
        await asyncio.gather(*(drop(n) for n in range(wave, min(wave + at_once, total))))
    deadline = time.monotonic() + 15
    left = games(server.pid)
    while left and time.monotonic() < deadline:
        await asyncio.sleep(0.2)
        left = games(server.pid)
    (after,) = await arrive(port, ["after-drops"])
    serves = after.board - after.started
    await after.close()
    return {"left": len(left), "next board": serves}


async def measure(way: str, args: argparse.Namespace) -> dict:
    with tempfile.TemporaryDirectory(prefix="bench-serve-") as temporary:
        server, port, how = start_server(Path(temporary), preload=way == "new")
        try:
            print(f"\n== {way} way: games start {how}", flush=True)
            result: dict = {"boards": await connect_to_board(port, args.alone, args.together)}
            for name, value in result["boards"].items():
                print(f"connect to board, {name}: {ms(value)}", flush=True)
            print(
                f"{'sessions':>8} {'PSS/game':>9} {'CPU':>6} {'p50':>7} {'p95':>7} {'answers':>9}"
            )
            rows = []
            for level in args.levels:
                row = await hold(server, port, level, args.seconds)
                rows.append(row)
                print(
                    f"{row['sessions']:>8} {row['pss'] / 1024:>7.1f}MB {row['cpu'] * 100:>5.0f}% "
                    f"{ms(row['p50']):>7} {ms(row['p95']):>7} {row['answered']:>9}",
                    flush=True,
                )
                await asyncio.sleep(2.0)
            result["rows"] = rows
            held = [r["sessions"] for r in rows if r["p95"] * 1000 < args.good_ms]
            result["held"] = max(held, default=0)
            good = f"{args.good_ms:.0f} ms"
            print(f"most sessions with p95 key latency under {good}: {result['held']}")
            result["drops"] = await drops(server, port, args.drops, args.together)
            print(
                f"{args.drops} abrupt drops, {args.together} at a time: "
                f"{result['drops']['left']} game processes left after 15 s; "
                f"next player's board in {ms(result['drops']['next board'])}",
                flush=True,
            )
            return result
        finally:
            server.send_signal(signal.SIGINT)  # (at once: SIGTERM drains)
            server.wait(timeout=60)


async def sit_down(port: int, table: int) -> tuple[Player, Player]:
    """A table: its host, and a guest who joined it by its code."""
    host = Player(f"host{table}", "table")
    await host.open(port)
    await asyncio.wait_for(host.board_drawn.wait(), 300)
    while (found := re.search(rb"join ([A-Z2-9]{5})", host.text)) is None:
        await asyncio.sleep(0.05)
    guest = Player(f"guest{table}", f"join {found.group(1).decode()}")
    await guest.open(port)
    await asyncio.wait_for(guest.board_drawn.wait(), 300)
    await asyncio.sleep(1.0)  # the host's screen takes the news in
    return host, guest


async def play_tables(seated: list[tuple[Player, Player]], seconds: float) -> list[float]:
    """Each (host, guest) pair plays its first legal move, one a second, for
    `seconds`: the latencies, in seconds, from a move typed to the opponent's
    next output."""
    from tui_reversi.core import Game, square_name

    latencies: list[float] = []
    tables = len(seated)

    async def play(index: int, host: Player, guest: Player) -> None:
        await asyncio.sleep(index / tables)  # spread the tables over the second
        game, deadline = Game(), time.perf_counter() + seconds
        while time.perf_counter() < deadline and not game.is_over:
            mover, opponent = (host, guest) if game.position.to_move == 0 else (guest, host)
            square = square_name(game.position.legal_moves()[0])
            opponent.latencies.clear()
            opponent.waiting_since = time.perf_counter()  # the opponent's next output
            assert mover.process is not None
            mover.process.stdin.write(square.encode())
            game.play(game.position.legal_moves()[0])
            await asyncio.sleep(1.0)
            latencies.extend(opponent.latencies)

    await asyncio.gather(*(play(i, h, g) for i, (h, g) in enumerate(seated)))
    return latencies


async def people(port: int, server: subprocess.Popen[str], tables: int, seconds: float) -> None:
    """`tables` games between people at once: move-to-opponent's-screen latency."""
    seated = []
    for batch in range(0, tables, 5):
        seated += await asyncio.gather(
            *(sit_down(port, n) for n in range(batch, min(batch + 5, tables)))
        )
    await asyncio.sleep(1.0)
    parent = preloaded_parent(server.pid)
    pss = sum(pss_kib(pid) for pid in games(server.pid)) + (pss_kib(parent) if parent else 0)
    cpu_before, wall_before = cpu_seconds(server.pid), time.perf_counter()
    latencies = await play_tables(seated, seconds)
    cpu = (cpu_seconds(server.pid) - cpu_before) / (time.perf_counter() - wall_before)
    print(
        f"{tables} tables at once, {len(latencies)} moves: move to opponent's screen "
        f"p50 {ms(percentile(latencies, 0.5))}, p95 {ms(percentile(latencies, 0.95))}; "
        f"PSS per table {pss / tables / 1024:.1f} MB; server and games CPU {cpu * 100:.0f}%",
        flush=True,
    )
    await asyncio.gather(*(p.close() for pair in seated for p in pair))


def load() -> str:
    one, five, fifteen = os.getloadavg()
    return f"load average {one:.2f} {five:.2f} {fifteen:.2f} on {os.cpu_count()} CPUs"


async def main() -> None:
    assert __doc__ is not None
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ways", default="old,new", help="old (fresh Python), new (preloaded)")
    parser.add_argument("--levels", default="1,20,50,100", help="concurrent sessions to try")
    parser.add_argument("--seconds", type=float, default=10.0, help="play time per level")
    parser.add_argument("--alone", type=int, default=10, help="players timed arriving alone")
    parser.add_argument("--together", type=int, default=20, help="players arriving at once")
    parser.add_argument("--drops", type=int, default=100, help="connections dropped abruptly")
    parser.add_argument("--good-ms", type=float, default=200.0, help="p95 a level must keep")
    parser.add_argument("--people", type=int, default=0, help="tables of two people instead")
    args = parser.parse_args()
    if args.people:
        print(f"tui-reversi serve, people at tables; Python {sys.version.split()[0]}")
        print(f"before: {load()}; nice {os.nice(0)}", flush=True)
        with tempfile.TemporaryDirectory(prefix="bench-serve-") as temporary:
            server, port, how = start_server(Path(temporary), preload=True)
            try:
                print(f"games start {how}", flush=True)
                await people(port, server, args.people, args.seconds)
            finally:
                server.send_signal(signal.SIGINT)  # (at once: SIGTERM drains)
                server.wait(timeout=60)
        print(f"after: {load()}")
        return
    args.levels = [int(level) for level in args.levels.split(",")]
    print(f"tui-reversi serve, the real app ({OPTIONS}); Python {sys.version.split()[0]}")
    print(f"before: {load()}; nice {os.nice(0)}", flush=True)
    results = {way: await measure(way, args) for way in args.ways.split(",")}
    print(f"\nafter: {load()}")
    if len(results) == 2:
        old, new = results["old"], results["new"]
        print("\nold way -> new way")
        for name, before in old["boards"].items():
            print(f"  connect to board, {name}: {ms(before)} -> {ms(new['boards'][name])}")
        for before, after in zip(old["rows"], new["rows"], strict=True):
            print(
                f"  {before['sessions']} sessions: PSS/game {before['pss'] / 1024:.1f} MB -> "
                f"{after['pss'] / 1024:.1f} MB, p95 key {ms(before['p95'])} -> {ms(after['p95'])}"
            )
        good = f"{args.good_ms:.0f} ms"
        print(f"  most sessions with p95 under {good}: {old['held']} -> {new['held']}")
        print(f"  processes left after drops: {old['drops']['left']} -> {new['drops']['left']}")


if __name__ == "__main__":
    asyncio.run(main())
