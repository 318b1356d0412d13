"""The board: coordinates, discs, a keyboard cursor, markers and marks.

The screen pushes what to show (`BoardState`); the board tells the screen
which square the player chose (`BoardView.SquareChosen`) and never touches
the game itself. Keys: arrows or hjkl move the cursor, Enter/Space plays,
typing a column letter then a row digit (`d3`) plays that square.
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.segment import Segment
from rich.style import Style
from textual import events
from textual.binding import Binding
from textual.geometry import Region, Size
from textual.message import Message
from textual.reactive import reactive
from textual.strip import Strip
from textual.timer import Timer
from textual.widget import Widget

from ..core import Color, Move, Position
from ..core.squares import COLUMNS, square_at
from .glyphs import CELL_SIZES, UNICODE, Glyphs

# Flip animation: the flipped discs keep their old colour, turn edge-on, then
# land in the new colour and stay highlighted for a moment.
OLD, EDGE, NEW, SETTLED = range(4)
_ANIMATION_STEPS = ((OLD, 0.12), (EDGE, 0.12), (NEW, 1.2))


@dataclass(frozen=True, slots=True)
class BoardState:
    """What the board shows. `legal` and `flipped` are bitboards."""

    position: Position
    legal: int = 0
    last_move: int | None = None
    flipped: int = 0
    hint: int | None = None
    premove: int | None = None  # a move typed ahead, played on the player's turn
    readonly: bool = False  # reviewing history: drawn muted, nothing can be played
    playable: bool = True  # False when no human plays (computer against computer)
    to_play: bool = True  # False when no one at this keyboard is to move (computer, opponent)
    over: bool = False  # the game has ended, on the board or off it (a resignation...)


def board_size(cell: tuple[int, int], glyphs: Glyphs) -> Size:
    """Width and height of the whole board, coordinates included."""
    cw, ch = cell
    rule = 1 if glyphs.grid else 0
    return Size(2 + 8 * cw + 9 * rule, 1 + 8 * ch + 9 * rule)


def largest_cell(width: int, height: int, glyphs: Glyphs) -> tuple[int, int]:
    """The biggest cell size whose board fits in width x height (at least the smallest)."""
    best = CELL_SIZES[0]
    for cell in CELL_SIZES:
        size = board_size(cell, glyphs)
        if size.width <= width and size.height <= height:
            best = cell
    return best


class BoardView(Widget, can_focus=True):
    """An 8x8 board you can read at 80x24 and play with keys or the mouse."""

    BINDINGS = [
        Binding("up,k", "move_cursor(0, -1)", "Cursor up", id="board.up", show=False),
        Binding("down,j", "move_cursor(0, 1)", "Cursor down", id="board.down", show=False),
        Binding("left,h", "move_cursor(-1, 0)", "Cursor left", id="board.left", show=False),
        Binding("right,l", "move_cursor(1, 0)", "Cursor right", id="board.right", show=False),
        Binding(
            "enter,space",
            "choose",
            "Play",
            id="board.play",
            key_display="⏎",
            tooltip="Place a disc on the square under the cursor",
        ),
    ]

    COMPONENT_CLASSES = {
        "board--coord",
        "board--coord-typed",
        "board--grid",
        "board--square",
        "board--black",
        "board--white",
        "board--empty",
        "board--legal",
        "board--hint",
        "board--premove",
        "board--cursor",
        "board--cursor-mark",
        "board--last",
        "board--last-mark",
        "board--flipped",
    }

    @dataclass
    class SquareChosen(Message):
        """The player chose a move (Enter, Space, typing or a click)."""

        move: Move

    state: reactive[BoardState] = reactive(BoardState(Position.initial()), layout=False)
    # d3, Black's first move. Moving it repaints two squares (watch_cursor), not the board.
    cursor: reactive[int] = reactive(square_at(2, 3), repaint=False)
    glyphs: reactive[Glyphs] = reactive(UNICODE, layout=True)
    cell: reactive[tuple[int, int]] = reactive(CELL_SIZES[0], layout=True)
    typed_column: reactive[int | None] = reactive(None)

    # The drawn board, a row of (character, style) cells per line; a repaint
    # draws it once and render_line makes Strips only of the lines it asks for.
    _line_cache: list[list[tuple[str, Style]]] | None = None

    def __init__(self, *, animate: bool = False, **kwargs) -> None:
        super().__init__(**kwargs)
        self.animate_flips = animate
        self._phase = NEW
        self._animation: Timer | None = None
        self._steps: list[tuple[int, float]] = []
        # Where the cursor was before an `h` that may turn out to be column h.
        self._cursor_before_h: int | None = None
        # A square was just typed: an Enter or Space next is part of it (the
        # habit of "c4 Enter"), not a second move on the cursor's square.
        self._typed_square = False

    # -- what to show ----------------------------------------------------------

    def show(self, state: BoardState, *, animate: bool = False) -> None:
        """Show `state`; with `animate`, turn the flipped discs over visibly.
        A redraw of the same move (markers, hint) leaves its animation running."""
        same_move = (state.last_move, state.flipped) == (self.state.last_move, self.state.flipped)
        if animate and self.animate_flips and state.flipped and not state.readonly:
            self._stop_animation()
            self._steps = list(_ANIMATION_STEPS)
            self._next_step()
        elif not same_move or state.readonly != self.state.readonly:
            self._stop_animation()
            self._phase = NEW
        if state.over or state.readonly:  # (the typed square's game goes on no more)
            self._typed_square = False
        self.set_class(state.readonly, "-readonly")
        self.state = state

    def _next_step(self) -> None:
        self._animation = None
        if not self._steps:
            self._phase = SETTLED
        else:
            self._phase, delay = self._steps.pop(0)
            self._animation = self.set_timer(delay, self._next_step)
        self.refresh()

    def _stop_animation(self) -> None:
        if self._animation is not None:
            self._animation.stop()
            self._animation = None
        self._steps = []

    @property
    def animating(self) -> bool:
        return self._animation is not None

    # -- size --------------------------------------------------------------------

    def get_content_width(self, container: Size, viewport: Size) -> int:
        return board_size(self.cell, self.glyphs).width

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return board_size(self.cell, self.glyphs).height

    def _origin(self, row: int, col: int) -> tuple[int, int]:
        """Top-left (x, y) of a square's interior."""
        cw, ch = self.cell
        rule = 1 if self.glyphs.grid else 0
        return 2 + rule + col * (cw + rule), 1 + rule + row * (ch + rule)

    def square_at_offset(self, x: int, y: int) -> int | None:
        """The square under content offset (x, y), or None off the board."""
        cw, ch = self.cell
        rule = 1 if self.glyphs.grid else 0
        col = (x - 2 - rule) // (cw + rule) if x >= 2 + rule else -1
        row = (y - 1 - rule) // (ch + rule) if y >= 1 + rule else -1
        if 0 <= row < 8 and 0 <= col < 8:
            return square_at(row, col)
        return None

    # -- drawing -----------------------------------------------------------------

    def render_line(self, y: int) -> Strip:
        if self._line_cache is None:
            self._line_cache = self._draw()
        lines = self._line_cache
        if y >= len(lines):
            return Strip.blank(self.size.width, self.rich_style)
        return Strip(_segments(lines[y])).adjust_cell_length(self.size.width, self.rich_style)

    def refresh(self, *args, **kwargs):
        # Every repaint redraws the board once; render_line then slices it.
        self._line_cache = None
        return super().refresh(*args, **kwargs)

    def watch_cursor(self, old: int, new: int) -> None:
        # Only the lines of the two squares change: the terminal gets (and the
        # compositor renders) those alone, which keeps a key press cheap even
        # while the computer's search holds the GIL, and over a slow link.
        height, width = self.cell[1], self.size.width
        self.refresh(
            *(Region(0, self._origin(square // 8, 0)[1], width, height) for square in (old, new))
        )

    def notify_style_update(self) -> None:
        self._line_cache = None
        super().notify_style_update()

    def _draw(self) -> list[list[tuple[str, Style]]]:
        glyphs, (cw, ch) = self.glyphs, self.cell
        size = board_size(self.cell, glyphs)
        style = self.get_component_rich_style
        base = self.rich_style
        canvas: list[list[tuple[str, Style]]] = [
            [(" ", base)] * size.width for _ in range(size.height)
        ]

        def put(x: int, y: int, text: str, text_style: Style) -> None:
            row = canvas[y]
            for i, char in enumerate(text):
                row[x + i] = (char, text_style)

        # Coordinates: column letters on top, row numbers on the left.
        coord, typed = style("board--coord"), style("board--coord-typed")
        for col in range(8):
            x, _ = self._origin(0, col)
            put(x + cw // 2, 0, COLUMNS[col], typed if col == self.typed_column else coord)
        for row in range(8):
            _, y = self._origin(row, 0)
            put(0, y + ch // 2, str(row + 1), coord)

        if glyphs.grid:
            self._draw_grid(put, style("board--grid"))
        square_style = style("board--square")
        for row in range(8):
            for col in range(8):
                self._draw_square(put, row, col, square_style)
        return canvas

    def _draw_grid(self, put, grid_style: Style) -> None:
        grid = self.glyphs.grid
        if grid is None:  # ASCII glyphs draw no lines
            return
        cw, ch = self.cell
        (top, middle, bottom), bar = grid, self.glyphs.bar
        for r in range(9):
            left, joint, right, rule = top if r == 0 else bottom if r == 8 else middle
            y = 1 + r * (ch + 1)
            put(2, y, left + joint.join([rule * cw] * 8) + right, grid_style)
            if r < 8:
                for dy in range(1, ch + 1):
                    for c in range(9):
                        put(2 + c * (cw + 1), y + dy, bar, grid_style)

    def _draw_square(self, put, row: int, col: int, square_style: Style) -> None:
        state, glyphs, (cw, ch) = self.state, self.glyphs, self.cell
        style = self.get_component_rich_style
        square = square_at(row, col)
        bit = 1 << square
        x, y = self._origin(row, col)
        flipped = bool(state.flipped & bit) and self._phase != SETTLED
        under_cursor = square == self.cursor and state.playable and not state.readonly

        background = square_style
        if square == state.last_move:
            background = background + style("board--last", partial=True)
        if flipped:
            background = background + style("board--flipped", partial=True)
        if under_cursor:
            background = background + style("board--cursor", partial=True)
        for dy in range(ch):
            put(x, y + dy, " " * cw, background)

        color = state.position.color_at(square)
        if color is not None:
            if flipped and self._phase == OLD:
                color = color.other
            disc = style("board--black" if color is Color.BLACK else "board--white", partial=True)
            self._draw_disc(put, x, y, color, flipped and self._phase == EDGE, background + disc)
        elif square == state.premove:
            mark = background + style("board--premove", partial=True)
            self._centre(put, x, y, glyphs.premove, mark)
        elif square == state.hint:
            self._centre(put, x, y, glyphs.hint, background + style("board--hint", partial=True))
        elif state.legal & bit:
            marker = background + style("board--legal", partial=True)
            rows = glyphs.legal_art.get(self.cell)
            if rows is None:
                self._centre(put, x, y, glyphs.legal, marker)
            else:
                for dy, text in enumerate(rows):
                    put(x + 1, y + dy, text.center(cw - 2), marker)
        elif glyphs.empty != " ":
            self._centre(put, x, y, glyphs.empty, background + style("board--empty", partial=True))

        if under_cursor:
            mark = background + style("board--cursor-mark", partial=True)
            if ch == 1 or glyphs.cursor_corners is None:
                put(x, y + ch // 2, glyphs.cursor[0], mark)
                put(x + cw - 1, y + ch // 2, glyphs.cursor[1], mark)
            else:
                tl, tr, bl, br = glyphs.cursor_corners
                put(x, y, tl, mark)
                put(x + cw - 1, y, tr, mark)
                put(x, y + ch - 1, bl, mark)
                put(x + cw - 1, y + ch - 1, br, mark)
        elif square == state.last_move:
            mark = background + style("board--last-mark", partial=True)
            put(x, y + ch // 2, glyphs.last[0], mark)
            put(x + cw - 1, y + ch // 2, glyphs.last[1], mark)

    def _centre(self, put, x: int, y: int, glyph: str, glyph_style: Style) -> None:
        cw, ch = self.cell
        put(x + cw // 2, y + ch // 2, glyph, glyph_style)

    def _draw_disc(self, put, x: int, y: int, color: Color, edge_on: bool, disc_style: Style):
        cw = self.cell[0]
        art = self.glyphs.art.get(self.cell)
        if art is None:
            glyph = (
                self.glyphs.flipping
                if edge_on
                else (self.glyphs.white, self.glyphs.black)[color is Color.BLACK]
            )
            self._centre(put, x, y, glyph, disc_style)
            return
        rows = art[2] if edge_on else art[0] if color is Color.BLACK else art[1]
        for dy, text in enumerate(rows):
            put(x + 1, y + dy, text.center(cw - 2), disc_style)

    # -- input -------------------------------------------------------------------

    def action_move_cursor(self, dx: int, dy: int) -> None:
        row, col = divmod(self.cursor, 8)
        self.cursor = square_at(min(7, max(0, row + dy)), min(7, max(0, col + dx)))

    def action_choose(self) -> None:
        self.typed_column = None
        self.post_message(self.SquareChosen(Move.of(self.cursor)))

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # Read-only while reviewing: Enter falls through to the screen's keys.
        if action == "choose":
            return self.state.playable and self.state.to_play and not self.state.readonly
        return True

    def _screen_key(self, key: str) -> bool:
        """Reviewing, or when nothing can be played, a letter the screen has
        a key for (a: Analyse, g: Graph) is that key, not a square."""
        state = self.state
        nothing_to_play = state.readonly or state.over or not state.position.legal_mask()
        return nothing_to_play and key in self.screen.active_bindings

    def on_key(self, event: events.Key) -> None:
        self.type_key(event)

    def type_key(self, event: events.Key) -> bool:
        """Typing a square, whatever has the focus (the screen hands on the
        keys that reach it): a column letter marks the column, a row digit
        then plays the square. Typing never moves the cursor. `h` is also
        "cursor left": it moves the cursor at once, and a digit after it puts
        the cursor back where it was before playing h<digit>. An Enter or
        Space straight after a typed square ends it: it plays nothing more
        (the computer may have answered meanwhile, and the cursor be on a
        legal square the player never meant). True when the key was part of
        a square (or ended one): nothing more is to be said of it."""
        typed_square, self._typed_square = self._typed_square, False
        if typed_square and event.key in ("enter", "space"):
            event.stop()
            return True
        char = (event.character or "").lower()
        if len(char) == 1 and char in COLUMNS and self._screen_key(event.key):
            self.typed_column = None
            return False
        if len(char) == 1 and char in COLUMNS:
            column = COLUMNS.index(char)
            if event.character == "h":  # let the cursor-left binding run after this
                self._cursor_before_h = self.cursor
            else:
                event.stop()
                self._cursor_before_h = None
            self.typed_column = column
        elif len(char) == 1 and char in "12345678":
            event.stop()
            row = int(char) - 1
            typed, before_h = self.typed_column, self._cursor_before_h
            self.typed_column, self._cursor_before_h = None, None
            if typed is None:  # a row digit alone moves the cursor to that row
                self.cursor = square_at(row, self.cursor % 8)
            else:
                if before_h is not None:
                    self.cursor = before_h
                self._typed_square = True
                self.post_message(self.SquareChosen(Move.of(square_at(row, typed))))
        else:
            self.typed_column, self._cursor_before_h = None, None
            return False
        return True

    def on_blur(self) -> None:
        self._typed_square = False  # (the next Enter here is a new one)

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None:
            return
        square = self.square_at_offset(offset.x, offset.y)
        if square is not None and self.state.playable:
            self.focus()
            self.cursor = square
            self.typed_column, self._typed_square = None, False
            self.post_message(self.SquareChosen(Move.of(square)))


def _segments(cells: list[tuple[str, Style]]) -> list[Segment]:
    """Runs of equally styled characters as Segments."""
    segments: list[Segment] = []
    text, current = "", None
    for char, style in cells:
        if style == current:
            text += char
            continue
        if text:
            segments.append(Segment(text, current))
        text, current = char, style
    if text:
        segments.append(Segment(text, current))
    return segments
