"""What one hostile stranger can do to `tui-reversi serve` (issue 37): figures,
never asserts, for this tree and, with --against, an older one side by side.

Each measure starts its own `tui-reversi serve` on a free loopback port from
the tree's own venv (TREE/.venv/bin/python, else this Python with the tree on
PYTHONPATH), with the server's log (its stderr) in a file, does its harm, and
says one figure. The measures are in MEASURES, one entry each: add yours there.

- log bytes written while one address sends 50 SSH disconnects before key
  exchange, each with a 260 KB reason carrying a forged log line, ESC and BEL;
- crash reports left by 12 guest sessions (three at a time) pressing random
  keys and changing the window size across the 60x21 minimum, then hanging up;
- `ssh alice@host lobby` from a keyed user, median and p95 (connecting
  included), alone and while one guest from another address floods window
  changes (alternately 1000x1000 and 1x1, as fast as it can), or 1-byte
  keystrokes (tests/server/flooder.py, in a process of its own), with the
  server process's own CPU time meanwhile;
- a keyed player's wait for the board while guests from 5 addresses hold
  every seat they are given (--max-sessions 8);
- the share of fresh `lobby` logins that get in while 25 addresses each hold
  3 idle sockets at the door (saying `SSH-2.0-idle`, back 0.2 s after a drop).

    nice -n 10 .venv/bin/python bench/hostile.py
    nice -n 10 .venv/bin/python bench/hostile.py --against /path/to/main-checkout
    nice -n 10 .venv/bin/python bench/hostile.py --only "log bytes"
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import signal
import subprocess
import sys
import tempfile
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # (the forged packet is the tests' own: tests/server/forged.py)

import asyncssh  # noqa: E402
from fuzz import random_key  # noqa: E402
from serve import BOARD, load, percentile, read_banner  # noqa: E402
from serve import key_of as player_key  # noqa: E402

from tests.server.flooder import hold_the_door  # noqa: E402
from tests.server.forged import send_disconnect  # noqa: E402

FORGED_DISCONNECTS = 50
# Guest sessions of random keys and resizes (across the 60x21 minimum), three at a time.
RESIZING_GUESTS, AT_ONCE, GUEST_SECONDS = 12, 3, 8.0
SIZES = [(59, 20), (60, 21), (61, 22), (80, 24), (40, 10), (59, 30), (100, 20), (120, 40)]
FLOODER = ROOT / "tests" / "server" / "flooder.py"
# `lobby` timed this many times alone, then as many during a flood of FLOOD_SECONDS.
LOBBY_TIMES, FLOOD_SECONDS = 12, 40.0
# Guests trying for seats: from this many addresses, this many each (--max-sessions 8).
GUEST_ADDRESSES, GUESTS_EACH, SEATS = 5, 5, 8
# Addresses holding the door, sockets each; fresh logins tried, one every LOGIN_GAP seconds.
HOLDING_ADDRESSES, SOCKETS_EACH, FRESH_LOGINS, LOGIN_GAP = 25, 3, 40, 0.5


@dataclass
class Server:
    """One running `tui-reversi serve`: its process, port and log file."""

    process: subprocess.Popen[str]
    port: int
    log: Path
    data: Path

    @property
    def log_bytes(self) -> int:
        return self.log.stat().st_size


@dataclass(frozen=True)
class Measure:
    """One figure: what it is (with its unit), how it is taken, and the serve flags it needs."""

    name: str
    take: Callable[[Server], Awaitable[str]]
    flags: tuple[str, ...] = ()


async def forged_disconnects(server: Server) -> str:
    """Log bytes written while one address sends FORGED_DISCONNECTS SSH disconnects,
    each with a 260 KB reason carrying a forged line and terminal controls."""
    before = server.log_bytes
    loop = asyncio.get_running_loop()
    started = loop.time()
    for _ in range(FORGED_DISCONNECTS):
        await send_disconnect(server.port)
    took = loop.time() - started
    await asyncio.sleep(1.0)  # (the last lines written)
    return f"{server.log_bytes - before:,} B in {took:.1f} s"


class Guest(asyncssh.SSHClient):
    """No key: in as a guest, as `ssh -o PubkeyAuthentication=no` comes."""

    def kbdint_auth_requested(self) -> str:
        return ""

    def kbdint_challenge_received(
        self, name: str, instructions: str, lang: str, prompts: list[tuple[str, bool]]
    ) -> list[str]:
        return [""] * len(prompts)


async def drain(process: asyncssh.SSHClientProcess[bytes]) -> None:
    """Read the game's output (unlooked at) until it ends."""
    with contextlib.suppress(asyncssh.Error, OSError):
        while await process.stdout.read(65536):
            pass


