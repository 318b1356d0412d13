"""The evaluation graph: Black's margin after every move, drawn in text.

Bars rise above the zero line while Black is ahead and hang below it while
White is ahead, so the graph reads the same without colour; under it, `?`
marks a mistake and `!` a blunder. The reviewed move's column is drawn
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

SCALES = (4, 8, 16, 32, 64)  # the top of the axis: the smallest that fits every value
AXIS_WIDTH = 4  # "+16 "
MAX_COLUMNS = 3  # the widest a ply's bar is drawn
MARKS = {"mistake": "?", "blunder": "!"}


@dataclass(frozen=True, slots=True)
class GraphData:
    """One value per ply (Black's margin after it, None where unknown), the
    label of each ply's move, and the ply to highlight (None: none)."""

    values: tuple[float | None, ...] = ()
    labels: tuple[str | None, ...] = ()
    selected: int | None = None


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
        style = self.get_component_rich_style
        labels = self.data.labels
        segments = []
        previous: range | None = None
        for plies in columns:
            found = [labels[p] for p in plies if p < len(labels) and labels[p] in MARKS]
            label = "blunder" if "blunder" in found else found[0] if found else None
            # A ply drawn several columns wide is marked once.
            mark = MARKS[label] if label is not None and plies != previous else " "
            previous = plies if label is not None else None
            colour = base + style(f"eval-graph--{label}", partial=True) if label else base
            segments.append(Segment(mark, colour))
        return segments


def _last_known(values: tuple[float | None, ...], plies: range) -> float | None:
    for ply in reversed(plies):
        if ply < len(values) and values[ply] is not None:
            return values[ply]
    return None
