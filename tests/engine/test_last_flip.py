"""The last empty square's flips counted from the mover's discs alone
(engine/last_flip.py) against the rules' flips."""

from hypothesis import given
from hypothesis import strategies as st

from tui_reversi.core.bitboard import flips, native
from tui_reversi.engine.last_flip import LastFlips

COUNTER = LastFlips()
FULL = (1 << 64) - 1


@given(square=st.integers(0, 63), discs=st.integers(0, FULL))
def test_the_last_squares_flips_are_counted_from_one_sides_discs(square, discs):
    # Every square but `square` holds a disc: ours where `discs` has a bit.
    own = discs & ~(1 << square)
    opp = FULL & ~own & ~(1 << square)
    assert COUNTER.count(native(own), square) == flips(own, opp, square).bit_count()
    assert COUNTER.count(native(opp), square) == flips(opp, own, square).bit_count()


def test_the_last_square_flips_to_each_disc_that_closes_a_ray():
    # d4 the only empty square, every other square the opponent's but one
    # disc of ours off all of d4's lines: nothing is outflanked.
    d4 = 27
    own = 1 << 1  # b1: not on d4's row, column or diagonals
    assert COUNTER.count(native(own), d4) == 0
    # With one disc of ours at the far end of each of d4's eight rays.
    own = sum(1 << sq for sq in (24, 31, 3, 59, 0, 63, 6, 48))  # a4 h4 d1 d8 a1 h8 g1 a7
    opp = FULL & ~own & ~(1 << d4)
    assert (
        COUNTER.count(native(own), d4)
        == flips(own, opp, d4).bit_count()
        == 2 + 3 + 2 + 3 + 2 + 3 + 2 + 2
    )
