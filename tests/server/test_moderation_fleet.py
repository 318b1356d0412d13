"""Moderation in a fleet of two nodes on a real PostgreSQL: a ban made by a
moderator on node A ends the banned player's running session on node B and
refuses their next login there, without either node being told but through
the store (each node reads the moderation log's news; the test polls, it
never times it)."""

from __future__ import annotations

import asyncssh
import pytest

from .conftest import Player, wait_until
from .test_accounts import run
from .test_fleet import two_nodes
from .test_moderation import MODERATORS, known


async def test_a_ban_on_node_a_ends_the_session_and_refuses_the_login_on_node_b(
    serve, tmp_path, database
):
    a, b = await two_nodes(serve, tmp_path, database, moderators=MODERATORS)
    await known(a, "mia")
    await known(b, "bob")
    bob = await Player.connect(b, "bob")
    await bob.facts()
    status, said = await run(a, "mia", "mod ban bob 1h abuse in chat")
    assert status == 0 and said.startswith("tui-reversi: bob is banned until ")
    await bob.finished()
    assert "You are banned from this server until " in bob.output.decode()
    with pytest.raises(asyncssh.DisconnectError) as refused:
        await run(b, "bob", "lobby")
    assert refused.value.reason.endswith(": abuse in chat")
    # Lifted on node B, bob is back on node A.
    assert (await run(b, "mia", "mod unban bob"))[0] == 0
    await wait_until(lambda: a.moderation.ban_of("bob", None, "") is None, "node A to hear it")
    assert (await run(a, "bob", "blocks"))[0] == 0
