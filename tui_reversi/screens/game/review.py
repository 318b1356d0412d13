"""History review on the game screen: step through the game's past
positions (or pick a move in the log); the board shows them read-only under
a banner. Esc returns to the live game; Enter plays on from the reviewed
position after a confirmation, discarding the later moves."""

from __future__ import annotations

from functools import partial

from textual import on
from textual.binding import Binding
from textual.screen import Screen

from ...widgets.board import BoardView
from ...widgets.move_log import MoveLog

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


class HistoryReview(Screen):
    """The part of GameScreen that reviews the game's history."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.review_ply: int | None = None  # None: the live game is shown

    def action_review_step(self, delta: int) -> None:
        game = self.match.game
        current = game.ply if self.review_ply is None else self.review_ply
        self._review(max(0, min(game.length, current + delta)))

    def action_review_to(self, ply: int) -> None:
        self._review(self.match.game.length if ply < 0 else ply)

    @on(MoveLog.PlySelected)
    def _ply_selected(self, event: MoveLog.PlySelected) -> None:
        self._review(event.ply)

    def _review(self, ply: int) -> None:
        game = self.match.game
        if ply == game.ply and game.at_end:
            self.action_live()
            return
        self.review_ply = ply
        self.notice = None
        self._cancel_hint()
        self.hint = None
        self._show()
        self.refresh_bindings()

    def action_live(self) -> None:
        if self.review_ply is None:
            self.notice = None
            self._show_status()
            return
        self.review_ply = None
        self.notice = None
        self._show()
        self.refresh_bindings()
        self.query_one(BoardView).focus()

    def action_continue_here(self) -> None:
        from ..confirm import ConfirmScreen

        ply = self.review_ply
        if ply is None:
            return
        later = self.match.game.length - ply
        if not later:
            self.action_live()
            return
        moves = "move" if later == 1 else "moves"
        question = f"Play on from move {ply}? The {later} later {moves} will be discarded."
        if ply == 0:
            question = f"Play on from the start? All {later} {moves} will be discarded."
        self.app.push_screen(
            ConfirmScreen(question, yes="Play from here"), partial(self._continue_confirmed, ply)
        )

    def _continue_confirmed(self, ply: int, confirmed: bool | None) -> None:
        if not confirmed:
            return
        self._cancel_thinking()
        self.match.game.continue_from(ply)
        self.review_ply = None
        self._game_over_shown = None
        self.paused = False
        self.notice = None
        self.query_one(BoardView).focus()
        self._record_changed(animate=False)
