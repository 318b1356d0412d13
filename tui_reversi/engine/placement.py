"""Classic Reversi's first four moves: the centre placements.

While `Position.in_opening_placement` holds, the legal moves are the empty
centre squares and they flip nothing, which the bitboard search does not
know. Every level that searches plays these plies through the Position API:
a tiny minimax over the remaining placements, scoring each full centre with
the level's own judgement.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from ..core import Position
from ..core.bitboard import symmetries

# score(position) -> how good it is for position.to_move (higher is better).
LeafScore = Callable[[Position], float]


def placement_scores(position: Position, leaf_score: LeafScore) -> dict[int, float]:
    """Each centre square the side to move may take, scored for that side by
    minimax over the remaining placements."""
    cache: dict[tuple[int, int, int], float] = {}

    def value(pos: Position) -> float:
        if not pos.in_opening_placement:
            # Symmetric centres are worth the same: score each shape once.
            shapes = zip(symmetries(pos.black), symmetries(pos.white), strict=True)
            key = (*min(shapes), int(pos.to_move))
            if key not in cache:
                cache[key] = leaf_score(pos)
            return cache[key]
        return max(-value(pos.play(sq)) for sq in pos.legal_moves())

    return {sq: -value(position.play(sq)) for sq in position.legal_moves()}


def placement_move(
    position: Position, leaf_score: LeafScore, rng: random.Random | None = None
) -> int:
    """The best centre square; ties are broken by `rng` (else the first)."""
    scores = placement_scores(position, leaf_score)
    best = max(scores.values())
    choices = [sq for sq, s in scores.items() if s == best]
    return rng.choice(choices) if rng is not None else choices[0]
