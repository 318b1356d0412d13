"""Playing with the keyboard and the mouse; refused moves say why; passes."""

import re

import pytest

from tui_reversi.core import Color, parse_square, square_name
from tui_reversi.screens.game_over import GameOverScreen
from tui_reversi.widgets.board import BoardView
from tui_reversi.widgets.move_log import MoveLog

from .conftest import moves, settle, status


async def test_the_cursor_moves_with_arrows_and_hjkl_and_enter_plays(make_app):
    app = make_app(white="human")
    async with app.run_test(size=(80, 24)) as pilot:
        board = app.screen.query_one(BoardView)
        assert board.has_focus
        assert board.cursor == 19  # d3
        await pilot.press("left", "down")  # c4
        await pilot.press("l", "h", "j", "k")  # round trip with vi keys
        await pilot.press("enter")
        await pilot.pause()
        assert moves(app) == "c4"
        assert app.match.to_move is Color.WHITE
        await pilot.press("right", "right", "down", "space")  # e5 is taken: refused
        await pilot.pause()
        assert moves(app) == "c4"
        assert status(app) == "e5 is occupied."


async def test_typing_a_square_never_moves_the_cursor_not_even_column_h(make_app):
    app = make_app(transcript="f5f6e6f4g5e7f7", white="human")  # White may play h4
    async with app.run_test(size=(80, 24)) as pilot:
        board = app.screen.query_one(BoardView)
        legal = [square_name(s) for s in app.match.position.legal_moves()]
        target = next(name for name in legal if name[0] == "h")
        await pilot.press("left", "left")  # the cursor on b3
        start = board.cursor
        await pilot.press("c")  # a column letter alone marks the column only
        await pilot.pause()
        assert board.cursor == start and board.typed_column == 2
        await pilot.press("escape", *target)  # h then a digit: column h
        await pilot.pause()
        assert moves(app).endswith(target)
        assert board.cursor == start  # h did not leave the cursor a column to the left
        await pilot.press("h")  # h alone is still cursor-left
        await pilot.pause()
        assert board.cursor == start - 1


async def test_typing_a_square_plays_it(make_app):
    app = make_app(white="human")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("f", "5")
        await pilot.pause()
        assert moves(app) == "f5"
        await pilot.press("F", "4")  # upper case works too
        await pilot.pause()
        assert moves(app) == "f5f4"


async def test_an_enter_after_a_typed_square_plays_nothing_more(make_app):
    app = make_app(white="human")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("right", "right", "down", "down", "down")  # the cursor on f6
        await pilot.press("f", "5", "enter")  # the habit of "f5 Enter"
        await pilot.pause()
        assert moves(app) == "f5"  # not f5, then White's f6 under the cursor
        await pilot.press("enter")  # a second Enter is the cursor's again
        await pilot.pause()
        assert moves(app) == "f5f6"


async def test_a_game_ended_by_a_typed_square_leaves_the_next_games_enter_alone(make_app):
    app = make_app(transcript="d3c3f5f4f3d2d1e3", white="human")  # Black's b3 ends it
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("b", "3")
        await pilot.pause()
        assert isinstance(app.screen, GameOverScreen)
        await pilot.press("n")  # a new game, chosen as it was
        await settle(pilot, app)
        await pilot.press("enter")
        await settle(pilot, app)
        board = app.screen.query_one(BoardView)
        assert moves(app) == "" and board.has_focus
        board.cursor = parse_square("d3")
        await pilot.press("enter")  # the new game's first Enter plays
        await pilot.pause()
        assert moves(app) == "d3"


async def test_typing_h_then_a_row_means_the_h_column(make_app):
    app = make_app(white="human")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("h", "3")
        await pilot.pause()
        assert status(app) == "h3 flips nothing."
        assert moves(app) == ""


async def test_illegal_moves_are_refused_with_the_reason(make_app):
    app = make_app(white="human")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("d", "4")
        await pilot.pause()
        assert status(app) == "d4 is occupied."
        await pilot.press("c", "5")
        await pilot.pause()
        assert status(app) == "c5 flips nothing."
        assert moves(app) == ""
        await pilot.press("d", "3")  # a good move clears the message
        await pilot.pause()
        assert "flips nothing" not in status(app)


async def test_clicking_a_square_plays_it(make_app):
    app = make_app(white="human")
    async with app.run_test(size=(80, 24)) as pilot:
        board = app.screen.query_one(BoardView)
        x, y = board._origin(4, 5)  # f5
        assert await pilot.click(BoardView, offset=(x + 1, y))
        await pilot.pause()
        assert moves(app) == "f5"


async def test_a_pass_is_announced_until_the_next_move(make_app):
    # After these moves White plays c1 and Black has no reply: Black passes.
    app = make_app(transcript="d3c3e6d2d1e1b2", white="human")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("c", "1")
        await pilot.pause()
        assert app.match.game.moves[-1] == -1  # the pass is recorded
        assert "Black has no legal move and passes. White to move." in status(app)
        await pilot.press("m")  # another key does not hide it for long
        await pilot.press("m")
        await pilot.pause()
        score = app.screen.query_one("ScorePanel")
        assert score.scoreboard.status == "Black passed: White again"
        log = app.screen.query_one(MoveLog)
        assert log.render_line(5).text.split() == ["pass"]  # in Black's column, no number
        await pilot.press(*square_name(app.match.position.legal_moves()[0]))
        await pilot.pause()
        assert "passes" not in status(app)
        played = square_name(app.match.game.moves[-1])
        assert log.render_line(5).text.split() == ["pass", "9", played]  # numbered on


