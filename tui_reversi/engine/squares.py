# mypyc: compiled
"""Fixed square sets the search and the solver order moves by, as i64 words
(see core/bitboard.py): those that may hold h8 are built with native()."""

from __future__ import annotations

from typing import Final

from mypy_extensions import i64

from ..core.bitboard import CORNERS, FULL, native

X_SQUARES: Final = (1 << 9) | (1 << 14) | (1 << 49) | (1 << 54)
C_SQUARES: Final = (
    (1 << 1) | (1 << 6) | (1 << 8) | (1 << 15) | (1 << 48) | (1 << 55) | (1 << 57) | (1 << 62)
)
_EDGE: Final = 0xFF818181818181FF & ~CORNERS & ~C_SQUARES
_INNER: Final = FULL & ~(CORNERS | X_SQUARES | C_SQUARES | _EDGE)

# Static move order, best first: corners, then the other edge squares that are
# not next to a corner, then the centre, then C-squares, X-squares last.
SQUARE_CLASSES: Final[tuple[i64, ...]] = tuple(
    native(squares) for squares in (CORNERS, _EDGE, _INNER, C_SQUARES, X_SQUARES)
)

# The four quadrants: the endgame's regions for parity ordering.
QUADRANTS: Final[tuple[i64, ...]] = tuple(
    native(quadrant) for quadrant in (0x0F0F0F0F, 0xF0F0F0F0, 0x0F0F0F0F << 32, 0xF0F0F0F0 << 32)
)

# The squares next to each square: a move needs an opponent disc among them.
NEIGHBOURS: Final[tuple[i64, ...]] = tuple(
    native(
        sum(
            1 << (r * 8 + c)
            for r in range(sq // 8 - 1, sq // 8 + 2)
            for c in range(sq % 8 - 1, sq % 8 + 2)
            if 0 <= r < 8 and 0 <= c < 8 and r * 8 + c != sq
        )
    )
    for sq in range(64)
)
