"""Medium: plain minimax to a fixed depth, no pruning, counting discs and
corners. It looks a few moves ahead but knows nothing of mobility, edges or
parity, so a casual player who keeps their options open can beat it."""

from __future__ import annotations

import random
import time

from ..core import Position, Variant, square_name
from ..core.bitboard import CORNERS, FULL, flip_table, legal_moves
from ..engine.placement import placement_move
from .base import CancelCheck, ProgressCallback, SearchInfo

CORNER_WEIGHT = 10  # a corner is worth ten ordinary discs
WIN = 100_000
CHECK_EVERY = 512


class _Stop(Exception):
    pass


class MinimaxPlayer:
    """Minimax to `depth` plies (default 3) with a disc-and-corner count.

    In anti, discs and corners count against their owner. Equal best moves
    are chosen between by a random generator seeded with `seed`.
    """

    level = "medium"
    notice: str | None = None  # it has nothing to tell

    def __init__(
        self,
        variant: Variant = Variant.OTHELLO,
        seed: int | None = None,
        time_limit: float | None = None,
        depth: int = 3,
    ):
        self.variant = variant
        self.time_limit = time_limit
        self.depth = depth
        self._random = random.Random(seed)
        self._sign = -1 if variant.fewer_discs_win else 1

    def _evaluate(self, own: int, opp: int) -> int:
        if not legal_moves(own, opp) and not legal_moves(opp, own):
            lead = self._sign * (own.bit_count() - opp.bit_count())
            return WIN + lead if lead > 0 else -WIN + lead if lead < 0 else 0
        discs = own.bit_count() - opp.bit_count()
        corners = (own & CORNERS).bit_count() - (opp & CORNERS).bit_count()
        return self._sign * (discs + CORNER_WEIGHT * corners)

    def choose_move(
        self,
        position: Position,
        *,
        cancelled: CancelCheck | None = None,
        progress: ProgressCallback | None = None,
    ) -> str | None:
        moves = position.legal_moves()
        if not moves:
            return None
        if position.in_opening_placement:
            return square_name(
                placement_move(position, lambda p: self._evaluate(p.own, p.opp), self._random)
            )
        deadline = time.perf_counter() + self.time_limit if self.time_limit is not None else None
        scores = self._scores(position.own, position.opp, deadline, cancelled)
        if scores is None:  # stopped before the first answer: any legal move
            return square_name(moves[0])
        best = max(scores.values())
        choices = sorted(sq for sq, s in scores.items() if s == best)
        move = self._random.choice(choices)
        if progress is not None:
            progress(SearchInfo(self.depth, self._nodes, square_name(move), float(best)))
        return square_name(move)

    def _scores(
        self, own: int, opp: int, deadline: float | None, cancelled: CancelCheck | None
    ) -> dict[int, int] | None:
        """Minimax score of every move; None if stopped before they are known."""
        flips = flip_table()
        evaluate = self._evaluate
        self._nodes = 0

        def minimax(own: int, opp: int, depth: int) -> int:
            self._nodes += 1
            if self._nodes % CHECK_EVERY == 0 and (
                (deadline is not None and time.perf_counter() > deadline)
                or (cancelled is not None and cancelled())
            ):
                raise _Stop
            if depth == 0:
                return evaluate(own, opp)
            moves = legal_moves(own, opp)
            if not moves:
                if not legal_moves(opp, own):
                    return evaluate(own, opp)
                return -minimax(opp, own, depth - 1)
            best = -2 * WIN
            while moves:
                b = moves & -moves
                moves ^= b
                f = flips[b.bit_length() - 1](own, opp)
                best = max(best, -minimax(opp ^ f, (own | f | b) & FULL, depth - 1))
            return best

        # Deepen one ply at a time so that a clock or cancel still leaves an answer.
        result = None
        try:
            for depth in range(1, self.depth + 1):
                scores = {}
                m = legal_moves(own, opp)
                while m:
                    b = m & -m
                    m ^= b
                    sq = b.bit_length() - 1
                    f = flips[sq](own, opp)
                    scores[sq] = -minimax(opp ^ f, own | f | b, depth - 1)
                result = scores
        except _Stop:
            pass
        return result
