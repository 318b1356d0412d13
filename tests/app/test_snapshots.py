"""SVG snapshots at 80x24 and one larger size. Deterministic: frozen clock,
no animation, fixed theme, human players (no worker threads).

Update after a deliberate change of look with `pytest --snapshot-update`,
and look at every changed SVG before committing it."""

import pytest

MID_GAME = "f5d6c3d3c4f4"
ALMOST_OVER = "d3c3f5f4f3d2d1e3"  # Black's b3 ends it 64-0


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
def test_initial_board(snap_compare, make_app, size):
    assert snap_compare(make_app(white="human"), terminal_size=size)


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
def test_mid_game_with_markers_last_move_and_flips(snap_compare, make_app, size):
    assert snap_compare(make_app(transcript=MID_GAME, white="human"), terminal_size=size)


def test_game_over(snap_compare, make_app):
    app = make_app(transcript=ALMOST_OVER, white="human")
    assert snap_compare(app, press=["b", "3"])


def test_new_game_dialog(snap_compare, make_app):
    assert snap_compare(make_app(white="human"), press=["n", "down", "right", "right"])


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
def test_review_banner(snap_compare, make_app, size):
    app = make_app(transcript=MID_GAME, white="human")
    assert snap_compare(app, press=["comma", "comma"], terminal_size=size)


def test_ascii_mode(snap_compare, make_app):
    assert snap_compare(make_app(transcript=MID_GAME, white="human", ascii=True))


def test_too_small(snap_compare, make_app):
    assert snap_compare(make_app(), terminal_size=(50, 16))


# -- analysis: the graph beside the board, on its own screen, in ASCII ----------------

ANALYSED = "f5d6c3d3c4f4c5b3c2e6c6b4b5d2e3a6c1b1a4"  # White's b1 gives away a corner


async def analysed(pilot) -> None:
    """The game screen given a repeatable analysis of its game, as if just done."""

    await pilot.pause()

    from tui_reversi.players.analysis import GameAnalysis, analyse_game
    from tui_reversi.players.base import Limit
    from tui_reversi.screens.game import GameScreen

    screen = next(s for s in pilot.app.screen_stack if isinstance(s, GameScreen))
    game = pilot.app.match.game
    found = analyse_game(game, Limit(depth=3))
    screen.analysis.known = GameAnalysis(tuple(found))
    screen.show()


def test_analysis_beside_the_board_with_the_graph(snap_compare, make_app):
    app = make_app(transcript=ANALYSED, white="human")
    press = ["comma", "comma", "comma"]  # reviewing the position before b1
    assert snap_compare(app, press=press, run_before=analysed, terminal_size=(120, 40))


def test_analysis_graph_on_its_own_screen(snap_compare, make_app):
    app = make_app(transcript=ANALYSED, white="human")
    assert snap_compare(app, press=["comma", "comma", "comma", "g"], run_before=analysed)


def test_analysis_graph_in_ascii_mode(snap_compare, make_app):
    app = make_app(transcript=ANALYSED, white="human", ascii=True)
    assert snap_compare(app, press=["comma", "comma", "comma", "g"], run_before=analysed)