async def test_computer_reply_arrives(make_app):
    app = make_app()  # against the seeded easy player
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("d", "3")
        await settle(pilot, app)
        assert len(app.match.game.moves) == 2
        assert app.match.to_move is Color.BLACK
        assert app.screen.query_one("ScorePanel").thinking is None


async def test_flips_animate_then_stop_and_nothing_redraws_while_idle(make_app):
    from tui_reversi.widgets.board import EDGE, OLD

    app = make_app(white="human", animation=True)
    async with app.run_test(size=(80, 24)) as pilot:
        board = app.screen.query_one(BoardView)
        phases = []
        draw = board._draw

        def counting_draw():
            phases.append(board._phase)
            return draw()

        board._draw = counting_draw
        await pilot.press("f", "5")
        await pilot.pause()
        assert board.animating
        for _ in range(300):
            if not board.animating:
                break
            await pilot.pause(0.01)
        assert not board.animating
        assert OLD in phases and EDGE in phases  # the flipped disc turned over visibly
        await pilot.pause(0.3)
        drawn = len(phases)
        await pilot.pause(0.5)
        assert len(phases) == drawn  # idle: no timer, no redraw
        assert app.screen.query_one("ScorePanel")._ticker is None


async def test_watching_two_computers_hides_what_only_a_player_can_do(make_app):
    from .conftest import GatedPlayer

    app = make_app(black="easy", white="easy", player=GatedPlayer())
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        bar = app.screen.query_one("KeyBar").render().plain
        assert "Pause" in bar
        assert "Play" not in bar and "Hint" not in bar and "Markers" not in bar
        assert "Quit" in bar and "Help" in bar


@pytest.mark.parametrize(
    ("variant", "transcript"), [("othello", ""), ("reversi", ""), ("othello", "f5d6c3d3c4f4")]
)
async def test_the_status_line_suggests_a_square_that_plays(make_app, variant, transcript):
    app = make_app(white="human", variant=variant, transcript=transcript or None)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        example = re.search(r"type a square \(([a-h][1-8])\)", status(app)).group(1)
        assert app.match.position.illegal_reason(parse_square(example)) is None
        await pilot.press(*example)
        await pilot.pause()
        assert moves(app).endswith(example)


async def test_a_key_that_does_nothing_says_so_and_typing_a_square_still_plays(make_app):
    app = make_app(white="human")
    async with app.run_test(size=(80, 24)) as pilot:
        for key, name in (("z", "z"), ("9", "9"), ("p", "p"), ("full_stop", ".")):
            await pilot.press(key)
            await pilot.pause()
            assert status(app) == f"{name} does nothing now: ? lists the keys.", key
        await pilot.press("f", "5")  # a column letter, then a row: no complaint, a move
        await pilot.pause()
        assert moves(app) == "f5" and "does nothing" not in status(app)
        await pilot.press("tab", "a")  # the move log has the focus: a is a column there too
        await pilot.pause()
        assert "does nothing" not in status(app)
        await pilot.press("k")  # a key the log uses: it reviews, and says nothing of the kind
        await pilot.pause()
        assert "does nothing" not in status(app) and app.screen.review_ply == 0
        await pilot.press("m")  # markers do nothing while reviewing: it says so
        await pilot.pause()
        assert status(app) == "m does nothing now: ? lists the keys."


@pytest.mark.parametrize("size", [(80, 24), (60, 21)])
async def test_a_square_typed_with_the_move_log_focused_plays_it(make_app, size):
    app = make_app(white="human")
    async with app.run_test(size=size) as pilot:
        await pilot.press("f", "5")
        await pilot.pause()
        await pilot.press("tab")  # the move log takes the focus
        await pilot.pause()
        assert app.screen.query_one(MoveLog).has_focus
        await pilot.press("f", "4")
        await pilot.pause()
        assert moves(app) == "f5f4" and "does nothing" not in status(app)
        app.screen.query_one(MoveLog).focus()
        await pilot.pause()
        await pilot.press("e", "3")
        await pilot.pause()
        assert moves(app) == "f5f4e3"


async def test_a_square_in_column_h_typed_with_the_move_log_focused_leaves_no_review(make_app):
    # h is also the log's "previous move": its review goes when the digit comes.
    app = make_app(transcript="f5f6e6f4g5e7f7", white="human")  # White may play h4
    async with app.run_test(size=(80, 24)) as pilot:
        log = app.screen.query_one(MoveLog)
        log.focus()
        await pilot.pause()
        await pilot.press("h", "4")
        await pilot.pause()
        assert moves(app).endswith("h4") and app.screen.review_ply is None
        assert "Reviewing" not in status(app)


async def test_a_square_clicked_into_the_move_log_then_typed_plays_it(make_app):
    # The browser's way: a click on the Moves panel, then a square.
    app = make_app(white="human")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.click(MoveLog, offset=(4, 4))
        await pilot.pause()
        assert app.screen.query_one(MoveLog).has_focus
        await pilot.press("c", "4")
        await pilot.pause()
        assert moves(app) == "c4"
