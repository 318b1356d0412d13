"""Taking a game over from another terminal while at a table, over real SSH on
loopback: dave sits at a table from the in-app lobby; a second `ssh dave@host`
answers "take it over here", and that session's game sits back down at
dave's table (the board, the clocks and the chat as they were), with nothing
forfeited. Each game here is the stand-in; the test speaks the table's
protocol for it, as test_invitations.py does."""

from __future__ import annotations

import asyncio

import pytest

from tui_reversi.net.remote import TABLE_SECRET_VARIABLE

from .conftest import Player, wait_until
from .test_invitations import Guest, next_game
from .test_tables import Game as TableGame
from .test_tables import seat, table_code


async def test_taking_the_game_over_at_a_table_sits_the_player_back_down_there(serve):
    arcade = await serve(hold_seat=0.5)  # a drop would be forfeited within the test
    alice = await Guest.arrive(arcade, "alice")
    dave = await Guest.arrive(arcade, "dave")
    alice.say("invite dave black clock 5+0")
    number = (await dave.hear_starting("invited ")).split()[1]
    dave.say(f"accept {number}")
    code = (await alice.hear_starting("go ")).split()[1]
    games = {}
    for name, guest in (("alice", alice), ("dave", dave)):
        games[name] = await TableGame.connect(await next_game(guest.player))
        await games[name].hear_until("ready")
        games[name].say("begun")
    games["alice"].say("move 0 d3")
    await games["dave"].hear_until("moved 0 d3")
    games["alice"].say("say over to you")
    await games["dave"].hear_until("said alice over to you")
    table = arcade.tables.tables[code]

    second = await Player.connect(arcade, "dave")
    await second.expect("q  leave")
    second.send(b"t")
    ended = await dave.player.finished()  # the first session: told, and ended
    assert "your game was taken over by a new session" in dave.player.output.decode()
    assert ended.exit_status == 1
    games["dave"].writer.close()  # its game went with it
    env = (await second.facts())["env"]
    assert TABLE_SECRET_VARIABLE in env  # the table's game, not a fresh game of dave's own
    here = await TableGame.connect(env)
    told = await here.hear_until("said alice over to you")
    assert f"seated {code} white othello" in told and "moved 0 d3" in told
    assert any(line.startswith("clock ") for line in told)
    here.say("begun")
    here.say("move 1 c5")
    await games["alice"].hear_until("moved 1 c5")
    # Past the seat's hold: dave never left, so nothing was forfeited.
    await asyncio.sleep(0.7)
    assert not table.held and not table.timers
    await wait_until(
        lambda: any("takes their seat over" in line for line in arcade.log_lines), "the log"
    )
    assert table.ended is None
    games["alice"].say("move 2 e6")
    assert "moved 2 e6" in await here.hear_until("moved 2 e6")


async def dave_at_a_table(arcade, how: str) -> tuple[TableGame, TableGame, str]:
    """alice and dave at a table, dave seated by `ssh -t dave@host join CODE` or by
    opening it with `table`: their games, told all there is so far."""
    if how == "join":
        alice = await TableGame.connect(await seat(arcade, "alice", "table"))
        dave = await TableGame.connect(await seat(arcade, "dave", f"join {table_code(arcade)}"))
    else:
        dave = await TableGame.connect(await seat(arcade, "dave", "table white"))
        alice = await TableGame.connect(await seat(arcade, "alice", f"join {table_code(arcade)}"))
    for game in (alice, dave):
        await game.hear_until("ready")
        game.say("begun")
    return alice, dave, table_code(arcade)


@pytest.mark.parametrize("how", ["join", "table"])
async def test_a_seat_taken_by_command_is_taken_over_by_the_next_session(serve, how):
    arcade = await serve(hold_seat=0.5)
    alice, dave, code = await dave_at_a_table(arcade, how)
    alice.say("move 0 d3")
    await dave.hear_until("moved 0 d3")
    alice.say("say over to you")
    await dave.hear_until("said alice over to you")
    table = arcade.tables.tables[code]
    (first,) = [
        player for player in Player.connected if player.conn.get_extra_info("username") == "dave"
    ]

    second = await Player.connect(arcade, "dave")
    await second.expect("q  leave")
    second.send(b"t")
    ended = await first.finished()
    assert "your game was taken over by a new session" in first.output.decode()
    assert ended.exit_status == 1
    dave.writer.close()
    env = (await second.facts())["env"]
    assert TABLE_SECRET_VARIABLE in env
    here = await TableGame.connect(env)
    told = await here.hear_until("said alice over to you")
    assert f"seated {code} white othello" in told and "moved 0 d3" in told
    here.say("begun")
    here.say("move 1 c5")
    await alice.hear_until("moved 1 c5")
    await asyncio.sleep(0.7)  # past the seat's hold: nothing forfeited
    assert not table.held and table.ended is None
