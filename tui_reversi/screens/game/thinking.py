"""The 'thinking' indicator of the game screen: which player the referee
asked, since when, and how deep its search got. It follows the referee's
reports and owns nothing else."""

from __future__ import annotations

from collections.abc import Callable

from ...core import Color
from ...players.base import SearchInfo, Turn
from ...widgets.score import ScorePanel, Thinking


class ThinkingIndicator:
    """Shows on the score panel that the player asked at a turn is thinking."""

    def __init__(self, panel: Callable[[], ScorePanel], clock: Callable[[], float]) -> None:
        self._panel = panel
        self._clock = clock
        self.turn: Turn | None = None  # the turn being thought about

    def started(self, turn: Turn, color: Color) -> None:
        self.turn = turn
        self._panel().thinking = Thinking(color, self._clock())

    def progressed(self, turn: Turn, info: SearchInfo) -> None:
        panel = self._panel()
        shown = panel.thinking
        if turn == self.turn and shown is not None:
            panel.thinking = Thinking(shown.color, shown.started, info.depth, info.exact)

    def stopped(self) -> None:
        self.turn = None
        self._panel().thinking = None
