"""A playban or a ban that comes while a player is in a tournament, over real
SSH (SQLite): an arena pairs them no more while it lasts (told once, waiting
on), a Swiss withdraws them without a bye (told, and out). Read from the store
by the director (hall/tournaments.py), so a ban made on any node holds."""

from __future__ import annotations

import asyncio
import time

from tui_reversi.server.ledger.tournaments import BYE, PAUSED

from .conftest import Player, wait_until
from .test_accounts import run
from .test_fleet import two_nodes
from .test_sanctions_in_play import ban_in_store, playban
from .test_tournaments import games_begun, quick, tables_of

assert quick  # (the director looks often: test_tournaments.py's fixture, used here too)

PLAYBAN = "you may not play rated games for another 10 minutes (a playban:"


async def test_an_arena_pairs_a_playbanned_player_no_more_and_says_so_once(serve):
    arcade = await serve(max_per_address=10)
    await run(arcade, "ann", "tournament new arena 30 1+0")
    alice = await Player.connect(arcade, "alice", command="tournament join 1")
    await alice.expect("esc leaves.")  # (alone: nobody to pair her with)
    await playban(arcade.store, "alice")  # (her game in another session ended so)
    await alice.expect(f"Arena 1 pairs you no more for now: {PLAYBAN}")
    await alice.expect("not paired (a playban); esc leaves.")
    bob = await Player.connect(arcade, "bob", command="tournament join 1")
    await bob.expect("esc leaves.")
    await asyncio.sleep(1.0)  # (five looks of the director: they would be paired by now)
    assert not tables_of(arcade)
    carol = await Player.connect(arcade, "carol", command="tournament join 1")
    await games_begun(carol, 1)  # carol is paired with bob
    (table,) = tables_of(arcade)
    assert sorted(table.names.values()) == ["bob", "carol"]
    assert alice.output.decode().count("pairs you no more") == 1


async def test_a_swiss_withdraws_a_playbanned_or_banned_player_without_a_bye(serve):
    arcade = await serve(max_per_address=10)
    await run(arcade, "ann", "tournament new swiss 2 1+0 in 5")
    names = ["a", "b", "c", "d", "e", "f"]
    players = {n: await Player.connect(arcade, n, command="tournament join 1") for n in names}
    for player in players.values():
        await player.expect("starts in")
    await playban(arcade.store, "e")
    await arcade.moderation.close()  # (f's ban, made elsewhere, not heard of here yet)
    await ban_in_store(arcade.store, "f")
    arcade.tournaments.now = lambda: time.time() + 600
    done = await players["e"].finished()
    said = players["e"].output.decode()
    assert done.exit_status == 0 and f"you are withdrawn from Swiss 1, no bye: {PLAYBAN}" in said
    await wait_until(lambda: len(tables_of(arcade)) == 2, "round 1's two tables")
    seated = {name for table in tables_of(arcade) for name in table.names.values()}
    assert seated == {"a", "b", "c", "d"}
    games = await arcade.store.tournament_games(1)
    assert [g.result for g in games if g.result == BYE] == []  # (four left: no bye)
    states = {entry.name: entry.state for entry in await arcade.store.entries(1)}
    assert states["e"] == PAUSED and states["f"] == PAUSED


async def test_a_playban_made_on_node_a_withdraws_a_swiss_player_waiting_on_node_b(
    serve, tmp_path, database
):
    a, b = await two_nodes(serve, tmp_path, database)
    await run(a, "ann", "tournament new swiss 2 1+0 in 5")
    where = {"p1": a, "p2": a, "p3": b, "p4": b, "p5": b}
    players = {
        n: await Player.connect(node, n, command="tournament join 1") for n, node in where.items()
    }
    for player in players.values():
        await player.expect("starts in")
    await playban(a.store, "p5")
    for node in (a, b):
        node.tournaments.now = lambda: time.time() + 600
    done = await players["p5"].finished()
    said = players["p5"].output.decode()
    assert done.exit_status == 0 and f"you are withdrawn from Swiss 1, no bye: {PLAYBAN}" in said
    await wait_until(lambda: len(tables_of(a)) + len(tables_of(b)) == 2, "round 1's tables")

    async def both_games_kept() -> bool:
        # (Each node keeps its own table's game: the other's may come a moment later.)
        return len(await a.store.tournament_games(1)) == 2

    await wait_until(both_games_kept, "round 1's two games in the store")
    games = await a.store.tournament_games(1)
    assert {g.black for g in games} | {g.white for g in games} == {"p1", "p2", "p3", "p4"}
