"""A move as a value: a square, or the null move for a pass.

The one way a move travels between the rules, the players and the screen
(after python-chess's `Move` and `Move.null()`). The game record keeps its
moves as square indices with PASS for a pass, for speed; `Move.of` and
`Move.index` cross between the two.
"""

from __future__ import annotations

from dataclasses import dataclass

from .errors import ReversiError
from .squares import NAMES, PASS_WORDS, parse_square

PASS = -1  # a pass in a game record's list of square indices


@dataclass(frozen=True, slots=True)
class Move:
    """A disc placed on `square` (0 = a1 ... 63 = h8), or a pass (`Move.null()`).

    False when it is the null move, like python-chess's; `str(move)` is its
    name in transcript notation: 'f5', or 'pass'.
    """

    square: int

    def __post_init__(self) -> None:
        if not -1 <= self.square < 64:
            raise ReversiError(f"there is no square {self.square}: squares are 0 (a1) to 63 (h8)")

    @classmethod
    def null(cls) -> Move:
        """The pass."""
        return _NULL

    @classmethod
    def of(cls, index: int) -> Move:
        """The move a game record writes as `index` (a square, or PASS)."""
        return _NULL if index == PASS else _SQUARES[index]

    @classmethod
    def parse(cls, text: str) -> Move:
        """'f5' (any case) or 'pa'/'pass'. Raises ReversiError."""
        if text.strip().lower() in PASS_WORDS:
            return _NULL
        return _SQUARES[parse_square(text)]

    @property
    def is_pass(self) -> bool:
        return self.square == PASS

    @property
    def index(self) -> int:
        """The move as a game record writes it: the square, or PASS."""
        return self.square

    @property
    def name(self) -> str:
        return "pass" if self.square == PASS else NAMES[self.square]

    def __bool__(self) -> bool:
        return self.square != PASS

    def __str__(self) -> str:
        return self.name

    def __repr__(self) -> str:
        return "Move.null()" if self.square == PASS else f"Move.parse({self.name!r})"


_NULL = Move(PASS)
_SQUARES = tuple(Move(square) for square in range(64))
