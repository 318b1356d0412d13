"""The move log as Othello players write a game: moves numbered 1 to 60 by
discs placed, Black left and White right under a heading, a pass shown in
its column without a number, and undone moves marked by shape as well as
colour (ASCII and NO_COLOR too)."""

from tui_reversi.core import Game, Position
from tui_reversi.match import Match
from tui_reversi.widgets.move_log import MoveLog

# White's c1 leaves Black without a move: Black passes, White plays again.
BLACK_PASSES = "d3c3e6d2d1e1b2c1"


def log_lines(app, count: int = 8) -> list[list[str]]:
    log = app.screen.query_one(MoveLog)
    return [log.render_line(y).text.split() for y in range(count)]


async def test_a_pass_takes_no_number_and_the_moves_are_in_colour_columns(make_app):
    app = make_app(transcript=BLACK_PASSES + "a3", white="human")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        lines = log_lines(app)
        assert lines[0] == ["Black", "White"]
        assert lines[1] == ["1", "d3", "2", "c3"]
        assert lines[4] == ["7", "b2", "8", "c1"]
        assert lines[5] == ["pass", "9", "a3"]  # White's ninth disc is move 9


async def test_undone_moves_are_bracketed_in_every_mode(make_app, monkeypatch):
    monkeypatch.setenv("NO_COLOR", "1")
    app = make_app(transcript="f5d6c3d3", white="human", ascii=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("u", "u")
        await pilot.pause()
        lines = log_lines(app, 3)
        assert lines[1] == ["1", "f5", "2", "d6"]
        assert lines[2] == ["3", "(c3)", "4", "(d3)"]
        await pilot.press("r")
        await pilot.pause()
        assert log_lines(app, 3)[2] == ["3", "c3", "4", "(d3)"]


async def test_a_game_set_up_with_white_to_move_starts_in_white_s_column(make_app):
    start = Position.from_string(
        "---------------------------OX------XO--------------------------- O"
    )
    game = Game(start=start)
    game.play(game.position.legal_moves()[0])
    game.play(game.position.legal_moves()[0])
    app = make_app(match=Match("human", "human", game))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        log = app.screen.query_one(MoveLog)
        line = log.render_line(1).text
        assert line.split() == ["1", "e3"]
        assert log.render_line(2).text.split()[:1] == ["2"]
        assert line.index("1") > len(line) // 4  # in White's column, Black's left empty
        await pilot.click(MoveLog, offset=(14, 2))
        await pilot.pause()
        assert app.screen.review_ply == 1


async def test_review_numbers_moves_as_the_log_does(make_app):
    from .conftest import status, title

    app = make_app(transcript=BLACK_PASSES + "a3", white="human")  # plies: 8 moves, pass, a3
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("comma")
        await pilot.pause()
        assert "REVIEWING THE PASS AFTER MOVE 8" in title(app)
        assert status(app).startswith("The pass after move 8: Black had no move.")
        await pilot.press("comma")
        await pilot.pause()
        assert "REVIEWING MOVE 8 OF 9" in title(app)
        assert status(app).startswith("Move 8: White played c1")
