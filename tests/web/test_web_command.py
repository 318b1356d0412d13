"""`tui-reversi web` without a browser: its flags, its address, and who it answers."""

from __future__ import annotations

import asyncio
import socket
import subprocess
import sys

import aiohttp
import pytest

from tui_reversi.web.page import LOOPBACK_NAMES, PageConfig, start_page


def web_command(*args: str, timeout: float = 30) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "tui_reversi", "web", *args],
        capture_output=True,
        text=True,
        timeout=timeout,
    )


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["--port", "eighty"], "'eighty' is not a port"),
        (["--port", "70000"], "'70000' is not a port"),
        (["--colour", "red"], "unrecognized arguments: --colour red"),
    ],
)
def test_a_bad_flag_is_one_sentence_and_status_2(args, said):
    done = web_command(*args)
    assert done.returncode == 2
    assert said in done.stderr and len(done.stderr.strip().splitlines()) == 1
    assert "Traceback" not in done.stderr


def test_a_taken_port_is_one_sentence_and_status_2():
    with socket.create_server(("127.0.0.1", 0)) as taken:
        port = taken.getsockname()[1]
        done = web_command("--port", str(port))
    assert done.returncode == 2
    assert done.stderr.strip() == (
        f"tui-reversi: cannot listen on 127.0.0.1 port {port}: Address already in use"
    )


def test_an_unknown_host_is_one_sentence_and_status_2():
    done = web_command("--host", "no-such-host.invalid")
    assert done.returncode == 2
    assert done.stderr.startswith("tui-reversi: cannot listen on no-such-host.invalid port 8000")
    assert len(done.stderr.strip().splitlines()) == 1


async def test_the_page_answers_only_its_own_address_and_its_own_page():
    # The game process here would be the real game: `true` stands in, nothing is played.
    config = PageConfig(argv=["true"], hosts=LOOPBACK_NAMES)
    site = await start_page(config, "127.0.0.1", 0)
    try:
        async with aiohttp.ClientSession() as client:
            async with client.get(site.address) as page:
                assert page.status == 200
                assert "static/js/textual.js" in await page.text()
                # The browser is told to load nothing from another address.
                assert "default-src 'self'" in page.headers["Content-Security-Policy"]
            # A DNS-rebinding site reaches 127.0.0.1 under its own name: refused.
            async with client.get(site.address, headers={"Host": "evil.example:80"}) as page:
                assert page.status == 421
            # Another site's page in the player's browser may not drive the game.
            socket_url = site.address + "ws"
            with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
                await client.ws_connect(socket_url, origin="http://evil.example")
            assert refused.value.status == 403
            own = site.address.rstrip("/")
            async with client.ws_connect(socket_url, origin=own) as game:
                # `true` ends at once: the page's socket is closed when its game ends.
                message = await asyncio.wait_for(game.receive(), 10)
                assert message.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED)
    finally:
        await site.close()


class _Recorded:
    """A stand-in game for a public server's visitor: records who came, plays nothing."""

    def __init__(self, visits: list, visit) -> None:
        visits.append(visit)
        self._visit = visit

    pid = None

    async def start(self, width: int, height: int) -> None:
        await self._visit.close()

    async def send_bytes(self, data: bytes) -> bool:
        return False

    async def set_terminal_size(self, width: int, height: int) -> None:
        pass

    async def blur(self) -> None:
        pass

    async def focus(self) -> None:
        pass

    async def stop(self) -> None:
        pass


@pytest.mark.parametrize(("behind_proxy", "seen"), [(False, "127.0.0.1"), (True, "10.0.0.9")])
async def test_a_visitors_address_is_the_proxys_word_only_behind_a_proxy(behind_proxy, seen):
    visits: list = []
    config = PageConfig(visitor=lambda visit: _Recorded(visits, visit), forwarded=behind_proxy)
    site = await start_page(config, "127.0.0.1", 0)
    try:
        async with aiohttp.ClientSession() as client:
            url = site.address + "ws/" + "join%20ABCDE"
            # What the visitor's own browser claims comes first; the proxy adds the real one.
            headers = {"X-Forwarded-For": "1.2.3.4, 10.0.0.9"}
            async with client.ws_connect(url, headers=headers) as game:
                await asyncio.wait_for(game.receive(), 10)
    finally:
        await site.close()
    assert [(v.address, v.host, v.play) for v in visits] == [(seen, "127.0.0.1", "join ABCDE")]
