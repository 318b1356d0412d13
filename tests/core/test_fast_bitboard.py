"""The engine's fast paths agree with the readable rules they speed up."""

from hypothesis import given
from hypothesis import strategies as st

from tui_reversi.core.bitboard import (
    FULL,
    flip_table,
    flips,
    legal_moves,
    lowest_square,
    native,
    popcount,
    square_bit,
    unsigned,
)

boards = st.tuples(st.integers(0, FULL), st.integers(0, FULL)).map(lambda b: (b[0], b[1] & ~b[0]))


@given(boards)
def test_the_generated_flip_table_flips_exactly_what_flips_does(board):
    own, opp = board
    table = flip_table()
    for square in range(64):
        if not (own | opp) >> square & 1:
            assert table[square](own, opp) == flips(own, opp, square)


@given(st.integers(0, FULL))
def test_machine_words_count_and_find_squares_as_ints_do(board):
    word = native(board)
    assert unsigned(word) == board
    assert popcount(word) == board.bit_count()
    if board:
        assert lowest_square(word) == (board & -board).bit_length() - 1


@given(boards)
def test_moves_and_flips_see_h8_and_the_edges_right(board):
    # Against the plain per-square walk of the rules, h8 (the sign bit of a
    # compiled word) included.
    own, opp = board
    moves = legal_moves(own, opp)
    for square in range(64):
        if (own | opp) >> square & 1:
            assert not moves >> square & 1
            continue
        walked = _walked_flips(own, opp, square)
        assert flips(own, opp, square) == walked
        assert bool(moves >> square & 1) == bool(walked)


def _walked_flips(own: int, opp: int, square: int) -> int:
    row, col = divmod(square, 8)
    found = 0
    for dr in (-1, 0, 1):
        for dc in (-1, 0, 1):
            line = 0
            r, c = row + dr, col + dc
            while (dr or dc) and 0 <= r < 8 and 0 <= c < 8 and opp >> (r * 8 + c) & 1:
                line |= 1 << (r * 8 + c)
                r, c = r + dr, c + dc
            if line and 0 <= r < 8 and 0 <= c < 8 and own >> (r * 8 + c) & 1:
                found |= line
    return found


def test_a_squares_word_is_that_square_alone_on_every_square():
    # Compiled, a shift of a 1 that mypyc writes as a C int goes wrong from
    # square 31 up: every square, h8 (the word's sign) included.
    for square in range(64):
        assert unsigned(square_bit(square)) == 1 << square
