"""The move log as Othello players write a game: moves numbered 1 to 60 by
discs placed, Black left and White right under a heading, a pass shown in
its column without a number, and undone moves marked by shape as well as
colour (ASCII and NO_COLOR too)."""

from tui_reversi.core import Game, Position
from tui_reversi.match import Match
from tui_reversi.players.base import Limit
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


# -- analysed: marks after the moves, a move a row with its figures where they fit ------------


async def analyse_now(pilot, app) -> None:
    """The game as if just analysed (a shallow, repeatable analysis)."""

    from tui_reversi.players.analysis import GameAnalysis, analyse_game

    found = analyse_game(app.match.game, Limit(depth=2))
    app.screen.analysis.known = GameAnalysis(tuple(found))
    app.screen.show()
    await pilot.pause()


async def test_an_analysed_log_has_a_move_a_row_with_its_disc_and_figures_at_80x24(make_app):
    app = make_app(transcript=BLACK_PASSES + "a3", white="human")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("home")  # the first moves in view
        await analyse_now(pilot, app)
        log = app.screen.query_one(MoveLog)
        assert log.figured and log.per_row == 1
        lines = [log.render_line(y).text for y in range(log.size.height)]
        assert lines[0].split() == ["Move", "score", "best", "loss"]
        assert lines[1].split()[:3] == ["1", "●", "d3"]
        assert lines[2].split()[:3] == ["2", "○", "c3"]
        # the figures start under their heading: the played score under "score"
        assert lines[1].index(".") < lines[0].index("score") + len("score")
        await pilot.press("end")
        await pilot.pause()
        lines = [log.render_line(y).text.split() for y in range(log.size.height)]
        assert ["●", "pass"] in lines  # Black's pass: its disc, no number
        assert lines[-1][:2] == ["9", "○"]  # White's ninth disc is move 9
        assert lines[-1][2].startswith("a3")


async def test_marks_and_figures_read_in_ascii_and_no_color_and_undone_stays_bracketed(
    make_app, monkeypatch
):
    monkeypatch.setenv("NO_COLOR", "1")
    app = make_app(transcript="f5d6c3d3c4f4c5b3c2e6c6b4b5d2e3a6c1b1a4", white="human", ascii=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("u", "u", "comma")  # b1 and a4 taken back; reviewing
        await analyse_now(pilot, app)
        log = app.screen.query_one(MoveLog)
        assert log.figured  # the ASCII board is wider, and the figures still fit
        log.scroll_end(animate=False)
        await pilot.pause()
        lines = [log.render_line(y).text for y in range(log.size.height)]
        b1 = next(line for line in lines if "(b1)" in line)
        assert b1.split()[:3] == ["18", "O", "(b1)??"]  # a blunder, undone
        assert len(b1.split()) == 7  # its score, the best move, its score, the loss
        assert all(char.isascii() for line in lines for char in line)


async def test_where_the_figures_do_not_fit_the_pairs_keep_the_marks(make_app):
    app = make_app(transcript="f5d6c3d3c4f4c5b3c2e6c6b4b5d2e3a6c1b1a4", white="human")
    async with app.run_test(size=(60, 21)) as pilot:
        await analyse_now(pilot, app)
        log = app.screen.query_one(MoveLog)
        assert not log.figured and log.per_row == 2
        lines = [log.render_line(y).text.split() for y in range(log.size.height)]
        assert lines[0] == ["Black", "White"]
        # (17. c1 was an inaccuracy with the weights before the deeper labels.)
        assert ["17", "c1", "18", "b1??"] in lines
        assert ["19", "a4??"] in lines


async def test_keys_and_clicks_step_a_move_a_row_once_analysed(make_app):
    app = make_app(transcript="f5d6c3d3c4f4c5b3", white="human")
    async with app.run_test(size=(80, 24)) as pilot:
        await analyse_now(pilot, app)
        app.screen.query_one(MoveLog).focus()
        await pilot.press("home", "down", "down", "down")
        await pilot.pause()
        assert app.screen.review_ply == 3
        await pilot.press("up")
        await pilot.pause()
        assert app.screen.review_ply == 2
        await pilot.click(MoveLog, offset=(30, 2))  # the first move's row, on its figures
        await pilot.pause()
        assert app.screen.review_ply == 1


def test_a_move_s_loss_has_the_sign_the_command_line_and_the_json_give_it():
    """The log showed -7.7 under "loss" where `analyse` prints 7.7."""
    from tui_reversi.core import Color
    from tui_reversi.players.analysis import MoveAnalysis
    from tui_reversi.widgets.move_log import figures

    scored = MoveAnalysis(18, Color.WHITE, "b1", -8.1, "b6", -0.4)
    assert scored.loss == 7.7
    assert figures(scored).split() == ["-8.1", "b6", "-0.4", "7.7"]
    solved = MoveAnalysis(50, Color.BLACK, "h8", -2.0, "g7", 4.0, exact=True)
    assert figures(solved).split() == ["-2=", "g7", "+4=", "6="]
