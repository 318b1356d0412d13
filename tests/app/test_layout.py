"""The screen fits 80x24 without clipping, grows the board with the terminal,
says "too small" below the minimum instead of breaking, and is no crash when
the game is hung up while it is still being built."""

import signal

import pytest
from textual import events
from textual.geometry import Size

from tui_reversi.app import MIN_HEIGHT, MIN_WIDTH
from tui_reversi.screens.game import GameScreen
from tui_reversi.screens.too_small import TooSmallScreen
from tui_reversi.widgets.board import BoardView, board_size
from tui_reversi.widgets.move_log import MoveLog
from tui_reversi.widgets.score import ScorePanel


def inside(widget, width, height) -> bool:
    region = widget.region
    return region.width > 0 and region.right <= width and region.bottom <= height


@pytest.mark.parametrize("size", [(80, 24), (MIN_WIDTH, MIN_HEIGHT), (120, 40), (200, 60)])
async def test_everything_is_on_screen(make_app, size):
    app = make_app(transcript="f5d6c3d3c4f4", white="human")
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, GameScreen)
        board = screen.query_one(BoardView)
        # The whole board is drawn: its region holds every row and column.
        needed = board_size(board.cell, board.glyphs)
        assert board.region.width >= needed.width and board.region.height >= needed.height
        for widget in (board, screen.query_one(ScorePanel), screen.query_one(MoveLog)):
            assert inside(widget, *size), widget
        assert screen.query_one("KeyBar").region.bottom == size[1]
        assert screen.query_one(ScorePanel).region.height >= 5


async def test_the_board_grows_with_the_terminal(make_app):
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        board = app.screen.query_one(BoardView)
        small = board.cell
        await pilot.resize_terminal(200, 60)
        await pilot.pause()
        assert board.cell[0] > small[0] and board.cell[1] > small[1]


async def test_below_the_minimum_a_message_replaces_the_layout_and_goes_away_again(make_app):
    app = make_app(white="human")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.resize_terminal(MIN_WIDTH - 1, 24)
        await pilot.pause()
        assert isinstance(app.screen, TooSmallScreen)
        text = str(app.screen.query_one("#too-small").content)
        assert f"{MIN_WIDTH - 1}x24" in text and f"{MIN_WIDTH}x{MIN_HEIGHT}" in text
        await pilot.resize_terminal(70, MIN_HEIGHT - 1)
        await pilot.pause()
        assert isinstance(app.screen, TooSmallScreen)
        assert "70x20" in str(app.screen.query_one("#too-small").content)
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        assert isinstance(app.screen, GameScreen)
        await pilot.press("f", "5")  # and the game carries on where it was
        await pilot.pause()
        assert app.match.game.transcript() == "f5"


@pytest.mark.parametrize("resize_first", [True, False], ids=["resize, hang-up", "hang-up, resize"])
async def test_a_resize_below_the_minimum_as_the_app_closes_ends_it_cleanly(make_app, resize_first):
    """Over SSH a hang-up (SIGHUP: the app exits) may come with the client's last
    resizes still queued: the size notice pushed then gets none of its widgets
    (Textual mounts nothing in a closing app), and used to crash looking its
    text up (NoMatches '#too-small', 2 of 45 guest sessions)."""
    app = make_app(white="human")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        small = Size(MIN_WIDTH - 1, MIN_HEIGHT - 1)
        for step in ("resize", "hang-up") if resize_first else ("hang-up", "resize"):
            if step == "resize":
                app.post_message(events.Resize(small, small))  # as the driver does on SIGWINCH
            else:
                app.exit(return_code=129)  # as on SIGHUP
        await pilot.pause()
    assert app.return_code == 129


async def test_starting_in_a_tiny_terminal_says_so(make_app):
    app = make_app()
    async with app.run_test(size=(40, 12)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, TooSmallScreen)


async def test_a_narrow_key_bar_drops_game_keys_before_quit_and_help(make_app):
    app = make_app(white="human")
    async with app.run_test(size=(MIN_WIDTH, MIN_HEIGHT)) as pilot:
        await pilot.pause()
        bar = app.screen.query_one("KeyBar")
        text = bar.render().plain
        assert text.rstrip().endswith("^q Quit ? Help")
        assert len(text.rstrip()) <= MIN_WIDTH
        assert "Undo" in text  # the most used game keys stay


async def test_a_large_terminal_gets_bigger_squares_and_a_wider_move_log(make_app):
    moves = "f5d6c3d3c4f4f6f3e6e7d7c6"  # 12 moves
    app = make_app(transcript=moves, white="human")
    async with app.run_test(size=(160, 50)) as pilot:
        await pilot.pause()
        screen = app.screen
        board, log = screen.query_one(BoardView), screen.query_one(MoveLog)
        assert board.cell == (9, 4)
        assert log.per_row == 6  # three (Black, White) pairs a row
        assert log.render_line(0).text.split() == ["Black", "White"] * 3
        first_row = log.render_line(1).text.split()
        assert first_row == ["1", "f5", "2", "d6", "3", "c3", "4", "d3", "5", "c4", "6", "f4"]
        assert log.render_line(2).text.split()[:2] == ["7", "f6"]
        await pilot.press("tab", "up")  # a row back: six moves
        await pilot.pause()
        assert screen.review_ply == 6
        await pilot.click(MoveLog, offset=(1 + 22 + 12, 3))  # second pair, White: move 10
        await pilot.pause()
        assert screen.review_ply == 10
        await pilot.resize_terminal(80, 24)  # and back to one pair a row
        await pilot.pause()
        assert log.per_row == 2 and board.cell == (3, 1)
        assert log.render_line(1).text.split() == ["1", "f5", "2", "d6"]


@pytest.mark.parametrize("start", [(65, 64), (80, 24)])
async def test_on_a_tall_narrow_screen_the_score_and_moves_go_under_a_bigger_board(make_app, start):
    # A phone held upright (the browser page: 65x64 cells) gets the whole width for the board.
    app = make_app(transcript="f5d6c3d3c4f4", white="human")
    async with app.run_test(size=start) as pilot:
        await pilot.resize_terminal(65, 64)
        await pilot.pause()
        screen = app.screen
        board = screen.query_one(BoardView)
        score, log = screen.query_one(ScorePanel), screen.query_one(MoveLog)
        assert score.region.y >= board.region.bottom and log.region.y >= score.region.bottom
        assert board.cell > (3, 1)  # beside the panels, only the smallest board fits
        for widget in (board, score, log):
            assert inside(widget, 65, 64), widget
        await pilot.resize_terminal(120, 40)
        await pilot.pause()
        assert score.region.x >= board.region.right  # wide again: beside the board


async def test_a_game_hung_up_while_its_screen_is_built_ends_without_a_crash(make_app, monkeypatch):
    # A page closed as its game starts: the hang-up (SIGHUP) ends the app while
    # the game's screen is composed, before it is mounted and sized.
    built = GameScreen.compose

    def compose(screen):
        screen.app.exit(return_code=128 + signal.SIGHUP)  # (as the hang-up does)
        yield from built(screen)

    monkeypatch.setattr(GameScreen, "compose", compose)
    app = make_app()
    async with app.run_test() as pilot:
        await pilot.pause(0.2)
    assert app.crash is None
    assert app.return_code == 128 + signal.SIGHUP