async def resizing_guest(port: int, seed: int) -> None:
    """One guest's game: GUEST_SECONDS of random keys (bench/fuzz.py's) and
    window changes, often with no pause between them, then a hang-up."""
    rng = random.Random(seed)
    conn = await asyncssh.connect(
        "127.0.0.1", port, username="x", known_hosts=None, client_keys=[],
        agent_path=None, client_factory=Guest,
        local_addr=(f"127.0.0.{100 + seed}", 0),  # (each its own: guests share an address's seats)
    )  # fmt: skip
    process = await conn.create_process(
        None, term_type="xterm-256color", term_size=(80, 24), encoding=None
    )
    loop = asyncio.get_running_loop()
    deadline = loop.time() + GUEST_SECONDS
    reading = asyncio.ensure_future(drain(process))
    await asyncio.sleep(1.5)  # (the board first)
    while loop.time() < deadline and not reading.done():
        if rng.random() < 0.4:
            process.change_terminal_size(*rng.choice(SIZES))
        else:
            process.stdin.write("".join(random_key(rng) for _ in range(3)).encode())
        await asyncio.sleep(rng.choice([0, 0, 0, 0.001, 0.005, 0.02, 0.1]))
    conn.close()
    reading.cancel()


async def resizing_guests(server: Server) -> str:
    """Crash reports left by RESIZING_GUESTS guest sessions of keys and resizes."""
    for first in range(0, RESIZING_GUESTS, AT_ONCE):
        seeds = range(first, min(first + AT_ONCE, RESIZING_GUESTS))
        await asyncio.gather(*(resizing_guest(server.port, seed) for seed in seeds))
    await asyncio.sleep(5.0)  # (the games hung up last write theirs)
    reports = server.data / "crash-reports"
    count = len(list(reports.glob("*.txt"))) if reports.is_dir() else 0
    return f"{count} of {RESIZING_GUESTS} sessions"


async def lobby_seconds(port: int) -> float:
    """How long alice's `ssh host lobby` takes, connecting included."""
    loop = asyncio.get_running_loop()
    started = loop.time()
    async with asyncssh.connect(
        "127.0.0.1", port, username="alice", known_hosts=None,
        client_keys=[player_key("alice")], agent_path=None,
    ) as conn:  # fmt: skip
        await conn.run("lobby", check=True)
    return loop.time() - started


async def lobby_times(port: int) -> str:
    """Median/p95 of LOBBY_TIMES lobbies; one that fails counts with its time till then."""
    loop = asyncio.get_running_loop()
    times, failed = [], 0
    for _ in range(LOBBY_TIMES):
        started = loop.time()
        try:
            times.append(await asyncio.wait_for(lobby_seconds(port), 60))
        except (OSError, asyncssh.Error, TimeoutError):
            times.append(loop.time() - started)
            failed += 1
        await asyncio.sleep(0.2)
    lost = f", {failed} failed" if failed else ""
    return f"{percentile(times, 0.5):.2f}/{percentile(times, 0.95):.2f} s{lost}"


def own_cpu_seconds(pid: int) -> float:
    """CPU time (user and system) of the process `pid` alone, not its games."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def lobby_while_flooded(server: Server, kind: str) -> str:
    """`lobby`'s median/p95 alone, then while a guest from 127.0.0.2 floods `kind`;
    and the server's own CPU time in those seconds of flood."""
    alone = await lobby_times(server.port)
    flooder = await asyncio.create_subprocess_exec(
        sys.executable, str(FLOODER), str(server.port), kind, str(FLOOD_SECONDS), "127.0.0.2",
        stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.DEVNULL,
    )  # fmt: skip
    try:
        await asyncio.sleep(5.0)  # (its board drawn, the flood under way)
        loop = asyncio.get_running_loop()
        cpu, started = own_cpu_seconds(server.process.pid), loop.time()
        flooded = await lobby_times(server.port)
        cpu, took = own_cpu_seconds(server.process.pid) - cpu, loop.time() - started
    finally:
        with contextlib.suppress(ProcessLookupError):
            flooder.kill()
        await flooder.wait()
    return f"{flooded} (alone {alone}); server CPU {cpu:.1f} s in {took:.0f} s"


async def lobby_resize_flood(server: Server) -> str:
    return await lobby_while_flooded(server, "resize")


async def lobby_keys_flood(server: Server) -> str:
    return await lobby_while_flooded(server, "keys")


async def board_wait(port: int, user: str, source: str) -> tuple[float, str]:
    """Seconds from connecting to the board, or what was said instead; the connection
    stays open (a seat held) until the server stops."""
    loop = asyncio.get_running_loop()
    started = loop.time()
    guest = user == "x"
    conn = await asyncssh.connect(
        "127.0.0.1", port, username=user, known_hosts=None, agent_path=None,
        client_keys=[] if guest else [player_key(user)], local_addr=(source, 0),
        **({"client_factory": Guest} if guest else {}),
    )  # fmt: skip
    process = await conn.create_process(None, term_type="xterm-256color", term_size=(80, 24))
    seen = ""
    while BOARD.decode() not in seen:
        chunk = await asyncio.wait_for(process.stdout.read(65536), 60)
        if not chunk:
            said = seen + await process.stderr.read()
            return -1.0, said.strip().removeprefix("tui-reversi: ")[:40]
        seen = seen[-64:] + chunk
    return loop.time() - started, ""


