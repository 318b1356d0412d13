"""What one hostile stranger can do to `tui-reversi serve` (issue 37): figures,
never asserts, for this tree and, with --against, an older one side by side.

Each measure starts its own `tui-reversi serve` on a free loopback port from
the tree's own venv (TREE/.venv/bin/python, else this Python with the tree on
PYTHONPATH), with the server's log (its stderr) in a file, does its harm, and
says one figure. The measures are in MEASURES, one entry each: add yours there.

- log bytes written while one address sends 50 SSH disconnects before key
  exchange, each with a 260 KB reason carrying a forged log line, ESC and BEL;
- crash reports left by 12 guest sessions (three at a time) pressing random
  keys and changing the window size across the 60x21 minimum, then hanging up.

    nice -n 10 .venv/bin/python bench/hostile.py
    nice -n 10 .venv/bin/python bench/hostile.py --against /path/to/main-checkout
    nice -n 10 .venv/bin/python bench/hostile.py --only "log bytes"
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import random
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
from serve import load, read_banner  # noqa: E402

from tests.server.forged import send_disconnect  # noqa: E402

FORGED_DISCONNECTS = 50
# Guest sessions of random keys and resizes (across the 60x21 minimum), three at a time.
RESIZING_GUESTS, AT_ONCE, GUEST_SECONDS = 12, 3, 8.0
SIZES = [(59, 20), (60, 21), (61, 22), (80, 24), (40, 10), (59, 30), (100, 20), (120, 40)]


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


# Every measure, in the order printed: add yours here.
MEASURES = [
    Measure(f"log bytes written by {FORGED_DISCONNECTS} forged disconnects", forged_disconnects),
    Measure("crash reports from guests pressing keys and resizing", resizing_guests),
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
    server.process.terminate()
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


async def main() -> None:
    assert __doc__ is not None
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
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
    width = max(len(measure.name) for measure in MEASURES)
    print(f"{'':{width}}  " + "  ".join(f"{label:>24}" for label in trees))
    with tempfile.TemporaryDirectory() as scratch:
        for measure in MEASURES:
            if args.only not in measure.name:
                continue
            figures = [await figure(measure, tree, Path(scratch)) for tree in trees.values()]
            print(f"{measure.name:{width}}  " + "  ".join(f"{text:>24}" for text in figures))
    print(load())


if __name__ == "__main__":
    asyncio.run(main())
