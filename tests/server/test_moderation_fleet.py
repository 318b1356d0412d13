"""Moderation in a fleet of two nodes on a real PostgreSQL: a ban made by a
moderator on node A ends the banned player's running session on node B and
refuses their next login there; a block made on node A keeps an invitation
and a pairing across the nodes from happening, both ways. Neither node is
told but through the store (each node reads moderation's news; the test
polls, it never times it)."""

from __future__ import annotations

import asyncssh
import pytest

from .conftest import Player, wait_until
from .test_accounts import run
from .test_fleet import in_lobby_on, two_nodes
from .test_invitations import Guest
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


async def test_a_block_on_node_a_keeps_invitations_and_pairing_apart_across_nodes(
    serve, tmp_path, database
):
    a, b = await two_nodes(serve, tmp_path, database)
    await known(a, "alice")
    await known(b, "bob")
    alice = await Guest.arrive(a, "alice")
    bob = await Guest.arrive(b, "bob")
    assert (await run(a, "alice", "block bob"))[0] == 0
    await wait_until(lambda: b.moderation.apart("bob", "alice"), "node B to hear of the block")
    await in_lobby_on(b, "alice")
    await in_lobby_on(a, "bob")
    for inviter, invitee in ((bob, "alice"), (alice, "bob")):
        inviter.say(f"invite {invitee} black")
        assert await inviter.hear_starting("refused ") == (
            f"refused Your invitation to {invitee} cannot be sent."
        )
    alice.player.close()
    bob.player.close()
    waiting = [
        await Player.connect(node, name, command="play 5+3")
        for node, name in ((a, "alice"), (b, "bob"))
    ]
    for player in waiting:
        await player.expect("Waiting ")
    carol = await Player.connect(b, "carol", command="play 5+3")
    await carol.facts()  # carol is paired with one of them, never alice with bob
    tables = [*a.tables.tables.values(), *b.tables.tables.values()]
    assert len(tables) == 1 and "carol" in tables[0].names.values()
