"""The engine's fast paths agree with the readable rules they speed up."""

from hypothesis import given
from hypothesis import strategies as st

from tui_reversi.core.bitboard import FULL, flip_table, flips, legal_moves, legal_moves_pair

boards = st.tuples(st.integers(0, FULL), st.integers(0, FULL)).map(lambda b: (b[0], b[1] & ~b[0]))


@given(boards)
def test_the_generated_flip_table_flips_exactly_what_flips_does(board):
    own, opp = board
    table = flip_table()
    for square in range(64):
        if not (own | opp) >> square & 1:
            assert table[square](own, opp) == flips(own, opp, square)


@given(boards)
def test_both_sides_moves_in_one_pass_equal_two_calls(board):
    own, opp = board
    assert legal_moves_pair(own, opp) == (legal_moves(own, opp), legal_moves(opp, own))
