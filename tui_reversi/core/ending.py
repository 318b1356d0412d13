"""How a game ended when the board alone does not say: a resignation, a
flag, a player gone, a player banned, an adjournment (and, for a record that keeps every
ending, `normal`: played out on the board)."""

from __future__ import annotations

from dataclasses import dataclass

from .errors import ReversiError
from .position import Color

# normal: played out on the board; flag: a clock ran out; left: a player went
# (with a winner when they did not come back in time); banned: a server banned a
# player mid-game (with a winner when a move was played); adjourned: it waits.
REASONS = ("normal", "resigned", "flag", "left", "banned", "adjourned")


# A game ended with no winner, as the score panel says it.
_NO_RESULT = {
    "normal": "Draw",
    "resigned": "No result: a player resigned",
    "banned": "No result: a player was banned",
}


@dataclass(frozen=True, slots=True)
class Ending:
    """`reason` is one of REASONS; `winner` None is a draw (normal) or no
    result; `text` is the sentence the players were told ('' if none)."""

    reason: str
    winner: Color | None = None
    text: str = ""

    def __post_init__(self) -> None:
        if self.reason not in REASONS:
            raise ReversiError(f"{self.reason[:20]!r} is not how a game ends")

    @property
    def off_board(self) -> bool:
        """True unless the board decided it (a resignation, a flag...)."""
        return self.reason != "normal"

    @property
    def decided(self) -> bool:
        """True when the game has a result (a winner, or a draw on the board)."""
        return self.winner is not None or self.reason == "normal"

    def __str__(self) -> str:
        """'Black wins: White resigned', 'White wins on time', 'Adjourned'."""
        if self.reason == "adjourned":
            return "Adjourned"
        if self.winner is None:
            return _NO_RESULT.get(self.reason, "No result: a player left")
        wins = f"{self.winner.label} wins"
        loser = self.winner.other.label
        return {
            "normal": wins,
            "resigned": f"{wins}: {loser} resigned",
            "flag": f"{wins} on time",
            "left": f"{wins}: {loser} left",
            "banned": f"{wins}: {loser} was banned",
        }[self.reason]
