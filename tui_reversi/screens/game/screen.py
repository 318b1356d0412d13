"""The game screen: the board, the score panel, the move log and the status line.

It shows the live game (or a reviewed position) and forwards input: moves
go to the seat of the person at this keyboard, takebacks and new games to
the referee (match.py), which owns the turn loop and reports back. Its
other jobs are parts it is composed of, each owning its own state: history
review (review.py), hints (hint.py), the thinking indicator (thinking.py),
keeping games (keeping.py), analysis (analysis.py), the table (table.py),
the premove (premove.py), a square typed with the focus off the board
(square_typing.py), the referee's reports (reports.py), another game
(another_game.py), the end of a game (end_of_game.py), the look (look.py)
and the title and status lines (status_line.py, their words in status.py);
which keys apply is in key_rules.py.
State goes down to the widgets; their messages come back up here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Static

from ...core import Move
from ...match import Match, Referee
from ...widgets.analysis_panel import AnalysisPanel
from ...widgets.board import BoardView
from ...widgets.key_bar import KeyBar
from ...widgets.move_log import MoveLog
from ...widgets.score import ScorePanel
from ..command_palette import KeyCommands
from ..lobby import LOBBY_BINDINGS, NO_LOBBY
from ..resume import ResumeScreen
from ..start_problems import StartProblemsScreen
from .analysis import ANALYSIS_BINDINGS, Analysis
from .another_game import NEW_GAME_BINDINGS, AnotherGame
from .end_of_game import EndOfGame
from .hint import HINT_BINDINGS, HintFailed, HintReady, Hints
from .keeping import KEEPING_BINDINGS, KeepingGames
from .key_bar_order import KEPT, key_bar_order
from .key_rules import EXPLAINED, applies_here, applies_now
from .look import LOOK_BINDINGS, LOOK_COMMANDS, Look
from .premove import PREMOVE_BINDINGS, Premove
from .reports import RefereeReports
from .review import REVIEW_BINDINGS, Review
from .square_typing import SquareTyping
from .status_line import StatusLine
from .table import TABLE_BINDINGS, AtTable
from .thinking import ThinkingIndicator
from .view import GameView

if TYPE_CHECKING:
    from ...net.remote import News
    from ...storage import Settings
    from ..game_app import GameApp


class GameScreen(Screen[None]):
    """Play, take back, get a hint and review the game."""

    BINDINGS = [
        *NEW_GAME_BINDINGS,
        Binding(
            "u",
            "undo",
            "Undo",
            id="game.undo",
            tooltip="Take back your last move; against the computer, its reply too",
        ),
        Binding("r", "redo", "Redo", id="game.redo", tooltip="Replay a move you took back"),
        *HINT_BINDINGS,
        *LOOK_BINDINGS,
        Binding(
            "p",
            "pause",
            "Pause",
            id="game.pause",
            tooltip="Stop or restart a computer-against-computer game",
        ),
        *PREMOVE_BINDINGS,  # (before the review's: esc clears a premove, else goes back)
        *REVIEW_BINDINGS,
        *KEEPING_BINDINGS,
        *ANALYSIS_BINDINGS,
        *TABLE_BINDINGS,
        *LOBBY_BINDINGS,
    ]

    # The command palette over the board: a command for each key that acts now
    # (over a dialog, the app's own only: the game's would act behind it), and these.
    COMMANDS = {KeyCommands}
    PALETTE_COMMANDS = LOOK_COMMANDS

    KEY_BAR_KEPT = KEPT  # (given way last when the bar is narrow)

    @property
    def KEY_BAR_ORDER(self) -> tuple[str, ...]:  # (a property: the name key_bar.py reads)
        """The key bar's binding ids for now, most important first."""
        return key_bar_order(reviewing=self.review.reviewing, over=self.match.is_over)

    def __init__(self) -> None:
        super().__init__()
        self.status_line = StatusLine(self)
        self.view = GameView(self)
        self.look = Look(self)
        self.reports = RefereeReports(self)
        self.another_game = AnotherGame(self)
        self.end_of_game = EndOfGame(self)
        self.review = Review(self)
        self.hints = Hints(self)
        self.keeping = KeepingGames(self)
        self.analysis = Analysis(self)
        self.table = AtTable(self)
        self.premove = Premove(self)
        self.typing = SquareTyping(lambda: self.query_one(BoardView), self.review)
        self.thinking = ThinkingIndicator(
            lambda: self.query_one(ScorePanel), self.reversi_app.clock
        )

    @property
    def reversi_app(self) -> GameApp:
        return cast("GameApp", self.app)

    @property
    def referee(self) -> Referee:
        return self.reversi_app.referee

    @property
    def match(self) -> Match:
        return self.reversi_app.referee.match

    @property
    def settings(self) -> Settings:
        return self.reversi_app.settings

    @property
    def review_ply(self) -> int | None:
        """The ply shown while reviewing, or None for the live game."""
        return self.review.ply

    # -- layout ----------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield Static(id="title-bar")
        with Horizontal(id="main"):
            yield BoardView(id="board", animate=self.reversi_app.flips_animated)
            with Vertical(id="side"):
                yield ScorePanel(id="score", clock=self.reversi_app.clock)
                yield AnalysisPanel(id="analysis")
                yield MoveLog(id="log")
        yield Static(id="status")
        yield KeyBar()

    @property
    def closing_down(self) -> bool:
        """True once the app is ending (hung up, say, while this screen was still
        mounting): its widgets are going, and nothing is left to set up or fit."""
        return self.app.return_code is not None

    def on_mount(self) -> None:
        if self.closing_down:
            return
        self.query_one("#score").border_title = "Score"
        self.query_one("#log").border_title = "Moves"
        self.look.apply()
        self.query_one(BoardView).focus()
        app = self.reversi_app
        self.another_game.name_the_player(self.match)
        self.analysis.reset(self.match)  # what the loaded or resumed game has
        # The app starts the referee once this screen is drawn (ReversiApp.on_ready).
        app.referee.watch(self.reports.follow)
        self.show()
        self.refresh_bindings()
        session = app.session
        if session is not None and session.offer is not None:
            # Nothing moves until the player answers: the game behind is the offered one.
            self.app.push_screen(
                ResumeScreen(self.match, session.offer.updated, self.settings),
                self.keeping.resume_chosen,
            )
        else:
            self.table.started()
        notes = session.take_notes() if session is not None else []
        if notes and session is not None:  # on top: read first, then the resume offer below
            self.app.push_screen(StartProblemsScreen(notes, session.settings_file))

    def on_resize(self) -> None:
        if self.closing_down:
            return
        self.look.fit_board()
        # (the title's and a notice's narrow forms, or their whole)
        self.call_after_refresh(self.status_line.show_title)
        self.call_after_refresh(self.status_line.show_status)

    # -- the one place the view is rebuilt from the game ----------------------------

    def show(self, *, animate: bool = False) -> None:
        """Push the state of the game (or of the reviewed position) down to the widgets."""
        self.view.show(animate=animate)

    def say(
        self,
        text: str,
        *,
        error: bool = False,
        for_this_turn: bool = False,
        narrow: str | None = None,
    ) -> None:
        """Show a one-line message on the status line (see `StatusLine.say`)."""
        self.status_line.say(text, error=error, for_this_turn=for_this_turn, narrow=narrow)

    def say_nothing(self) -> None:
        """Clear the status line's message: it gives advice again."""
        self.status_line.say_nothing()

    def back_to_play(self) -> None:
        """Before the live game changes from a dialog or a review: no stale
        message, the end may be announced again, and the keys go to the board."""
        self.status_line.forget()
        self.end_of_game.forget()
        self.query_one(BoardView).focus()

    def review_changed(self) -> None:
        """The review part moved to another position, or back to the live game."""
        self.status_line.forget()
        if self.review.reviewing:
            self.hints.clear()
        else:
            self.query_one(BoardView).focus()
        self.show()
        self.refresh_bindings()

    # -- playing -----------------------------------------------------------------------

    @on(BoardView.SquareChosen)
    def _square_chosen(self, event: BoardView.SquareChosen) -> None:
        self.play(event.move)

    def play(self, move: Move) -> None:
        """The person at this keyboard plays `move`, or is told why not."""
        match = self.match
        if self.review.reviewing:
            then = "" if self.table.link is not None else ", ⏎ plays on from here"
            self.say(f"Reviewing: esc returns to the game{then}.", error=True)
            return
        why_not = self.table.why_not_play()
        if why_not is not None:
            self.say(why_not, error=True)
            return
        if match.is_over:
            self.say("The game is over: n starts a new one.", error=True)
            return
        self.status_line.forget()
        if self.referee.submit(move) or self.premove.keep(move):
            return
        self.say(
            f"It is {match.to_move.label}'s turn ({match.player_label(match.to_move)}).",
            error=True,
            for_this_turn=True,
        )

    def on_key(self, event: events.Key) -> None:
        # Reached by the keys no widget took (typing a square stops at the
        # board, or here with the focus elsewhere); the app's bindings run
        # after this, so ask them first.
        if self.typing.key(event):
            return
        character = event.character
        active = self.active_bindings.get(event.key)
        if active is not None and not active.enabled and active.binding.action in EXPLAINED:
            getattr(self, f"action_{active.binding.action}")()  # it says why not now
            return
        if not event.is_printable or not character or (active is not None and active.enabled):
            return
        name = character if character.strip() else event.key
        self.say(f"{name} does nothing now: ? lists the keys.")

    def on_paste(self, event: events.Paste) -> None:
        # A game pasted onto the board: offer to import it.
        event.stop()
        if event.text.strip() and self.app.screen is self and self.table.link is None:
            self.keeping.import_game(event.text)

    @on(HintReady)
    def _hint_ready(self, event: HintReady) -> None:
        self.hints.ready(event)

    @on(HintFailed)
    def _hint_failed(self, event: HintFailed) -> None:
        self.hints.failed(event)

    @on(AnalysisPanel.MoveScored)
    def _move_scored(self, event: AnalysisPanel.MoveScored) -> None:
        self.analysis.scored(event)

    @on(AnalysisPanel.Ended)
    def _analysis_ended(self, event: AnalysisPanel.Ended) -> None:
        self.analysis.ended(event)

    @on(MoveLog.PlySelected)
    def _ply_selected(self, event: MoveLog.PlySelected) -> None:
        self.review.show(event.ply)

    # -- the keys: each forwards to the part or the referee that owns the job ----------

    def action_lobby(self) -> None:
        invitations = self.reversi_app.invitations
        if invitations is not None:
            invitations.open_lobby()

    def action_no_lobby(self) -> None:
        self.say(NO_LOBBY)

    def action_resign(self) -> None:
        self.table.resign()

    def action_chat(self) -> None:
        self.table.chat()

    def action_takeback(self) -> None:
        self.table.ask_takeback()

    def action_rematch(self) -> None:
        self.table.ask_rematch()

    def table_news(self, news: News) -> None:
        """News from the server's table (the app brings it here)."""
        self.table.news(news)

    def action_clear_premove(self) -> None:
        self.premove.cleared_by_key()

    def action_undo(self) -> None:
        self.status_line.forget()
        if self.referee.undo():
            if self.referee.paused:  # between computers: the referee paused the game
                self.say("Undone; paused: p lets the computers play on.")
        else:
            self.say("Nothing to undo.", error=True)

    def action_redo(self) -> None:
        self.status_line.forget()
        if not self.referee.redo():
            self.say("Nothing to redo.", error=True)

    def action_pause(self) -> None:
        self.referee.set_paused(not self.referee.paused)
        if self.referee.paused:
            self.say("Paused: p lets the computers play on.")
        else:
            self.status_line.forget()
        self.show()
        self.refresh_bindings()

    def action_hint(self) -> None:
        self.hints.ask()

    def action_review_step(self, delta: int) -> None:
        self.review.step(delta)

    def action_review_to(self, ply: int) -> None:
        self.review.jump(ply)

    def action_live(self) -> None:
        self.review.leave()

    def action_continue_here(self) -> None:
        self.review.continue_here()

    def action_analyse(self) -> None:
        self.analysis.start_or_stop()

    def action_graph(self) -> None:
        self.analysis.graph()

    def action_save_game(self) -> None:
        self.keeping.save_game()

    def action_open_games(self) -> None:
        self.keeping.open_games()

    def action_import(self, text: str = "") -> None:
        self.keeping.import_game(text)

    def action_export(self) -> None:
        self.keeping.export()

    def action_settings(self) -> None:
        self.keeping.settings()

    def action_new_game(self) -> None:
        self.another_game.ask()

    def begin(self, match: Match) -> bool:
        """Play `match` from now on (see `AnotherGame.begin`)."""
        return self.another_game.begin(match)

    def action_markers(self) -> None:
        self.look.toggle_markers()

    def action_ascii(self) -> None:
        self.look.toggle_ascii()

    def action_animation(self) -> None:
        self.look.toggle_animation()

    # -- which keys apply --------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """False: the key does nothing in this game (a table's key in a local
        game, saving without files): the help leaves it out too. None: not now
        (reviewing, not your turn, nothing analysed): the key bar and the
        palette leave it out, the help lists it."""
        applies = applies_here(self, action)
        if not applies:
            return applies
        return True if applies_now(self, action, parameters) else None
