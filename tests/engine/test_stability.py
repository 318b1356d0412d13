"""Stable discs (engine/stability.py): those it finds are never flipped,
whatever is played after; it finds every disc of a full board and every
stable edge disc."""

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from tui_reversi.core.bitboard import flips, legal_moves, native, unsigned
from tui_reversi.engine.evaluation import make_stable_edge_counter
from tui_reversi.engine.stability import shared_stability

from .positions import position_with_empties

STABILITY = shared_stability()
FULL = (1 << 64) - 1


def stable(own: int, opp: int) -> int:
    return unsigned(STABILITY.discs(native(own), native(opp)))


def playout(own: int, opp: int, rng: random.Random) -> list[tuple[int, int]]:
    """Every position of a game of random moves from (own, opp) to its end,
    as (the first side's discs, the other's)."""
    first, second = own, opp
    first_to_move = True
    seen = []
    while True:
        mover, other = (first, second) if first_to_move else (second, first)
        moves = legal_moves(mover, other)
        if not moves:
            first_to_move = not first_to_move
            mover, other = other, mover
            moves = legal_moves(mover, other)
            if not moves:
                return seen
        square = rng.choice([sq for sq in range(64) if moves >> sq & 1])
        flipped = flips(mover, other, square)
        mover, other = mover | flipped | (1 << square), other & ~flipped
        first, second = (mover, other) if first_to_move else (other, mover)
        seen.append((first, second))
        first_to_move = not first_to_move


@settings(max_examples=60, deadline=None)
@given(empties=st.integers(4, 30), seed=st.integers(0, 10**6))
def test_a_stable_disc_is_never_flipped_in_any_game_that_follows(empties, seed):
    position = position_with_empties(empties, seed)
    rng = random.Random(seed)
    for own, opp in ((position.own, position.opp), (position.opp, position.own)):
        held = stable(own, opp)
        assert held & ~own == 0
        for _ in range(8):
            for now_own, _now_opp in playout(own, opp, rng):
                assert held & ~now_own == 0


def test_every_disc_of_a_full_board_is_stable():
    rng = random.Random(3)
    for _ in range(20):
        own = rng.getrandbits(64)
        assert stable(own, FULL & ~own) == own
        assert stable(FULL & ~own, own) == FULL & ~own


def test_it_finds_every_stable_edge_disc_and_discs_held_by_them():
    edges = make_stable_edge_counter()
    for seed in range(40):
        position = position_with_empties(12 + seed % 20, seed)
        own, opp = position.own, position.opp
        assert stable(own, opp).bit_count() >= edges(own, opp)
    # Row 1 and column a ours, b2 ours: b2's four lines each meet a stable
    # disc of ours (a1-b1 row... a2, b1, a1, c1 along its lines).
    row_1 = 0xFF
    column_a = 0x0101010101010101
    b2 = 1 << 9
    own = row_1 | column_a | b2
    opp = 1 << 27  # d4
    assert stable(own, opp) == own
