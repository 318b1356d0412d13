"""What a stranger gets from guessing and farming (issue 37, findings 5 and 6):
figures, never asserts, for this tree and another (--tree) in one run.

Each measure is a function in MEASURES (bench/hostile.py did not exist when
these were written; they are meant to join its list):

- verdicts per second in total from 200 addresses: `tui-reversi serve --auth
  password` from the tree, and 200 loopback addresses (127.0.0.2-201) each
  guessing wrong passwords as fast as it is answered, reconnecting when
  dropped, for --seconds (20); every refusal heard is a verdict; all at one
  name (mallory), then each address at a name of its own;
- rating moved by 12 resign-rematch games between one pair: the tree's
  archive (a fresh SQLite) keeps twelve games of one pair, the colours
  changing, each won by the same player after one move and a resignation.

    nice -n 10 python bench/hostile_names.py --tree /work/main
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import subprocess
import sys
import tempfile
from collections.abc import Awaitable, Callable
from pathlib import Path

import asyncssh
from serve import load
from serve_abuse import start, stop

ROOT = Path(__file__).resolve().parent.parent
PASSWORD = "correct horse battery staple"
SOURCES = [f"127.0.0.{n}" for n in range(2, 202)]

# Run by the tree's own Python modules (PYTHONPATH=TREE): prints Bob's rating after
# 12 games against Alice, each won by Bob after d3 and a resignation.
REMATCHES = """
import asyncio, inspect, sys, tempfile
from datetime import UTC, datetime
from pathlib import Path
from tui_reversi.core import Color, Ending, Game
try:  # (the server in three rooms, or before)
    from tui_reversi.server.ledger.archive import Archive
    from tui_reversi.server.ledger.store import PlayedGame
except ImportError:
    from tui_reversi.server.store import Archive, PlayedGame
def done(answer):  # (the store's methods are coroutines since the fleet went async)
    return asyncio.run(answer) if inspect.isawaitable(answer) else answer
with tempfile.TemporaryDirectory() as scratch:
    archive = Archive(Path(scratch) / "archive.sqlite3", Path(scratch) / "players")
    names = ("bob", "alice")
    for number in range(12):
        bob = Color.BLACK if names[0] == "bob" else Color.WHITE
        ending = Ending("resigned", bob, "alice resigned: bob wins.")
        game = Game.from_transcript("d3")
        done(archive.keep(PlayedGame(f"R{number:04d}", game, names, datetime.now(UTC), ending)))
        names = (names[1], names[0])
    print(done(archive.rating("bob")).rating)
"""


class Guesser(asyncssh.SSHClient):
    """Wrong passwords for as long as the server asks; counts the verdicts heard."""

    def __init__(self, verdicts: list[int]) -> None:
        self.verdicts = verdicts
        self.asked = 0

    def password_auth_requested(self) -> str:
        if self.asked:
            self.verdicts[0] += 1  # asked again: the guess before was refused
        self.asked += 1
        return f"guess {self.asked}"


async def guess_from(port: int, source: str, user: str, verdicts: list[int], until: float) -> None:
    loop = asyncio.get_running_loop()
    while (left := until - loop.time()) > 0:
        with contextlib.suppress(asyncssh.Error, OSError, TimeoutError):
            await asyncio.wait_for(
                asyncssh.connect(
                    "127.0.0.1",
                    port,
                    username=user,
                    known_hosts=None,
                    agent_path=None,
                    client_keys=[],
                    preferred_auth="password",
                    local_addr=(source, 0),
                    client_factory=lambda: Guesser(verdicts),
                ),
                left,
            )
        await asyncio.sleep(0.05)  # (a refused connection: again, but not in a tight loop)


async def verdicts_from_200_addresses(tree: Path, scratch: Path, seconds: float) -> str:
    return await verdicts(tree, scratch, seconds, lambda source: "mallory")


async def verdicts_from_200_addresses_200_names(tree: Path, scratch: Path, seconds: float) -> str:
    return await verdicts(tree, scratch, seconds, lambda source: f"mallory{source.split('.')[-1]}")


async def verdicts(tree: Path, scratch: Path, seconds: float, user: Callable[[str], str]) -> str:
    password = scratch / "password"
    password.write_text(PASSWORD + "\n")
    server, port = start(tree, scratch / "guesses", "--auth", "password", "--password-file",
                         str(password))  # fmt: skip
    try:
        loop = asyncio.get_running_loop()
        heard = [0]
        until = loop.time() + seconds
        await asyncio.gather(*(guess_from(port, s, user(s), heard, until) for s in SOURCES))
    finally:
        stop(server)
    return f"{heard[0] / seconds:.1f} verdicts/s in total ({heard[0]} in {seconds:.0f} s)"


async def rating_moved_by_12_rematches(tree: Path, scratch: Path, seconds: float) -> str:
    done = subprocess.run(
        [sys.executable, "-c", REMATCHES],
        env={"PYTHONPATH": str(tree), "PATH": "/usr/bin:/bin", "HOME": str(scratch)},
        cwd=tree,  # (`-c` puts the working directory first on the path)
        capture_output=True,
        text=True,
        check=True,
    )
    rating = float(done.stdout.split()[-1])
    return f"bob 1500 -> {rating:.0f} ({rating - 1500:+.0f})"


MEASURES: list[tuple[str, Callable[[Path, Path, float], Awaitable[str]]]] = [
    ("verdicts per second in total from 200 addresses", verdicts_from_200_addresses),
    (
        "verdicts per second in total from 200 addresses, each at a name of its own",
        verdicts_from_200_addresses_200_names,
    ),
    ("rating moved by 12 resign-rematch games between one pair", rating_moved_by_12_rematches),
]


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tree", type=Path, action="append", help="a checkout to compare")
    parser.add_argument("--seconds", type=float, default=20.0, help="of guessing, per tree")
    args = parser.parse_args()
    logging.getLogger("asyncio").setLevel(logging.CRITICAL)
    trees = [*(args.tree or []), ROOT]
    print(load())
    with tempfile.TemporaryDirectory() as scratch:
        for which, (name, measure) in enumerate(MEASURES):
            for number, tree in enumerate(trees):
                where = Path(scratch) / f"{which}-{number}"
                where.mkdir()
                print(f"{name}, {tree}: {await measure(tree, where, args.seconds)}", flush=True)
    print(load())


if __name__ == "__main__":
    asyncio.run(main())
