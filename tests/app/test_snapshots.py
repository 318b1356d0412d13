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
