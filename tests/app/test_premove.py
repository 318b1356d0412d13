"""Moves typed while the other side is to move: kept as a premove, marked on
the board, played the moment it is the player's turn if legal then, dropped
with one sentence if not; esc clears it. At a server's table the move goes
to the server as soon as the opponent's move comes. And the status line
tells the truth once the computer has replied."""

from __future__ import annotations

from tui_reversi.core import Color, Game, square_name
from tui_reversi.screens.chat import ChatScreen
from tui_reversi.screens.confirm import ConfirmScreen
from tui_reversi.widgets.board import BoardView

from .conftest import GatedPlayer, settle, showing, status
from .test_at_table import at_table, said, wait_for  # noqa: F401 (a fixture)

# White's reply to f5 from the gated player: the first legal move, a1..h8.
AFTER_REPLY = Game.from_transcript("f5f4")


def legal_after_reply() -> str:
    return square_name(AFTER_REPLY.position.legal_moves()[0])


def illegal_after_reply() -> str:
    """An empty square Black cannot play after White's reply (nor before it)."""
    empty = [
        square
        for square in range(64)
        if AFTER_REPLY.position.color_at(square) is None
        and not AFTER_REPLY.position.is_legal(square)
    ]
    return square_name(empty[0])


async def while_the_computer_thinks(pilot, player: GatedPlayer) -> None:
    await pilot.press("f", "5")
    for _ in range(300):
        if player.thinking.is_set():
            return
        await pilot.pause(0.01)
    raise AssertionError("the computer never started thinking")


def key_bar(app) -> str:
    return app.screen.query_one("KeyBar").render().plain


async def test_after_the_computer_replies_the_status_line_does_not_say_it_is_still_its_turn(
    make_app,
):
    player = GatedPlayer()
    app = make_app(player=player, white="hard")
    async with app.run_test(size=(80, 24)) as pilot:
        await while_the_computer_thinks(pilot, player)
        await pilot.press(*illegal_after_reply())
        player.gate.set()
        await settle(pilot, app)
        assert app.match.to_move is Color.BLACK  # as the score panel says
        assert "White's turn" not in status(app)


async def test_a_square_typed_while_the_computer_thinks_is_marked_and_played_on_your_turn(
    make_app,
):
    player = GatedPlayer()
    app = make_app(player=player, white="hard")
    square = legal_after_reply()
    async with app.run_test(size=(80, 24)) as pilot:
        await while_the_computer_thinks(pilot, player)
        await pilot.press(*square)
        await pilot.pause()
        board = app.screen.query_one(BoardView)
        assert board.state.premove is not None and square_name(board.state.premove) == square
        assert status(app) == f"Premove {square}: played on your turn if legal; esc clears it."
        assert "esc Clear premove" in key_bar(app)
        player.gate.set()
        await settle(pilot, app)
        assert app.match.game.transcript().startswith(f"f5f4{square}")  # no key pressed since
        assert board.state.premove is None


async def test_a_premove_not_legal_when_the_turn_comes_is_dropped_in_one_sentence(make_app):
    player = GatedPlayer()
    app = make_app(player=player, white="hard")
    square = illegal_after_reply()
    async with app.run_test(size=(80, 24)) as pilot:
        await while_the_computer_thinks(pilot, player)
        await pilot.press(*square)
        player.gate.set()
        await settle(pilot, app)
        assert app.match.game.transcript() == "f5f4"
        assert status(app) == f"The premove {square} was dropped: it flips nothing now."
        assert app.screen.query_one(BoardView).state.premove is None


async def test_esc_clears_the_premove_and_nothing_is_played_for_you(make_app):
    player = GatedPlayer()
    app = make_app(player=player, white="hard")
    square = legal_after_reply()
    async with app.run_test(size=(80, 24)) as pilot:
        await while_the_computer_thinks(pilot, player)
        await pilot.press(*square)
        await pilot.press("escape")
        await pilot.pause()
        assert status(app) == f"The premove {square} is cleared."
        assert app.screen.query_one(BoardView).state.premove is None
        assert "Clear premove" not in key_bar(app)
        player.gate.set()
        await settle(pilot, app)
        assert app.match.game.transcript() == "f5f4"


async def test_at_a_table_the_premove_goes_to_the_server_as_soon_as_the_opponent_moved(
    at_table,  # noqa: F811
):
    app, server = at_table(Color.WHITE)  # bob, White; alice moves first
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: "Table K7QP2" in status(app), "the board")
        assert await said(pilot, server) == "begun\n"
        await pilot.press("c", "5")  # before alice has moved
        await pilot.pause()
        assert "Premove c5: played on your turn" in status(app)
        server.say("moved 0 d3")
        assert await said(pilot, server) == "move 1 c5\n"  # no key pressed since
        server.say("moved 1 c5")  # as the server accepted it
        await wait_for(pilot, lambda: app.match.game.transcript() == "d3c5", "c5 played")


async def test_at_a_table_a_pending_premove_leaves_the_tables_keys_and_dialogs_as_they_were(
    at_table,  # noqa: F811
):
    app, server = at_table(Color.WHITE, game=Game.from_transcript("d3c5"))  # alice to move
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: "Table K7QP2" in status(app), "the board")
        assert await said(pilot, server) == "begun\n"
        await pilot.press("e", "6")
        await pilot.pause()
        assert "Premove e6" in status(app)
        await pilot.press("u")
        assert await said(pilot, server) == "takeback\n"
        await pilot.press("slash")
        await wait_for(pilot, lambda: showing(app, ChatScreen), "the chat line")
        await pilot.press("escape")
        server.say("asked takeback alice")
        await wait_for(pilot, lambda: showing(app, ConfirmScreen), "alice's question")
        await pilot.press("n")
        assert await said(pilot, server) == "deny\n"
        await pilot.press("R")
        await wait_for(pilot, lambda: showing(app, ConfirmScreen), "the question")
        await pilot.press("y")
        assert await said(pilot, server) == "resign\n"
        assert square_name(app.screen.query_one(BoardView).state.premove) == "e6"  # kept


async def test_a_square_typed_with_the_move_log_focused_is_kept_as_a_premove(make_app):
    player = GatedPlayer()
    app = make_app(player=player, white="hard")
    async with app.run_test(size=(60, 21)) as pilot:
        await while_the_computer_thinks(pilot, player)
        await pilot.press("tab")
        await pilot.pause()
        square = legal_after_reply()
        await pilot.press(*square)
        await pilot.pause()
        assert square_name(app.screen.query_one(BoardView).state.premove) == square
        player.gate.set()
        await settle(pilot, app)
        assert app.match.game.transcript(3) == f"f5f4{square}"  # played on Black's turn
