"""An immutable Reversi position: who owns which square and whose turn it is."""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

from . import bitboard
from .bitboard import CENTRE, FULL
from .errors import IllegalMoveError, ReversiError
from .squares import NAMES, parse_square


class Color(IntEnum):
    """A side. Black moves first in every variant."""

    BLACK = 0
    WHITE = 1

    @property
    def other(self) -> Color:
        return Color(1 - self)

    @property
    def label(self) -> str:
        """'Black' or 'White'."""
        return self.name.capitalize()

    @property
    def symbol(self) -> str:
        """The board-string letter: 'X' for Black, 'O' for White."""
        return "XO"[self]


_BLACK_CHARS = frozenset("Xx*bB")
_WHITE_CHARS = frozenset("OowW0")
_EMPTY_CHARS = frozenset("-.")
_CENTRE_NAMES = "d4, e4, d5 or e5"


@dataclass(frozen=True, slots=True)
class Position:
    """Two bitboards and the side to move. Playing a move returns a new Position.

    While the only discs are in the centre (d4, e4, d5, e5) and some of it is
    empty, as in classic Reversi's first four moves, the only legal moves are
    the empty centre squares and they flip nothing.
    """

    black: int
    white: int
    to_move: Color = Color.BLACK

    def __post_init__(self) -> None:
        if self.black & self.white or (self.black | self.white) & ~FULL:
            raise ReversiError("a square cannot hold two discs")

    # -- construction and the exchange format --------------------------------

    @classmethod
    def initial(cls) -> Position:
        """The Othello start: White on d4 and e5, Black on d5 and e4; Black to move."""
        black = (1 << parse_square("d5")) | (1 << parse_square("e4"))
        white = (1 << parse_square("d4")) | (1 << parse_square("e5"))
        return cls(black, white, Color.BLACK)

    @classmethod
    def empty(cls) -> Position:
        """An empty board with Black to move (the classic Reversi start)."""
        return cls(0, 0, Color.BLACK)

    @classmethod
    def from_string(cls, text: str) -> Position:
        """Read the board string: 64 squares a1..h8 then the side to move.

        `X`/`x`/`*`/`b` are black, `O`/`o`/`w` white, `-`/`.` empty; whitespace
        is ignored. Raises ReversiError with a readable message.
        """
        chars = "".join(text.split())
        if len(chars) != 65:
            raise ReversiError(
                "a board string is 64 squares (X, O or -) then the side to move "
                f"(X or O); this one has {len(chars)} characters"
            )
        black = white = 0
        for square, ch in enumerate(chars[:64]):
            if ch in _BLACK_CHARS:
                black |= 1 << square
            elif ch in _WHITE_CHARS:
                white |= 1 << square
            elif ch not in _EMPTY_CHARS:
                raise ReversiError(
                    f"square {NAMES[square]} has {ch!r}; use X for black, O for white, - for empty"
                )
        side = chars[64]
        if side in _BLACK_CHARS:
            to_move = Color.BLACK
        elif side in _WHITE_CHARS:
            to_move = Color.WHITE
        else:
            raise ReversiError(f"the side to move must be X or O, not {side!r}")
        return cls(black, white, to_move)

    def __str__(self) -> str:
        cells = [
            "X" if self.black >> i & 1 else "O" if self.white >> i & 1 else "-" for i in range(64)
        ]
        return f"{''.join(cells)} {self.to_move.symbol}"

    # -- the two sides ----------------------------------------------------------

    @property
    def own(self) -> int:
        """The bitboard of the side to move."""
        return self.white if self.to_move else self.black

    @property
    def opp(self) -> int:
        """The bitboard of the side not to move."""
        return self.black if self.to_move else self.white

    def discs(self, color: Color) -> int:
        """The bitboard of `color`'s discs."""
        return self.white if color else self.black

    def count(self, color: Color) -> int:
        """How many discs `color` has."""
        return self.discs(color).bit_count()

    @property
    def empty_count(self) -> int:
        return 64 - (self.black | self.white).bit_count()

    def color_at(self, square: int) -> Color | None:
        """Whose disc is on `square`, or None if it is empty."""
        if self.black >> square & 1:
            return Color.BLACK
        if self.white >> square & 1:
            return Color.WHITE
        return None

    # -- rules ----------------------------------------------------------------

    @property
    def in_opening_placement(self) -> bool:
        """True during classic Reversi's first four moves: every disc is in
        the centre and a centre square is still empty."""
        occupied = self.black | self.white
        return not occupied & ~CENTRE and occupied != CENTRE

    def legal_mask(self) -> int:
        """Bitboard of the legal moves for the side to move."""
        if self.in_opening_placement:
            return CENTRE & ~(self.black | self.white)
        return bitboard.legal_moves(self.own, self.opp)

    def legal_moves(self) -> list[int]:
        """The legal moves for the side to move, as ascending square indices."""
        return bitboard.squares_of(self.legal_mask())

    def is_legal(self, square: int) -> bool:
        return bool(self.legal_mask() >> square & 1)

    def flips(self, square: int) -> int:
        """Bitboard of the discs a move on `square` flips: 0 if it is occupied,
        and during the opening placement."""
        if (self.black | self.white) >> square & 1 or self.in_opening_placement:
            return 0
        return bitboard.flips(self.own, self.opp, square)

    def illegal_reason(self, square: int) -> str | None:
        """Why `square` is not a legal move here, as a phrase that follows the
        square's name ('is occupied', 'flips nothing'); None if it is legal."""
        if (self.black | self.white) >> square & 1:
            return "is occupied"
        if self.is_legal(square):
            return None
        if self.is_game_over():
            return "comes after the end of the game"
        if self.in_opening_placement:
            return f"is not in the centre: the first four moves go on {_CENTRE_NAMES}"
        if not self.legal_mask():
            return f"is not possible: {self.to_move.label} has no move and must pass"
        return "flips nothing"

    def play(self, square: int) -> Position:
        """The position after the side to move plays `square`.

        Raises IllegalMoveError ('c5 flips nothing') if the move is not legal.
        """
        reason = self.illegal_reason(square)
        if reason is not None:
            raise IllegalMoveError(f"{NAMES[square]} {reason}")
        flipped = self.flips(square)
        own = self.own | flipped | (1 << square)
        opp = self.opp & ~flipped
        if self.to_move:
            return Position(opp, own, Color.BLACK)
        return Position(own, opp, Color.WHITE)

    @property
    def must_pass(self) -> bool:
        """True when the side to move has no move but the opponent has one."""
        return not self.legal_mask() and bool(self.pass_turn_unchecked().legal_mask())

    def pass_turn(self) -> Position:
        """The same board with the other side to move; only legal when forced."""
        if not self.must_pass:
            if self.legal_mask():
                raise IllegalMoveError(f"{self.to_move.label} has a legal move and cannot pass")
            raise IllegalMoveError("the game is over: nobody can move")
        return self.pass_turn_unchecked()

    def pass_turn_unchecked(self) -> Position:
        return Position(self.black, self.white, self.to_move.other)

    def is_game_over(self) -> bool:
        """True when neither side has a legal move."""
        return not self.legal_mask() and not self.pass_turn_unchecked().legal_mask()
