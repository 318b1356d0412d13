"""Analyse in the app: one key scores every move, the log fills in, review
shows the best move and its line, the graph, the opening's name."""

from tui_reversi.core import Game, Move
from tui_reversi.players.analysis import GameAnalysis, analyse_game
from tui_reversi.players.base import Limit
from tui_reversi.screens.eval_graph import EvalGraphScreen
from tui_reversi.screens.game import GameScreen
from tui_reversi.screens.game_over import GameOverScreen
from tui_reversi.storage import Autosave
from tui_reversi.widgets.analysis_panel import AnalysisPanel
from tui_reversi.widgets.board import BoardView
from tui_reversi.widgets.eval_graph import EvalGraph
from tui_reversi.widgets.move_log import MARKS, MoveLog

from ..players.test_game_analysis import WIPEOUT
from .conftest import settle, status, title
from .test_keeping import keeping_app  # noqa: F401 (a fixture)

ALMOST_OVER = "d3c3f5f4f3d2d1e3"  # Black's b3 ends it 64-0
OVER = ALMOST_OVER + "b3"


def game_screen(app) -> GameScreen:
    return next(screen for screen in app.screen_stack if isinstance(screen, GameScreen))


def repeatable(app) -> AnalysisPanel:
    """The panel of `app`, analysing at a fixed depth: fast and the same every run."""
    panel = game_screen(app).query_one(AnalysisPanel)
    panel.limit = Limit(depth=2)
    return panel


async def finish_analysis(pilot, app) -> None:
    for _ in range(200):
        await settle(pilot, app)
        if not game_screen(app).query_one(AnalysisPanel).running:
            return
    raise AssertionError("the analysis did not finish")


async def test_one_key_on_the_game_over_screen_scores_every_move_into_the_log(make_app):
    app = make_app(transcript=ALMOST_OVER, white="human")
    async with app.run_test(size=(80, 24)) as pilot:
        repeatable(app)
        await pilot.press("b", "3")
        await pilot.pause()
        assert isinstance(app.screen, GameOverScreen)
        await pilot.press("a")
        await finish_analysis(pilot, app)
        game_screen = app.screen
        assert game_screen.analysis.known.covers(app.match.game)
        log = game_screen.query_one(MoveLog).moves
        assert all(log.notes) and len(log.notes) == 9
        assert status(app).startswith("Analysis done")
        panel = game_screen.query_one(AnalysisPanel)
        summary = str(panel.query_one("#analysis-summary").content)
        assert panel.display and "Black: avg loss" in summary and "White: avg loss" in summary
        assert "Turning point: move " in summary and "Turning point: move " in status(app)


async def test_in_review_the_best_move_is_marked_and_its_line_is_on_the_status_line(make_app):
    app = make_app(transcript=OVER, white="human")
    async with app.run_test(size=(80, 24)) as pilot:
        repeatable(app)
        await pilot.press("escape", "a")
        await finish_analysis(pilot, app)
        await pilot.press("home", "full_stop", "full_stop")  # the position after move 2
        await pilot.pause()
        scored = app.screen.analysis.known.at(3)
        assert status(app).startswith(f"Best here: {scored.best} (")
        assert " ".join(str(move) for move in scored.pv) in status(app)
        board = app.screen.query_one(BoardView)
        assert board.state.hint is not None and board.state.readonly


async def test_a_second_press_stops_it_and_the_moves_scored_so_far_stay(make_app):
    game = Game.from_transcript("f5d6c3d3c4f4c5b3c2e6c6b4b5d2e3a6c1b1")
    app = make_app(transcript=game.transcript(), white="human")
    async with app.run_test(size=(80, 24)) as pilot:
        panel = app.screen.query_one(AnalysisPanel)
        panel.limit = Limit(time=0.3)
        await pilot.press("comma", "a")
        for _ in range(100):  # until the first moves are scored, however busy the machine
            await pilot.pause(0.1)
            if app.screen.analysis.known.moves:
                break
        await pilot.press("a")
        await settle(pilot, app)
        assert not panel.running
        assert "Analysis stopped" in status(app)
        scored = len(app.screen.analysis.known.moves)
        assert 0 < scored < len(game.moves)
        await pilot.pause(0.5)
        assert len(app.screen.analysis.known.moves) == scored


async def test_no_analysis_during_play_and_a_new_game_drops_the_old_ones(make_app):
    app = make_app(transcript="f5d6c3", white="human")
    async with app.run_test(size=(80, 24)) as pilot:
        repeatable(app)
        app.screen.action_analyse()  # as the command palette would
        await pilot.pause()
        assert "Analysis is for a finished game" in status(app)
        assert not app.screen.query_one(AnalysisPanel).running
        await pilot.press("comma", "a")
        await pilot.pause()
        app.screen.begin(type(app.match).new("human", "human", "othello"))
        await settle(pilot, app)
        assert app.screen.analysis.known.moves == ()
        assert app.screen.query_one(MoveLog).moves.notes == ()


