"""The evaluation graph: Black's margin after every move, drawn in text.

Bars rise above the zero line while Black is ahead and hang below it while
White is ahead, so the graph reads the same without colour; under it, the
move log's marks from the move's column on: `?!` an inaccuracy, `?` a
mistake, `??` a blunder. The reviewed move's column is drawn
through (`│`, or `|` in ASCII) and its bar highlighted. Half blocks give
twice the rows' resolution; in ASCII mode `#` and `+` stand in for them.
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.segment import Segment
from rich.style import Style
from textual.reactive import reactive
from textual.strip import Strip
from textual.widget import Widget

from ..core.errors import capitalised
from ..players.analysis import LABELS
from .move_log import MARKS

SCALES = (4, 8, 16, 32, 64)  # the top of the axis: the smallest that fits every value
AXIS_WIDTH = 4  # "+16 "
MAX_COLUMNS = 3  # the widest a ply's bar is drawn
LEGEND = ", ".join(f"{MARKS[label]} {label}" for label in LABELS)


@dataclass(frozen=True, slots=True)
class GraphData:
    """One value per ply (Black's margin after it, None where unknown), the
    label of each ply's move, the ply to highlight (None: none) and each
    ply's name ('move 23, White b2') for saying where the highlight is."""

    values: tuple[float | None, ...] = ()
    labels: tuple[str | None, ...] = ()
    selected: int | None = None
    names: tuple[str, ...] = ()

    def where(self) -> str:
        """'Move 23, White b2: White ahead by 4.0 (?? blunder)': the
        highlighted ply, its value and its mark; '' with none highlighted."""
        ply = self.selected
        if ply is None or not 0 < ply <= len(self.values):
            return ""
        name = self.names[ply - 1] if ply <= len(self.names) else f"ply {ply}"
        value = self.values[ply - 1]
        if value is None:
            score = "not analysed yet"
        elif value == 0:
            score = "even"
        else:
            score = f"{'Black' if value > 0 else 'White'} ahead by {abs(value):.1f}"
        label = self.labels[ply - 1] if ply <= len(self.labels) else None
        mark = f" ({MARKS[label]} {label})" if label in MARKS else ""
        return f"{capitalised(name)}: {score}{mark}"


@dataclass(frozen=True, slots=True)
class _Cells:
    full: str
    up: str  # the top of a bar that rises: the lower half of a cell
    down: str  # the end of a bar that hangs: the upper half
    zero: str
    zero_selected: str
    through: str


UNICODE_CELLS = _Cells("█", "▄", "▀", "─", "┼", "│")
ASCII_CELLS = _Cells("#", "+", "+", "-", "+", "|")


def scale_for(values: tuple[float | None, ...]) -> int:
    """The axis top: the smallest of SCALES at or above every |value|."""
    largest = max((abs(v) for v in values if v is not None), default=0.0)
    return next((top for top in SCALES if largest <= top), SCALES[-1])


def columns_for(plies: int, width: int) -> list[range]:
    """The plies each column shows: one each (drawn up to MAX_COLUMNS wide
    when there is room), or several per column when there are more plies
    than columns."""
    if plies == 0 or width <= 0:
        return []
    if plies <= width:
        wide = min(MAX_COLUMNS, width // plies)
        return [range(p, p + 1) for p in range(plies) for _ in range(wide)]
    return [
        range(c * plies // width, max(c * plies // width + 1, (c + 1) * plies // width))
        for c in range(width)
    ]


class EvalGraph(Widget):
    """Black's margin move by move; mistakes marked; the reviewed move highlighted."""

    DEFAULT_CSS = """
    EvalGraph {
        height: 1fr;
        min-height: 5;
    }
    """

    COMPONENT_CLASSES = {
        "eval-graph--axis",
        "eval-graph--black",
        "eval-graph--white",
        "eval-graph--selected",
        "eval-graph--inaccuracy",
        "eval-graph--mistake",
        "eval-graph--blunder",
    }

    data: reactive[GraphData] = reactive(GraphData)
    ascii: reactive[bool] = reactive(False)

    def render_line(self, y: int) -> Strip:
        width, height = self.size.width, self.size.height
        base = self.rich_style
        data = self.data
        plot_rows = height - 1
        if plot_rows < 3 or width <= AXIS_WIDTH:
            return Strip.blank(width, base)
        half = (plot_rows - 1) // 2  # rows above the zero line, and below it
        zero = half
        columns = columns_for(len(data.values), width - AXIS_WIDTH)
        top = scale_for(data.values)
        style = self.get_component_rich_style
        axis = base + style("eval-graph--axis", partial=True)
        segments = [Segment(self._axis_label(y, zero, half, top), axis)]
        if y == plot_rows:
            segments.extend(self._marks(columns, base))
        elif y < 2 * half + 1:
            segments.extend(self._bars(y, zero, half, top, columns, base))
        return Strip(segments).adjust_cell_length(width, base)

    @staticmethod
    def _axis_label(y: int, zero: int, half: int, top: int) -> str:
        if y == zero - half:
            return f"+{top}".ljust(AXIS_WIDTH)
        if y == zero:
            return " 0".ljust(AXIS_WIDTH)
        if y == zero + half:
            return f"-{top}".ljust(AXIS_WIDTH)
        return " " * AXIS_WIDTH

    def _bars(
        self, y: int, zero: int, half: int, top: int, columns: list[range], base: Style
    ) -> list[Segment]:
        cells = ASCII_CELLS if self.ascii else UNICODE_CELLS
        style = self.get_component_rich_style
        selected_style = style("eval-graph--selected", partial=True)
        segments = []
        for plies in columns:
            value = _last_known(self.data.values, plies)
            chosen = self.data.selected is not None and self.data.selected - 1 in plies
            text = " "
            colour = base
            if y == zero:
                text = cells.zero_selected if chosen else cells.zero
                colour = base + style("eval-graph--axis", partial=True)
            elif value is not None:
                # Bar length in half rows, at least a half row for any lead at all.
                length = round(abs(value) / top * half * 2)
                length = max(length, 1) if value else 0
                distance = zero - y if value > 0 else y - zero  # rows from the line
                if (value > 0) == (y < zero) and distance > 0:
                    if length >= 2 * distance:
                        text = cells.full
                    elif length == 2 * distance - 1:
                        text = cells.up if value > 0 else cells.down
                side = "eval-graph--black" if value > 0 else "eval-graph--white"
                colour = base + style(side, partial=True)
            if chosen:
                if text == " ":
                    text = cells.through
                colour += selected_style
            segments.append(Segment(text, colour))
        return segments

    def _marks(self, columns: list[range], base: Style) -> list[Segment]:
        """Each labelled move's mark from its first column on, a graver one
        over a lighter one where they meet (many plies a column, or `??` wide)."""
        style = self.get_component_rich_style
        labels = self.data.labels
        cells: list[tuple[str, str | None]] = [(" ", None)] * len(columns)
        first: dict[int, int] = {}  # ply -> its first column
        for index, plies in enumerate(columns):
            for ply in plies:
                first.setdefault(ply, index)
        for label in LABELS:  # (least grave first: a graver mark is written over a lighter one)
            for ply, at in first.items():
                if ply < len(labels) and labels[ply] == label:
                    for offset, character in enumerate(MARKS[label]):
                        if at + offset < len(cells):
                            cells[at + offset] = (character, label)
        return [
            Segment(text, base + style(f"eval-graph--{label}", partial=True) if label else base)
            for text, label in cells
        ]


def _last_known(values: tuple[float | None, ...], plies: range) -> float | None:
    for ply in reversed(plies):
        if ply < len(values) and values[ply] is not None:
            return values[ply]
    return None
