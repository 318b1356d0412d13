"""What a position is worth: the one number every screen and protocol shows.

The review of a game, its analysis, the hints, `tui-reversi analyse` and
NBoard's `hint` and `analyze` all take a position's value from
`position_value`, and a move's value as the value of the position it leads
to (`move_values`): so the same position searched to the same depth shows
the same number wherever it is shown, and two moves that lead to symmetric
images of one position (the four first moves) show one value.

A value is a search by hard's engine with the trained evaluation, at the
analysis's careful ProbCut selectivity, on the position's canonical image
(engine/search.py), solved exactly from a number of empties down. A midgame
value is the mean of the last two depths searched: a search that ends on the
side to move's turn rates it higher than one a ply shallower, and either
alone swings by discs from one depth to the next (bench/value_swing.py
measures it).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from ..core import Move, Position, Variant
from ..core.bitboard import NATIVE_WORDS, canonical_image
from ..engine.evaluation import SCALE, terminal_score
from ..engine.placement import placement_scores
from ..engine.search import Engine, SearchResult
from .alphabeta_player import (
    ANALYSIS_SELECTIVITY,
    HARD,
    AlphaBetaPlayer,
    engine_for,
    score_in_discs,
)
from .base import CancelCheck, Limit, MoveScore

# Values are exact (solved to the end) from this many empty squares down:
# compiled, an exact solve from 18 empties takes at most 0.22 s
# (bench/analysis.py); interpreted, 12.
EXACT_EMPTIES = 18 if NATIVE_WORDS else 12
# The hint's and NBoard's ranking of every move solves the positions after
# them from this many empties down.
RANKING_EXACT_EMPTIES = 17 if NATIVE_WORDS else 12


@dataclass(frozen=True, slots=True)
class PositionValue:
    """What a position is worth to the side to move, in discs, and its best move."""

    discs: float
    best: int | None  # None when the side to move must pass or the game is over
    exact: bool  # a final margin, solved to the end
    proven: bool  # a won or lost game: exact, or a forced end found by the midgame search
    depth: int  # the depth searched (empties when exact)


def position_value(
    position: Position,
    variant: Variant,
    max_depth: int,
    max_nodes: int | None,
    cancelled: CancelCheck | None,
    exact_empties: int = EXACT_EMPTIES,
) -> PositionValue:
    """`position` searched to `max_depth` plies and at most `max_nodes`
    nodes, solved exactly from `exact_empties` empties down (0 plies: the
    evaluation alone). Stopped early (`cancelled()` or the nodes), the depth
    is the last one completed."""
    if position.is_game_over():
        return PositionValue(
            float(terminal_score(position.own, position.opp, variant.fewer_discs_win)),
            None,
            True,
            True,
            0,
        )
    if position.must_pass:
        passed = position_value(
            position.pass_turn(), variant, max_depth, max_nodes, cancelled, exact_empties
        )
        return PositionValue(-passed.discs, None, passed.exact, passed.proven, passed.depth)
    engine = value_engine(variant)
    if max_depth <= 0 and position.empty_count > exact_empties:
        # No search: the evaluation's own word (a hint's first depth).
        discs = engine.evaluator(position.own, position.opp) / SCALE
        return PositionValue(round(max(-64.0, min(64.0, discs)), 1) + 0.0, None, False, False, 0)
    by_depth: dict[int, int] = {}

    def seen(iteration: SearchResult) -> None:
        if not iteration.exact:
            by_depth[iteration.depth] = iteration.score

    result = engine.search(
        position.own,
        position.opp,
        max_depth=max(1, max_depth),
        max_nodes=max_nodes,
        exact_empties=exact_empties,
        cancelled=cancelled,
        on_iteration=seen,
    )
    if result.exact:
        discs, proven = float(result.score // SCALE), True
    else:
        deepest = score_in_discs(result.score)
        shallower = by_depth.get(result.depth - 1)
        discs = settled(deepest, score_in_discs(shallower) if shallower is not None else None)
        proven = deepest[1]
    # No final margin lies beyond 64 either way: an evaluation that overshoots
    # would charge the winner for coming back down to the true result.
    discs = round(max(-64.0, min(64.0, discs)), 1) + 0.0  # never -0.0
    return PositionValue(discs, result.move, result.exact, result.exact or proven, result.depth)


def settled(deepest: tuple[float, bool], shallower: tuple[float, bool] | None) -> float:
    """The value a midgame search settles on, from its last two depths'
    (discs, proven) scores: their mean (the module docstring says why), or
    the deepest alone when it is the first or either is a proven end."""
    if shallower is None or deepest[1] or shallower[1]:
        return deepest[0]
    return (deepest[0] + shallower[0]) / 2


def move_values(
    position: Position,
    variant: Variant,
    limit: Limit,
    cancelled: CancelCheck | None,
    exact_empties: int = RANKING_EXACT_EMPTIES,
    each_depth: Callable[[int, list[MoveScore]], None] | None = None,
) -> list[MoveScore]:
    """Every legal move with its value for the mover, best first: the value
    of the position it leads to (`position_value`, one ply shallower than the
    depth counted from here), deepening within `limit` until every move is
    solved; the positions after the moves are solved from `exact_empties`
    down. `each_depth(depth, ranked)` hears the ranking after each depth
    completed (counted from here). Stopped before the first, every move
    gets the evaluation's word on the position it leads to."""
    entered = time.perf_counter()
    moves = position.legal_moves()
    if not moves:
        return []
    if position.in_opening_placement:
        # Reversi's centre placements: a shallow look at the shapes.
        player = AlphaBetaPlayer(HARD, variant)
        scores = placement_scores(position, player._placement_leaf)
        squares = sorted(scores, key=lambda sq: -scores[sq])
        return [MoveScore(Move.of(sq), scores[sq] / SCALE) for sq in squares]
    clock = limit.clock
    deadline = entered + clock if clock is not None else None

    def stop() -> bool:
        if cancelled is not None and cancelled():
            return True
        return deadline is not None and time.perf_counter() > deadline

    # Moves to symmetric images of one position are one move: valued once.
    children: dict[tuple[int, int], Position] = {}
    move_to: dict[int, tuple[int, int]] = {}
    for square in moves:
        child = position.play(square)
        key = canonical_image(child.own, child.opp)[:2]
        children.setdefault(key, child)
        move_to[square] = key
    max_depth = limit.depth if limit.depth is not None else 60
    ranked: list[MoveScore] = []
    for depth in range(1, max_depth + 1):
        values: dict[tuple[int, int], PositionValue] = {}
        for key, child in children.items():
            value = position_value(child, variant, depth - 1, limit.nodes, stop, exact_empties)
            if not value.proven and value.depth < min(depth - 1, child.empty_count):
                break  # stopped within this depth
            values[key] = value
        else:
            ranked = _ranked(moves, move_to, values)
            solved = all(value.exact for value in values.values())
            if each_depth is not None:
                each_depth(position.empty_count if solved else depth, ranked)
            if not solved and not stop():
                continue
        break
    if not ranked:
        # Stopped before one full depth: a one-ply look at each move is still honest.
        values = {
            key: position_value(child, variant, 0, None, None, 0) for key, child in children.items()
        }
        ranked = _ranked(moves, move_to, values)
    return ranked


def _ranked(
    moves: list[int],
    move_to: dict[int, tuple[int, int]],
    values: dict[tuple[int, int], PositionValue],
) -> list[MoveScore]:
    """The moves by the values of the positions they lead to, best first
    (ties in the order the moves came)."""
    scored = [
        MoveScore(Move.of(sq), -values[move_to[sq]].discs + 0.0, values[move_to[sq]].proven)
        for sq in moves
    ]
    return sorted(scored, key=lambda move: -move.score)


def value_engine(variant: Variant) -> Engine:
    """The engine values come from: hard's trained evaluation (its opening
    book plays no part), with ProbCut at the analysis's careful selectivity."""
    return engine_for(variant, "trained", ANALYSIS_SELECTIVITY)


__all__ = [
    "EXACT_EMPTIES",
    "RANKING_EXACT_EMPTIES",
    "PositionValue",
    "move_values",
    "position_value",
    "settled",
    "value_engine",
]
