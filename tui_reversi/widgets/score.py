"""The score panel: both players (at a server's table, with their ratings), their
disc counts, whose turn it is, and a live "thinking" line (elapsed time, depth)
while the computer searches."""

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

# Columns a player's name gets at least, and the rest of its line beside it: the
# disc, the count and the turn marker; and the colour's word, which is the first
# to give way on a narrow panel (the disc's shape says it), before the ratings.
PLAYER_WIDTH = 7
PLAYER_LINE = len("● ") + len(" 32") + len(" ◀")
SIDE_WIDTH = len("Black ")


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
    # Their ratings at a server's table, as it wrote them ('1516', '1500?'); '' none.
    ratings: tuple[str, str] = ("", "")
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
        side, players, ratings = self._players_shown()
        for color in (Color.BLACK, Color.WHITE):
            glyph = self.glyphs.black if color is Color.BLACK else self.glyphs.white
            turn = board.to_move is color
            marker = "◀" if self.glyphs is UNICODE else "<"
            lines.append(
                Content.from_markup(
                    "[b]$glyph[/b] $side[$text-muted]$player$rating[/]",
                    glyph=glyph,
                    side=f"{color.label:<5} " if side else "",
                    player=players[color],
                    rating=ratings[color],
                )
                .append(Content.from_markup("[b]$count[/b]", count=f"{board.counts[color]:>3}"))
                .append(
                    Content.from_markup(" [b $accent]$marker[/]", marker=marker if turn else " ")
                )
                .append(self._clock(color))
            )
        # The players' lines are cut to fit (their columns line up); the status,
        # a sentence ("Black wins 64-0 (discs 13-0)"), wraps whole instead.
        status = Content.from_markup("[b]$status[/b]", status=board.status)
        width = self.content_size.width
        lines.extend(status.wrap(width) if width > 0 else [status])
        # The thinking line keeps its place when empty, so nothing below jumps.
        lines.append(Content("") if self.thinking is None else self._thinking_line(self.thinking))
        return Content("\n").join(lines)

    def _players_shown(self) -> tuple[bool, tuple[str, str], tuple[str, str]]:
        """What of the players' lines fits the panel: whether the colours' words do,
        both names padded to one width (a name too long cut short), and both ratings
        in a column after them (none if they do not fit, or nobody has one), so the
        counts and clocks after them line up."""
        names, ratings = self.scoreboard.players, self.scoreboard.ratings
        width = max(PLAYER_WIDTH, *(len(name) for name in names))
        clock = 0 if self.clocks is None else 1 + max(len(self._time(color)) for color in Color)
        rating = max(len(each) for each in ratings)
        column = 1 + rating if rating else 0  # the ratings' column, with a space before it
        side, rated = True, column
        if self.content_size.width > 0:  # (0 before the first layout)
            # What gives way, in turn, for the names to have PLAYER_WIDTH columns.
            for side, rated in ((True, column), (False, column), (False, 0)):
                room = self.content_size.width - PLAYER_LINE - clock - rated
                room -= SIDE_WIDTH if side else 0
                if room >= PLAYER_WIDTH:
                    break
            width = min(width, max(PLAYER_WIDTH, room))
        cut = "…" if self.glyphs is UNICODE else "."
        black, white = (
            f"{name:<{width}}" if len(name) <= width else f"{name[: width - 1]}{cut}"
            for name in names
        )
        shown = (f" {ratings[0]:>{rating}}", f" {ratings[1]:>{rating}}") if rated else ("", "")
        return side, (black, white), shown

    def _time(self, color: Color) -> str:
        assert self.clocks is not None
        return self.clocks.shown(color, self.clock())

    def _clock(self, color: Color) -> Content:
        clocks = self.clocks
        if clocks is None:
            return Content("")
        style = "b $accent" if clocks.running is color else "dim"
        width = max(len(self._time(each)) for each in Color)  # 9:59 beside 10:00
        return Content.from_markup(f" [{style}]$time[/]", time=f"{self._time(color):>{width}}")

    def _thinking_line(self, thinking: Thinking) -> Content:
        elapsed = max(0.0, self.clock() - thinking.started)
        depth = "solving" if thinking.exact else f"depth {thinking.depth}" if thinking.depth else ""
        parts = [f"{thinking.color.label} thinking", f"{elapsed:.1f}s"]
        if depth:
            parts.append(depth)
        separator = " · " if self.glyphs is UNICODE else " | "
        return Content.from_markup("[$warning]$text[/]", text=separator.join(parts))
