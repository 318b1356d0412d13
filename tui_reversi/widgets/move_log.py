"""The move log, written the way Othello players write a game: every disc
placed is numbered (1 to 60), Black's moves in the left column and White's in
the right, under a heading that says so; a pass is shown in its player's
column without a number. Moves taken back (redo brings them back) are
bracketed, `(c3)`, so they read as undone without colour. A wide log holds
several (Black, White) pairs a row.

Once the game is analysed, each move's mark follows it (`b1??`: `?!` an
inaccuracy, `?` a mistake, `??` a blunder), and where the log has room for
the figures (FIGURED_WIDTH columns, which it has at 80x24, ASCII too) each
move gets a row of its own, its colour shown by its disc (`18 ○ b1?`), with
its figures beside it: the score of the move played, the best move and its
score, the discs lost. Selecting a move (keys or mouse) asks the screen to
review the position after it."""

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

from ..core import Color, Move, move_numbers
from ..players.analysis import MoveAnalysis
from .glyphs import UNICODE, Glyphs

ENTRY_WIDTH = 9  # "12 f5    ", "   pass  ", "12 (f5)??", "  (pass) "
NUMBER_WIDTH = 2
NAME_WIDTH = ENTRY_WIDTH - NUMBER_WIDTH - 1  # the move, bracketed when undone, and its mark
LEFT_MARGIN = 1
COLUMN_GAP = 1  # between Black's entry and White's
PAIR_GAP = 3  # between one pair (Black, White) and the next on a row
PAIR_WIDTH = 2 * ENTRY_WIDTH + COLUMN_GAP
# Below this width the log keeps one pair a row (at 80x24 it is narrower).
MULTI_PAIR_WIDTH = 64
HEADING_LINES = 1  # "Black  White" stays at the top while the moves scroll

# An analysed move's mark, by its label.
MARKS = {"inaccuracy": "?!", "mistake": "?", "blunder": "??"}
LABELS = {mark: label for label, mark in MARKS.items()}
# A move's figures, in columns under their heading: " -8.1 b6  -0.4   7.7"
# (the move's score, the best move and its score, the discs lost, never
# negative, as `analyse` and its JSON give it; an exact score is whole and
# marked =, " +2= ").
FIGURES_HEADING = f" {'score':>5} {'best':<8} {'loss':>5}"
FIGURES_WIDTH = len(FIGURES_HEADING)
# A move a row with its figures: "18 ○ b1?   " (the disc says whose move it is).
FIGURED_ENTRY_WIDTH = ENTRY_WIDTH + 2
# From this width an analysed game's log has a row a move, its figures beside
# it (the last column is the scrollbar's).
FIGURED_WIDTH = LEFT_MARGIN + FIGURED_ENTRY_WIDTH + FIGURES_WIDTH + 1


def _figure(value: float | None, exact: bool, sign: str = "+") -> str:
    if value is None:
        return "  ?  "
    return f"{value:{sign}3.0f}= " if exact else f"{value:{sign}5.1f}"


def figures(scored: MoveAnalysis | None) -> str:
    """The move log's figures for one analysed move: its score, and the best
    move, its score and the discs lost when the move played was not the best."""
    if scored is None:
        return ""
    played = _figure(scored.played_score, scored.exact)
    loss = scored.loss
    if scored.best is None or scored.best == scored.move or not loss:
        return f" {played}"
    best = _figure(scored.best_score, scored.exact)
    lost = _figure(loss, scored.exact, sign="")
    return f" {played} {scored.best!s:<2} {best} {lost}"


@dataclass(frozen=True, slots=True)
class MoveList:
    """The plies of the game, the live cursor, the ply under review (if any),
    who made the first ply (White, in a game set up with White to move), and
    per ply, once analysed, its mark ('?!', '?', '??' or '') and its figures."""

    moves: tuple[Move, ...] = ()
    live: int = 0
    selected: int | None = None
    first: Color = Color.BLACK
    marks: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()


