"""Undo/redo, history review, continue-from-here, game over."""

import pytest

from tui_reversi.core import Color
from tui_reversi.widgets.board import BoardView
from tui_reversi.widgets.move_log import MoveLog

from .conftest import FirstMovePlayer, moves, settle, status, title

FOUR_MOVES = "f5d6c3d3"


async def test_undo_against_the_computer_takes_back_both_moves_and_redo_replays_them(make_app):
    app = make_app(player=FirstMovePlayer())
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("f", "5")
        await settle(pilot, app)
        await pilot.press("d", "3")  # legal after f5 and White's first-move reply
        await settle(pilot, app)
        assert app.match.game.ply == 4
        await pilot.press("u")
        await settle(pilot, app)
        assert app.match.game.ply == 2 and app.match.to_move is Color.BLACK
        await pilot.press("u")
        await settle(pilot, app)
        assert app.match.game.ply == 0
        await pilot.press("u")
        await pilot.pause()
        assert status(app) == "Nothing to undo."
        await pilot.press("r")
        await settle(pilot, app)
        assert app.match.game.ply == 2 and app.match.to_move is Color.BLACK
        await pilot.press("r", "r")
        await settle(pilot, app)
        assert app.match.game.ply == 4
        assert status(app) == "Nothing to redo."


async def test_undo_between_two_humans_takes_back_one_move(make_app):
    app = make_app(transcript=FOUR_MOVES, white="human")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("u")
        await pilot.pause()
        assert app.match.game.ply == 3 and app.match.to_move is Color.WHITE


async def test_review_steps_through_history_read_only_and_returns_to_the_game(make_app):
    app = make_app(transcript=FOUR_MOVES, white="human")
    async with app.run_test(size=(80, 24)) as pilot:
        board = app.screen.query_one(BoardView)
        await pilot.press("comma")
        await pilot.pause()
        assert "REVIEWING MOVE 3 OF 4" in title(app)
        assert board.state.readonly
        assert board.state.position == app.match.game.positions[3]
        await pilot.press("c", "4")  # the board is read-only while reviewing
        await pilot.pause()
        assert "Reviewing" in status(app)
        assert moves(app) == FOUR_MOVES
        await pilot.press("home")
        await pilot.pause()
        assert "REVIEWING THE START" in title(app)
        await pilot.press("full_stop")
        await pilot.pause()
        assert "MOVE 1 OF 4" in title(app)
        await pilot.press("escape")
        await pilot.pause()
        assert "REVIEWING" not in title(app)
        assert not board.state.readonly
        assert board.state.position == app.match.position


async def test_stepping_forward_past_the_last_move_returns_to_the_game(make_app):
    app = make_app(transcript=FOUR_MOVES, white="human")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("comma", "full_stop")
        await pilot.pause()
        assert "REVIEWING" not in title(app)


async def test_continue_from_a_reviewed_position_after_confirmation(make_app):
    app = make_app(transcript=FOUR_MOVES, white="human")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("comma", "comma")
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen.__class__.__name__ == "ConfirmScreen"
        await pilot.press("n")  # changed my mind: nothing lost
        await pilot.pause()
        assert moves(app) == FOUR_MOVES and "MOVE 2 OF 4" in title(app)
        await pilot.press("enter")
        await pilot.pause()
        await pilot.press("y")
        await pilot.pause()
        assert moves(app) == "f5d6"
        assert "REVIEWING" not in title(app)
        assert app.match.to_move is Color.BLACK


async def test_selecting_a_move_in_the_log_reviews_it_by_keyboard_and_mouse(make_app):
    app = make_app(transcript=FOUR_MOVES, white="human")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("tab")
        log = app.screen.query_one(MoveLog)
        assert log.has_focus
        await pilot.press("up")  # one row (two moves) back
        await pilot.pause()
        assert "MOVE 2 OF 4" in title(app)
        await pilot.press("right")
        await pilot.pause()
        assert "MOVE 3 OF 4" in title(app)
        assert await pilot.click(MoveLog, offset=(3, 2))  # move 1, left column, first row
        await pilot.pause()
        assert "MOVE 1 OF 4" in title(app)


