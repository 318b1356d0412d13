"""The score panel: both players, their disc counts, whose turn it is, and a
live "thinking" line (elapsed time, depth) while the computer searches."""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass

from textual.content import Content
from textual.reactive import reactive
from textual.timer import Timer
from textual.widget import Widget

from ..core import Color
from .glyphs import UNICODE, Glyphs


@dataclass(frozen=True, slots=True)
class Thinking:
    """The computer is searching for `color` since `started` (a clock reading)."""

    color: Color
    started: float
    depth: int = 0
    exact: bool = False


@dataclass(frozen=True, slots=True)
class Clocks:
    """Both players' clocks (a game with a time control): seconds left for
    (Black, White) at `reading` (a clock reading), and whose clock runs."""

    left: tuple[float, float]
    running: Color | None
    reading: float

    def shown(self, color: Color, now: float) -> str:
        """'4:58' for `color`'s time left at `now`."""
        left = self.left[color]
        if self.running is color:
            left -= now - self.reading
        minutes, seconds = divmod(math.ceil(max(0.0, left)), 60)
        return f"{minutes}:{seconds:02}"


@dataclass(frozen=True, slots=True)
class Scoreboard:
    """What the panel shows; `to_move` is None once the game is over."""

    players: tuple[str, str] = ("Human", "Easy")  # Black's, White's
    counts: tuple[int, int] = (2, 2)
    to_move: Color | None = Color.BLACK
    status: str = "Black to move"


class ScorePanel(Widget):
    """Players, disc counts, the turn and the thinking indicator."""

    scoreboard: reactive[Scoreboard] = reactive(Scoreboard, layout=True)
    thinking: reactive[Thinking | None] = reactive(None)
    glyphs: reactive[Glyphs] = reactive(UNICODE)
    clocks: reactive[Clocks | None] = reactive(None)

    def __init__(self, *, clock: Callable[[], float] = time.monotonic, **kwargs) -> None:
        super().__init__(**kwargs)
        self.clock = clock
        self._ticker: Timer | None = None
        self._clock_ticker: Timer | None = None

    def watch_thinking(self, thinking: Thinking | None) -> None:
        # Tick only while the computer thinks: an idle screen never redraws.
        if thinking is not None and self._ticker is None:
            self._ticker = self.set_interval(0.2, self.refresh)
        elif thinking is None and self._ticker is not None:
            self._ticker.stop()
            self._ticker = None

    def watch_clocks(self, clocks: Clocks | None) -> None:
        # A running clock is shown ticking; stopped clocks do not redraw.
        running = clocks is not None and clocks.running is not None
        if running and self._clock_ticker is None:
            self._clock_ticker = self.set_interval(0.5, self.refresh)
        elif not running and self._clock_ticker is not None:
            self._clock_ticker.stop()
            self._clock_ticker = None

    def render(self) -> Content:
        board = self.scoreboard
        lines = []
        for color in (Color.BLACK, Color.WHITE):
            glyph = self.glyphs.black if color is Color.BLACK else self.glyphs.white
            turn = board.to_move is color
            marker = "◀" if self.glyphs is UNICODE else "<"
            lines.append(
                Content.from_markup(
                    "[b]$glyph[/b] $side [$text-muted]$player[/]",
                    glyph=glyph,
                    side=f"{color.label:<5}",
                    player=f"{board.players[color]:<7}",
                )
                .append(Content.from_markup("[b]$count[/b]", count=f"{board.counts[color]:>3}"))
                .append(
                    Content.from_markup(" [b $accent]$marker[/]", marker=marker if turn else " ")
                )
                .append(self._clock(color))
            )
        lines.append(Content.from_markup("[b]$status[/b]", status=board.status))
        # The thinking line keeps its place when empty, so nothing below jumps.
        lines.append(Content("") if self.thinking is None else self._thinking_line(self.thinking))
        return Content("\n").join(lines)

    def _clock(self, color: Color) -> Content:
        clocks = self.clocks
        if clocks is None:
            return Content("")
        style = "b $accent" if clocks.running is color else "dim"
        return Content.from_markup(f" [{style}]$time[/]", time=clocks.shown(color, self.clock()))

    def _thinking_line(self, thinking: Thinking) -> Content:
        elapsed = max(0.0, self.clock() - thinking.started)
        depth = "solving" if thinking.exact else f"depth {thinking.depth}" if thinking.depth else ""
        parts = [f"{thinking.color.label} thinking", f"{elapsed:.1f}s"]
        if depth:
            parts.append(depth)
        separator = " · " if self.glyphs is UNICODE else " | "
        return Content.from_markup("[$warning]$text[/]", text=separator.join(parts))
