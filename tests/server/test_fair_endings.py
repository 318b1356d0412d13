"""A forfeit goes only to a player still there; a game nobody stayed at waits
for both; a game with no move played is neither rated nor kept."""

import sqlite3

from tui_reversi.server.ledger.ratings import FIRST

from .conftest import wait_until
from .test_tables import drop, sit_down


def archived(tmp_path) -> list[tuple]:
    with sqlite3.connect(tmp_path / "server" / "archive.sqlite3") as db:
        return db.execute("SELECT black, white, winner, ending FROM games").fetchall()


def unfinished(tmp_path) -> list[tuple]:
    with sqlite3.connect(tmp_path / "server" / "archive.sqlite3") as db:
        return db.execute("SELECT code, moves, adjourned FROM unfinished").fetchall()


async def test_when_both_players_drop_nobody_wins_and_the_game_is_adjourned(serve, tmp_path):
    arcade = await serve(hold_seat=1.0, max_per_address=10)
    alice, bob, code = await sit_down(arcade)
    alice.say("move 0 d3")
    for game in (alice, bob):
        await game.hear_until("moved 0 d3")
    await drop(arcade, "bob", bob)
    await drop(arcade, "alice", alice)
    table = arcade.tables.tables[code]
    await wait_until(lambda: table.adjourned or table.ended is not None, "the holds to run out")
    assert table.adjourned and table.ended is None
    assert str(await arcade.store.results("alice")) == "0 won, 0 lost, 0 drawn"
    assert await arcade.store.rating("alice") == FIRST
    assert archived(tmp_path) == []
    # (The table adjourns at once; its row is written by the table's write task after.)
    await wait_until(lambda: unfinished(tmp_path) == [(code, "d3", 1)], "kept as adjourned")


async def test_a_game_with_no_move_played_is_neither_rated_nor_kept(serve, tmp_path):
    arcade = await serve(hold_seat=1.0, max_per_address=10)
    alice, bob, _ = await sit_down(arcade)
    await drop(arcade, "bob", bob)
    over = "over left - bob did not come back: no move was played."
    await alice.hear_until(over)
    assert await arcade.store.rating("alice") == FIRST
    assert archived(tmp_path) == [] and unfinished(tmp_path) == []


async def test_a_player_who_leaves_a_game_in_progress_loses_it_rated_and_kept(serve, tmp_path):
    arcade = await serve(hold_seat=30.0, max_per_address=10)
    alice, bob, _ = await sit_down(arcade)
    alice.say("move 0 d3")
    for game in (alice, bob):
        await game.hear_until("moved 0 d3")
    bob.say("leave")  # bob quit rather than resign: it is his loss all the same
    over = "over left black bob left the table: alice (Black) wins."
    await alice.hear_until(over)
    assert str(await arcade.store.results("alice")) == "1 won, 0 lost, 0 drawn"
    assert str(await arcade.store.results("bob")) == "0 won, 1 lost, 0 drawn"
    assert (
        (await arcade.store.rating("alice")).rating
        > 1500.0
        > (await arcade.store.rating("bob")).rating
    )
    assert archived(tmp_path) == [("alice", "bob", "black", "forfeit")]
    assert unfinished(tmp_path) == []


async def test_a_player_who_leaves_before_any_move_ends_it_with_no_result(serve, tmp_path):
    arcade = await serve(hold_seat=30.0, max_per_address=10)
    alice, bob, _ = await sit_down(arcade)
    bob.say("leave")
    await alice.hear_until("over left - bob left the table: the game ends here.")
    assert await arcade.store.rating("alice") == FIRST
    assert await arcade.store.rating("bob") == FIRST
    assert archived(tmp_path) == [] and unfinished(tmp_path) == []


async def test_a_player_who_leaves_after_the_other_dropped_adjourns_the_game(serve, tmp_path):
    arcade = await serve(hold_seat=30.0, max_per_address=10)
    alice, bob, code = await sit_down(arcade)
    alice.say("move 0 d3")
    for game in (alice, bob):
        await game.hear_until("moved 0 d3")
    await drop(arcade, "alice", alice)
    await bob.hear_until("news alice dropped out: their seat is held for 30 s.")
    bob.say("leave")  # nobody is left to win it: it waits for both
    table = arcade.tables.tables[code]
    await wait_until(lambda: table.adjourned or table.ended is not None, "bob to leave")
    assert table.adjourned and table.ended is None
    assert await arcade.store.rating("alice") == FIRST
    assert archived(tmp_path) == []
    # (The table adjourns at once; its row is written by the table's write task after.)
    await wait_until(lambda: unfinished(tmp_path) == [(code, "d3", 1)], "kept as adjourned")
