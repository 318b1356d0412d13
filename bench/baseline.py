"""The seed-style baseline opponent: 4-ply alpha-beta over a classic
square-weight table, the kind of AI the project's seed articles describe.

Hard must beat it (>= 90 % in a 100-game arena match). It speaks the arena's
outside-engine protocol, so it also checks that protocol end to end:

    tui-reversi arena hard "cmd:python bench/baseline.py" -n 100 -j 2
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tui_reversi.core.bitboard import flips, legal_moves
from tui_reversi.players.external import serve

# The classic table: corners prized, X- and C-squares feared, edges liked.
WEIGHTS = [
    [100, -20, 10, 5, 5, 10, -20, 100],
    [-20, -50, -2, -2, -2, -2, -50, -20],
    [10, -2, -1, -1, -1, -1, -2, 10],
    [5, -2, -1, -1, -1, -1, -2, 5],
    [5, -2, -1, -1, -1, -1, -2, 5],
    [10, -2, -1, -1, -1, -1, -2, 10],
    [-20, -50, -2, -2, -2, -2, -50, -20],
    [100, -20, 10, 5, 5, 10, -20, 100],
]
# The same table as (weight, mask of the squares with that weight) pairs.
WEIGHT_MASKS = [
    (w, sum(1 << sq for sq in range(64) if WEIGHTS[sq // 8][sq % 8] == w))
    for w in sorted({w for row in WEIGHTS for w in row})
]
DEPTH = 4


def evaluate(own, opp, sign):
    if not legal_moves(own, opp) and not legal_moves(opp, own):
        lead = sign * (own.bit_count() - opp.bit_count())
        return 10_000 * (lead > 0) - 10_000 * (lead < 0) + lead
    score = 0
    for weight, mask in WEIGHT_MASKS:
        score += weight * ((own & mask).bit_count() - (opp & mask).bit_count())
    return sign * score


def alphabeta(own, opp, depth, alpha, beta, sign):
    if depth == 0:
        return evaluate(own, opp, sign)
    moves = legal_moves(own, opp)
    if not moves:
        if not legal_moves(opp, own):
            return evaluate(own, opp, sign)
        return -alphabeta(opp, own, depth - 1, -beta, -alpha, sign)
    for sq in range(64):
        if moves >> sq & 1:
            f = flips(own, opp, sq)
            value = -alphabeta(opp ^ f, own | f | 1 << sq, depth - 1, -beta, -alpha, sign)
            if value >= beta:
                return value
            alpha = max(alpha, value)
    return alpha


class BaselinePlayer:
    level = "baseline-4ply"

    def __init__(self, variant, seconds):
        self.variant = variant
        self.time_limit = seconds

    def choose_move(self, position, **_):
        moves = position.legal_moves()
        if not moves:
            return None
        if position.in_opening_placement:
            return _name(moves[0])
        sign = -1 if self.variant.fewer_discs_win else 1
        own, opp = position.own, position.opp
        best, best_value = moves[0], -100_000
        for sq in moves:
            f = flips(own, opp, sq)
            value = -alphabeta(opp ^ f, own | f | 1 << sq, DEPTH - 1, -100_000, -best_value, sign)
            if value > best_value:
                best, best_value = sq, value
        return _name(best)


def _name(square):
    return "abcdefgh"[square % 8] + str(square // 8 + 1)


def main():
    def write(line):
        sys.stdout.write(line + "\n")
        sys.stdout.flush()

    serve(BaselinePlayer, sys.stdin, write)


if __name__ == "__main__":
    main()
