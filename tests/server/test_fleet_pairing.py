"""Quick pairing in a fleet: players running `ssh -t host play` on two nodes of one
real PostgreSQL wait in one queue, are seated at one table and play there; a
seeker who leaves, or whose node is killed, is paired with nobody; one gone
just as they were paired leaves that table before it begins. Real SSH on
loopback; the games are the stand-in, and the test speaks their line
protocol (test_tables.py)."""

from __future__ import annotations

import os
import signal
import time

import psycopg

from tui_reversi.core import Variant
from tui_reversi.server.ledger.seekers import Seeker

from .conftest import PATIENCE, Player, wait_until
from .test_fleet import start_node, two_nodes
from .test_tables import Game


def seekers_kept(database: str) -> list[tuple[str, str]]:
    """(name, node) of each seeker in the fleet's queue, as the database has them."""
    with psycopg.connect(database) as conn:
        return conn.execute("SELECT name, node FROM seekers ORDER BY name").fetchall()


async def test_players_waiting_on_two_nodes_are_seated_at_one_table_and_play_there(
    serve, tmp_path, database
):
    a, b = await two_nodes(serve, tmp_path, database)
    # Terms that match nobody's wait apart, on any node; esc, or a hang-up, leaves the
    # fleet's queue.
    erin = await Player.connect(b, "erin", command="play anti")
    await erin.expect("Waiting ")
    frank = await Player.connect(a, "frank", command="play")
    await frank.expect("Waiting ")
    alice = await Player.connect(a, "alice", command="play clock 5+3 anti")
    await alice.expect("Waiting ")
    await wait_until(lambda: len(seekers_kept(database)) == 3, "the waits in the database")
    erin.send(b"\x1b")
    await erin.finished()
    assert "tui-reversi: you left the queue." in erin.output.decode()
    frank.close()
    await wait_until(lambda: [n for n, _ in seekers_kept(database)] == ["alice"], "both gone")

    bob = await Player.connect(b, "bob", command="play anti clock 5+3")
    alice_facts, bob_facts = await alice.facts(), await bob.facts()
    # The table is on the node of the longer waiting: alice's.
    (code,) = a.tables.tables
    table = a.tables.tables[code]
    assert sorted(table.names.values()) == ["alice", "bob"]
    assert str(table.time_control) == "5+3" and table.game.variant == Variant.ANTI
    for player in (alice, bob):
        assert f"an opponent is found: table {code}." in player.output.decode()
    assert a.pairing.seekers == [] and b.pairing.seekers == [] and seekers_kept(database) == []

    # Each game talks to its own node (bob's to B, which relays to the table on A).
    games = [await Game.connect(facts["env"]) for facts in (alice_facts, bob_facts)]
    colours = {}
    for game in games:
        seated = (await game.hear_until("ready"))[0]
        assert seated.startswith(f"seated {code} ") and seated.endswith(" anti")
        colours[seated.split()[2]] = game
        game.say("begun")
    black, white = colours["black"], colours["white"]
    black.say("move 0 d3")
    for game in (black, white):
        await game.hear_until("moved 0 d3")
    white.say("move 1 c5")
    await black.hear_until("moved 1 c5")
    # What each game asks (chat, takebacks) is charged to its player's address,
    # bob's too at the table's node, where his seat is relayed.
    seats = [seat for seat in a.tables._seats.values() if seat.table is table]
    assert {seat.address for seat in seats} == {"127.0.0.1"}


async def test_a_seeker_gone_when_their_pairing_reaches_their_node_ends_the_table_cleanly(
    serve, tmp_path, database
):
    a, b = await two_nodes(serve, tmp_path, database)
    alice = await Player.connect(a, "alice", command="play")
    await alice.expect("Waiting ")
    await wait_until(lambda: len(seekers_kept(database)) == 1, "alice's wait in the database")
    # As a seeker on node B who leaves just as node A claims them: a wait B no longer
    # has (it was written, and B's session has gone since).
    now = time.monotonic()
    gone = Seeker(
        "ghost", 1500.0, Variant.OTHELLO, None, False, False, since=now, node=b.store.node
    )
    await b.store.seek([gone], now)
    facts = await alice.facts()
    assert "an opponent is found: table " in alice.output.decode()
    game = await Game.connect(facts["env"])
    # (Node B's answer that ghost is gone may come before the table is ready or after.)
    said = await game.hear_until("over left - ghost left the table: the game ends here.")
    assert said[0].startswith("seated ") and set(said[1].split()[1:]) == {"alice", "ghost"}
    assert seekers_kept(database) == [] and a.pairing.seekers == []


async def test_a_seeker_whose_node_is_killed_is_paired_with_nobody(serve, tmp_path, database):
    node = start_node(tmp_path, database)
    try:
        (b,) = [await serve(data_dir=tmp_path / "b", database=database, max_per_address=10)]
        carol = await Player.connect(node, "carol", command="play")
        await carol.expect("Waiting ")
        await wait_until(lambda: len(seekers_kept(database)) == 1, "carol's wait in the database")
        ((_, killed),) = seekers_kept(database)
        os.killpg(node.process.pid, signal.SIGKILL)  # the node and carol's session, outright
        node.process.wait(PATIENCE)

        async def gone() -> bool:
            return killed not in await b.store.live_nodes()

        await wait_until(gone, "the node to be gone")

        dave = await Player.connect(b, "dave", command="play")
        await dave.expect("Waiting ")
        # Node B has looked at the queue since (it forgets a gone node's seekers as it
        # looks), and dave waits on: carol was nobody's to pair.
        await wait_until(lambda: seekers_kept(database) == [("dave", b.store.node)], "a look")
        assert [s.name for s in b.pairing.seekers] == ["dave"] and not b.tables.tables
        assert "an opponent is found" not in dave.output.decode()
    finally:
        if node.process.poll() is None:
            os.killpg(node.process.pid, signal.SIGKILL)
            node.process.wait()


async def test_a_seat_given_to_a_seeker_whose_node_dies_before_they_sit_ends_the_table(
    serve, tmp_path, database
):
    node = start_node(tmp_path, database)
    try:
        (b,) = [await serve(data_dir=tmp_path / "b", database=database, max_per_address=10)]
        alice = await Player.connect(b, "alice", command="play")
        await alice.expect("Waiting ")

        async def both_up() -> bool:
            return len(await b.store.live_nodes()) == 2

        await wait_until(both_up, "both nodes up")
        (frozen,) = await b.store.live_nodes() - {b.store.node}
        # The other node stops answering (up in PostgreSQL's eyes, hearing nothing), with
        # a seeker there: paired with alice, who waited longer, by node B.
        os.killpg(node.process.pid, signal.SIGSTOP)
        now = time.monotonic()
        await b.store.seek(
            [Seeker("zoe", 1500.0, Variant.OTHELLO, None, False, False, since=now, node=frozen)],
            now,
        )
        facts = await alice.facts()
        game = await Game.connect(facts["env"])
        said = await game.hear_until("ready")
        assert said[1] in ("players alice zoe", "players zoe alice")  # (colours drawn)
        os.killpg(node.process.pid, signal.SIGKILL)  # and then it dies: zoe never sits
        node.process.wait(PATIENCE)
        await game.hear_until("over left - zoe left the table: the game ends here.")
    finally:
        if node.process.poll() is None:
            os.killpg(node.process.pid, signal.SIGKILL)
            node.process.wait()
