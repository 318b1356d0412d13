"""Square names in standard Othello notation: columns a-h, rows 1-8.

Squares are indexed a1 = 0, b1 = 1 ... h8 = 63 (row-major, a1 at the top left).
"""

from __future__ import annotations

from .errors import ReversiError

COLUMNS = "abcdefgh"
NAMES = tuple(f"{COLUMNS[i % 8]}{i // 8 + 1}" for i in range(64))
_INDEX = {name: i for i, name in enumerate(NAMES)}
PASS_WORDS = frozenset({"pa", "pass"})


def square_name(square: int) -> str:
    """The lowercase name of a square index: 0 -> 'a1', 37 -> 'f5'."""
    return NAMES[square]


def parse_square(text: str) -> int:
    """The index of a square name such as 'f5' or 'F5'; raises ReversiError."""
    name = text.strip().lower()
    try:
        return _INDEX[name]
    except KeyError:
        raise ReversiError(
            f"{text.strip()!r} is not a square: use a column a-h and a row 1-8, like f5"
        ) from None


def square_at(row: int, col: int) -> int:
    """The index of the square on `row` and `col`, both counted 0-7."""
    return row * 8 + col
