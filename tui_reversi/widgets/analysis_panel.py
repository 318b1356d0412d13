"""The analysis panel: runs a game's analysis in the background
(players/background.py) and shows
its progress, the summary per player and, when tall enough, the graph.

The panel does not know the match: `start(game, known)` analyses a copy of
the game and posts `MoveScored` for each move as it is scored and `Ended`
when it stops; the screen decides whether a result still fits its game
(`MoveScored.moves` is the game the result is about), keeps it and pushes
the whole picture back down with `show`.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from textual.app import ComposeResult
from textual.containers import Vertical
from textual.content import Content
from textual.message import Message
from textual.widget import Widget
from textual.widgets import ProgressBar, Static

from ..core import Color, Game, Move
from ..players.analysis import (
    PER_POSITION,
    GameAnalysis,
    MoveAnalysis,
    analyse_game,
    costliest_moves,
    deciding_moves,
    evaluations,
    summarise,
    turning_point,
)
from ..players.background import Background, Failed, Outcome, Stopped
from ..players.base import CancelCheck, Limit
from .eval_graph import EvalGraph, GraphData
from .glyphs import ascii_text
from .literal import Literal
from .move_log import MARKS  # (the summary and the deciding moves mark as the log does)

# Rows the graph needs in the panel; the side of the screen must have three times that.
GRAPH_MIN_HEIGHT = 10
# Lines the move log under the panel keeps: its border, its heading and three
# moves. The summary gives up whole sentences (the deciding moves first) for them.
LOG_LINES = 6
# Said in the summary's last line when a sentence of it was left out for room.
MORE = "(more with g Graph)"


def graph_data(game: Game, analysis: GameAnalysis, selected: int | None) -> GraphData:
    """What the graph draws for `game` as far as `analysis` knows it."""
    labels = tuple(
        None if (scored := analysis.at(ply)) is None else scored.label
        for ply in range(1, len(game.moves) + 1)
    )
    names = tuple(
        (f"the pass after move {game.move_number(ply)}" if ply else "a pass before move 1")
        if move.is_pass
        else f"move {game.move_number(ply) + 1}, {game.positions[ply].to_move.label} {move}"
        for ply, move in enumerate(game.played)
    )
    return GraphData(tuple(evaluations(analysis, game)), labels, selected, names)


def summary_text(game: Game, analysis: GameAnalysis) -> str:
    """Each side's average disc loss and labelled moves, and when the game
    is over and analysed, the turning point and the deciding moves."""
    lines = []
    for side in Color:
        summary = summarise(analysis, side)
        counts = summary.counts
        lines.append(
            f"{side.label}: avg loss {summary.average_loss:.1f} · "
            + " ".join(f"{counts[label]}{mark}" for label, mark in MARKS.items())
        )
    turning = turning_text(game, analysis)
    if turning is not None:
        lines.append(f"Turning point: {turning}")
    if _complete(game, analysis):
        result = game.variant.result(game.positions[-1])
        lines.extend(
            f"Deciding: {deciding_text(game, scored, reason)}"
            for scored, reason in deciding_moves(analysis, game, result)
        )
        for side in Color:
            costliest = costliest_moves(analysis, game, side)
            if costliest:
                named = " · ".join(_costly_text(game, scored) for scored, _ in costliest)
                lines.append(f"{side.label}'s costliest: {named}")
    return "\n".join(lines)


def _costly_text(game: Game, scored: MoveAnalysis) -> str:
    """'18. g2?? 14.9': a costly move in the fewest characters the panel allows."""
    mark = MARKS.get(scored.label or "", "")
    return f"{game.move_number(scored.ply)}. {scored.move}{mark} {scored.loss:g}"


def fitted_summary(summary: str, width: int, lines: int) -> str:
    """As much of `summary` as fits `lines` lines of `width` cells, wrapped:
    whole sentences (a line each) in their order, then MORE where one is left
    out, unless MORE would take the room of a player's line (the first two)."""
    sentences = summary.split("\n") if summary else []
    heights = [len(Content(sentence).wrap(width)) for sentence in sentences]

    def fitting(room: int) -> int:
        kept = 0
        while kept < len(sentences) and heights[kept] <= room:
            room -= heights[kept]
            kept += 1
        return kept

    if sum(heights) <= lines:
        return summary
    kept = fitting(lines - len(Content(MORE).wrap(width)))
    if kept >= min(2, fitting(lines)):
        return "\n".join([*sentences[:kept], MORE])
    return "\n".join(sentences[: fitting(lines)])


def deciding_text(game: Game, scored: MoveAnalysis, reason: str | None) -> str:
    """'18. White g2?? 14.9 discs: an X-square next to the empty h1 corner':
    a deciding move as `tui-reversi analyse` names it, numbered as the move
    log numbers it and marked as the summary marks labels, to fit the panel."""
    mark = MARKS.get(scored.label or "", "")
    text = f"{game.move_number(scored.ply)}. {scored.side.label} {scored.move}{mark}"
    text += f" {scored.loss:g} discs"
    return f"{text}: {reason}" if reason else text


def _complete(game: Game, analysis: GameAnalysis) -> bool:
    """True for a finished game whose every move is analysed: a part of the
    moves could show the wrong turning point or deciding moves."""
    return game.positions[-1].is_game_over() and analysis.covers(game)


