"""The live game: the record, its variant and who plays each colour.

Everything the app must remember to carry on a game lives in a `Match`, so a
save, a resume or a test needs nothing else. No Textual here: storage and
tools may import it freely.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field

from .core import PASS, Color, Game, Position, ReversiError, Variant

HUMAN = "human"
LEVELS = (HUMAN, "easy", "medium", "hard", "expert")
LEVEL_LABELS = {level: level.capitalize() for level in LEVELS}
LEVEL_DESCRIPTIONS = {
    HUMAN: "you (or a friend) at the keyboard",
    "easy": "random legal moves, like a beginner",
    "medium": "looks a few moves ahead, a casual player",
    "hard": "a strong engine that answers within about a second",
    "expert": "the strongest engine, with a longer think",
}

_game_ids = itertools.count(1)


def parse_level(text: str) -> str:
    """The level called `text` (case-insensitive); raises ReversiError."""
    level = text.strip().lower()
    if level not in LEVELS:
        raise ReversiError(f"unknown player {text!r}: choose one of {', '.join(LEVELS)}")
    return level


@dataclass(frozen=True, slots=True)
class Turn:
    """Which turn of which game a computer move was asked for. A result whose
    Turn no longer matches the match is stale and must be dropped."""

    game_id: int
    ply: int
    position: Position


@dataclass(eq=False)
class Match:
    """A game in progress: the core record plus the player at each colour."""

    black: str = HUMAN
    white: str = "easy"
    game: Game = field(default_factory=Game)
    game_id: int = field(default_factory=lambda: next(_game_ids))

    def __post_init__(self) -> None:
        self.black = parse_level(self.black)
        self.white = parse_level(self.white)

    @classmethod
    def new(cls, black: str, white: str, variant: Variant | str = Variant.OTHELLO) -> Match:
        return cls(black, white, Game(variant))

    # -- who is who ------------------------------------------------------------

    @property
    def variant(self) -> Variant:
        return self.game.variant

    def level(self, color: Color) -> str:
        return self.white if color else self.black

    def is_human(self, color: Color) -> bool:
        return self.level(color) == HUMAN

    @property
    def position(self) -> Position:
        return self.game.position

    @property
    def to_move(self) -> Color:
        return self.game.position.to_move

    @property
    def is_over(self) -> bool:
        return self.game.is_over

    @property
    def human_to_move(self) -> bool:
        return not self.is_over and self.is_human(self.to_move)

    @property
    def computer_to_move(self) -> bool:
        return not self.is_over and not self.is_human(self.to_move)

    @property
    def humans(self) -> int:
        return self.is_human(Color.BLACK) + self.is_human(Color.WHITE)

    def turn(self) -> Turn:
        return Turn(self.game_id, self.game.ply, self.game.position)

    def is_current(self, turn: Turn) -> bool:
        """True while `turn` still describes the live position."""
        return turn == self.turn()

    def player_label(self, color: Color) -> str:
        """'Human', 'Easy', ... for `color`'s player."""
        return LEVEL_LABELS[self.level(color)]

    # -- taking back -----------------------------------------------------------

    def undo(self) -> bool:
        """Take back the last move; against the computer, back to the human's
        previous turn (their move and the computer's reply together).
        Returns False when there is nothing a player would call a move to undo."""
        game = self.game
        if self.humans != 1:
            return game.undo()
        # The human's own earlier move must be among those taken back, or
        # undo would only make the computer play its reply again.
        ply = game.ply
        while ply > 0:
            ply = _previous_real_move(game, ply)
            if ply is None:
                return False
            if self.is_human(game.positions[ply].to_move):
                game.go_to(ply)
                return True
        return False

    def redo(self) -> bool:
        """Replay an undone move; against the computer, the computer's reply too."""
        game = self.game
        if not game.redo():
            return False
        if self.humans == 1:
            while game.can_redo and not self.is_human(game.position.to_move):
                game.redo()
        return True


def _previous_real_move(game: Game, ply: int) -> int | None:
    """The ply of the last non-pass move before `ply`, or None."""
    for earlier in range(ply - 1, -1, -1):
        if game.moves[earlier] != PASS:
            return earlier
    return None
