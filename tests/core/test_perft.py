"""Move generation proven by perft counts from the Othello start."""

import pytest

from tui_reversi.core import Game, Position, perft
from tui_reversi.core.perft import OTHELLO_PERFT


@pytest.mark.parametrize("depth", range(1, 9))
def test_perft_from_the_othello_start_matches_the_published_counts(depth):
    assert perft(Position.initial(), depth) == OTHELLO_PERFT[depth]


def test_perft_8_counting_the_last_ply():
    assert perft(Position.initial(), 8, make_leaves=False) == 390216


def test_counting_and_making_leaves_agree_from_a_midgame_position():
    position = Game.from_transcript("f5d6c3d3c4f4f6f3e6e7").position
    assert perft(position, 4) == perft(position, 4, make_leaves=False)


def test_a_finished_game_is_one_leaf_at_every_depth():
    full = Position.from_string("X" * 64 + " O")
    assert [perft(full, d) for d in range(5)] == [1, 1, 1, 1, 1]


def test_a_forced_pass_counts_as_a_ply():
    # White to move has nothing; Black can still play h1... after the pass.
    position = Position.from_string("XXXXXXO-" + "X" * 56 + " O")
    assert position.must_pass
    # depth 1: the pass; depth 2: Black's single reply, which ends the game.
    assert perft(position, 1) == 1
    assert perft(position, 2) == len(position.pass_turn().legal_moves()) == 1


def test_classic_reversi_opening_has_4_3_2_1_placements():
    empty = Position.empty()
    assert [perft(empty, d) for d in range(1, 5)] == [4, 12, 24, 24]
