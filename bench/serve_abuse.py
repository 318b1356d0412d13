"""What abuse costs `tui-reversi serve` (issue 26): figures, never asserts.

Starts `tui-reversi serve` on a free loopback port (from this tree, or the one
named with --tree, to compare with another checkout) and prints:

- password guesses answered per second from one address over --seconds (30),
  asked one after another (a new connection each, as a script would) and
  pipelined (every guess sent at once on a connection, again and again);
- the board wait of a fresh player while 30 idle TCP sockets (10 from each of
  127.0.0.2-4) and 3 players pasting 10 MB into their games are held: from
  opening the connection until the board's key bar arrives, or the refusal;
- the peak RSS (VmHWM) of a game fed 10 MB, and the server's own.

Run it under nice, once:

    nice -n 10 python bench/serve_abuse.py
    nice -n 10 python bench/serve_abuse.py --tree /path/to/an/older/checkout
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import re
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import asyncssh
from asyncssh.packet import Boolean, String
from serve import BOARD, games, key_of, load, read_banner

ROOT = Path(__file__).resolve().parent.parent
PASSWORD = "correct horse battery staple"
PASTE = 10 * 1024 * 1024
PIPELINE = 1000  # guesses sent at once
RIGHT = 2500  # where the password is in the list of guesses


def start(tree: Path, data: Path, *args: str) -> tuple[subprocess.Popen[str], int]:
    command = [sys.executable, "-m", "tui_reversi", "serve", "--port", "0", "--data-dir", str(data)]
    server = subprocess.Popen(
        [*command, *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        cwd=tree,
        env={"PYTHONPATH": str(tree), "PATH": "/usr/bin:/bin", "HOME": str(data)},
    )
    port, _ = read_banner(server)
    return server, port


def stop(server: subprocess.Popen[str]) -> None:
    server.send_signal(signal.SIGINT)  # (at once: SIGTERM drains)
    try:
        server.wait(30)
    except subprocess.TimeoutExpired:
        server.kill()
        server.wait()


class Guesser(asyncssh.SSHClient):
    """Guesses from a list with the password at RIGHT: one at a time, or PIPELINE at once;
    counts the verdicts it hears (each failure answered asks for the next guess)."""

    def __init__(self, pipelined: bool, tried: list[int]) -> None:
        self.pipelined = pipelined
        self.tried = tried  # [guesses sent so far, verdicts heard]
        self.conn: asyncssh.SSHClientConnection | None = None
        self.asked = 0

    def connection_made(self, conn: asyncssh.SSHClientConnection) -> None:
        self.conn = conn

    async def password_auth_requested(self) -> str:
        if self.asked:
            self.tried[1] += 1  # asked again: the guess before was refused
        self.asked += 1
        if self.pipelined and self.conn is not None:
            for _ in range(PIPELINE - 1):
                if self.conn.is_closed():
                    break
                await self.conn.send_userauth_request(
                    b"password", Boolean(False), String(self._next()), trivial=False
                )
        return self._next()

    def _next(self) -> str:
        self.tried[0] += 1
        return PASSWORD if self.tried[0] == RIGHT else f"guess {self.tried[0]}"


async def guesses(port: int, source: str, pipelined: bool, seconds: float) -> str:
    """How fast guesses from `source` get a verdict: in, or refused ones a second."""
    tried = [0, 0]
    loop = asyncio.get_running_loop()
    started = loop.time()
    deadline = started + seconds
    while loop.time() < deadline:
        client = Guesser(pipelined, tried)
        with contextlib.suppress(asyncssh.Error, OSError, TimeoutError):
            conn = await asyncio.wait_for(
                asyncssh.connect(
                    "127.0.0.1",
                    port,
                    username="mallory",
                    known_hosts=None,
                    agent_path=None,
                    client_keys=[],
                    client_factory=lambda client=client: client,
                    preferred_auth="password",
                    local_addr=(source, 0),
                ),
                deadline - loop.time(),
            )
            took = loop.time() - started
            conn.close()
            return f"in with guess {RIGHT} after {took:.1f} s: {RIGHT / took:.0f} guesses/s"
    return f"not in after {seconds:.0f} s: {tried[1] / seconds:.2f} verdicts/s"


async def player(
    port: int, user: str
) -> tuple[asyncssh.SSHClientConnection, asyncssh.SSHClientProcess]:
    conn = await asyncssh.connect(
        "127.0.0.1", port, username=user, known_hosts=None, agent_path=None,
        client_keys=[key_of(user)],
    )  # fmt: skip
    process = await conn.create_process(
        "new white easy", term_type="xterm-256color", term_size=(80, 24), encoding=None
    )
    return conn, process


async def board(process: asyncssh.SSHClientProcess) -> None:
    seen = b""
    while BOARD not in seen:
        chunk = await process.stdout.read(65536)
        if not chunk:
            raise ConnectionError("the session ended before the board")
        seen = seen[-16:] + chunk


async def drain(process: asyncssh.SSHClientProcess) -> None:
    while await process.stdout.read(65536):
        pass


async def paste(process: asyncssh.SSHClientProcess) -> None:
    chunk = b"a" * (1 << 20)
    for _ in range(PASTE // len(chunk)):
        process.stdin.write(chunk)
        await process.stdin.drain()


async def crowded(port: int) -> str:
    """A fresh player's board wait with idle sockets and pasting players held."""
    idle = []
    for source in ("127.0.0.2", "127.0.0.3", "127.0.0.4"):
        for _ in range(10):
            _, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(source, 0))
            idle.append(writer)
    pasters = [await player(port, f"paster{n}") for n in range(3)]
    for _, process in pasters:
        await board(process)
    work = [asyncio.ensure_future(drain(process)) for _, process in pasters]
    work += [asyncio.ensure_future(paste(process)) for _, process in pasters]
    await asyncio.sleep(1.0)
    started = time.perf_counter()
    try:
        conn, process = await player(port, "fresh")
        await asyncio.wait_for(board(process), 120)
        said = f"{(time.perf_counter() - started) * 1000:.0f} ms"
        conn.close()
    except (asyncssh.Error, OSError, ConnectionError, TimeoutError) as error:
        said = f"refused after {(time.perf_counter() - started) * 1000:.0f} ms: {error}"
    for task in work:
        task.cancel()
    for conn, _ in pasters:
        conn.close()
    for writer in idle:
        writer.close()
    return said


