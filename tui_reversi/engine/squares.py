# mypyc: compiled
"""Fixed square sets the search and the solver order moves by, as i64 words
(see core/bitboard.py): those that may hold h8 are built with native()."""

from __future__ import annotations

from typing import Final

from mypy_extensions import i64

from ..core.bitboard import CORNERS, FULL, native, square_bit

X_SQUARES: Final = (1 << 9) | (1 << 14) | (1 << 49) | (1 << 54)
C_SQUARES: Final = (
    (1 << 1) | (1 << 6) | (1 << 8) | (1 << 15) | (1 << 48) | (1 << 55) | (1 << 57) | (1 << 62)
)
_EDGE: Final = 0xFF818181818181FF & ~CORNERS & ~C_SQUARES
_INNER: Final = FULL & ~(CORNERS | X_SQUARES | C_SQUARES | _EDGE)

# Static move order, best first: corners, then the other edge squares that are
# not next to a corner, then the centre, then C-squares, X-squares last. Each
# class is also a constant of its own: compiled, a Final i64 is a machine
# word, while reading one out of a tuple unboxes it.
CORNER_CLASS: Final[i64] = native(CORNERS)
EDGE_CLASS: Final[i64] = native(_EDGE)
CENTRE_CLASS: Final[i64] = native(_INNER)
C_CLASS: Final[i64] = native(C_SQUARES)
X_CLASS: Final[i64] = native(X_SQUARES)
SQUARE_CLASSES: Final[tuple[i64, ...]] = (CORNER_CLASS, EDGE_CLASS, CENTRE_CLASS, C_CLASS, X_CLASS)

# The four quadrants: the endgame's regions for parity ordering. A parity
# word has bit i set when quadrant i holds an odd number of empty squares.
NORTH_WEST: Final[i64] = 0x0F0F0F0F
NORTH_EAST: Final[i64] = 0xF0F0F0F0
SOUTH_WEST: Final[i64] = 0x0F0F0F0F << 32
SOUTH_EAST: Final[i64] = native(0xF0F0F0F0 << 32)


def quadrant_bit(square: i64) -> i64:
    """The parity-word bit of the quadrant holding `square`."""
    return square_bit((square >> 5 & 1) * 2 + (square >> 2 & 1))


def class_of_rank(rank: i64) -> i64:
    """The square class `rank` places in the static move order (0: corners)."""
    if rank == 0:
        return CORNER_CLASS
    if rank == 1:
        return EDGE_CLASS
    if rank == 2:
        return CENTRE_CLASS
    if rank == 3:
        return C_CLASS
    return X_CLASS
