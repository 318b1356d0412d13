"""Easy: a uniformly random legal move, like a beginner who just found the rules."""

from __future__ import annotations

import random

from ..core import Move, Position, Variant
from .base import CancelCheck, Limit, ProgressCallback


class RandomPlayer:
    level = "easy"
    notice: str | None = None  # it has nothing to tell

    def __init__(self, variant: Variant = Variant.OTHELLO, seed: int | None = None):
        self.variant = variant
        self._random = random.Random(seed)

    def choose_move(
        self,
        position: Position,
        limit: Limit,
        *,
        cancelled: CancelCheck | None = None,
        progress: ProgressCallback | None = None,
    ) -> Move:
        moves = position.legal_moves()
        if not moves:
            return Move.null()
        return Move.of(self._random.choice(moves))
