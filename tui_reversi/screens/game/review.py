"""History review on the game screen: step through the game's past
positions (or pick a move in the log); the board shows them read-only under
a banner. Esc returns to the live game; Enter plays on from the reviewed
position after a confirmation, discarding the later moves."""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING

from textual.binding import Binding

from ...core import ReversiError

if TYPE_CHECKING:
    from .screen import GameScreen

REVIEW_BINDINGS = [
    Binding(
        "comma",
        "review_step(-1)",
        "Review",
        id="review.back",
        key_display=",",
        tooltip="Step back one move (starts reviewing the game)",
    ),
    Binding(
        "full_stop",
        "review_step(1)",
        "Forward",
        id="review.forward",
        key_display=".",
        tooltip="Step forward one move; past the last one returns to the game",
    ),
    Binding(
        "home",
        "review_to(0)",
        "Start",
        id="review.start",
        show=False,
        tooltip="Jump to the start position",
    ),
    Binding(
        "end",
        "review_to(-1)",
        "End",
        id="review.end",
        show=False,
        tooltip="Jump to the last move",
    ),
    Binding(
        "escape",
        "live",
        "Back to game",
        id="review.live",
        key_display="esc",
        tooltip="Stop reviewing: back to the game in progress",
    ),
    Binding(
        "enter",
        "continue_here",
        "Play from here",
        id="review.continue",
        key_display="⏎",
        tooltip="Play on from the reviewed position (asks first: later moves are discarded)",
    ),
]


class Review:
    """Which past position the board shows, if any, and moving through them."""

    def __init__(self, screen: GameScreen) -> None:
        self.screen = screen
        self.ply: int | None = None  # None: the live game is shown

    @property
    def reviewing(self) -> bool:
        return self.ply is not None

    def reset(self) -> None:
        """Another game: nothing of it is being reviewed."""
        self.ply = None

    def step(self, delta: int) -> None:
        game = self.screen.referee.match.game
        current = game.ply if self.ply is None else self.ply
        self.show(max(0, min(game.length, current + delta)))

    def jump(self, ply: int) -> None:
        """To `ply`; a negative one means the last move."""
        self.show(self.screen.referee.match.game.length if ply < 0 else ply)

    def show(self, ply: int) -> None:
        game = self.screen.referee.match.game
        if ply == game.ply and game.at_end:
            self.leave()
            return
        self.ply = ply
        self.screen.review_changed()

    def return_to(self, ply: int | None) -> None:
        """Back to `ply` (None: the live game), as it was before a key moved it."""
        if ply != self.ply:
            self.ply = ply
            self.screen.review_changed()

    def leave(self) -> None:
        """Back to the live game."""
        if self.ply is None:
            self.screen.say_nothing()
            return
        self.ply = None
        self.screen.review_changed()

    def continue_here(self) -> None:
        from ..confirm import ConfirmScreen

        ply = self.ply
        if ply is None:
            return
        game = self.screen.referee.match.game
        later = game.move_number(game.length) - game.move_number(ply)
        if not later:
            self.leave()
            return
        moves = "move" if later == 1 else "moves"
        number = game.move_number(ply)
        question = f"Play on from move {number}? The {later} later {moves} will be discarded."
        if ply == 0:
            question = f"Play on from the start? All {later} {moves} will be discarded."
        self.screen.app.push_screen(
            ConfirmScreen(question, yes="Play from here"), partial(self._confirmed, ply)
        )

    def _confirmed(self, ply: int, confirmed: bool | None) -> None:
        if not confirmed:
            return
        self.ply = None
        self.screen.back_to_play()
        try:
            self.screen.referee.continue_from(ply)
        except ReversiError as error:
            self.screen.say(f"{str(error)[:1].upper()}{str(error)[1:]}.", error=True)
