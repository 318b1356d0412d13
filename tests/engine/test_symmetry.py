"""A position and its seven symmetric images are one position to the engine:
the same value, the same move (its image), the same node count, at every
depth, with and without ProbCut, playing and analysing; and the evaluations
themselves cannot tell the images apart."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tui_reversi.core import Game, Position, Variant
from tui_reversi.core.bitboard import canonical_image, flips, legal_moves, symmetries
from tui_reversi.engine.evaluation import make_evaluator
from tui_reversi.engine.pattern_weights import trained_evaluator
from tui_reversi.players.alphabeta_player import ANALYSIS_SELECTIVITY, HARD_SELECTIVITY, engine_for


def _midgame(seed: int, plies: int) -> Position:
    """A position after `plies` random moves (fewer when the game ends first)."""
    rng = random.Random(seed)
    game = Game(Variant.OTHELLO)
    while game.length < plies and not game.is_over:
        game.play(rng.choice(game.position.legal_moves()))
    return game.position


positions = st.builds(_midgame, st.integers(0, 10**6), st.integers(0, 40))


def _images(position: Position) -> list[tuple[int, int]]:
    return list(zip(symmetries(position.own), symmetries(position.opp), strict=True))


@pytest.mark.parametrize(
    ("evaluation", "selectivity"),
    [("handmade", None), ("trained", HARD_SELECTIVITY), ("trained", ANALYSIS_SELECTIVITY)],
)
@settings(max_examples=8, deadline=None)
@given(position=positions, depth=st.integers(1, 4), analyse=st.booleans())
def test_every_image_of_a_position_gets_the_same_search(
    evaluation: str, selectivity: float | None, position: Position, depth: int, analyse: bool
) -> None:
    engine = engine_for(Variant.OTHELLO, evaluation, selectivity)
    found = [
        engine.search(own, opp, max_depth=depth, exact_empties=0, analyse=analyse)
        for own, opp in _images(position)
    ]
    first = found[0]
    for k, result in enumerate(found):
        own, opp = _images(position)[k]
        assert (result.score, result.depth, result.nodes) == (first.score, first.depth, first.nodes)
        # The move, and each analysed move's value, by the position it leads to.
        if first.move is not None and result.move is not None:
            assert _after(own, opp, result.move) == _after(*_images(position)[0], first.move)
        assert _by_child(own, opp, result.scores) == _by_child(*_images(position)[0], first.scores)


def _after(own: int, opp: int, square: int) -> tuple[int, int]:
    """The position a move leads to, as its canonical image."""
    flipped = flips(own, opp, square)
    return canonical_image(opp ^ flipped, own | flipped | 1 << square)[:2]


def _by_child(own: int, opp: int, scores: dict[int, int]) -> dict[tuple[int, int], int]:
    by_child: dict[tuple[int, int], int] = {}
    for square, score in scores.items():
        child = _after(own, opp, square)
        assert by_child.setdefault(child, score) == score  # symmetric moves: one value
    return by_child


def test_the_four_first_moves_get_one_value_in_an_analysis() -> None:
    start = Position.initial()
    engine = engine_for(Variant.OTHELLO, "trained", ANALYSIS_SELECTIVITY)
    for depth in range(1, 7):
        scores = engine.search(start.own, start.opp, max_depth=depth, analyse=True).scores
        assert len(scores) == 4 and len(set(scores.values())) == 1, (depth, scores)


def test_every_iteration_is_told_on_the_real_board() -> None:
    position = _midgame(7, 20)
    engine = engine_for(Variant.OTHELLO, "trained", HARD_SELECTIVITY)
    for own, opp in _images(position)[1:]:
        seen: list[int | None] = []
        engine.search(
            own,
            opp,
            max_depth=4,
            exact_empties=0,
            on_iteration=lambda r, seen=seen: seen.append(r.move),
        )
        legal = legal_moves(own, opp)
        assert seen and all(move is not None and legal >> move & 1 for move in seen)


@settings(max_examples=100, deadline=None)
@given(occupied=st.integers(0, 2**64 - 1), black=st.integers(0, 2**64 - 1))
def test_the_evaluations_cannot_tell_images_apart(occupied: int, black: int) -> None:
    own, opp = black & occupied, occupied & ~black
    evaluators = [make_evaluator(False), make_evaluator(True)]
    for anti in (False, True):
        trained = trained_evaluator(anti)
        if trained is not None:
            evaluators.append(trained)
    for evaluate in evaluators:
        values = {evaluate(o, p) for o, p in zip(symmetries(own), symmetries(opp), strict=True)}
        assert len(values) == 1
