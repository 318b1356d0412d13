"""The move log: every ply numbered in standard notation, Black's on the left
and White's on the right, passes shown; a wide log holds several such pairs
a row. Selecting a move (keys or mouse) asks the screen to review the
position after it."""

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
PAIR_GAP = 3  # between one pair (Black, White) and the next on a row
# Below this width the log keeps one pair a row (at 80x24 it is narrower).
MULTI_PAIR_WIDTH = 64
# From this width an analysed game's log has one move a row, its figures beside it.
NOTED_WIDTH = 34


@dataclass(frozen=True, slots=True)
class MoveList:
    """The plies of the game, the live cursor and the ply under review (if any)."""

    moves: tuple[int, ...] = ()
    live: int = 0
    selected: int | None = None
    # Analysis, per ply: a mark after the move ('?!', '?', '??') and its figures.
    marks: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()


class MoveLog(ScrollView, can_focus=True):
    """Numbered moves, a (Black, White) pair or more a row; the current one highlighted."""

    BINDINGS = [
        Binding("up,k", "step_row(-1)", "Previous row", id="log.up", show=False),
        Binding("down,j", "step_row(1)", "Next row", id="log.down", show=False),
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
        "move-log--note",
        "move-log--inaccuracy",
        "move-log--mistake",
        "move-log--blunder",
    }

    @dataclass
    class PlySelected(Message):
        """The player picked the position after ply `ply` (0 = the start)."""

        ply: int

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
        self._lay_out()

    def on_resize(self) -> None:
        self._lay_out()

    @property
    def per_row(self) -> int:
        """Moves a row: one pair (Black, White), or more where the log is wide."""
        width = self.size.width
        if self.moves.notes and width >= NOTED_WIDTH:
            return 1
        if width < MULTI_PAIR_WIDTH:
            return 2
        pair = 2 * ENTRY_WIDTH + PAIR_GAP
        return 2 * max(1, (width - LEFT_MARGIN - 1 + PAIR_GAP) // pair)

    def _lay_out(self) -> None:
        per_row, moves = self.per_row, self.moves
        pairs = max(1, per_row // 2)
        rows = (len(moves.moves) + per_row - 1) // per_row
        width = LEFT_MARGIN + pairs * 2 * ENTRY_WIDTH + (pairs - 1) * PAIR_GAP
        if per_row == 1:
            width = LEFT_MARGIN + ENTRY_WIDTH + max(map(len, moves.notes), default=0)
        self.virtual_size = Size(width, rows)
        row = max(0, _shown(moves) - 1) // per_row
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
        per_row = self.per_row
        first = row * per_row
        if first >= len(moves.moves):
            return Strip.blank(width, base)
        segments = [Segment(" " * LEFT_MARGIN, base)]
        for index in range(first, min(first + per_row, len(moves.moves))):
            if index > first and index % 2 == 0:
                segments.append(Segment(" " * PAIR_GAP, base))
            segments.extend(self._entry(index, base))
        if per_row == 1 and first < len(moves.notes):
            note = base + self.get_component_rich_style("move-log--note", partial=True)
            segments.append(Segment(moves.notes[first], note))
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
        mark = moves.marks[index] if index < len(moves.marks) and name != "pass" else ""
        if not mark:
            return [
                Segment(f"{ply:>3} ", number),
                Segment(f"{name:<4}", entry_style),
                Segment(" ", base),
            ]
        label = {"?!": "inaccuracy", "?": "mistake", "??": "blunder"}.get(mark, "mistake")
        return [
            Segment(f"{ply:>3} ", number),
            Segment(name, entry_style),
            Segment(f"{mark:<2}", base + style(f"move-log--{label}", partial=True)),
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

    def action_step_row(self, rows: int) -> None:
        self.action_step(rows * self.per_row)

    def action_jump(self, ply: int) -> None:
        self._select(len(self.moves.moves) if ply < 0 else ply)

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None:
            return
        row = offset.y + self.scroll_offset.y
        x = offset.x + self.scroll_offset.x - LEFT_MARGIN
        pair, within = divmod(max(0, x), 2 * ENTRY_WIDTH + PAIR_GAP)
        column = 2 * pair + (0 if within < ENTRY_WIDTH else 1) if self.per_row > 1 else 0
        ply = row * self.per_row + column + 1
        if column < self.per_row and ply <= len(self.moves.moves):
            self.focus()
            self._select(ply)


def _shown(moves: MoveList) -> int:
    """The ply whose position the board shows: the reviewed one or the live one."""
    return moves.selected if moves.selected is not None else moves.live
