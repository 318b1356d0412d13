"""What one hostile stranger can do to `tui-reversi serve --web-port` (issue 56):
figures, never asserts, for this tree and, with --against, an older one side
by side (bench/hostile.py does the same for the SSH port).

Each measure starts its own `serve --web-port 0` (the real game) from the
tree's own venv (TREE/.venv/bin/python, else this Python with the tree on
PYTHONPATH), under `prlimit --nofile=1024:1024` (as a default systemd unit
has), does its harm with raw WebSocket tabs (tests/web/page_flooder.py, in
processes of their own where they flood), and says one figure:

- `ssh alice@host lobby` (a keyed player, connecting included), median/p95 of
  LOBBY_TIMES, alone and while 3 tabs from one address flood pings (the page's,
  or WebSocket ping frames), one-byte keystrokes or 48 KB pastes, as fast as
  their sockets take them; the server process's own CPU
  (its games aside) in those seconds, as a share of one core;
- the server's memory growth (RSS, and PSS) while 3 tabs from one address at
  1000x1000 read nothing and change their size 4 times a second for
  UNREAD_SECONDS, and how many of them it let go;
- the server's descriptors in use while 3 addresses open IDLE_EACH sockets each
  that never send a byte, and whether `lobby` still answers;
- visits, guest names kept in the store and log bytes while one address opens
  and closes the page's socket for CHURN_SECONDS;
- of 1,000 wrong `?code=` guesses from one address, how many were compared.

    nice -n 10 .venv/bin/python bench/web_hostile.py
    nice -n 10 .venv/bin/python bench/web_hostile.py --against /path/to/main-checkout
    nice -n 10 .venv/bin/python bench/web_hostile.py --only lobby
"""

from __future__ import annotations

import asyncio
import contextlib
import re
import signal
import sqlite3
import subprocess
import sys
import tempfile
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # (the hostile tabs are the tests' own)

import aiohttp  # noqa: E402
from hostile import lobby_seconds, lobby_times, own_cpu_seconds, python_of, trees_to_measure  # noqa: E402
from serve import load, read_banner  # noqa: E402

from tests.web import page_flooder  # noqa: E402

FLOODER = ROOT / "tests" / "web" / "page_flooder.py"
DESCRIPTORS = 1024
FLOOD_SECONDS, TABS = 40.0, 3
UNREAD_SECONDS = 45.0  # (past the 30 s a page that takes nothing is given)
IDLE_EACH = 400
CHURN_SECONDS = 10.0
WRONG_CODES = 1000


@dataclass
class Server:
    """One running `serve --web-port`: its process, ports, log file and data."""

    process: subprocess.Popen[str]
    port: int
    page_port: int
    log: Path
    data: Path


@dataclass(frozen=True)
class Measure:
    name: str
    take: Callable[[Server], Awaitable[str]]


def start(tree: Path, data: Path) -> Server:
    data.mkdir(parents=True)
    log = data.parent / f"{data.name}.log"
    command = [
        "prlimit", f"--nofile={DESCRIPTORS}:{DESCRIPTORS}",
        python_of(tree), "-m", "tui_reversi", "serve", "--port", "0", "--web-port", "0",
        "--data-dir", str(data),
    ]  # fmt: skip
    with log.open("w") as stderr:
        process = subprocess.Popen(
            command,
            stdout=subprocess.PIPE,
            stderr=stderr,
            text=True,
            cwd=tree,
            # (unbuffered: an older tree printed the page's line without a flush)
            env={
                "PYTHONPATH": str(tree),
                "PATH": "/usr/bin:/bin",
                "HOME": str(data),
                "PYTHONUNBUFFERED": "1",
            },
        )
    port, _ = read_banner(process)
    assert process.stdout is not None
    page = re.search(r"the page at http://\S+:(\d+)/", process.stdout.readline())
    assert page is not None
    return Server(process, port, int(page.group(1)), log, data)


def stop(server: Server) -> None:
    server.process.send_signal(signal.SIGINT)  # (at once: SIGTERM drains)
    try:
        server.process.wait(30)
    except subprocess.TimeoutExpired:
        server.process.kill()
        server.process.wait()


def memory(pid: int) -> tuple[int, int]:
    """RSS and PSS of `pid`, in bytes."""
    rss = pss = 0
    for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
        if line.startswith("Rss:"):
            rss = int(line.split()[1]) * 1024
        elif line.startswith("Pss:"):
            pss = int(line.split()[1]) * 1024
    return rss, pss


def descriptors(pid: int) -> int:
    return len(list(Path(f"/proc/{pid}/fd").iterdir()))


async def lobby_while_flooded(server: Server, kind: str) -> str:
    alone = await lobby_times(server.port)
    command = [str(FLOODER), str(server.page_port), kind, str(FLOOD_SECONDS), "127.0.0.2"]
    quiet = asyncio.subprocess.DEVNULL
    flooders = [
        await asyncio.create_subprocess_exec(sys.executable, *command, stdout=quiet, stderr=quiet)
        for _ in range(TABS)
    ]
    try:
        await asyncio.sleep(5.0)  # (the tabs in, the flood under way)
        loop = asyncio.get_running_loop()
        cpu, started = own_cpu_seconds(server.process.pid), loop.time()
        flooded = await lobby_times(server.port)
        cpu, took = own_cpu_seconds(server.process.pid) - cpu, loop.time() - started
    finally:
        for flooder in flooders:
            with contextlib.suppress(ProcessLookupError):
                flooder.kill()
            await flooder.wait()
    return f"{flooded} (alone {alone}); server CPU {100 * cpu / took:.0f} %"


