"""A ban holds at the page's door too: a visitor from a banned address prefix
is told so in one sentence, with until when, before anything is kept for it
(the real `serve --web-port`, a raw WebSocket tab; page_flooder.py's way)."""

from __future__ import annotations

import asyncio

import aiohttp
import asyncssh

from ..server.conftest import key_of
from .test_page_door import served  # noqa: F401 (a fixture)


async def mod(server, command: str) -> str:
    """`ssh mia@host mod ...` with mia's key: what it printed."""
    async with asyncssh.connect(
        "127.0.0.1",
        server.port,
        username="mia",
        known_hosts=None,
        client_keys=[key_of("mia")],
        agent_path=None,
    ) as conn:
        answer = await asyncio.wait_for(conn.run(command), 120)
    return str(answer.stdout)


async def test_a_visitor_from_a_banned_prefix_is_told_until_when(served):  # noqa: F811
    server = served("--moderators", "mia")
    await mod(server, "blocks")  # (mia's name, claimed by her key)
    said = await mod(server, "mod ban 127.0.0.0/24 2h a flood of tabs")
    assert said.startswith("tui-reversi: 127.0.0.0/24 is banned until ")
    page = f"http://127.0.0.1:{server.page_port}"
    shown = b""
    async with (
        aiohttp.ClientSession() as browser,
        browser.ws_connect(f"{page}/ws?width=80&height=24", headers={"Origin": page}) as tab,
    ):
        await tab.send_str('["resize", {"width": 80, "height": 24}]')
        async for answer in tab:
            if answer.type == aiohttp.WSMsgType.BINARY:
                shown += answer.data
    (line,) = shown.decode().splitlines()
    assert line.startswith("tui-reversi: you are banned from this server until ")
    assert line.endswith(" UTC: a flood of tabs")
