"""Medium: plain minimax to a fixed depth, no pruning, counting discs and
corners. It looks a few moves ahead but knows nothing of mobility, edges or
parity, so a casual player who keeps their options open can beat it."""

from __future__ import annotations

import random
import time

from ..core import Move, Position, Variant
from ..core.bitboard import CORNERS, FULL, flip_table, legal_moves
from ..engine.placement import placement_move
from .base import CancelCheck, Limit, ProgressCallback, SearchInfo

CORNER_WEIGHT = 10  # a corner is worth ten ordinary discs
WIN = 100_000
CHECK_EVERY = 512


class _Stop(Exception):
    pass


class MinimaxPlayer:
    """Minimax to DEPTH plies (a request's depth limit instead, when it has
    one; a node limit does not apply) with a disc-and-corner count.

    In anti, discs and corners count against their owner. Equal best moves
    are chosen between by a random generator seeded with `seed`.
    """

    level = "medium"
    notice: str | None = None  # it has nothing to tell
    DEPTH = 3  # what makes it medium: a few moves ahead, no further

    def __init__(self, variant: Variant = Variant.OTHELLO, seed: int | None = None):
        self.variant = variant
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
        limit: Limit,
        *,
        cancelled: CancelCheck | None = None,
        progress: ProgressCallback | None = None,
    ) -> Move:
        moves = position.legal_moves()
        if not moves:
            return Move.null()
        if position.in_opening_placement:
            return Move.of(
                placement_move(position, lambda p: self._evaluate(p.own, p.opp), self._random)
            )
        clock, depth = limit.clock, limit.depth or self.DEPTH
        deadline = time.perf_counter() + clock if clock is not None else None
        scores = self._scores(position.own, position.opp, depth, deadline, cancelled)
        if scores is None:  # stopped before the first answer: any legal move
            return Move.of(moves[0])
        best = max(scores.values())
        choices = sorted(sq for sq, s in scores.items() if s == best)
        move = self._random.choice(choices)
        if progress is not None:
            progress(SearchInfo(depth, self._nodes, Move.of(move), float(best)))
        return Move.of(move)

    def _scores(
        self, own: int, opp: int, depth: int, deadline: float | None, cancelled: CancelCheck | None
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
            for plies in range(1, depth + 1):
                scores = {}
                m = legal_moves(own, opp)
                while m:
                    b = m & -m
                    m ^= b
                    sq = b.bit_length() - 1
                    f = flips[sq](own, opp)
                    scores[sq] = -minimax(opp ^ f, own | f | b, plies - 1)
                result = scores
        except _Stop:
            pass
        return result
