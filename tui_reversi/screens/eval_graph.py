"""The evaluation graph on a screen of its own, for terminals too small to
show it beside the board: the graph, the summary per player and the turning
point. Left/right (or , and .) move the highlighted move; Enter reviews it."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import Static

from ..widgets.eval_graph import LEGEND, EvalGraph, GraphData
from ..widgets.literal import Literal
from .dialog import Dialog


class EvalGraphScreen(Dialog[int | None]):
    """Dismissed with the ply to review (Enter) or None (esc)."""

    BINDINGS = [
        Binding("left,h,comma", "step(-1)", "Back", id="graph.back", key_display="←"),
        Binding("right,l,full_stop", "step(1)", "Forward", id="graph.forward", key_display="→"),
        Binding("enter", "review", "Review this move", id="graph.review", key_display="⏎"),
        Binding("escape,g", "close", "Close", id="graph.close", key_display="esc"),
    ]

    DEFAULT_CSS = """
    EvalGraphScreen #graph-view {
        width: 100%;
        height: 1fr;
        background: $surface;
        padding: 0 1;
    }
    EvalGraphScreen #graph-title {
        text-style: bold;
    }
    EvalGraphScreen EvalGraph {
        height: 1fr;
    }
    EvalGraphScreen #graph-summary, EvalGraphScreen #graph-cursor {
        height: auto;
    }
    """

    def __init__(self, data: GraphData, summary: str, ascii: bool) -> None:
        super().__init__()
        self._data = data
        self._summary = summary
        self._ascii = ascii

    def compose(self) -> ComposeResult:
        with Vertical(id="graph-view"):
            yield Literal("Evaluation: Black ahead above the line, White below", id="graph-title")
            yield Literal(LEGEND, id="graph-legend")
            yield EvalGraph()
            yield Literal(id="graph-cursor")
            yield Literal(self._summary, id="graph-summary")

    def on_mount(self) -> None:
        super().on_mount()
        graph = self.query_one(EvalGraph)
        graph.ascii = self._ascii
        self._show(self._data)

    def update(self, data: GraphData, summary: str) -> None:
        """New results while the analysis runs: the highlighted move stays."""
        graph = self.query_one(EvalGraph)
        self._show(GraphData(data.values, data.labels, graph.data.selected, data.names))
        self.query_one("#graph-summary", Static).update(summary)

    def action_step(self, delta: int) -> None:
        graph = self.query_one(EvalGraph)
        data = graph.data
        current = data.selected if data.selected is not None else len(data.values)
        selected = max(1, min(len(data.values), current + delta))
        self._show(GraphData(data.values, data.labels, selected, data.names))

    def _show(self, data: GraphData) -> None:
        """Draw `data`, and say which move the highlight is on."""
        self.query_one(EvalGraph).data = data
        self.query_one("#graph-cursor", Static).update(data.where())

    def action_review(self) -> None:
        self.dismiss(self.query_one(EvalGraph).data.selected)

    def action_close(self) -> None:
        self.dismiss(None)