def peak_kib(pid: int) -> int:
    try:
        text = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return 0
    found = re.search(r"^VmHWM:\s+(\d+) kB", text, re.M)
    return int(found.group(1)) if found else 0


async def fed(port: int, server: subprocess.Popen[str], settle: float) -> tuple[int, int]:
    """The peak RSS (KiB) of a game fed 10 MB, and the server's."""
    conn, process = await player(port, "feeder")
    await board(process)
    reading = asyncio.ensure_future(drain(process))
    before = set(games(server.pid))
    await paste(process)
    await asyncio.sleep(settle)  # the game works through what it was given
    peak = max((peak_kib(pid) for pid in before), default=0)
    reading.cancel()
    conn.close()
    return peak, peak_kib(server.pid)


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tree", type=Path, default=ROOT, help="the checkout to serve from")
    parser.add_argument("--seconds", type=float, default=30.0, help="for each way of guessing")
    parser.add_argument("--settle", type=float, default=20.0, help="after the 10 MB, before RSS")
    parser.add_argument(
        "--parts",
        default="guesses,crowd,feed",
        help="which figures (an older tree's games may grow to gigabytes fed 10 MB)",
    )
    args = parser.parse_args()
    logging.getLogger("asyncio").setLevel(logging.CRITICAL)  # (writes after a hang-up)
    print(f"tree {args.tree}; load average {load()}")
    parts = args.parts.split(",")
    with tempfile.TemporaryDirectory() as scratch:
        if "guesses" in parts:
            await guessing(args.tree, Path(scratch), args.seconds)
        if "crowd" in parts:
            server, port = start(args.tree, Path(scratch) / "b")
            try:
                print(
                    f"board wait, 30 idle sockets and 3 pasting players held: {await crowded(port)}"
                )
            finally:
                stop(server)
        if "feed" in parts:
            server, port = start(args.tree, Path(scratch) / "c")
            try:
                game, serving = await fed(port, server, args.settle)
                print(
                    f"peak RSS of a game fed 10 MB: {game / 1024:.0f} MiB "
                    f"(server {serving / 1024:.0f} MiB)"
                )
            finally:
                stop(server)
    print(f"load average {load()}")


async def guessing(tree: Path, scratch: Path, seconds: float) -> None:
    password = scratch / "password"
    password.write_text(PASSWORD + "\n")
    data = scratch / "a"
    server, port = start(tree, data, "--auth", "password", "--password-file", str(password))
    try:
        one = await guesses(port, "127.0.0.2", pipelined=False, seconds=seconds)
        print(f"password guesses one after another: {one}")
        many = await guesses(port, "127.0.0.3", pipelined=True, seconds=seconds)
        print(f"password guesses {PIPELINE} pipelined at a time: {many}")
    finally:
        stop(server)


if __name__ == "__main__":
    asyncio.run(main())
