"""A ban or a playban reaching a player already in play, over real SSH, on a
single server (SQLite) and a fleet of two nodes on a real PostgreSQL: a player
waiting in the pairing queue is taken out of it by a playban (told how long)
and ended by a ban, and the queue never seats a playbanned or banned name,
whichever node made the ban; a banned player's game at a table is lost by
them at once, their seat not held, wherever the table and their session are."""

from __future__ import annotations

import asyncio
import time

import pytest

from tui_reversi.core import Color
from tui_reversi.server.ledger.moderation import LogEntry, Sanction
from tui_reversi.server.ledger.playbans import Outcome

from .conftest import Player, key_of, wait_until
from .test_accounts import run
from .test_fleet import in_lobby_on, shown_on, two_nodes
from .test_invitations import Guest
from .test_moderation import MODERATORS, known
from .test_tables import Game, seat, sit_down

PLAYBANNED = (
    "tui-reversi: you may not play rated games for another 10 minutes "
    "(a playban: too many recent games left, stalled or resigned at once)."
)


async def playban(store, name: str) -> None:
    """`name` playbanned, as their games on any node would bring it (four left)."""
    for _ in range(4):
        await store.record_conduct({name: Outcome.RAGE_QUIT})
    assert await store.playban(name) is not None


async def ban_in_store(store, name: str) -> None:
    """`name` banned for an hour, written to the store as a moderator on another node
    does (no node here has read it yet)."""
    at = time.time()
    ban = Sanction(0, "ban", "name", name, at + 3600, "abuse", "mia", at)
    await store.sanction(ban, LogEntry(0, at, "mia", "ban", name, "abuse", at + 3600))


# -- the pairing queue ---------------------------------------------------------------------


async def test_a_playban_made_while_waiting_takes_the_player_out_of_the_queue(serve):
    arcade = await serve(max_per_address=10)
    alice = await Player.connect(arcade, "alice", command="play 5+3")
    await alice.expect("Waiting ")
    await playban(arcade.store, "alice")  # (her game in another session ended so)
    done = await alice.finished()
    assert done.exit_status == 1 and PLAYBANNED in alice.output.decode()
    await wait_until(lambda: not arcade.pairing.seekers, "alice out of the queue")
    bob = await Player.connect(arcade, "bob", command="play 5+3")
    await bob.expect("Waiting ")
    assert not arcade.tables.tables


async def test_the_queue_never_seats_a_name_banned_before_its_node_has_read_the_ban(serve):
    arcade = await serve(max_per_address=10)
    await known(arcade, "alice", "bob", "carol")
    await arcade.moderation.close()  # (this node hears of no ban: as if made elsewhere)
    alice = await Player.connect(arcade, "alice", command="play 5+3")
    await alice.expect("Waiting ")
    await ban_in_store(arcade.store, "alice")
    bob = await Player.connect(arcade, "bob", command="play 5+3")
    await bob.expect("Waiting ")
    await asyncio.sleep(1.5)  # (more than a tick of the queue: they would be paired by now)
    assert not arcade.tables.tables
    carol = await Player.connect(arcade, "carol", command="play 5+3")
    await carol.facts()  # carol is paired with bob
    (table,) = arcade.tables.tables.values()
    assert sorted(table.names.values()) == ["bob", "carol"]


async def test_a_ban_on_node_a_ends_a_wait_in_the_queue_on_node_b(serve, tmp_path, database):
    a, b = await two_nodes(serve, tmp_path, database, moderators=MODERATORS)
    await known(a, "mia")
    alice = await Player.connect(b, "alice", command="play 5+3")
    await alice.expect("Waiting ")
    assert (await run(a, "mia", "mod ban alice 1h abuse"))[0] == 0
    done = await alice.finished()
    said = alice.output.decode()
    assert done.exit_status == 1 and said.endswith("\r\n")  # (the waiting line cleared first)
    assert "\x1b[Ktui-reversi: You are banned from this server until " in said
    assert said.rstrip().endswith(": abuse.")
    await wait_until(lambda: not b.pairing.seekers, "alice out of node B's queue")


async def test_a_playban_made_on_node_a_keeps_a_seeker_on_node_b_unpaired(
    serve, tmp_path, database
):
    a, b = await two_nodes(serve, tmp_path, database)
    alice = await Player.connect(b, "alice", command="play 5+3")
    await alice.expect("Waiting ")
    await playban(a.store, "alice")
    bob = await Player.connect(a, "bob", command="play 5+3")  # (node A pairs at once)
    done = await alice.finished()
    assert done.exit_status == 1 and PLAYBANNED in alice.output.decode()
    await bob.expect("Waiting ")
    assert not a.tables.tables and not b.tables.tables


# -- a seat at a table ---------------------------------------------------------------------


