"""The move log, written the way Othello players write a game: every disc
placed is numbered (1 to 60), Black's moves in the left column and White's in
the right, under a heading that says so; a pass is shown in its player's
column without a number. Moves taken back (redo brings them back) are
bracketed, so they read as undone without colour. A wide log holds several
(Black, White) pairs a row. Selecting a move (keys or mouse) asks the screen
to review the position after it."""

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

from ..core import PASS, Color, move_name

ENTRY_WIDTH = 9  # "12 f5    ", "   pass  ", "12 (f5)  ", "  (pass) "
NUMBER_WIDTH = 2
LEFT_MARGIN = 1
COLUMN_GAP = 1  # between Black's entry and White's
PAIR_GAP = 3  # between one pair (Black, White) and the next on a row
PAIR_WIDTH = 2 * ENTRY_WIDTH + COLUMN_GAP
# Below this width the log keeps one pair a row (at 80x24 it is narrower).
MULTI_PAIR_WIDTH = 64
HEADING_LINES = 1  # "Black  White" stays at the top while the moves scroll


@dataclass(frozen=True, slots=True)
class MoveList:
    """The plies of the game, the live cursor, the ply under review (if any),
    and who made the first ply (White, in a game set up with White to move)."""

    moves: tuple[int, ...] = ()
    live: int = 0
    selected: int | None = None
    first: Color = Color.BLACK


def move_numbers(moves: tuple[int, ...]) -> list[int | None]:
    """Each ply's move number as players count them: discs placed, so a
    pass (None) takes no number."""
    numbers: list[int | None] = []
    count = 0
    for move in moves:
        if move == PASS:
            numbers.append(None)
        else:
            count += 1
            numbers.append(count)
    return numbers