async def keyed_board_beside_guests(server: Server) -> str:
    """A keyed player's board wait once guests from GUEST_ADDRESSES addresses have
    taken every seat they are given."""
    seated = 0
    for n in range(GUEST_ADDRESSES * GUESTS_EACH):
        with contextlib.suppress(OSError, asyncssh.Error):
            wait, _ = await board_wait(server.port, "x", f"127.0.0.{2 + n % GUEST_ADDRESSES}")
            seated += wait >= 0
    wait, said = await board_wait(server.port, "alice", "127.0.0.1")
    return f"{wait:.2f} s ({seated} guests in)" if wait >= 0 else f"{said} ({seated} guests in)"


async def fresh_logins_beside_held_door(server: Server) -> str:
    """The share of FRESH_LOGINS `lobby` logins that get in (within 10 s each) while
    HOLDING_ADDRESSES addresses hold SOCKETS_EACH idle sockets each."""
    stop = asyncio.Event()
    holders = [
        asyncio.create_task(hold_the_door(server.port, f"127.0.0.{2 + n // SOCKETS_EACH}", stop))
        for n in range(HOLDING_ADDRESSES * SOCKETS_EACH)
    ]
    await asyncio.sleep(2.0)  # the door held
    logins = 0
    for _ in range(FRESH_LOGINS):
        with contextlib.suppress(OSError, asyncssh.Error, TimeoutError):
            await asyncio.wait_for(lobby_seconds(server.port), 10)
            logins += 1
        await asyncio.sleep(LOGIN_GAP)
    stop.set()
    for task in holders:
        task.cancel()
    await asyncio.gather(*holders, return_exceptions=True)
    return f"{logins} of {FRESH_LOGINS}"


# Every measure, in the order printed: add yours here.
MEASURES = [
    Measure(f"log bytes written by {FORGED_DISCONNECTS} forged disconnects", forged_disconnects),
    Measure("crash reports from guests pressing keys and resizing", resizing_guests),
    Measure("lobby median/p95 while a guest floods window changes", lobby_resize_flood),
    Measure("lobby median/p95 while a guest floods keystrokes", lobby_keys_flood),
    Measure(
        f"keyed player's board wait, guests at every seat they get ({SEATS} seats)",
        keyed_board_beside_guests,
        ("--max-sessions", str(SEATS)),
    ),
    Measure(
        f"fresh logins in while {HOLDING_ADDRESSES} addresses hold the door",
        fresh_logins_beside_held_door,
    ),
]


def python_of(tree: Path) -> str:
    venv = tree / ".venv" / "bin" / "python"
    return str(venv) if venv.exists() else sys.executable


def start(tree: Path, data: Path, flags: tuple[str, ...]) -> Server:
    data.mkdir(parents=True)
    log = data.parent / f"{data.name}.log"
    command = [python_of(tree), "-m", "tui_reversi", "serve", "--port", "0"]
    with log.open("w") as stderr:
        process = subprocess.Popen(
            [*command, "--data-dir", str(data), *flags],
            stdout=subprocess.PIPE,
            stderr=stderr,
            text=True,
            cwd=tree,
            env={"PYTHONPATH": str(tree), "PATH": "/usr/bin:/bin", "HOME": str(data)},
        )
    port, _ = read_banner(process)
    return Server(process, port, log, data)


def stop(server: Server) -> None:
    server.process.send_signal(signal.SIGINT)  # (at once: SIGTERM drains)
    try:
        server.process.wait(30)
    except subprocess.TimeoutExpired:
        server.process.kill()
        server.process.wait()


async def figure(measure: Measure, tree: Path, scratch: Path) -> str:
    server = start(tree, Path(tempfile.mkdtemp(dir=scratch)) / "data", measure.flags)
    try:
        return await measure.take(server)
    except (OSError, TimeoutError, asyncssh.Error) as error:
        return f"failed: {error}"
    finally:
        stop(server)


def trees_to_measure(doc: str) -> tuple[str, dict[str, Path]]:
    """The command line of a bench that measures this tree beside an older one
    (--tree, --against, --only): which measures (--only's words) and the trees by
    label ("old", "new"), each said with its Python, then the machine's load."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    parser.add_argument("--tree", type=Path, default=ROOT, help="the checkout measured")
    parser.add_argument("--against", type=Path, help="an older checkout, measured beside it")
    parser.add_argument("--only", default="", help="the measures whose name has this in it")
    args = parser.parse_args()
    trees = {"new": args.tree.resolve()}
    if args.against is not None:
        trees = {"old": args.against.resolve(), **trees}
    for label, tree in trees.items():
        print(f"{label}: {tree} ({python_of(tree)})")
    print(load())
    return args.only, trees


async def main() -> None:
    assert __doc__ is not None
    only, trees = trees_to_measure(__doc__)
    width = max(len(measure.name) for measure in MEASURES)
    print(f"{'':{width}}  " + "  ".join(f"{label:>24}" for label in trees))
    with tempfile.TemporaryDirectory() as scratch:
        for measure in MEASURES:
            if only not in measure.name:
                continue
            figures = [await figure(measure, tree, Path(scratch)) for tree in trees.values()]
            print(f"{measure.name:{width}}  " + "  ".join(f"{text:>24}" for text in figures))
    print(load())


if __name__ == "__main__":
    asyncio.run(main())