@pytest.mark.parametrize("by", ["name", "key"])
async def test_a_banned_players_game_is_lost_at_once_not_held(serve, by):
    arcade = await serve(moderators=MODERATORS, hold_seat=600.0, max_per_address=10)
    await known(arcade, "mia")
    alice, bob, code = await sit_down(arcade)
    alice.say("move 0 d3")
    for game in (alice, bob):
        await game.hear_until("moved 0 d3")
    whom = "bob" if by == "name" else key_of("bob").get_fingerprint()
    assert (await run(arcade, "mia", f"mod ban {whom} 1h abuse"))[0] == 0
    over = "over banned black bob is banned from this server: alice (Black) wins."
    heard = await alice.hear_until(over)
    assert not any("held" in said for said in heard)  # (no seat waits for a banned player)
    assert not arcade.tables.tables[code].held

    async def won() -> bool:
        return str(await arcade.store.results("alice")) == "1 won, 0 lost, 0 drawn"

    await wait_until(won, "alice's win to be kept")
    assert (await arcade.store.rating("alice")).rating > 1500  # (rated, as any forfeit)
    kept = await arcade.store.run_query("SELECT ending, winner FROM games", ())
    assert [tuple(row) for row in kept] == [("banned", "black")]  # (not a plain forfeit)
    # A ban is not how either played: no outcome kept for either (conduct.py).
    assert await arcade.store.run_query("SELECT name FROM playbans", ()) == []


async def test_a_banned_players_game_with_no_move_ends_with_no_result(serve):
    arcade = await serve(moderators=MODERATORS, hold_seat=600.0, max_per_address=10)
    await known(arcade, "mia")
    alice, _, _ = await sit_down(arcade)
    assert (await run(arcade, "mia", "mod ban bob 1h abuse"))[0] == 0
    await alice.hear_until(
        "over banned - bob is banned from this server: the game ends here, with no result."
    )
    assert str(await arcade.store.results("alice")) == "0 won, 0 lost, 0 drawn"


async def test_a_ban_on_node_b_ends_a_game_at_node_as_table_as_a_loss(serve, tmp_path, database):
    a, b = await two_nodes(serve, tmp_path, database, moderators=MODERATORS, hold_seat=600.0)
    await known(b, "mia")
    alice = await Game.connect(await seat(a, "alice", "table"))
    await alice.hear_until("ready")
    (code,) = a.tables.tables
    await shown_on(b, code)
    bob = await Game.connect(await seat(b, "bob", f"join {code}"))
    await bob.hear_until("ready")
    alice.say("move 0 d3")
    for game in (alice, bob):
        await game.hear_until("moved 0 d3")
    assert (await run(b, "mia", "mod ban bob 1h abuse"))[0] == 0
    await alice.hear_until("over banned black bob is banned from this server: alice (Black) wins.")

    async def won() -> bool:
        return str(await a.store.results("alice")) == "1 won, 0 lost, 0 drawn"

    await wait_until(won, "alice's win to be kept")


# -- the in-app lobby ----------------------------------------------------------------------


async def test_a_playban_made_while_the_lobby_is_open_holds_at_its_next_action(serve):
    arcade = await serve(max_per_address=10)
    await run(arcade, "ann", "tournament new arena 30 1+0")
    alice = await Guest.arrive(arcade, "alice")
    await Guest.arrive(arcade, "bob")
    carol = await Guest.arrive(arcade, "carol")
    carol.say("invite alice black")  # (sent before alice's ban: she answers after it)
    number = (await carol.hear_starting("waiting ")).split()[1]
    await alice.hear_starting("invited ")
    await playban(arcade.store, "alice")  # (made elsewhere: her lobby connected before it)
    refused = "refused You may not play rated games for another 10 minutes"
    for said in ("invite bob black", "tournament join 1"):
        alice.say(said)
        assert (await alice.hear_starting("refused ")).startswith(refused), said
    dave = await Game.connect(await seat(arcade, "dave", "table"))
    await dave.hear_until("ready")
    (code,) = arcade.tables.tables
    alice.say(f"sit {code}")
    assert (await alice.hear_starting("refused ")).startswith(refused)
    alice.say(f"accept {number}")
    said = await alice.hear_starting("refused ")
    assert said.startswith("refused The table could not be opened: alice may not play rated")
    assert not await arcade.store.entries(1)
    assert [t.names for t in arcade.tables.tables.values()] == [{Color.BLACK: "dave"}]


async def test_an_invitation_across_nodes_accepted_after_a_playban_opens_no_table(
    serve, tmp_path, database
):
    a, b = await two_nodes(serve, tmp_path, database)
    carol = await Guest.arrive(a, "carol")
    alice = await Guest.arrive(b, "alice")
    await in_lobby_on(a, "alice")
    carol.say("invite alice black")  # (held on node A, carol's)
    await carol.hear_starting("waiting ")
    number = (await alice.hear_starting("invited ")).split()[1]
    await playban(b.store, "alice")  # (made after both lobbies read it)
    alice.say(f"accept {number}")
    said = await alice.hear_starting("refused ")
    assert said.startswith("refused The table could not be opened: alice may not play rated")
    assert "alice may not play rated games for another" in await carol.hear_starting("answered ")
    assert not a.tables.tables and not b.tables.tables