class MoveLog(ScrollView, can_focus=True):
    """Numbered moves in Black and White columns, a pair or more a row; the
    current one highlighted."""

    BINDINGS = [
        Binding("up,k", "step_row(-1)", "Previous row", id="log.up", show=False),
        Binding("down,j", "step_row(1)", "Next row", id="log.down", show=False),
        Binding("left,h", "step(-1)", "Previous move", id="log.left", show=False),
        Binding("right,l", "step(1)", "Next move", id="log.right", show=False),
        Binding("home", "jump(0)", "First position", id="log.home", show=False),
        Binding("end", "jump(-1)", "Last move", id="log.end", show=False),
    ]

    COMPONENT_CLASSES = {
        "move-log--heading",
        "move-log--number",
        "move-log--move",
        "move-log--pass",
        "move-log--undone",
        "move-log--current",
        "move-log--selected",
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
        self._numbers: list[int | None] = []

    def watch_moves(self, moves: MoveList) -> None:
        shown = _shown(moves)
        if shown in self._asked:
            del self._asked[: self._asked.index(shown) + 1]
        else:  # the game moved on by other means: start again from what is shown
            self._asked.clear()
        self._numbers = move_numbers(moves.moves)
        self._lay_out()

    def on_resize(self) -> None:
        self._lay_out()

    @property
    def per_row(self) -> int:
        """Entries a row: one pair (Black, White), or more where the log is wide."""
        width = self.size.width
        if width < MULTI_PAIR_WIDTH:
            return 2
        return 2 * max(1, (width - LEFT_MARGIN - 1 + PAIR_GAP) // (PAIR_WIDTH + PAIR_GAP))

    @property
    def _offset(self) -> int:
        """Entries before ply 1: one empty Black entry when White moved first."""
        return 0 if self.moves.first is Color.BLACK else 1

    def _lay_out(self) -> None:
        per_row, moves = self.per_row, self.moves
        pairs = per_row // 2
        rows = (len(moves.moves) + self._offset + per_row - 1) // per_row
        width = LEFT_MARGIN + pairs * PAIR_WIDTH + (pairs - 1) * PAIR_GAP
        self.virtual_size = Size(width, rows + HEADING_LINES)
        row = (max(0, _shown(moves) - 1) + self._offset) // per_row
        self.call_after_refresh(self._reveal, row)
        self.refresh()

    def _reveal(self, row: int) -> None:
        # The heading covers the top line: keep the row below it.
        region = Region(0, row, 1, 1 + HEADING_LINES)
        self.scroll_to_region(region, animate=False, x_axis=False)

    # -- drawing -----------------------------------------------------------------

    def render_line(self, y: int) -> Strip:
        scroll_x, scroll_y = self.scroll_offset
        base = self.rich_style
        width = self.size.width
        if y < HEADING_LINES:
            return self._heading(base).crop(scroll_x, scroll_x + width).adjust_cell_length(
                width, base
            )
        row = y - HEADING_LINES + scroll_y
        moves = self.moves
        if not moves.moves and row == 0:
            hint = base + self.get_component_rich_style("move-log--number", partial=True)
            return Strip([Segment(" No moves yet", hint)]).adjust_cell_length(width, base)
        per_row, offset = self.per_row, self._offset
        first = row * per_row
        if first - offset >= len(moves.moves):
            return Strip.blank(width, base)
        segments = [Segment(" " * LEFT_MARGIN, base)]
        for slot in range(first, first + per_row):
            index = slot - offset
            if index >= len(moves.moves):
                break
            if slot > first:
                gap = PAIR_GAP if slot % 2 == 0 else COLUMN_GAP
                segments.append(Segment(" " * gap, base))
            if index < 0:
                segments.append(Segment(" " * ENTRY_WIDTH, base))
            else:
                segments.extend(self._entry(index, base))
        strip = Strip(segments).crop(scroll_x, scroll_x + width)
        return strip.adjust_cell_length(width, base)

    def _heading(self, base: Style) -> Strip:
        style = base + self.get_component_rich_style("move-log--heading", partial=True)
        pair = f"{'Black':^{ENTRY_WIDTH}}{' ' * COLUMN_GAP}{'White':^{ENTRY_WIDTH}}"
        pairs = self.per_row // 2
        text = " " * LEFT_MARGIN + (" " * PAIR_GAP).join([pair] * pairs)
        return Strip([Segment(text, style)])

    def _entry(self, index: int, base: Style) -> list[Segment]:
        moves, ply = self.moves, index + 1
        style = self.get_component_rich_style
        number, move = self._numbers[index], moves.moves[index]
        name = move_name(move)
        undone = ply > moves.live
        kind = "move-log--pass" if move == PASS else "move-log--move"
        entry_style = base + style(kind, partial=True)
        if undone:  # bracketed as well as dimmed: it reads as undone without colour
            entry_style += style("move-log--undone", partial=True)
            name = f"({name})"
        if ply == moves.live and moves.selected is None:
            entry_style += style("move-log--current", partial=True)
        if ply == moves.selected:
            entry_style += style("move-log--selected", partial=True)
        label = "" if number is None else str(number)
        name_width = ENTRY_WIDTH - NUMBER_WIDTH - 1
        return [
            Segment(f"{label:>{NUMBER_WIDTH}} ", base + style("move-log--number", partial=True)),
            Segment(name, entry_style),
            Segment(" " * (name_width - len(name)), base),
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
        if offset is None or offset.y < HEADING_LINES:
            return
        row = offset.y - HEADING_LINES + self.scroll_offset.y
        x = offset.x + self.scroll_offset.x - LEFT_MARGIN
        pair, within = divmod(max(0, x), PAIR_WIDTH + PAIR_GAP)
        column = 2 * pair + (0 if within < ENTRY_WIDTH + COLUMN_GAP else 1)
        ply = row * self.per_row + column + 1 - self._offset
        if column < self.per_row and 1 <= ply <= len(self.moves.moves):
            self.focus()
            self._select(ply)


def _shown(moves: MoveList) -> int:
    """The ply whose position the board shows: the reviewed one or the live one."""
    return moves.selected if moves.selected is not None else moves.live