class MoveLog(ScrollView, can_focus=True):
    """Numbered moves in Black and White columns, a pair or more a row (or a
    move a row with its disc and figures, once analysed); the current one
    highlighted."""

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
    glyphs: reactive[Glyphs] = reactive(UNICODE)  # the discs of a move a row

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
    def figured(self) -> bool:
        """A move a row with its figures: the game is analysed and they fit."""
        return bool(self.moves.notes) and self.size.width >= FIGURED_WIDTH

    @property
    def per_row(self) -> int:
        """Moves a row: one with its figures, one pair (Black, White), or
        more pairs where the log is wide."""
        width = self.size.width
        if self.figured:
            return 1
        if width < MULTI_PAIR_WIDTH:
            return 2
        return 2 * max(1, (width - LEFT_MARGIN - 1 + PAIR_GAP) // (PAIR_WIDTH + PAIR_GAP))

    @property
    def _offset(self) -> int:
        """Entries before ply 1: one empty Black entry when White moved first."""
        return 0 if self.moves.first is Color.BLACK else 1

    def _row_of(self, ply: int) -> int:
        """The row (below the heading) that holds ply `ply` (1-based)."""
        if self.figured:
            return ply - 1
        return (ply - 1 + self._offset) // self.per_row

    def _lay_out(self) -> None:
        moves = self.moves
        if self.figured:
            rows = len(moves.moves)
            longest = max(map(len, moves.notes), default=0)
            width = LEFT_MARGIN + FIGURED_ENTRY_WIDTH + max(FIGURES_WIDTH, longest)
        else:
            pairs = self.per_row // 2
            rows = self._row_of(len(moves.moves)) + 1 if moves.moves else 0
            width = LEFT_MARGIN + pairs * PAIR_WIDTH + (pairs - 1) * PAIR_GAP
        self.virtual_size = Size(width, rows + HEADING_LINES)
        self.call_after_refresh(self._reveal, self._row_of(max(1, _shown(moves))))
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
            return (
                self._heading(base).crop(scroll_x, scroll_x + width).adjust_cell_length(width, base)
            )
        row = y - HEADING_LINES + scroll_y
        moves = self.moves
        if not moves.moves and row == 0:
            hint = base + self.get_component_rich_style("move-log--number", partial=True)
            return Strip([Segment(" No moves yet", hint)]).adjust_cell_length(width, base)
        segments = [Segment(" " * LEFT_MARGIN, base)]
        if self.figured:
            if row >= len(moves.moves):
                return Strip.blank(width, base)
            segments += self._figured_row(row, base)
        else:
            per_row, offset = self.per_row, self._offset
            first = row * per_row
            if first - offset >= len(moves.moves):
                return Strip.blank(width, base)
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

    def _figured_row(self, index: int, base: Style) -> list[Segment]:
        """One move with its disc, then its figures."""
        white = (index + self._offset) % 2
        segments = self._entry(index, base, self.glyphs.white if white else self.glyphs.black)
        notes = self.moves.notes
        if index < len(notes) and notes[index]:
            note = base + self.get_component_rich_style("move-log--note", partial=True)
            segments.append(Segment(notes[index], note))
        return segments

    def _heading(self, base: Style) -> Strip:
        style = base + self.get_component_rich_style("move-log--heading", partial=True)
        pair = f"{'Black':^{ENTRY_WIDTH}}{' ' * COLUMN_GAP}{'White':^{ENTRY_WIDTH}}"
        if self.figured:
            text = " " * LEFT_MARGIN + f"{'Move':<{FIGURED_ENTRY_WIDTH}}" + FIGURES_HEADING
        else:
            text = " " * LEFT_MARGIN + (" " * PAIR_GAP).join([pair] * (self.per_row // 2))
        return Strip([Segment(text, style)])

    def _entry(self, index: int, base: Style, disc: str = "") -> list[Segment]:
        """The move's number, its disc (given), the move and its mark."""
        moves, ply = self.moves, index + 1
        style = self.get_component_rich_style
        number, move = self._numbers[index], moves.moves[index]
        name = move.name
        undone = ply > moves.live
        kind = "move-log--pass" if move.is_pass else "move-log--move"
        entry_style = base + style(kind, partial=True)
        if undone:  # bracketed as well as dimmed: it reads as undone without colour
            entry_style += style("move-log--undone", partial=True)
            name = f"({name})"
        if ply == moves.live and moves.selected is None:
            entry_style += style("move-log--current", partial=True)
        if ply == moves.selected:
            entry_style += style("move-log--selected", partial=True)
        label = "" if number is None else str(number)
        mark = moves.marks[index] if index < len(moves.marks) and move else ""
        segments = [
            Segment(f"{label:>{NUMBER_WIDTH}} ", base + style("move-log--number", partial=True))
        ]
        if disc:
            segments.append(Segment(f"{disc} ", base + style("move-log--move", partial=True)))
        segments.append(Segment(name, entry_style))
        if mark:  # a shape, not a colour alone: it reads in ASCII and NO_COLOR too
            kind = f"move-log--{LABELS.get(mark, 'mistake')}"
            segments.append(Segment(mark, base + style(kind, partial=True)))
        segments.append(Segment(" " * (NAME_WIDTH - len(name) - len(mark)), base))
        return segments

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
        if self.figured:  # anywhere on a move's row
            ply = row + 1
        else:
            x = offset.x + self.scroll_offset.x - LEFT_MARGIN
            pair, within = divmod(max(0, x), PAIR_WIDTH + PAIR_GAP)
            column = 2 * pair + (0 if within < ENTRY_WIDTH + COLUMN_GAP else 1)
            if column >= self.per_row:
                return
            ply = row * self.per_row + column + 1 - self._offset
        if 1 <= ply <= len(self.moves.moves):
            self.focus()
            self._select(ply)


def _shown(moves: MoveList) -> int:
    """The ply whose position the board shows: the reviewed one or the live one."""
    return moves.selected if moves.selected is not None else moves.live
