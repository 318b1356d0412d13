"""What one hostile stranger can do to `tui-reversi serve` (issue 37): figures,
never asserts, for this tree and, with --against, an older one side by side.

Each measure starts its own `tui-reversi serve` on a free loopback port from
the tree's own venv (TREE/.venv/bin/python, else this Python with the tree on
PYTHONPATH), with the server's log (its stderr) in a file, does its harm, and
says one figure. The measures are in MEASURES, one entry each: add yours there.

    nice -n 10 .venv/bin/python bench/hostile.py
    nice -n 10 .venv/bin/python bench/hostile.py --against /path/to/main-checkout
    nice -n 10 .venv/bin/python bench/hostile.py --only "log bytes"
"""

from __future__ import annotations

import argparse
import asyncio
import subprocess
import sys
import tempfile
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # (the forged packet is the tests' own: tests/server/forged.py)

from serve import load, read_banner  # noqa: E402

from tests.server.forged import send_disconnect  # noqa: E402

FORGED_DISCONNECTS = 50


@dataclass
class Server:
    """One running `tui-reversi serve`: its process, port and log file."""

    process: subprocess.Popen[str]
    port: int
    log: Path

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


# Every measure, in the order printed: add yours here.
MEASURES = [
    Measure(f"log bytes written by {FORGED_DISCONNECTS} forged disconnects", forged_disconnects),
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
    return Server(process, port, log)


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
    except (OSError, TimeoutError) as error:
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
