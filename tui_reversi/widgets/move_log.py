"""The move log: every ply numbered in standard notation, Black's on the left
and White's on the right, passes shown. Selecting a move (keys or mouse)
asks the screen to review the position after it."""

from __future__ import annotations

from dataclasses import dataclass

from rich.segment import Segment
from rich.style import Style
from textual import events
from textual.binding import Binding
from textual.geometry import Region, Size
from textual.message import Message
from textual.reactive import reactive
from textual.scroll_view import ScrollView
from textual.strip import Strip

from ..core import move_name

ENTRY_WIDTH = 9  # " 12 f5   "
LEFT_MARGIN = 1


@dataclass(frozen=True, slots=True)
class MoveList:
    """The plies of the game, the live cursor and the ply under review (if any)."""

    moves: tuple[int, ...] = ()
    live: int = 0
    selected: int | None = None


class MoveLog(ScrollView, can_focus=True):
    """Numbered moves, two a row; the current one highlighted."""

    BINDINGS = [
        Binding("up,k", "step(-2)", "Previous row", id="log.up", show=False),
        Binding("down,j", "step(2)", "Next row", id="log.down", show=False),
        Binding("left,h", "step(-1)", "Previous move", id="log.left", show=False),
        Binding("right,l", "step(1)", "Next move", id="log.right", show=False),
        Binding("home", "jump(0)", "First position", id="log.home", show=False),
        Binding("end", "jump(-1)", "Last move", id="log.end", show=False),
    ]

    COMPONENT_CLASSES = {
        "move-log--number",
        "move-log--move",
        "move-log--pass",
        "move-log--undone",
        "move-log--current",
        "move-log--selected",
    }

    class PlySelected(Message):
        """The player picked the position after ply `ply` (0 = the start)."""

        def __init__(self, ply: int) -> None:
            super().__init__()
            self.ply = ply

    moves: reactive[MoveList] = reactive(MoveList)

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        # Plies asked for that the screen has not shown yet, oldest first: a
        # burst of keys (key repeat over SSH) steps on from the last one asked.
        self._asked: list[int] = []

    def watch_moves(self, moves: MoveList) -> None:
        shown = _shown(moves)
        if shown in self._asked:
            del self._asked[: self._asked.index(shown) + 1]
        else:  # the game moved on by other means: start again from what is shown
            self._asked.clear()
        rows = (len(moves.moves) + 1) // 2
        self.virtual_size = Size(LEFT_MARGIN + 2 * ENTRY_WIDTH, rows)
        row = max(0, shown - 1) // 2
        self.call_after_refresh(self._reveal, row)
        self.refresh()

    def _reveal(self, row: int) -> None:
        self.scroll_to_region(Region(0, row, 1, 1), animate=False, x_axis=False)

    # -- drawing -----------------------------------------------------------------

    def render_line(self, y: int) -> Strip:
        scroll_x, scroll_y = self.scroll_offset
        row = y + scroll_y
        base = self.rich_style
        width = self.size.width
        moves = self.moves
        if not moves.moves and row == 0:
            hint = base + self.get_component_rich_style("move-log--number", partial=True)
            return Strip([Segment(" No moves yet", hint)]).adjust_cell_length(width, base)
        if row * 2 >= len(moves.moves):
            return Strip.blank(width, base)
        segments = [Segment(" " * LEFT_MARGIN, base)]
        for index in (2 * row, 2 * row + 1):
            if index < len(moves.moves):
                segments.extend(self._entry(index, base))
        strip = Strip(segments).crop(scroll_x, scroll_x + width)
        return strip.adjust_cell_length(width, base)

    def _entry(self, index: int, base: Style) -> list[Segment]:
        moves, ply = self.moves, index + 1
        style = self.get_component_rich_style
        move = moves.moves[index]
        name = move_name(move)
        kind = "move-log--pass" if name == "pass" else "move-log--move"
        entry_style = base + style(kind, partial=True)
        if ply > moves.live:
            entry_style += style("move-log--undone", partial=True)
        if ply == moves.live and moves.selected is None:
            entry_style += style("move-log--current", partial=True)
        if ply == moves.selected:
            entry_style += style("move-log--selected", partial=True)
        number = base + style("move-log--number", partial=True)
        return [
            Segment(f"{ply:>3} ", number),
            Segment(f"{name:<4}", entry_style),
            Segment(" ", base),
        ]

    # -- input -------------------------------------------------------------------

    def _current(self) -> int:
        return self._asked[-1] if self._asked else _shown(self.moves)

    def _select(self, ply: int) -> None:
        # The screen always shows the ply asked for, so an entry that changed
        # nothing equals what is shown and is harmless until the next one.
        self._asked.append(ply)
        self.post_message(self.PlySelected(ply))

    def action_step(self, delta: int) -> None:
        self._select(max(0, min(len(self.moves.moves), self._current() + delta)))

    def action_jump(self, ply: int) -> None:
        self._select(len(self.moves.moves) if ply < 0 else ply)

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None:
            return
        row = offset.y + self.scroll_offset.y
        column = 0 if offset.x + self.scroll_offset.x < LEFT_MARGIN + ENTRY_WIDTH else 1
        ply = 2 * row + column + 1
        if ply <= len(self.moves.moves):
            self.focus()
            self._select(ply)


def _shown(moves: MoveList) -> int:
    """The ply whose position the board shows: the reviewed one or the live one."""
    return moves.selected if moves.selected is not None else moves.live
