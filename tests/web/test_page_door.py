"""The page's port is a door like the SSH port (issue 56): each attack a
stranger tried against `tui-reversi serve --web-port`, tried again against the
real server on a real socket, with raw WebSocket tabs (page_flooder.py).
Nothing here asserts how long anything took."""

from __future__ import annotations

import asyncio
import re
import socket
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import aiohttp
import asyncssh
import pytest

from tui_reversi.server.edge.event_log import ADDRESS_BURST, ADDRESS_BYTES_PER_SECOND

from ..server.conftest import STANDIN, key_of
from ..server.test_table_game import Server
from . import page_flooder

STANDIN_GAME = f"{sys.executable} {STANDIN}"
FLOODER = Path(page_flooder.__file__)
# A line of the server's log: a time, then the event's name.
EVENT_LINE = re.compile(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d [a-z][a-z-]* ")
MB = 1 << 20


@pytest.fixture
def served(tmp_path):
    """`served(*options, prefix=())`: the real `serve --web-port 0` (its games the
    stand-in unless options say otherwise), with `page_port`; all stopped after."""
    servers: list[Server] = []

    def start(*options: str, prefix: tuple[str, ...] = ()) -> Server:
        if "--game-command" not in options:
            options = ("--game-command", STANDIN_GAME, *options)
        server = Server(tmp_path / f"s{len(servers)}", "--web-port", "0", *options, prefix=prefix)
        servers.append(server)
        server.page_port = int(server.wait_for(r"the page at http://[\d.]+:(\d+)/").group(1))
        return server

    yield start
    for server in servers:
        server.stop()


async def lobby(server: Server) -> str:
    """A keyed player's `ssh host lobby`: what it printed (fails if it never answers)."""
    async with asyncssh.connect(
        "127.0.0.1",
        server.port,
        username="alice",
        known_hosts=None,
        client_keys=[key_of("alice")],
        agent_path=None,
    ) as conn:
        answer = await asyncio.wait_for(conn.run("lobby", check=True), 120)
    return str(answer.stdout)


def rss(pid: int) -> int:
    """The process's resident memory, in bytes."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    raise AssertionError(f"no VmRSS for {pid}")


def descriptors(pid: int) -> int:
    return len(list(Path(f"/proc/{pid}/fd").iterdir()))


def log_lines(server: Server) -> list[str]:
    """The server's log since its banner (which ends with the page's address)."""
    lines = server.logged()
    banner = max(n for n, line in enumerate(lines) if "the page at" in line)
    return lines[banner + 1 :]


async def test_tabs_that_read_nothing_hold_no_memory_and_are_let_go(served):
    # Each resize makes the game draw a whole 1000x1000 screen again (8 MB).
    server = served(
        "--game-command", f"{STANDIN_GAME} --redraw", "--web-unwritable-limit", "3"
    )  # fmt: skip
    started = rss(server.process.pid)
    tabs = [
        # (A tab stops by itself once it is let go; 30 s is for a slow start under load.)
        asyncio.ensure_future(page_flooder.unread_tab(server.page_port, 30.0, "127.0.0.2"))
        for _ in range(3)
    ]
    peak = started
    while not all(tab.done() for tab in tabs):
        peak = max(peak, rss(server.process.pid))
        await asyncio.sleep(0.2)
    assert peak - started < 50 * MB, f"grew {(peak - started) / MB:.0f} MB"
    # Each tab, taking nothing, was let go (and said so in the log).
    deadline = time.monotonic() + 60
    while True:
        let_go = [line for line in server.logged() if "the page took nothing" in line]
        if len(let_go) >= 3 or time.monotonic() > deadline:
            break
        await asyncio.sleep(0.2)
    assert len(let_go) == 3, let_go


@pytest.mark.parametrize("kind", ["ping", "stdin", "frame-ping", "paste"])
async def test_floods_from_three_tabs_leave_lobby_answering(served, kind):
    """A WebSocket ping frame (answered by aiohttp itself, before) and a large
    message (one packet, whatever its size, before) are charged too."""
    server = served()
    assert await lobby(server)
    flooders = [
        subprocess.Popen(
            [sys.executable, str(FLOODER), str(server.page_port), kind, "8", "127.0.0.2"],
            stdout=subprocess.DEVNULL,
        )
        for _ in range(3)
    ]
    try:
        server.wait_for(r"connect peer=web:127\.0\.0\.2 ")
        for _ in range(2):
            assert await lobby(server)
        # The flood was charged to its budget, before a message was read.
        server.wait_for(r"requests-dropped peer=web:127\.0\.0\.2 .*what=(packets|pings)")
    finally:
        for flooder in flooders:
            flooder.kill()
            flooder.wait()


async def test_idle_sockets_leave_lobby_answering_and_descriptors_to_spare(served):
    limit = 256
    server = served("--web-header-timeout", "2", prefix=("prlimit", f"--nofile={limit}:{limit}"))
    server.wait_for(f"may open only {limit} files")  # (the operator is told)
    held: list[socket.socket] = []
    for source in ("127.0.0.2", "127.0.0.3", "127.0.0.4"):
        held += await page_flooder.idle_sockets(server.page_port, 150, source)
    assert descriptors(server.process.pid) < 0.9 * limit
    assert await lobby(server)
    # A socket that sends no request is let go after the header timeout.
    deadline = time.monotonic() + 60
    open_ones = list(held)
    while open_ones and time.monotonic() < deadline:
        open_ones = [sock for sock in open_ones if not _closed_by_peer(sock)]
        await asyncio.sleep(0.2)
    assert not open_ones
    for sock in held:
        sock.close()
    assert all(EVENT_LINE.match(line) for line in log_lines(server)), log_lines(server)


def _closed_by_peer(sock: socket.socket) -> bool:
    try:
        return sock.recv(1, socket.MSG_PEEK | socket.MSG_DONTWAIT) == b""
    except BlockingIOError:
        return False
    except OSError:
        return True


async def test_churn_keeps_no_name_for_a_visit_and_the_log_within_the_allowance(served):
    server = served()
    started = time.monotonic()
    churned = await page_flooder.churn(server.page_port, 3.0, "127.0.0.2")
    took = time.monotonic() - started
    assert churned["opened"] > 0
    await asyncio.sleep(1.0)  # (the last visits' lines written)
    archive = sqlite3.connect(_archive(server))
    try:
        guests = archive.execute("SELECT count(*) FROM names WHERE name LIKE 'guest-%'").fetchone()
    finally:
        archive.close()
    assert guests == (0,)
    lines = log_lines(server)
    assert all(EVENT_LINE.match(line) for line in lines), lines
    # (Every line since the banner is the churn's.)
    charged = sum(len(line) for line in lines)
    assert charged <= ADDRESS_BURST + ADDRESS_BYTES_PER_SECOND * (took + 1.0) + 200
    # Stopped, it leaves no task behind to be reported as raw text.
    server.stop()
    time.sleep(0.5)  # (its last lines read)
    said = [line for line in log_lines(server) if not line.startswith("tui-reversi serve:")]
    assert all(EVENT_LINE.match(line) for line in said), said


def _archive(server: Server) -> str:
    data = server.process.args[server.process.args.index("--data-dir") + 1]
    return str(Path(data) / "archive.sqlite3")


async def test_the_eleventh_wrong_code_from_an_address_is_turned_away(served):
    server = served()
    async with asyncssh.connect(
        "127.0.0.1", server.port, username="alice", known_hosts=None,
        client_keys=[key_of("alice")], agent_path=None,
    ) as conn:  # fmt: skip
        said = str((await conn.run("keys web", check=True)).stdout)
    code = re.search(r"\?code=([A-Z0-9]{4}-[A-Z0-9]{4})\b", said).group(1)
    page = f"http://127.0.0.1:{server.page_port}/"
    guesser = aiohttp.TCPConnector(local_addr=("127.0.0.2", 0))
    async with aiohttp.ClientSession(connector=guesser) as browser:
        for n in range(10):
            async with browser.get(page, params={"code": f"WRNG-{n:04d}"}) as answer:
                assert answer.status == 403
        async with browser.get(page, params={"code": code}, allow_redirects=False) as answer:
            assert answer.status == 429
            assert "too many wrong codes" in await answer.text()
        # The binding page's button is turned away too, the code unspent.
        origin = {"Origin": f"http://127.0.0.1:{server.page_port}"}
        async with browser.post(
            page, data={"code": code}, headers=origin, allow_redirects=False
        ) as answer:
            assert answer.status == 429
    # The code itself is still good, from an address that has not guessed.
    other = aiohttp.TCPConnector(local_addr=("127.0.0.3", 0))
    async with aiohttp.ClientSession(connector=other) as browser:
        async with browser.get(page, params={"code": code}) as answer:
            assert answer.status == 200
            assert "alice" in await answer.text()
        async with browser.post(
            page, data={"code": code}, headers=origin, allow_redirects=False
        ) as answer:
            assert answer.status == 303
            assert "tui_reversi_pass" in answer.headers.get("Set-Cookie", "")


async def test_the_page_answers_the_hosts_the_server_is_reached_by_only(served):
    server = served("--public-address", "games.example.org:22")
    page = f"http://127.0.0.1:{server.page_port}/"
    async with aiohttp.ClientSession() as browser:
        for host, status in [
            ("games.example.org", 200),
            (f"127.0.0.1:{server.page_port}", 200),
            (f"localhost:{server.page_port}", 200),
            ("rebound.attacker.example", 421),
            (f"rebound.attacker.example:{server.page_port}", 421),
        ]:
            async with browser.get(page, headers={"Host": host}) as answer:
                assert answer.status == status, host


async def test_a_guest_at_a_keys_only_server_is_told_the_real_ssh_command(served, tmp_path):
    """The refusal said "ssh HOST keys web", with a HOST nobody can type."""
    keys = tmp_path / "authorized_keys"
    keys.write_text(key_of("alice").export_public_key().decode())
    server = served(
        "--auth", "keys", "--authorized-keys", str(keys),
        "--public-address", "games.example.org:2022",
    )  # fmt: skip
    page = f"http://127.0.0.1:{server.page_port}"
    said = b""
    async with (
        aiohttp.ClientSession() as browser,
        browser.ws_connect(f"{page}/ws?width=80&height=24", headers={"Origin": page}) as tab,
    ):
        await tab.send_str('["resize", {"width": 80, "height": 24}]')
        async for answer in tab:
            if answer.type == aiohttp.WSMsgType.BINARY:
                said += answer.data
    text = said.decode()
    assert "lets in only its own players" in text
    assert "ssh -p 2022 games.example.org keys web" in text and "HOST" not in text
