"""Variants: the start position and who wins. Move rules are shared by all."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from .errors import ReversiError
from .position import Color, Position


@dataclass(frozen=True, slots=True)
class Result:
    """A finished game's outcome, counted the World Othello Federation way:
    empty squares go to the winner (split evenly in a draw)."""

    winner: Color | None
    black: int
    white: int
    black_discs: int
    white_discs: int

    def score(self, color: Color) -> int:
        """`color`'s score with the empties counted in."""
        return self.white if color else self.black

    @property
    def margin(self) -> int:
        """Black's score minus White's (negative when White is ahead)."""
        return self.black - self.white

    def __str__(self) -> str:
        """'White wins 39-25 (discs 38-25)': the winner's figures first."""
        first = self.winner or Color.BLACK
        scores = (self.score(first), self.score(first.other))
        discs = (self.discs(first), self.discs(first.other))
        head = f"{first.label} wins" if self.winner is not None else "Draw"
        text = f"{head} {scores[0]}-{scores[1]}"
        return text if scores == discs else f"{text} (discs {discs[0]}-{discs[1]})"

    def discs(self, color: Color) -> int:
        """`color`'s raw disc count on the board."""
        return self.white_discs if color else self.black_discs


class Variant(Enum):
    """The rule sets a new game can be played with."""

    OTHELLO = "othello"
    REVERSI = "reversi"
    ANTI = "anti"

    @classmethod
    def parse(cls, name: str | Variant) -> Variant:
        """The variant called `name` (case-insensitive); raises ReversiError."""
        if isinstance(name, Variant):
            return name
        try:
            return cls(name.strip().lower())
        except ValueError:
            names = ", ".join(v.value for v in cls)
            raise ReversiError(f"unknown variant {name!r}: choose one of {names}") from None

    @property
    def description(self) -> str:
        return _DESCRIPTIONS[self]

    @property
    def fewer_discs_win(self) -> bool:
        return self is Variant.ANTI

    def start(self) -> Position:
        """The position a new game of this variant starts from."""
        if self is Variant.REVERSI:
            return Position.empty()
        return Position.initial()

    def result(self, position: Position) -> Result:
        """Who wins `position` if the game ended there (normally at game over)."""
        b, w = position.count(Color.BLACK), position.count(Color.WHITE)
        empties = position.empty_count
        lead = b - w if not self.fewer_discs_win else w - b
        if lead > 0:
            return Result(Color.BLACK, b + empties, w, b, w)
        if lead < 0:
            return Result(Color.WHITE, b, w + empties, b, w)
        half = empties // 2
        return Result(None, b + half, w + empties - half, b, w)


_DESCRIPTIONS = {
    Variant.OTHELLO: "Othello: four discs in the centre to start; most discs wins",
    Variant.REVERSI: "Classic Reversi: empty board, the first four moves fill the centre",
    Variant.ANTI: "Anti-Othello: Othello start; the side with FEWER discs wins",
}
