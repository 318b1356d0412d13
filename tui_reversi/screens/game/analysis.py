"""Analysis on the game screen: `a` scores every move of the game in the
background (the AnalysisPanel's worker), the results fill the move log as
they come, and in review the best move from the reviewed position is marked
on the board with its principal variation on the status line. `g` shows the
evaluation graph on a screen of its own when the panel has no room for it.
The title names the opening while the game is in it.

This part holds what is known of the game's moves and draws the panel and
the log's marks; the screen gives it the game and the reviewed ply, and
says the sentences it answers: `marks()` for the move log, `best()` for the
board, `review_line()` for the status line, `opening()` for the title bar,
`shown()` after every redraw and `reset()` before another game takes the
screen; the panel's messages go to `scored()` and `ended()`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING

from textual.binding import Binding
from textual.content import Content

from ...core import Game
from ...core.errors import sentence
from ...core.openings import LONGEST, game_opening
from ...players.analysis import GameAnalysis, MoveAnalysis
from ...widgets.analysis_panel import AnalysisPanel, graph_data, summary_text, turning_text
from ...widgets.move_log import MARKS, MoveLog, figures
from ..eval_graph import EvalGraphScreen

if TYPE_CHECKING:
    from ...match import Match
    from ...session import Session

# A sentence for the status line, and whether it tells of an error.
Said = tuple[str, bool]

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


def analysis_allowed(match: Match, *, reviewing: bool, at_table: bool) -> bool:
    """Never a help during play: after the game, or in review of a game
    against the computer; at a server's table only once the game is over
    (reviewing there, a person across the board is still playing)."""
    ended = match.ended  # (adjourned: not over, it goes on later)
    if ended is not None and ended.reason != "adjourned":
        return True
    return reviewing and not at_table


class Analysis:
    """What is known of the game's moves, running the analysis and showing it."""

    def __init__(
        self,
        panel: Callable[[], AnalysisPanel],
        log: Callable[[], MoveLog],
        session: Session | None,
        spell: Callable[[str], str],
    ) -> None:
        self._panel = panel
        self._log = log
        self._session = session  # (None: nothing is kept)
        self._spell = spell
        self.known = GameAnalysis()  # grows as the panel's worker scores moves

    # -- the actions ---------------------------------------------------------------------

    def start_or_stop(self, game: Game, *, allowed: bool, at_table: bool) -> Said:
        """`a`: stop a running analysis, else start one where it is allowed;
        what to say of it."""
        panel = self._panel()
        if panel.running:
            panel.cancel()
            return "Analysis stopped; a continues it.", False
        if not game.moves:
            return "No moves to analyse yet.", True
        if not allowed:
            if at_table:
                return "At a table, analysis waits for the end of the game.", True
            return "Analysis is for a finished game, or in review (, starts it).", True
        self.known = self.known.kept_for(game)
        if self.known.covers(game):
            return "Every move is analysed: g shows the graph, , reviews the moves.", False
        panel.start(game, self.known)
        return "Analysing every move: the board stays yours; a stops it.", False

    def analysed(self) -> bool:
        """Whether any move has been scored (so there is a graph to show)."""
        return bool(self.known.moves)

    def graph(self, game: Game, reviewed: int | None, *, ascii_: bool) -> EvalGraphScreen:
        """The evaluation graph's screen (once something is analysed)."""
        data = graph_data(game, self.known, game.ply if reviewed is None else reviewed)
        return EvalGraphScreen(data, self._summary(game), ascii_)

    def _summary(self, game: Game) -> str:
        return self._spell(summary_text(game, self.known))

    # -- results, forwarded by the screen ------------------------------------------------

    def scored(self, event: AnalysisPanel.MoveScored, match: Match) -> bool:
        """A move scored by the panel's worker: True when it is this game's (and
        kept); False when the game changed under the analysis (it stops)."""
        game = match.game
        ply = event.scored.ply
        if game.played[:ply] != event.moves[:ply]:
            self._panel().cancel()  # the game changed under the analysis
            return False
        self.known = self.known.with_move(event.scored)
        if self._session is not None:
            self._session.analysis_changed(match, self.known)
        return True

    def marks_shown(self, game: Game, *, allowed: bool) -> None:
        """Only what the analysis changes in the move log: its marks and figures."""
        log = self._log()
        marks, notes = self.marks(game, allowed=allowed)
        log.moves = replace(log.moves, marks=marks, notes=notes)

    def graph_shown(self, graph: EvalGraphScreen, game: Game) -> None:
        """The graph's screen, if it is up, follows the analysis."""
        graph.update(graph_data(game, self.known, None), self._summary(game))

    def ended(self, event: AnalysisPanel.Ended, game: Game) -> Said | None:
        """The panel's worker stopped: what to say of it, if anything."""
        self._panel().running = False
        if event.error is not None:
            return f"The analysis stopped ({event.error}).", True
        if not event.cancelled and game.played == event.moves:
            turning = turning_text(game, self.known)
            done = "Analysis done: g shows the graph, , reviews the moves"
            return (f"{done}. Turning point: {turning}." if turning else f"{done}."), False
        return None

    # -- what the screen asks ------------------------------------------------------------

    def reset(self, match: Match) -> str | None:
        """`match` is about to take the screen: stop, and take what is known of
        it; a sentence for a note when some of what was kept could not be read."""
        self._panel().cancel()
        session = self._session
        self.known = session.analysis_for(match) if session is not None else GameAnalysis()
        if self.known.unread:  # the rest of the stored analysis is kept: say what is not
            return sentence(f"{self.known.unread}; Analyse (a) fills it in again.")
        return None

    def marks(self, game: Game, *, allowed: bool) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """The move log's marks and figures per ply (empty when nothing is
        analysed). During play, none for moves taken back: the first of them
        would name the best move from the position on the board."""
        self.known = self.known.kept_for(game)
        if not self.known.moves:
            return (), ()
        shown = len(game.moves) if allowed else game.ply
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

    def shown(self, game: Game, reviewed: int | None, *, ascii_: bool) -> None:
        """Push the analysis down to the panel (after every redraw)."""
        self._panel().show(game, self.known, reviewed, ascii_)


def opening(game: Game, ply: int) -> str | None:
    """The opening's name while the game (or the reviewed position) is in it."""
    if ply > LONGEST + 4:  # long out of the book: the name says nothing any more
        return None
    found = game_opening(game, ply)
    return found.name if found is not None else None
