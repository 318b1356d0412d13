"""The hint: the app's hint engine searches the position of a player whose
seat allows hints, in the background (players/background.py); its best move
is marked on the board and the cursor put on it, unless the game has moved
on meanwhile."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from textual.binding import Binding
from textual.message import Message

from ...players import MoveScore
from ...players.background import Background, Done, Failed, Outcome
from ...players.base import Turn
from ...widgets.board import BoardView

if TYPE_CHECKING:
    from .screen import GameScreen


HINT_BINDINGS = [
    Binding(
        "i",
        "hint",
        "Hint",
        id="game.hint",
        tooltip="Mark the engine's best move on the board (Enter then plays it)",
    ),
]


@dataclass
class HintReady(Message):
    turn: Turn
    scores: list[MoveScore]


@dataclass
class HintFailed(Message):
    turn: Turn
    error: str


class Hints:
    """Finds a hint for the live position and remembers the square it marks."""

    def __init__(self, screen: GameScreen) -> None:
        self.screen = screen
        self.square: int | None = None  # the square marked on the board
        self._turn: Turn | None = None  # the turn a search is running for
        self.search: Background[Turn, list[MoveScore]] = Background("hint")

    def ask(self) -> None:
        screen = self.screen
        referee, match = screen.referee, screen.referee.match
        if screen.review.reviewing or not referee.hints_allowed:
            screen.say("A hint needs your turn in the live game.", error=True)
            return
        turn, variant = match.turn(), match.variant
        self._turn = turn
        screen.say("Looking for the best move…")
        engine = screen.reversi_app.hint_engine

        def answer(outcome: Outcome[Turn, list[MoveScore]]) -> None:
            if isinstance(outcome, Done):
                screen.post_message(HintReady(outcome.token, outcome.result))
            elif isinstance(outcome, Failed):
                screen.post_message(HintFailed(outcome.token, outcome.problem))

        self.search.start(turn, lambda cancelled: engine(turn.position, variant, cancelled), answer)

    def ready(self, event: HintReady) -> None:
        screen = self.screen
        if (
            event.turn != self._turn
            or not screen.referee.match.is_current(event.turn)
            or not event.scores
        ):
            return
        self._turn = None
        best = event.scores[0]
        self.square = best.move.square
        screen.query_one(BoardView).cursor = self.square
        text = f"Hint: {best.move} looks best"
        if best.exact:  # the engine solved the ending: say how it ends
            outcome = "wins" if best.score > 0 else "draws" if best.score == 0 else "loses"
            margin = f" by {abs(round(best.score))}" if best.score else ""
            text += f"; with perfect play it {outcome}{margin}"
        screen.say(f"{text}. Enter plays it.")
        screen.show()

    def failed(self, event: HintFailed) -> None:
        if event.turn == self._turn:
            self._turn = None
            self.screen.say(f"No hint this time ({event.error}).", error=True)

    def clear(self) -> None:
        """Forget the hint and stop looking for one (the position changed)."""
        self._turn = None
        self.square = None
        self.search.cancel()
