"""The hint: the app's hint engine searches the position of a player whose
seat allows hints, in the background (players/background.py); the screen
marks its best move on the board (its `hint`) and puts the cursor on it,
unless the game has moved on meanwhile."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from textual.binding import Binding
from textual.message import Message

from ...core import Variant
from ...players import MoveScore
from ...players.background import Background, Done, Failed, Outcome
from ...players.base import Turn

if TYPE_CHECKING:
    from ..game_app import HintEngine


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
    """Looks for a hint for the live position, one search at a time."""

    def __init__(self, engine: HintEngine, post: Callable[[Message], object]) -> None:
        self._engine = engine
        self._post = post  # (the answer comes back to the screen as a message)
        self._turn: Turn | None = None  # the turn a search is running for
        self.search: Background[Turn, list[MoveScore]] = Background("hint")

    def ask(self, turn: Turn, variant: Variant) -> None:
        """Look for the best move at `turn` (answered as HintReady or HintFailed)."""
        self._turn = turn
        engine, post = self._engine, self._post

        def answer(outcome: Outcome[Turn, list[MoveScore]]) -> None:
            if isinstance(outcome, Done):
                post(HintReady(outcome.token, outcome.result))
            elif isinstance(outcome, Failed):
                post(HintFailed(outcome.token, outcome.problem))

        self.search.start(turn, lambda cancelled: engine(turn.position, variant, cancelled), answer)

    def ready(self, event: HintReady, *, current: bool) -> MoveScore | None:
        """The best move found, if it answers the search asked for last and its
        turn is `current` (the game has not moved on meanwhile)."""
        if event.turn != self._turn or not current or not event.scores:
            return None
        self._turn = None
        return event.scores[0]

    def failed(self, event: HintFailed) -> bool:
        """True when `event` answers the search asked for last."""
        if event.turn != self._turn:
            return False
        self._turn = None
        return True

    def cancel(self) -> None:
        """Stop looking (the position changed)."""
        self._turn = None
        self.search.cancel()


def hint_sentence(best: MoveScore) -> str:
    """'Hint: d3 looks best; with perfect play it wins by 4. Enter plays it.'"""
    text = f"Hint: {best.move} looks best"
    if best.exact:  # the engine solved the ending: say how it ends
        outcome = "wins" if best.score > 0 else "draws" if best.score == 0 else "loses"
        margin = f" by {abs(round(best.score))}" if best.score else ""
        text += f"; with perfect play it {outcome}{margin}"
    return f"{text}. Enter plays it."