async def test_the_graph_opens_on_its_own_screen_and_enter_reviews_the_chosen_move(make_app):
    app = make_app(transcript=OVER, white="human")
    async with app.run_test(size=(80, 24)) as pilot:
        repeatable(app)
        await pilot.press("escape", "g")
        await pilot.pause()
        assert "Nothing analysed yet" in status(app)
        await pilot.press("a")
        await finish_analysis(pilot, app)
        await pilot.press("g")
        await pilot.pause()
        assert isinstance(app.screen, EvalGraphScreen)
        graph = app.screen.query_one(EvalGraph)
        assert len(graph.data.values) == 9 and graph.data.selected == 9
        await pilot.press("left", "left", "enter")
        await pilot.pause()
        assert app.screen.review_ply == 7


async def test_the_title_names_the_opening_whichever_way_it_was_played(make_app):
    app = make_app(transcript="c4e3f6e6f5", white="human")  # the Tiger, turned
    async with app.run_test(size=(80, 24)) as pilot:
        assert title(app).endswith("· Tiger")
        await pilot.press("comma", "comma", "comma")  # after move 2: c4 e3
        await pilot.pause()
        assert "MOVE 2 OF 5 · Perpendicular Opening ·" in title(app)
        await pilot.press("comma")
        await pilot.pause()
        assert "Opening" not in title(app)


async def test_the_analysis_is_autosaved_with_the_game_and_comes_back_with_it(keeping_app):  # noqa: F811
    game = Game.from_transcript(OVER)
    app, session = keeping_app(cli={"white": "human"})
    async with app.run_test(size=(80, 24)) as pilot:
        app.screen.begin(type(app.match)("human", "human", game))
        repeatable(app)
        await pilot.press("escape", "a")
        await finish_analysis(pilot, app)
        assert session.flush(5)
    saved = Autosave().load()
    assert saved.record is not None and saved.record.analysis.covers(game)
    expected = GameAnalysis(tuple(analyse_game(game, Limit(depth=2))))
    assert [m.best for m in saved.record.analysis.moves] == [m.best for m in expected.moves]


def test_the_turning_point_waits_until_every_move_is_scored():
    from tui_reversi.widgets.analysis_panel import summary_text

    game = Game.from_transcript(OVER)
    every = GameAnalysis(tuple(analyse_game(game, Limit(depth=1))))
    assert "Turning point: move " in summary_text(game, every)
    part = GameAnalysis(every.moves[-3:])
    assert "Turning point" not in summary_text(game, part)