def turning_text(game: Game, analysis: GameAnalysis) -> str | None:
    """'move 23, White b2 (best g6)' for a finished, fully analysed game's
    turning point."""
    if not _complete(game, analysis):
        return None
    final = game.positions[-1]
    turning = turning_point(analysis, game.variant.result(final))
    if turning is None:
        return None
    text = f"move {game.move_number(turning.ply)}, {turning.side.label} {turning.move}"
    if turning.best and turning.best != turning.move:
        text += f" (best {turning.best})"
    return text


class AnalysisPanel(Vertical):
    """Progress, summary and graph of the game's analysis."""

    DEFAULT_CSS = """
    AnalysisPanel {
        height: auto;
        max-height: 60%;
    }
    AnalysisPanel.-with-graph {
        height: 1fr;
    }
    AnalysisPanel ProgressBar {
        height: 1;
    }
    AnalysisPanel #analysis-summary {
        height: auto;
    }
    AnalysisPanel EvalGraph {
        display: none;
    }
    AnalysisPanel.-with-graph EvalGraph {
        display: block;
    }
    """

    @dataclass
    class MoveScored(Message):
        """A move of `moves` (the game analysed) has been scored."""

        moves: tuple[Move, ...]
        scored: MoveAnalysis

    @dataclass
    class Ended(Message):
        """The analysis of `moves` stopped: done, cancelled, or `error`."""

        moves: tuple[Move, ...]
        cancelled: bool
        error: str | None = None

    def __init__(self, *, limit: Limit = PER_POSITION, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.limit = limit  # per position; with no clock, a repeatable analysis (tests)
        self.running = False
        self._summary = ""  # the whole summary; the panel shows what fits of it
        # The game analysed (its moves) is the token: the screen drops what no longer fits.
        self.analysis: Background[tuple[Move, ...], None] = Background("analysis")

    def compose(self) -> ComposeResult:
        yield ProgressBar(show_eta=False, id="analysis-progress")
        yield Literal(id="analysis-summary")
        yield EvalGraph(id="analysis-graph")

    def on_resize(self) -> None:
        self._fit()
        self._show_summary()

    def _fit(self) -> None:
        """The graph joins the panel where the side of the screen is tall
        enough for it as well as the score and the move log."""
        parent = self.parent
        tall = isinstance(parent, Widget) and parent.size.height >= 3 * GRAPH_MIN_HEIGHT
        self.set_class(tall, "-with-graph")

    # -- running ---------------------------------------------------------------------

    def start(self, game: Game, known: GameAnalysis) -> None:
        """Analyse the moves of `game` that `known` has not analysed in full."""
        snapshot = game.copy()
        self.running = True
        self.display = True
        self.analysis.start(
            snapshot.played,
            lambda cancelled: self._analyse(snapshot, known, cancelled),
            self._ended,
        )

    def cancel(self) -> None:
        """Stop the analysis; the moves scored so far are kept."""
        self.running = False
        self.analysis.cancel()

    def on_unmount(self) -> None:
        self.analysis.cancel()

    def _analyse(self, game: Game, known: GameAnalysis, stop: CancelCheck) -> None:
        """Runs in the background: each move of `game` scored, posted as it comes."""
        moves = game.played

        def cancelled() -> bool:
            # Asked every few hundred nodes: let the UI thread take the GIL
            # now, not at the end of the interpreter's 5 ms switch interval.
            time.sleep(0)
            return stop()

        for scored in analyse_game(
            game,
            self.limit,
            cancelled=cancelled,
            skip=known,
            # The end first: its solved positions come at once, and the
            # move log (scrolled to the end after a game) fills where it shows.
            from_the_end=True,
        ):
            self.post_message(self.MoveScored(moves, scored))

    def _ended(self, outcome: Outcome[tuple[Move, ...], None]) -> None:
        problem = outcome.problem if isinstance(outcome, Failed) else None
        self.post_message(self.Ended(outcome.token, isinstance(outcome, Stopped), problem))

    # -- showing -----------------------------------------------------------------------

    def show(self, game: Game, analysis: GameAnalysis, selected: int | None, ascii: bool) -> None:
        """Draw `analysis` of `game`, the reviewed ply `selected` highlighted."""
        self._fit()
        wanted = sum(1 for move in game.played if move)
        done = sum(1 for scored in analysis.moves if scored.complete)
        self.display = bool(analysis.moves) or self.running
        progress = self.query_one(ProgressBar)
        progress.update(total=max(wanted, 1), progress=done)
        # Only while it runs: a bar left over (a game played on from a review
        # grows) would read as work going on. In ASCII the title's count says it.
        progress.display = self.running and not ascii
        summary = summary_text(game, analysis)
        self._summary = ascii_text(summary) if ascii else summary
        self._show_summary()
        graph = self.query_one(EvalGraph)
        graph.ascii = ascii
        graph.data = graph_data(game, analysis, selected)
        self.border_title = "Analysis" if not self.running else f"Analysing {done}/{wanted}"

    def _show_summary(self) -> None:
        """The summary, as much of it as leaves the move log below its LOG_LINES."""
        summary = self.query_one("#analysis-summary", Static)
        shown = self._summary
        parent, width = self.parent, summary.content_size.width
        if isinstance(parent, Widget) and width > 0 and not self.has_class("-with-graph"):
            # From the panel's top to the bottom of the side, less the log's
            # lines, the panel's border and the progress bar while it shows.
            below = parent.content_region.bottom - self.region.y - LOG_LINES
            bar = 1 if self.query_one(ProgressBar).display else 0
            room = below - self.outer_size.height + self.content_size.height - bar
            shown = fitted_summary(shown, width, max(1, room))
        summary.update(shown)
