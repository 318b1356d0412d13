"""An arena on a fleet, played for real: two `tui-reversi serve` nodes on one
PostgreSQL, an arena of MINUTES (default 10) with a 1+0 clock, and PLAYERS
(default 8) keyed players joined over SSH (`tournament join ID`), split across
both nodes, paired by the nodes' directors (server/hall/tournaments.py).

Starts a PostgreSQL in a temporary directory (the machine's initdb, as the
tests do; or `--database URL`, migrated first) and two `serve` nodes on free
loopback ports, whose game command is the tests' stand-in (tests/server/
standin.py): it prints the game's environment, and this script plays that game
through the table's socket as the app would (net/remote.py's protocol): a legal
move after a short think, and now and then a resignation, or silence until
the server's clock flags it. Every game goes through the servers' tables and
every pairing through the directors and the store.

Prints: games played; per player games, W/D/L and points (the server's
`tournament ID`); from a game's end (the `over` line at the player's table) to
that player's next game (the next environment on their SSH session: it
includes the board's pause after a game, tournament_wait.GAME_OVER_PAUSE),
median, p90 and max; the waits over 10 s while another player the rule could
pair them with was free (back in the wait: 5 s after their own game's end);
any pair that met twice in a row; and the winner the sessions were told.

Measures and prints; asserts nothing. Run it under nice, once:

    nice -n 10 python bench/arena_fleet.py
    nice -n 10 python bench/arena_fleet.py --minutes 1 --players 4
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import asyncssh

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "bench"), str(ROOT)]

from pairing import postgres  # noqa: E402  (bench/pairing.py: a migrated database, or a cluster)

from tui_reversi.core import Color, Game  # noqa: E402
from tui_reversi.core.squares import square_name  # noqa: E402
from tui_reversi.net.remote import TABLE_SECRET_VARIABLE, TABLE_SOCKET_VARIABLE  # noqa: E402

STANDIN = ROOT / "tests" / "server" / "standin.py"
RESIGNS = 0.06  # a game's chance that its player resigns it part-way
FLAGS = 0.03  # a game's chance that its player goes silent until the clock flags them
THINK = (0.05, 0.4)  # seconds before each move, drawn evenly
VERBOSE = bool(os.environ.get("ARENA_VERBOSE"))
LONG_WAIT = 10.0  # seconds: a wait longer than this, while someone pairable is free, is flagged
BACK_IN_WAIT = 5.0  # seconds after a game's end until its player is surely free again
SESSIONS_END = 120.0  # seconds after the arena's end for every session to be told and end
NAMES = ("ann", "bob", "cy", "di", "ed", "flo", "gus", "hal", "ivy", "jo", "kim", "lu")
WON = re.compile(r"Arena \d+ is over, won by [^.]*\.")
ANSI = re.compile(rb"\x1b\[[0-9;?]*[A-Za-z]")


def start_node(data_dir: Path, database: str, log_path: Path) -> tuple[subprocess.Popen, int]:
    """A `serve` node on a free port, its log in `log_path`: the process and its port."""
    data_dir.mkdir(parents=True)
    command = [sys.executable, "-m", "tui_reversi", "serve", "--port", "0"]
    command += ["--data-dir", str(data_dir), "--database", database]
    command += ["--game-command", f"{sys.executable} {STANDIN}"]
    command += ["--max-per-address", "100", "--idle-timeout", "0", "--session-limit", "0"]
    env = {**os.environ, "HOME": str(data_dir)}
    # (its log goes to a file: a pipe nobody reads would fill and stop the node)
    with log_path.open("w") as log:
        node = subprocess.Popen(
            command, stdout=log, stderr=subprocess.STDOUT, cwd=ROOT, env=env, text=True
        )
    deadline = time.monotonic() + 120
    while (found := re.search(r"listening on \S+:(\d+)", log_path.read_text())) is None:
        if node.poll() is not None or time.monotonic() > deadline:
            stop_node(node)
            raise SystemExit(f"a node did not start:\n{log_path.read_text()[-2000:]}")
        time.sleep(0.1)
    return node, int(found.group(1))


def stop_node(node: subprocess.Popen) -> None:
    if node.poll() is None:
        node.send_signal(signal.SIGTERM)
        try:
            node.wait(30)
        except subprocess.TimeoutExpired:
            node.kill()
            node.wait()


_KEYS: dict[str, asyncssh.SSHKey] = {}


def key_of(name: str) -> asyncssh.SSHKey:
    if name not in _KEYS:
        _KEYS[name] = asyncssh.generate_private_key("ssh-ed25519")
    return _KEYS[name]


async def connect(port: int, name: str) -> asyncssh.SSHClientConnection:
    return await asyncssh.connect(
        "127.0.0.1",
        port,
        username=name,
        known_hosts=None,
        client_keys=[key_of(name)],
        agent_path=None,
    )


async def command(port: int, name: str, line: str) -> str:
    """What `ssh -p PORT NAME@host LINE` prints."""
    conn = await connect(port, name)
    try:
        done = await conn.run(line, check=False)
    finally:
        conn.close()
    return str(done.stdout) + str(done.stderr)


@dataclass
class Wait:
    """A player free: from `since` (their join, or their game's end) until `paired`."""

    since: float
    paired: float | None = None
    last_opponent: str | None = None
    after_game: bool = False


@dataclass
class Seat:
    """One player: their session, their games and their waits."""

    name: str
    port: int
    waits: list[Wait] = field(default_factory=list)
    opponents: list[str] = field(default_factory=list)
    results: list[str] = field(default_factory=list)  # "win", "draw", "loss", "none"
    tables: list[str] = field(default_factory=list)
    told: str = ""
    draw: random.Random = field(default_factory=random.Random)

    async def take_part(self, tournament: int) -> None:
        """Join the arena and play every game it gives, until the session ends."""
        async with await connect(self.port, self.name) as conn:
            process = await conn.create_process(
                f"tournament join {tournament}",
                term_type="xterm-256color",
                term_size=(80, 24),
                encoding=None,
            )
            self.waits.append(Wait(time.monotonic()))
            games: list[asyncio.Task] = []
            kept = b""
            while chunk := await process.stdout.read(65536):
                kept += chunk
                *lines, kept = kept.split(b"\n")
                for raw in lines:
                    text = ANSI.sub(b"", raw).decode(errors="replace").strip("\r ")
                    if VERBOSE:
                        print(f"{self.name} session: {text[:120]}", flush=True)
                    if "ENV {" in text:
                        self.waits[-1].paired = time.monotonic()
                        env = json.loads(text[text.index("ENV {") + 4 :])
                        games.append(asyncio.create_task(self.play(env)))
                    elif told := WON.search(text):
                        self.told = told.group(0)
            if told := WON.search(ANSI.sub(b"", kept).decode(errors="replace")):
                self.told = told.group(0)
            await asyncio.gather(*games, return_exceptions=True)

    async def play(self, env: dict) -> None:
        """One game at its table, through the table's socket (net/remote.py)."""
        reader, writer = await asyncio.open_unix_connection(env[TABLE_SOCKET_VARIABLE])
        writer.write(f"hello {env[TABLE_SECRET_VARIABLE]}\n".encode())
        game, mine, ready, sent = Game(), None, False, -1
        moves: set[asyncio.Task] = set()  # (kept: a task nobody holds may be collected)
        fate = self.draw.random()
        resign_at = self.draw.randrange(8, 40) if fate < RESIGNS else None
        silent_at = self.draw.randrange(8, 40) if RESIGNS <= fate < RESIGNS + FLAGS else None
        try:
            while data := await reader.readline():
                words = data.decode().rstrip("\n").split(" ")
                kind = words[0]
                if kind == "seated":
                    self.tables.append(words[1])
                    mine = Color.BLACK if words[2] == "black" else Color.WHITE
                elif kind == "players" and mine is not None:
                    self.opponents.append(words[2] if mine is Color.BLACK else words[1])
                elif kind == "moved" and int(words[1]) == len(game.played):
                    game.play(words[2])
                elif kind == "ready":
                    ready = True
                    writer.write(b"begun\n")
                elif kind == "over":
                    self.results.append(outcome(words[2], mine))
                    if VERBOSE:
                        print(f"{self.name} {self.tables[-1]}: {' '.join(words)}", flush=True)
                    self.waits.append(
                        Wait(time.monotonic(), last_opponent=self.opponents[-1], after_game=True)
                    )
                    break
                ply = len(game.played)
                if not ready or game.is_over or game.position.to_move is not mine or sent == ply:
                    continue
                sent = ply
                if resign_at is not None and ply >= resign_at:
                    writer.write(b"resign\n")
                elif silent_at is None or ply < silent_at:
                    moves.add(asyncio.create_task(self.move_later(writer, game, ply)))
        finally:
            writer.close()

    async def move_later(self, writer: asyncio.StreamWriter, game: Game, ply: int) -> None:
        await asyncio.sleep(self.draw.uniform(*THINK))
        if len(game.played) != ply or writer.is_closing():
            return
        square = self.draw.choice(game.position.legal_moves())
        writer.write(f"move {ply} {square_name(square)}\n".encode())


def outcome(winner: str, mine: Color | None) -> str:
    if winner == "-":
        return "draw"
    return "win" if (winner == "black") == (mine is Color.BLACK) else "loss"


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def long_waits(seats: list[Seat]) -> list[str]:
    """Each wait over LONG_WAIT during which another player was free whom the rule
    could have paired with this one (neither the other's last opponent)."""
    found = []
    for seat in seats:
        for wait in seat.waits:
            if wait.paired is None or wait.paired - wait.since <= LONG_WAIT:
                continue
            start = wait.since + LONG_WAIT
            for other in seats:
                if other is seat:
                    continue
                for theirs in other.waits:
                    if seat.name in (theirs.last_opponent,) or other.name == wait.last_opponent:
                        continue
                    free_from = theirs.since + (BACK_IN_WAIT if theirs.after_game else 0.0)
                    until = theirs.paired if theirs.paired is not None else wait.paired
                    overlap = min(wait.paired, until) - max(start, free_from)
                    if overlap > 0:
                        found.append(
                            f"{seat.name} waited {wait.paired - wait.since:.1f} s while "
                            f"{other.name} was free {overlap:.1f} s of it"
                        )
    return found


def report(seats: list[Seat], ports: list[int], standings: str) -> None:
    codes = {code for seat in seats for code in seat.tables}
    print(f"games played: {len(codes)}")
    print("player  node  games  won drawn lost  (the server's standings below)")
    for seat in seats:
        count = {r: seat.results.count(r) for r in ("win", "draw", "loss")}
        print(
            f"{seat.name:<7} {'AB'[ports.index(seat.port)]:>4}  {len(seat.tables):>5}  "
            f"{count['win']:>3} {count['draw']:>5} {count['loss']:>4}"
        )
    print(standings.rstrip())
    delays = [
        w.paired - w.since for s in seats for w in s.waits if w.after_game and w.paired is not None
    ]
    if delays:
        print(
            f"game's end to that player's next game ({len(delays)} waits): median "
            f"{statistics.median(delays):.1f} s, p90 {percentile(delays, 0.9):.1f} s, "
            f"max {max(delays):.1f} s"
        )
    firsts = [s.waits[0].paired - s.waits[0].since for s in seats if s.waits[0].paired]
    if firsts:
        print(f"join to first game: max {max(firsts):.1f} s")
    long = long_waits(seats)
    print(f"waits over {LONG_WAIT:.0f} s while a pairable player was free: {len(long)}")
    for line in long[:10]:
        print(f"  {line}")
    repeats = [
        f"{s.name} met {a} twice in a row"
        for s in seats
        for a, b in zip(s.opponents, s.opponents[1:], strict=False)
        if a == b
    ]
    print(f"pairs repeated back to back: {len(repeats)}")
    for line in repeats[:10]:
        print(f"  {line}")
    told = sorted({seat.told for seat in seats if seat.told})
    heard = sum(bool(seat.told) for seat in seats)
    print(f"winner announced: {' / '.join(told) or 'none'} (to {heard} of {len(seats)} sessions)")
    first = re.search(r"^\s*1\s+(\S+)", standings, re.MULTILINE)
    if first is not None:
        same = any(line.endswith(f"won by {first.group(1)}.") for line in told)
        print(f"the winner told is first in the standings: {'yes' if same else 'no'}")


async def arena(ports: list[int], minutes: int, players: int, seed: int) -> None:
    names = [NAMES[i] if i < len(NAMES) else f"player{i}" for i in range(players)]
    said = await command(ports[0], names[0], f"tournament new arena {minutes} 1+0")
    found = re.search(r"Arena (\d+) made", said)
    if found is None:
        raise SystemExit(f"the arena was not made: {said.strip()}")
    tournament = int(found.group(1))
    print(f"arena {tournament}: {minutes} min of 1+0, {players} players on 2 nodes", flush=True)
    seats = [
        Seat(name, ports[index % 2], draw=random.Random(seed * 1000 + index))
        for index, name in enumerate(names)
    ]
    started = time.monotonic()
    sessions = [asyncio.create_task(seat.take_part(tournament)) for seat in seats]
    _, going = await asyncio.wait(sessions, timeout=minutes * 60 + SESSIONS_END)
    for session in going:
        session.cancel()
    await asyncio.gather(*sessions, return_exceptions=True)
    print(
        f"sessions ended after {time.monotonic() - started:.0f} s; "
        f"{len(going)} still open {SESSIONS_END:.0f} s after the arena's end (closed here)",
        flush=True,
    )
    report(seats, ports, await command(ports[1], names[0], f"tournament {tournament}"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=int, default=10)
    parser.add_argument("--players", type=int, default=8)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--database", metavar="URL", help="a PostgreSQL (else a temporary one)")
    args = parser.parse_args()
    print(f"load average before: {os.getloadavg()[0]:.2f}", flush=True)
    with (
        tempfile.TemporaryDirectory(prefix="bench-arena-") as temporary,
        postgres(args.database, True) as url,
    ):
        assert url is not None
        directory = Path(temporary)
        nodes: list[subprocess.Popen] = []
        try:
            ports = []
            for name in ("a", "b"):
                node, port = start_node(directory / name, url, directory / f"{name}.log")
                nodes.append(node)
                ports.append(port)
            asyncio.run(arena(ports, args.minutes, args.players, args.seed))
        finally:
            for node in nodes:
                stop_node(node)
            for name in ("a", "b"):  # (the nodes' logs, kept for a look)
                log = directory / f"{name}.log"
                if log.exists():
                    (Path(tempfile.gettempdir()) / f"arena-fleet-{name}.log").write_text(
                        log.read_text()
                    )
    print(f"load average after: {os.getloadavg()[0]:.2f}", flush=True)


if __name__ == "__main__":
    main()
