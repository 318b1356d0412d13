"""Perft: count the leaves of the game tree to a fixed depth.

A pass counts as a ply when the side to move has no move but the opponent
has one; a finished game counts as one leaf at every deeper depth. From the
Othello start, depths 1..11 give 4, 12, 56, 244, 1396, 8200, 55092, 390216,
3005288, 24571284, 212258800.
"""

from __future__ import annotations

from .bitboard import count_leaves
from .position import Position

OTHELLO_PERFT = (1, 4, 12, 56, 244, 1396, 8200, 55092, 390216, 3005288, 24571284, 212258800)


def perft(position: Position, depth: int, *, make_leaves: bool = True) -> int:
    """Leaves of the tree below `position`, `depth` plies deep.

    With `make_leaves` every leaf position is actually made (a fair speed
    measure of move making); without it the last ply is only counted.
    """
    if depth <= 0:
        return 1
    if position.in_opening_placement:
        # Classic Reversi's centre placements: rare and few, so the readable path.
        moves = position.legal_moves()
        return sum(perft(position.play(m), depth - 1, make_leaves=make_leaves) for m in moves)
    return count_leaves(position.own, position.opp, depth, make_leaves)