async def lobby_ping_flood(server: Server) -> str:
    return await lobby_while_flooded(server, "ping")


async def lobby_stdin_flood(server: Server) -> str:
    return await lobby_while_flooded(server, "stdin")


async def lobby_frame_ping_flood(server: Server) -> str:
    return await lobby_while_flooded(server, "frame-ping")


async def lobby_paste_flood(server: Server) -> str:
    return await lobby_while_flooded(server, "paste")


async def unread_tabs(server: Server) -> str:
    pid = server.process.pid
    rss, pss = memory(pid)
    tab = page_flooder.unread_tab
    tabs = [
        asyncio.ensure_future(tab(server.page_port, UNREAD_SECONDS, "127.0.0.2"))
        for _ in range(TABS)
    ]
    peak_rss, peak_pss = rss, pss
    while not all(tab.done() for tab in tabs):
        now_rss, now_pss = memory(pid)
        peak_rss, peak_pss = max(peak_rss, now_rss), max(peak_pss, now_pss)
        await asyncio.sleep(0.25)
    closed = sum(tab.result()["closed"] for tab in tabs if not tab.exception())
    mb = 1 << 20
    return (
        f"+{(peak_rss - rss) / mb:.0f} MB RSS (+{(peak_pss - pss) / mb:.0f} PSS), "
        f"{closed} of {TABS} let go"
    )


async def idle_sockets(server: Server) -> str:
    pid = server.process.pid
    held = []
    for source in ("127.0.0.2", "127.0.0.3", "127.0.0.4"):
        held += await page_flooder.idle_sockets(server.page_port, IDLE_EACH, source)
    await asyncio.sleep(1.0)
    used = descriptors(pid)
    try:
        await asyncio.wait_for(lobby_seconds(server.port), 30)
        lobby = "lobby answers"
    except (OSError, TimeoutError, Exception) as error:  # (whatever a failed login raises)
        lobby = f"lobby fails ({type(error).__name__})"
    for sock in held:
        sock.close()
    return f"{used} of {DESCRIPTORS} descriptors, {lobby}"


async def churn(server: Server) -> str:
    before = server.log.stat().st_size
    visits = await page_flooder.churn(server.page_port, CHURN_SECONDS, "127.0.0.2")
    await asyncio.sleep(2.0)
    with contextlib.closing(sqlite3.connect(server.data / "archive.sqlite3")) as archive:
        (names,) = archive.execute(
            "SELECT count(*) FROM names WHERE name LIKE 'guest-%'"
        ).fetchone()
    grew = server.log.stat().st_size - before
    return f"{visits['opened']} visits, {names} guest names kept, log +{grew / 1024:.0f} KB"


async def wrong_codes(server: Server) -> str:
    page = f"http://127.0.0.1:{server.page_port}/"
    answers: dict[int, int] = {}
    async with aiohttp.ClientSession() as browser:
        for n in range(WRONG_CODES):
            async with browser.get(page, params={"code": f"WRNG-{n:04d}"}) as answer:
                answers[answer.status] = answers.get(answer.status, 0) + 1
    compared = answers.get(403, 0)
    return f"{compared} compared, {WRONG_CODES - compared} turned away"


MEASURES = [
    Measure(f"lobby median/p95 while {TABS} tabs flood pings", lobby_ping_flood),
    Measure(f"lobby median/p95 while {TABS} tabs flood keystrokes", lobby_stdin_flood),
    Measure(
        f"lobby median/p95 while {TABS} tabs flood WebSocket ping frames", lobby_frame_ping_flood
    ),
    Measure(f"lobby median/p95 while {TABS} tabs flood 48 KB pastes", lobby_paste_flood),
    Measure(f"memory while {TABS} tabs at 1000x1000 read nothing", unread_tabs),
    Measure(f"descriptors with 3 addresses x {IDLE_EACH} idle sockets", idle_sockets),
    Measure(f"one address opening and closing the page for {CHURN_SECONDS:g} s", churn),
    Measure(f"{WRONG_CODES} wrong ?code= guesses from one address", wrong_codes),
]


async def figure(measure: Measure, tree: Path, scratch: Path) -> str:
    server = start(tree, Path(tempfile.mkdtemp(dir=scratch)) / "data")
    try:
        return await measure.take(server)
    except (OSError, TimeoutError, aiohttp.ClientError) as error:
        return f"failed: {error}"
    finally:
        stop(server)


async def main() -> None:
    assert __doc__ is not None
    only, trees = trees_to_measure(__doc__)
    with tempfile.TemporaryDirectory() as scratch:
        for measure in MEASURES:
            if only not in measure.name:
                continue
            print(measure.name, flush=True)
            for label, tree in trees.items():
                print(f"  {label}: {await figure(measure, tree, Path(scratch))}", flush=True)
    print(load())


if __name__ == "__main__":
    asyncio.run(main())