async def test_game_over_shows_winner_score_and_what_next(make_app):
    # Black's ninth move b3 wipes White out: 13-0 on the board, 64-0 counted.
    app = make_app(transcript="d3c3f5f4f3d2d1e3", white="human")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("b", "3")
        await pilot.pause()
        await pilot.pause()
        over = app.screen
        assert over.__class__.__name__ == "GameOverScreen"
        text = " ".join(str(w.content) for w in over.query("Static"))
        assert "Black (Human) wins!" in text
        assert "Black 64 - 0 White" in text and "discs on the board 13-0" in text
        assert "n New game" in text and ", Review" in text
        assert "^q Quit" in over.query_one("KeyBar").render().plain
        await pilot.press("comma")  # review from the game-over dialog
        await pilot.pause()
        assert "MOVE 8 OF 9" in title(app)
        await pilot.press("escape")
        await pilot.pause()
        assert "Game over" in status(app)
        await pilot.press("n")
        await pilot.pause()
        assert app.screen.__class__.__name__ == "NewGameScreen"


async def test_a_game_played_on_from_a_review_to_the_same_end_is_announced_again(make_app):
    app = make_app(transcript="d3c3f5f4f3d2d1e3", white="human")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("b", "3")  # the end, 64-0
        await pilot.pause()
        assert app.screen.__class__.__name__ == "GameOverScreen"
        await pilot.press("comma")  # review from the game-over dialog: move 8 of 9
        await pilot.pause()
        await pilot.press("enter")  # play on from here...
        await pilot.pause()
        await pilot.press("y")  # ...discarding b3
        await pilot.pause()
        assert app.match.game.length == 8
        await pilot.press("b", "3")  # the same move, the same end
        await pilot.pause()
        await pilot.pause()
        assert app.screen.__class__.__name__ == "GameOverScreen"


async def test_every_key_of_a_burst_in_the_log_counts(make_app):
    # Over SSH, key repeat arrives in bursts: each key must move on from the
    # one before, not from the position the screen has shown so far.
    from textual import events

    transcript = "f5d6c3d3c4f4f6f3e6e7d7c6"  # 12 moves
    app = make_app(transcript=transcript, white="human")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("tab", "up")
        await pilot.pause()
        assert "MOVE 10 OF 12" in title(app)

        async def burst(key: str, times: int) -> str:
            for _ in range(times):  # all queued before the first is handled
                app.post_message(events.Key(key, key))
            await pilot.pause()
            await pilot.pause()
            return title(app)

        assert "MOVE 2 OF 12" in await burst("k", 4)
        assert "MOVE 5 OF 12" in await burst("l", 3)
        assert "REVIEWING THE START" in await burst("k", 5)  # stops at the start
        assert "MOVE 6 OF 12" in await burst("j", 3)


async def test_playing_on_from_a_reviewed_move_names_it_as_the_log_numbers_it(make_app):
    """Black passes after c1, so a3 is move 9 (the tenth ply); the question
    said "Play on from move 10?"."""
    from tui_reversi.widgets.literal import Literal

    app = make_app(transcript="d3c3e6d2d1e1b2c1a3a1", white="human")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("comma", "enter")
        await pilot.pause()
        question = str(app.screen.query_one("#dialog-title", Literal).content)
        assert question.startswith("Play on from move 9? The 1 later move"), question


async def test_after_an_undo_review_counts_only_the_moves_still_in_the_game(make_app):
    """After undoing move 4, review said MOVE 2 OF 4: the move taken back
    was counted. Reviewing the taken-back move (from the log) says so."""
    app = make_app(transcript=FOUR_MOVES, white="human")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("u")
        await pilot.pause()
        assert app.match.game.ply == 3
        await pilot.press("comma")
        await pilot.pause()
        assert "REVIEWING MOVE 2 OF 3" in title(app)
        app.screen.post_message(MoveLog.PlySelected(4))  # the taken-back move, clicked in the log
        await pilot.pause()
        assert "REVIEWING MOVE 4, TAKEN BACK" in title(app)
        assert status(app).startswith("Move 4: White played d3")


@pytest.mark.parametrize(
    ("transcript", "opening"),
    [("d3c3f5f4f3d2d1e3", "Diagonal Opening"), ("f5d6c3d3c4f4c5b3c2e6c6b4", "Brightwell")],
)
async def test_at_60_columns_the_review_banner_still_names_esc_and_enter(
    make_app, transcript, opening
):
    """The key bar leaves esc and ⏎ out at 60 columns, and the banner cut
    `⏎ play from here` after the opening's name: the name gives way now."""
    app = make_app(transcript=transcript, white="human")
    async with app.run_test(size=(60, 21)) as pilot:
        await pilot.press("comma")
        await pilot.pause()
        banner = app.screen.query_one("#title-bar")
        assert banner.content.cell_length <= banner.size.width, title(app)
        assert "esc back" in title(app) and "⏎ play from here" in title(app)
        await pilot.resize_terminal(80, 24)  # room again: in full
        await pilot.pause()
        assert opening in title(app) and "⏎ play from here" in title(app)
