"""Analysis on the game screen: `a` scores every move of the game in the
background (the AnalysisPanel's worker), the results fill the move log as
they come, and in review the best move from the reviewed position is marked
on the board with its principal variation on the status line. `g` shows the
evaluation graph on a screen of its own when the panel has no room for it.
The title names the opening while the game is in it.

What GameScreen asks of this part: `analysis_marks()` for the move log,
`analysis_best()` for the board, `analysis_review_line()` for the status
line, `opening_title()` for the title bar, `analysis_shown()` after every
redraw and `analysis_reset()` when another game takes the screen.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, cast

from textual import on
from textual.binding import Binding
from textual.content import Content
from textual.screen import Screen

from ...core import Game, parse_square
from ...core.openings import LONGEST, game_opening
from ...players.analysis import GameAnalysis, MoveAnalysis
from ...widgets.analysis_panel import AnalysisPanel, graph_data, summary_text, turning_text
from ...widgets.move_log import MoveLog
from ..eval_graph import EvalGraphScreen

if TYPE_CHECKING:
    from ...app import ReversiApp
    from ...match import Match

ANALYSIS_BINDINGS = [
    Binding(
        "a",
        "analyse",
        "Analyse",
        id="analysis.start",
        tooltip="Score every move of the game: mistakes, best moves, a graph (a again stops)",
    ),
    Binding(
        "g",
        "graph",
        "Graph",
        id="analysis.graph",
        tooltip="The evaluation graph of the analysed game on its own screen",
    ),
]

MARKS = {"inaccuracy": "?!", "mistake": "?", "blunder": "??"}


def _score(value: float | None, exact: bool) -> str:
    if value is None:
        return "  ?  "
    return f"{value:+3.0f}= " if exact else f"{value:+5.1f}"


def note_for(scored: MoveAnalysis | None) -> str:
    """The move log's figures for one move: its score, and the best move, its
    score and the loss when the move played was not the best."""
    if scored is None:
        return ""
    played = _score(scored.played_score, scored.exact)
    if scored.best is None or scored.best == scored.move or not scored.loss:
        return f" {played}"
    best = _score(scored.best_score, scored.exact).strip()
    return f" {played} {scored.best} {best} -{scored.loss:g}"


def describe_best(scored: MoveAnalysis) -> str:
    """'Best here: d3 (+2.0): d3 c5 f6. Played e6 (-4.1, mistake).'"""
    best = scored.best or scored.move
    exact = " exact" if scored.exact else ""
    score = f"{scored.best_score:+g}" if scored.best_score is not None else "?"
    text = f"Best here: {best} ({score}{exact}): {' '.join(scored.pv or (best,))}."
    if scored.best != scored.move:
        label = f", {scored.label}" if scored.label else ""
        text += f" Played {scored.move} ({scored.played_score:+g}{label})."
    return text


class GameAnalysisPart(Screen):
    """The part of GameScreen that analyses the game and shows the findings."""

    if TYPE_CHECKING:  # what this part uses of GameScreen and its other parts
        review_ply: int | None

        @property
        def match(self) -> Match: ...

        def _show(self, *, animate: bool = False) -> None: ...

        def _review(self, ply: int) -> None: ...

        def say(self, text: str, *, error: bool = False) -> None: ...

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.analysis = GameAnalysis()

    @property
    def _app(self) -> ReversiApp:
        return cast("ReversiApp", self.app)

    # -- the actions ---------------------------------------------------------------------

    def action_analyse(self) -> None:
        panel = self.query_one(AnalysisPanel)
        if panel.running:
            panel.cancel()
            self.say("Analysis stopped; a continues it.")
            return
        game = self.match.game
        if not game.moves:
            self.say("No moves to analyse yet.", error=True)
            return
        if not (self.match.is_over or self.review_ply is not None):
            # Never a help during play: the engine's verdicts wait for the end or review.
            self.say("Analysis is for a finished game, or in review (, starts it).", error=True)
            return
        self.analysis = self.analysis.kept_for(game)
        if self.analysis.covers(game):
            self.say("Every move is analysed: g shows the graph, , reviews the moves.")
            self.analysis_shown()
            return
        panel.start(game, self.analysis)
        self.say("Analysing every move: the board stays yours; a stops it.")
        self.analysis_shown()

    def action_graph(self) -> None:
        if not self.analysis.moves:
            self.say("Nothing analysed yet: a analyses the game.", error=True)
            return
        game = self.match.game
        data = graph_data(game, self.analysis, self._reviewed_ply())
        screen = EvalGraphScreen(data, self._summary(), self._app.options.ascii)
        self.app.push_screen(screen, self._graph_closed)

    def _graph_closed(self, ply: int | None) -> None:
        if ply is not None:
            self._review(ply)

    def _reviewed_ply(self) -> int:
        game = self.match.game
        return game.ply if self.review_ply is None else self.review_ply

    def _summary(self) -> str:
        return summary_text(self.match.game, self.analysis)

    # -- results -------------------------------------------------------------------------

    @on(AnalysisPanel.MoveScored)
    def _move_scored(self, event: AnalysisPanel.MoveScored) -> None:
        game = self.match.game
        ply = event.scored.ply
        if tuple(game.moves[:ply]) != event.moves[:ply]:
            self.query_one(AnalysisPanel).cancel()  # the game changed under the analysis
            return
        self.analysis = self.analysis.with_move(event.scored)
        self._keep()
        if self.review_ply is not None:
            self._show()  # the board's best move and the status line may be this move's
        else:  # only what the analysis changes: the board stays as it is
            log = self.query_one(MoveLog)
            marks, notes = self.analysis_marks(game)
            log.moves = replace(log.moves, marks=marks, notes=notes)
            self.analysis_shown()
        if isinstance(self.app.screen, EvalGraphScreen):
            data = graph_data(game, self.analysis, None)
            self.app.screen.update(data, self._summary())

    @on(AnalysisPanel.Ended)
    def _analysis_ended(self, event: AnalysisPanel.Ended) -> None:
        panel = self.query_one(AnalysisPanel)
        panel.running = False
        if event.error is not None:
            self.say(f"The analysis stopped ({event.error}).", error=True)
        elif not event.cancelled and tuple(self.match.game.moves) == event.moves:
            turning = turning_text(self.match.game, self.analysis)
            done = "Analysis done: g shows the graph, , reviews the moves"
            self.say(f"{done}. Turning point: {turning}." if turning else f"{done}.")
        self._show()

    def _keep(self) -> None:
        session = self._app.session
        if session is not None:
            session.analysis_changed(self.match, self.analysis)

    # -- what the screen asks ------------------------------------------------------------

    def analysis_reset(self) -> None:
        """Another game on the screen: stop, and take what is known of it."""
        self.query_one(AnalysisPanel).cancel()
        session = self._app.session
        self.analysis = session.analysis_for(self.match) if session is not None else GameAnalysis()

    def analysis_marks(self, game: Game) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """The move log's marks and figures per ply (empty when nothing is analysed)."""
        self.analysis = self.analysis.kept_for(game)
        if not self.analysis.moves:
            return (), ()
        scored = [self.analysis.at(ply) for ply in range(1, len(game.moves) + 1)]
        marks = tuple(MARKS.get(m.label or "", "") if m else "" for m in scored)
        return marks, tuple(note_for(m) for m in scored)

    def analysis_best(self, ply: int) -> int | None:
        """The best move from the position after `ply`, when analysed."""
        scored = self.analysis.at(ply + 1)
        return parse_square(scored.best) if scored is not None and scored.best else None

    def analysis_review_line(self, ply: int) -> Content | None:
        """The status line in review: the best move from here and its line."""
        scored = self.analysis.at(ply + 1)
        if scored is None or scored.best is None:
            return None
        return Content(f" {describe_best(scored)}")

    def opening_title(self, ply: int) -> str | None:
        """The opening's name while the game (or the reviewed position) is in it."""
        if ply > LONGEST + 4:  # long out of the book: the name says nothing any more
            return None
        found = game_opening(self.match.game, ply)
        return found.name if found is not None else None

    def analysis_shown(self) -> None:
        """Push the analysis down to the panel (after every redraw)."""
        panel = self.query_one(AnalysisPanel)
        panel.show(self.match.game, self.analysis, self._panel_ply(), self._app.options.ascii)

    def _panel_ply(self) -> int | None:
        return self.review_ply
