"""A forfeit goes only to a player still there; a game nobody stayed at waits
for both; a game with no move played is neither rated nor kept."""

import sqlite3

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
    assert str(arcade.archive.results("alice")) == "0 won, 0 lost, 0 drawn"
    assert arcade.archive.rating("alice") == (1500.0, 0)
    assert archived(tmp_path) == []
    assert unfinished(tmp_path) == [(code, "d3", 1)]


async def test_a_game_with_no_move_played_is_neither_rated_nor_kept(serve, tmp_path):
    arcade = await serve(hold_seat=1.0, max_per_address=10)
    alice, bob, _ = await sit_down(arcade)
    await drop(arcade, "bob", bob)
    over = "over left - bob did not come back: no move was played."
    await alice.hear_until(over)
    assert arcade.archive.rating("alice") == (1500.0, 0)
    assert archived(tmp_path) == [] and unfinished(tmp_path) == []
