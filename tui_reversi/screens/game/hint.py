"""The hint on the game screen: the app's hint engine searches the human's
position in a thread worker; its best move is marked on the board and the
cursor put on it, unless the game has moved on meanwhile."""

from __future__ import annotations

from textual import on, work
from textual.message import Message
from textual.screen import Screen
from textual.worker import get_current_worker

from ...core import Variant, parse_square
from ...match import Turn
from ...players import MoveScore
from ...widgets.board import BoardView


class Hints(Screen):
    """The part of GameScreen that finds and shows hints."""

    class HintReady(Message):
        def __init__(self, turn: Turn, scores: list[MoveScore]) -> None:
            super().__init__()
            self.turn, self.scores = turn, scores

    class HintFailed(Message):
        def __init__(self, turn: Turn, error: str) -> None:
            super().__init__()
            self.turn, self.error = turn, error

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.hint: int | None = None  # the square marked on the board
        self._hint_turn: Turn | None = None

    def action_hint(self) -> None:
        match = self.match
        if self.review_ply is not None or not match.human_to_move:
            self.say("A hint needs your turn in the live game.", error=True)
            return
        turn = match.turn()
        self._hint_turn = turn
        self.say("Looking for the best move…")
        self._find_hint(turn, match.variant)

    @work(thread=True, exclusive=True, group="hint", exit_on_error=False)
    def _find_hint(self, turn: Turn, variant: Variant) -> None:
        worker = get_current_worker()
        try:
            scores = self.app.hint_engine(turn.position, variant, lambda: worker.is_cancelled)
        except Exception as error:  # a bug in the engine: say so, keep the game
            self.post_message(self.HintFailed(turn, f"{type(error).__name__}: {error}"))
            return
        if not worker.is_cancelled:
            self.post_message(self.HintReady(turn, scores))

    @on(HintReady)
    def _hint_ready(self, event: HintReady) -> None:
        if (
            event.turn != self._hint_turn
            or not self.match.is_current(event.turn)
            or not event.scores
        ):
            return
        self._hint_turn = None
        best = event.scores[0]
        self.hint = parse_square(best.move)
        self.query_one(BoardView).cursor = self.hint
        text = f"Hint: {best.move} looks best"
        if best.exact:  # the engine solved the ending: say how it ends
            outcome = "wins" if best.score > 0 else "draws" if best.score == 0 else "loses"
            margin = f" by {abs(round(best.score))}" if best.score else ""
            text += f"; with perfect play it {outcome}{margin}"
        self.say(f"{text}. Enter plays it.")
        self._show()

    @on(HintFailed)
    def _hint_failed(self, event: HintFailed) -> None:
        if event.turn == self._hint_turn:
            self._hint_turn = None
            self.say(f"No hint this time ({event.error}).", error=True)

    def _cancel_hint(self) -> None:
        self._hint_turn = None
        self.workers.cancel_group(self, "hint")
