"""The static evaluation: edge stability, and an anti evaluation that is more
than a flipped sign."""

from tui_reversi.core import Position
from tui_reversi.engine.evaluation import (
    SCALE,
    WIN,
    _edge_stability,
    make_evaluator,
    make_stable_edge_counter,
    terminal_score,
)


def line(cells: str) -> int:
    """An edge configuration from 8 characters: '-' empty, 'x' mover, 'o' other."""
    return sum(3**i * "-xo".index(c) for i, c in enumerate(cells))


def stable(cells: str) -> str:
    mask = _edge_stability()[line(cells)]
    return "".join("s" if mask >> i & 1 else "." for i in range(8))


def test_edge_stability_is_exact_along_the_line():
    assert stable("xxxxxxxx") == "ssssssss"
    assert stable("xx------") == "ss......"  # anchored on the corner
    assert stable("-xxxxxx-") == "........"  # no corner: all can still flip
    assert stable("xo------") == "s......."  # o can be outflanked from c1
    assert stable("xxxooooo") == "ssssssss"  # a full edge never changes
    assert stable("xxo-oxxx") == "ss...sss"


def test_stable_edge_counter_counts_one_sides_unflippable_edge_discs():
    count = make_stable_edge_counter()
    board = Position.from_string("XXX-----" + "X-------" + "-" * 48 + " X")
    assert count(board.black, board.white) == 4  # a1 b1 c1 and a2
    assert count(board.white, board.black) == 0


def test_finished_games_score_beyond_any_heuristic():
    full = Position.from_string("X" * 44 + "O" * 20 + " X")
    assert make_evaluator(False)(full.own, full.opp) == (44 - 20) * SCALE + WIN
    # In anti the same board is a loss by as much.
    assert make_evaluator(True)(full.own, full.opp) == -(44 - 20) * SCALE - WIN


def test_the_empties_of_a_finished_game_go_to_the_winner():
    wiped_out = Position.from_string("X" * 60 + "----" + " O")  # White has no discs
    assert terminal_score(wiped_out.opp, wiped_out.own, False) == 64
    assert terminal_score(wiped_out.own, wiped_out.opp, False) == -64
    assert terminal_score(wiped_out.own, wiped_out.opp, True) == 64  # none is fewest


def test_corners_and_stable_discs_count_for_their_owner_in_othello_and_against_in_anti():
    # The mover owns the a1 corner and the stable edge beside it.
    board = Position.from_string(
        "XXXO----" + "X-OO----" + "--OXO---" + "---XX---" + "---OX---" + "-" * 24 + " X"
    )
    plain, anti = make_evaluator(False), make_evaluator(True)
    swapped = Position.from_string(
        "OOOX----" + "O-XX----" + "--XOX---" + "---OO---" + "---XO---" + "-" * 24 + " X"
    )
    # Othello: owning the corner beats not owning it; anti: the reverse.
    assert plain(board.own, board.opp) > plain(swapped.own, swapped.opp)
    assert anti(board.own, board.opp) < anti(swapped.own, swapped.opp)


def test_anti_is_not_just_the_othello_score_negated():
    position = Position.from_string(
        "------------------OOO-----OXXX----XXO------X-------------------- O"
    )
    plain, anti = make_evaluator(False), make_evaluator(True)
    assert anti(position.own, position.opp) != -plain(position.own, position.opp)
    # Both still like having moves: more mobility scores higher in both.
    assert anti(position.own, position.opp) - anti(position.opp, position.own) != 0