async def test_in_ascii_mode_the_analysis_draws_in_ascii_only(make_app):
    from .test_contrast import analysed

    app = make_app(transcript=OVER, white="human", ascii=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("escape")  # the game-over dialog
        await pilot.pause()
        screen = game_screen(app)
        screen.analysis.known = analysed(app.match.game, 5)  # under way: the bar would show
        screen.show()
        await pilot.pause()
        assert screen.query_one(AnalysisPanel).display
        text = "".join(strip.text for strip in app.screen._compositor.render_strips())
        assert "Analysis" in text and text.isascii(), text
        await pilot.press("g")
        await pilot.pause()
        text = "".join(strip.text for strip in app.screen._compositor.render_strips())
        assert text.isascii(), text


async def test_at_a_server_s_table_reviewing_is_no_way_to_the_engine_until_the_game_ends(make_app):
    from types import SimpleNamespace

    from tui_reversi.core import Color, Ending

    app = make_app(transcript="f5d6c3", white="human")
    async with app.run_test(size=(80, 24)) as pilot:
        repeatable(app)
        # A seat at a table, the person across still playing (the link as the screen reads it).
        screen = app.screen
        screen.link = SimpleNamespace(
            state=SimpleNamespace(colour=Color.BLACK, ending=None, names=("", ""), ratings={})
        )
        await pilot.press("comma")
        await pilot.pause()
        assert not screen.check_action("analyse", ())  # not offered now
        screen.action_analyse()  # as the command palette would
        await pilot.pause()
        assert "At a table, analysis waits" in status(app)
        assert not screen.query_one(AnalysisPanel).running
        app.referee.end(Ending("resigned", Color.BLACK, "White resigned."))
        assert screen.check_action("analyse", ()) is True
        screen.link = None


async def test_moves_taken_back_during_play_show_no_figures_until_reviewed(make_app):
    from .test_contrast import analysed

    game = Game.from_transcript("f5d6c3d3c4f4")
    app = make_app(transcript=game.transcript(), white="human")
    async with app.run_test(size=(80, 24)) as pilot:
        screen = app.screen
        screen.analysis.known = analysed(app.match.game, 6)
        await pilot.press("comma")  # in review, every move's figures
        await pilot.pause()
        assert len(screen.query_one(MoveLog).moves.notes) == 6
        await pilot.press("escape", "u", "u")  # back to play, two moves taken back
        await pilot.pause()
        log = screen.query_one(MoveLog).moves
        assert log.live == 4 and len(log.notes) == 4  # move 5's best move would be a hint
        await pilot.press("comma")
        await pilot.pause()
        assert len(screen.query_one(MoveLog).moves.notes) == 6


# A finished game with a pass: Black's a5, the last move, is move 14 and the 15th ply.
WITH_A_PASS = "e6f6g6e3e2f2c3d2e1c2g1b4b2a5"


def decided_by_the_last_move() -> tuple[Game, GameAnalysis]:
    from tui_reversi.players.analysis import MoveAnalysis

    game = Game.from_transcript(WITH_A_PASS)
    scored = []
    for ply, move in enumerate(game.played, start=1):
        if move.is_pass:
            continue
        side = game.positions[ply - 1].to_move
        score = 10.0 if ply == game.length else 0.0  # Black ahead only after a5
        scored.append(MoveAnalysis(ply, side, move, score, move, score))
    return game, GameAnalysis(tuple(scored))


def test_the_turning_point_is_numbered_as_the_log_numbers_moves():
    """It was numbered by ply, passes counted: "move 15" for the log's 14."""
    from tui_reversi.tools.analyse import describe_turning_point
    from tui_reversi.widgets.analysis_panel import turning_text

    game, analysis = decided_by_the_last_move()
    assert turning_text(game, analysis) == "move 14, Black a5"
    assert describe_turning_point(game, analysis.at(game.length)).startswith(
        "Turning point: move 14, Black a5"
    )


async def test_the_panel_names_the_deciding_moves_and_why_as_analyse_does(make_app):
    from tui_reversi.players.analysis import deciding_moves

    app = make_app(transcript=WIPEOUT, white="human")
    # (tall enough for every deciding move: at 80x24 the move log keeps its room)
    async with app.run_test(size=(100, 28)) as pilot:
        repeatable(app)
        await pilot.press("escape", "a")
        await finish_analysis(pilot, app)
        game = app.match.game
        deciding = deciding_moves(app.screen.analysis.known, game, game.result)
        assert deciding and any(reason for _, reason in deciding)
        summary = str(app.screen.query_one("#analysis-summary").content)
        # Each side's costliest moves under a heading of their own, not among the deciding ones.
        assert "White's costliest: " in summary
        lines = [line for line in summary.splitlines() if line.startswith("Deciding: ")]
        assert len(lines) == len(deciding)
        for line, (scored, reason) in zip(lines, deciding, strict=True):
            named = f"{game.move_number(scored.ply)}. {scored.side.label} {scored.move}"
            assert line.startswith(f"Deciding: {named}?") and f" {scored.loss:g} discs" in line
            assert line.endswith(f": {reason}" if reason else " discs")


async def test_after_playing_on_from_an_analysed_review_no_progress_bar_stays_up(make_app):
    """The panel showed a frozen bar (98%, then 85% at the end) with nothing
    running: the game played on from a review grows past what was analysed."""
    from textual.widgets import ProgressBar

    app = make_app(transcript=OVER, white="human")
    async with app.run_test(size=(80, 24)) as pilot:
        repeatable(app)
        await pilot.press("escape", "a")
        await finish_analysis(pilot, app)
        await pilot.press("comma", "comma", "enter")  # play on from move 7
        await pilot.pause()
        await pilot.press("y")
        await settle(pilot, app)
        panel = app.screen.query_one(AnalysisPanel)
        assert app.match.game.move_number() == 7 and not panel.running
        analysed = Game.from_transcript(OVER).move_at(7)
        other = next(s for s in app.match.position.legal_moves() if Move.of(s) != analysed)
        app.screen.play(Move.of(other))  # a move the analysis has not seen
        await settle(pilot, app)
        assert not panel.query_one(ProgressBar).display
        assert panel.border_title == "Analysis"


async def test_the_graph_marks_moves_as_the_log_does_and_says_where_its_cursor_is(make_app):
    from tui_reversi.widgets.eval_graph import LEGEND
    from tui_reversi.widgets.literal import Literal

    app = make_app(transcript=OVER, white="human")
    async with app.run_test(size=(80, 24)) as pilot:
        repeatable(app)
        await pilot.press("escape", "a")
        await finish_analysis(pilot, app)
        await pilot.press("g")
        await pilot.pause()
        assert isinstance(app.screen, EvalGraphScreen)
        assert str(app.screen.query_one("#graph-legend", Literal).content) == LEGEND
        assert LEGEND == "?! inaccuracy, ? mistake, ?? blunder"
        graph = app.screen.query_one(EvalGraph)
        marks_row = "".join(segment.text for segment in graph.render_line(graph.size.height - 1))
        labels = [label for label in graph.data.labels if label]
        assert labels, "a game with a 64-0 end has a labelled move"
        assert ("??" in marks_row) == ("blunder" in labels)
        assert "!" not in marks_row.replace("?!", "").replace("??", "")  # no lone !
        await pilot.press("left", "left")
        await pilot.pause()
        cursor = str(app.screen.query_one("#graph-cursor", Literal).content)
        scored = game_screen(app).analysis.known.at(7)
        assert cursor.startswith(f"Move 7, Black {app.match.game.move_at(6)}: ")
        value = graph.data.values[6]
        side = "Black" if value > 0 else "White"
        assert f"{side} ahead by {abs(value):.1f}" in cursor or value == 0
        if scored.label:
            assert f"({MARKS[scored.label]} {scored.label})" in cursor
