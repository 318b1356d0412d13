"""Analysis on the game screen: `a` scores every move of the game in the
background (the AnalysisPanel's worker), the results fill the move log as
they come, and in review the best move from the reviewed position is marked
on the board with its principal variation on the status line. `g` shows the
evaluation graph on a screen of its own when the panel has no room for it.
The title names the opening while the game is in it.

What GameScreen asks of this part: `marks()` for the move log, `best()` for
the board, `review_line()` for the status line, `opening()` for the title
bar, `shown()` after every redraw and `reset()` before another game takes
the screen; it forwards the panel's messages to `scored()` and `ended()`.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from textual.binding import Binding
from textual.content import Content

from ...core import Game
from ...core.openings import LONGEST, game_opening
from ...players.analysis import GameAnalysis, MoveAnalysis
from ...session import sentence
from ...widgets.analysis_panel import AnalysisPanel, graph_data, summary_text, turning_text
from ...widgets.move_log import MARKS, MoveLog, figures
from ..eval_graph import EvalGraphScreen

if TYPE_CHECKING:
    from ...match import Match
    from .screen import GameScreen

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


def describe_best(scored: MoveAnalysis) -> str:
    """'Best here: d3 (+2.0): d3 c5 f6. Played e6 (-4.1, mistake).'"""
    best = scored.best or scored.move
    exact = " exact" if scored.exact else ""
    score = f"{scored.best_score:+g}" if scored.best_score is not None else "?"
    line = " ".join(str(move) for move in scored.pv or (best,))
    text = f"Best here: {best} ({score}{exact}): {line}."
    if scored.best != scored.move:
        label = f", {scored.label}" if scored.label else ""
        text += f" Played {scored.move} ({scored.played_score:+g}{label})."
    return text


class Analysis:
    """What is known of the game's moves, running the analysis and showing it."""

    def __init__(self, screen: GameScreen) -> None:
        self.screen = screen
        self.known = GameAnalysis()  # grows as the panel's worker scores moves

    # -- the actions ---------------------------------------------------------------------

    def start_or_stop(self) -> None:
        screen = self.screen
        panel = screen.query_one(AnalysisPanel)
        if panel.running:
            panel.cancel()
            screen.say("Analysis stopped; a continues it.")
            return
        game = screen.match.game
        if not game.moves:
            screen.say("No moves to analyse yet.", error=True)
            return
        if not self.allowed():
            at_table = screen.table.link is not None
            screen.say(
                "At a table, analysis waits for the end of the game."
                if at_table
                else "Analysis is for a finished game, or in review (, starts it).",
                error=True,
            )
            return
        self.known = self.known.kept_for(game)
        if self.known.covers(game):
            screen.say("Every move is analysed: g shows the graph, , reviews the moves.")
            self.shown()
            return
        panel.start(game, self.known)
        screen.say("Analysing every move: the board stays yours; a stops it.")
        self.shown()

    def allowed(self) -> bool:
        """Never a help during play: after the game, or in review of a game
        against the computer; at a server's table only once the game is over
        (reviewing there, a person across the board is still playing)."""
        screen = self.screen
        ended = screen.match.ended  # (adjourned: not over, it goes on later)
        if ended is not None and ended.reason != "adjourned":
            return True
        return screen.review.reviewing and screen.table.link is None

    def analysed(self) -> bool:
        """Whether any move has been scored (so there is a graph to show)."""
        return bool(self.known.moves)

    def graph(self) -> None:
        screen = self.screen
        if not self.analysed():
            screen.say("Nothing analysed yet: a analyses the game.", error=True)
            return
        game = screen.match.game
        reviewed = game.ply if screen.review.ply is None else screen.review.ply
        data = graph_data(game, self.known, reviewed)
        graph = EvalGraphScreen(data, self._summary(), screen.settings.ascii)
        screen.app.push_screen(graph, self._graph_closed)

    def _graph_closed(self, ply: int | None) -> None:
        if ply is not None:
            self.screen.review.show(ply)

    def _summary(self) -> str:
        return self.screen.reversi_app.text(summary_text(self.screen.match.game, self.known))

    # -- results, forwarded by the screen ------------------------------------------------

    def scored(self, event: AnalysisPanel.MoveScored) -> None:
        screen = self.screen
        game = screen.match.game
        ply = event.scored.ply
        if game.played[:ply] != event.moves[:ply]:
            screen.query_one(AnalysisPanel).cancel()  # the game changed under the analysis
            return
        self.known = self.known.with_move(event.scored)
        session = screen.reversi_app.session
        if session is not None:
            session.analysis_changed(screen.match, self.known)
        if screen.review.reviewing:
            screen.show()  # the board's best move and the status line may be this move's
        else:  # only what the analysis changes: the board stays as it is
            log = screen.query_one(MoveLog)
            marks, notes = self.marks(game)
            log.moves = replace(log.moves, marks=marks, notes=notes)
            self.shown()
        if isinstance(screen.app.screen, EvalGraphScreen):
            screen.app.screen.update(graph_data(game, self.known, None), self._summary())

    def ended(self, event: AnalysisPanel.Ended) -> None:
        screen = self.screen
        screen.query_one(AnalysisPanel).running = False
        game = screen.match.game
        if event.error is not None:
            screen.say(f"The analysis stopped ({event.error}).", error=True)
        elif not event.cancelled and game.played == event.moves:
            turning = turning_text(game, self.known)
            done = "Analysis done: g shows the graph, , reviews the moves"
            screen.say(f"{done}. Turning point: {turning}." if turning else f"{done}.")
        screen.show()

    # -- what the screen asks ------------------------------------------------------------

    def reset(self, match: Match) -> None:
        """`match` is about to take the screen: stop, and take what is known of it."""
        self.screen.query_one(AnalysisPanel).cancel()
        app = self.screen.reversi_app
        self.known = app.session.analysis_for(match) if app.session is not None else GameAnalysis()
        if self.known.unread:  # the rest of the stored analysis is kept: say what is not
            note = f"{self.known.unread}; Analyse (a) fills it in again."
            self.screen.notify(sentence(note), severity="warning", timeout=30)

    def marks(self, game: Game) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """The move log's marks and figures per ply (empty when nothing is
        analysed). During play, none for moves taken back: the first of them
        would name the best move from the position on the board."""
        self.known = self.known.kept_for(game)
        if not self.known.moves:
            return (), ()
        shown = len(game.moves) if self.allowed() else game.ply
        scored = [self.known.at(ply) if ply <= shown else None for ply in range(1, shown + 1)]
        marks = tuple(MARKS.get(m.label or "", "") if m else "" for m in scored)
        return marks, tuple(figures(m) for m in scored)

    def best(self, ply: int) -> int | None:
        """The best move from the position after `ply`, when analysed."""
        scored = self.known.at(ply + 1)
        return scored.best.square if scored is not None and scored.best else None

    def review_line(self, ply: int) -> Content | None:
        """The status line in review: the best move from here and its line."""
        scored = self.known.at(ply + 1)
        if scored is None or scored.best is None:
            return None
        return Content(f" {describe_best(scored)}")

    def opening(self, ply: int) -> str | None:
        """The opening's name while the game (or the reviewed position) is in it."""
        if ply > LONGEST + 4:  # long out of the book: the name says nothing any more
            return None
        found = game_opening(self.screen.match.game, ply)
        return found.name if found is not None else None

    def shown(self) -> None:
        """Push the analysis down to the panel (after every redraw)."""
        screen = self.screen
        panel = screen.query_one(AnalysisPanel)
        panel.show(screen.match.game, self.known, screen.review.ply, screen.settings.ascii)
