"""The pattern evaluation's indices: the fast evaluator computes exactly the
reference configurations, and symmetric positions get the same weights."""

from __future__ import annotations

import random

from hypothesis import given
from hypothesis import strategies as st

from tui_reversi.core.bitboard import FULL, legal_moves, symmetries
from tui_reversi.engine.patterns import (
    CONSTANT_AT,
    FAMILIES,
    FAMILY_AT,
    MOBILITY_AT,
    PARITY_AT,
    PHASE_SIZE,
    PHASES,
    PatternEvaluator,
    canonical,
    pack,
    pattern_index,
    phase_of,
)

boards = (
    st.integers(0, FULL)
    .flatmap(lambda occupied: st.tuples(st.just(occupied), st.integers(0, FULL)))
    .map(lambda pair: (pair[0] & pair[1], pair[0] & ~pair[1]))
)


def _random_tables(seed: int) -> list[list[int]]:
    rng = random.Random(seed)
    return [[rng.randint(-1000, 1000) for _ in range(PHASE_SIZE)] for _ in range(PHASES)]


def feature_indices(own: int, opp: int) -> list[int]:
    """Every instance's slot in a phase's table (offsets included): the sum the
    evaluator computes inline, written plainly."""
    out: list[int] = []
    for family, instances in FAMILIES.items():
        at = FAMILY_AT[family]
        for squares in instances:
            out.append(at + pattern_index(own, opp, squares))
    return out


TABLES = _random_tables(7)
EVALUATOR = PatternEvaluator([pack(table) for table in TABLES])


@given(boards)
def test_the_evaluator_sums_the_reference_configurations(board: tuple[int, int]) -> None:
    own, opp = board
    mo, mp = legal_moves(own, opp), legal_moves(opp, own)
    if not mo and not mp:
        return  # game over: scored by the final margin, not by the patterns
    w = TABLES[phase_of(64 - (own | opp).bit_count())]
    expected = (
        sum(w[i] for i in feature_indices(own, opp))
        + w[MOBILITY_AT] * (mo.bit_count() - mp.bit_count())
        + w[PARITY_AT] * ((64 - (own | opp).bit_count()) % 2)
        + w[CONSTANT_AT]
    )
    assert EVALUATOR(own, opp) == expected


@given(boards)
def test_every_symmetry_of_a_position_has_the_same_shared_weights(board: tuple[int, int]) -> None:
    own, opp = board
    for family, instances in FAMILIES.items():
        original = sorted(canonical(family, pattern_index(own, opp, sq)) for sq in instances)
        for own_image, opp_image in zip(symmetries(own), symmetries(opp), strict=True):
            image = sorted(
                canonical(family, pattern_index(own_image, opp_image, sq)) for sq in instances
            )
            assert image == original, family


def test_symmetric_positions_evaluate_the_same_when_weights_are_folded() -> None:
    # Weights that are equal on each configuration's canonical form, as the
    # trainer writes them: then the evaluation cannot tell images apart.
    rng = random.Random(3)
    table = [0] * PHASE_SIZE
    for family, at in FAMILY_AT.items():
        size = 3 ** len(FAMILIES[family][0])
        for index in range(size):
            table[at + index] = canonical(family, index) % 997 - 498
    table[MOBILITY_AT] = rng.randint(-50, 50)
    evaluator = PatternEvaluator([pack(table)] * PHASES)
    for _ in range(200):
        occupied = rng.getrandbits(64)
        black = rng.getrandbits(64) & occupied
        own, opp = black, occupied & ~black
        scores = {evaluator(o, p) for o, p in zip(symmetries(own), symmetries(opp), strict=True)}
        assert len(scores) == 1


def test_the_instances_cover_distinct_squares_of_the_right_length() -> None:
    for instances in FAMILIES.values():
        for squares in instances:
            assert len(set(squares)) == len(squares) == len(instances[0])
