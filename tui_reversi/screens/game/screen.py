"""The game screen: the board, the score panel, the move log and the status line.

It shows the live game (or a reviewed position) and forwards input: moves
go to the seat of the person at this keyboard, takebacks and new games to
the referee (match.py), which owns the turn loop and reports back here.

The state its parts share is held here as reactives, set by the screen
alone: the reviewed ply (`review_ply`), the move typed ahead (`premove`),
the hint's square (`hint`), the line to a server's table (`link`), the
referee's pause (`paused`) and the game as last reported (`course`). Each
change redraws the widgets (the view is rebuilt from the game) and, where
the keys depend on it, refreshes the key bindings, by itself.

The parts, each given only what it uses and answering with values (or by
the callables it was given): the view (view.py), the title and status
lines (status_line.py, their words in status.py), the look (look.py),
history review (review.py), hints (hint.py), the premove (premove.py), the
thinking indicator (thinking.py), keeping games (keeping.py), analysis
(analysis.py), the table (table.py), a square typed with the focus off the
board (square_typing.py), another game (another_game.py) and the end of a
game (end_of_game.py); which keys apply is in key_rules.py, read from a
frozen `KeyState`.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING, cast

from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.reactive import reactive
from textual.screen import Screen
from textual.widgets import Static

from ...core import Move, ReversiError
from ...core.errors import sentence
from ...match import (
    Asked,
    Began,
    Ended,
    Event,
    Failed,
    Match,
    PauseChanged,
    RecordChanged,
    Referee,
    Refused,
    Thinking,
    Told,
)
from ...net.remote import TableLink
from ...widgets.analysis_panel import AnalysisPanel
from ...widgets.board import BoardView
from ...widgets.key_bar import KeyBar, key_for
from ...widgets.move_log import MoveLog
from ...widgets.score import ScorePanel
from ..command_palette import KeyCommands
from ..confirm import ConfirmScreen
from ..eval_graph import EvalGraphScreen
from ..lobby import LOBBY_BINDINGS, NO_LOBBY
from ..resume import ResumeScreen
from ..start_problems import StartProblemsScreen
from . import premove, review
from .analysis import ANALYSIS_BINDINGS, Analysis, analysis_allowed, opening
from .another_game import NEW_GAME_BINDINGS, AnotherGame
from .end_of_game import AtTheEnd, EndOfGame
from .hint import HINT_BINDINGS, HintFailed, HintReady, Hints, hint_sentence
from .keeping import KEEPING_BINDINGS, KeepingGames
from .key_bar_order import KEPT, key_bar_order
from .key_rules import EXPLAINED, KeyState, applies_here, applies_now
from .look import LOOK_BINDINGS, LOOK_COMMANDS, Look
from .premove import PREMOVE_BINDINGS
from .review import REVIEW_BINDINGS
from .square_typing import SquareTyping
from .status_line import Scene, StatusLine
from .table import TABLE_BINDINGS, AtTable
from .thinking import ThinkingIndicator
from .view import GameView, Shown

if TYPE_CHECKING:
    from ...net.remote import News
    from ...storage import Settings
    from ..game_app import GameApp


@dataclass(frozen=True, slots=True)
class Course:
    """The live game as the referee last reported it: which game, how far, and
    whether a move just came (the board then turns its discs over)."""

    game_id: int
    ply: int
    moved: bool = False

    @classmethod
    def of(cls, match: Match, *, moved: bool = False) -> Course:
        return cls(match.game_id, match.game.ply, moved)


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

    # The shared state (see the module's docstring). `init=False`: the first
    # redraw is on_mount's; `repaint=False`: the widgets repaint themselves.
    review_ply: reactive[int | None] = reactive(
        None, init=False, repaint=False, bindings=True, always_update=True
    )
    """The ply shown while reviewing, or None for the live game (set again to
    the same ply, the message on the status line goes as for a move)."""
    premove: reactive[Move | None] = reactive(None, init=False, repaint=False, bindings=True)
    """The move typed ahead while the other side was to move (premove.py)."""
    hint: reactive[int | None] = reactive(None, init=False, repaint=False)
    """The square the hint marks on the board (hint.py)."""
    link: reactive[TableLink | None] = reactive(None, init=False, repaint=False, bindings=True)
    """At a server's table: the line to it (the app's `table`)."""
    paused: reactive[bool] = reactive(False, init=False, repaint=False, bindings=True)
    """The referee's pause, as it reported it."""
    course: reactive[Course] = reactive(
        Course(0, 0), init=False, repaint=False, bindings=True, always_update=True
    )
    """The game as the referee last reported it (every report redraws)."""

    @property
    def KEY_BAR_ORDER(self) -> tuple[str, ...]:  # (a property: the name key_bar.py reads)
        """The key bar's binding ids for now, most important first."""
        return key_bar_order(reviewing=self.review_ply is not None, over=self.match.is_over)

    def __init__(self) -> None:
        super().__init__()
        app = self.reversi_app
        self.set_reactive(GameScreen.link, app.table_link)
        self.set_reactive(GameScreen.paused, app.referee.paused)
        self._ready = False  # drawn once (on_mount): a change redraws from then on
        self.status_line = StatusLine(
            lambda: (self.query_one("#title-bar", Static), self.query_one("#status", Static)),
            self._scene,
            app.text,
            partial(key_for, self),
            self.app.bell,
        )
        self.view = GameView(
            lambda: self.query_one(BoardView),
            lambda: self.query_one(ScorePanel),
            lambda: self.query_one(MoveLog),
        )
        self.look = Look(
            self.app,
            self._widgets,
            size=lambda: self.size,
            stacked=lambda stacked: self.set_class(stacked, "-stacked"),
        )
        lobby = app.invitations
        self.another_game = AnotherGame(
            app.referee,
            self.say,
            player=lobby.link.name if lobby is not None else None,
            remember=app.change_settings,
        )
        self.end_of_game = EndOfGame(self.app, self._at_the_end, self._after_the_end)
        self.hints = Hints(app.hint_engine, self.post_message)
        self.keeping = KeepingGames(
            self.app, self.say, begin=self.begin, settings_applied=self._look_changed
        )
        self.analysis = Analysis(
            lambda: self.query_one(AnalysisPanel),
            lambda: self.query_one(MoveLog),
            app.session,
            app.text,
        )
        self.at_table = AtTable(
            lambda: self.link,
            app.referee,
            self.app,
            self.say,
            panel=lambda: self.query_one(ScorePanel),
            result=self.end_of_game,
            redraw=self.show,
            width=lambda: self.size.width,
        )
        self.typing = SquareTyping(
            lambda: self.query_one(BoardView), lambda: self.review_ply, self._return_to
        )
        self.thinking = ThinkingIndicator(lambda: self.query_one(ScorePanel), app.clock)

    def _widgets(self) -> tuple[BoardView, ScorePanel, MoveLog]:
        return self.query_one(BoardView), self.query_one(ScorePanel), self.query_one(MoveLog)

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
        self._take_analysis(self.match)  # what the loaded or resumed game has
        # The app starts the referee once this screen is drawn (ReversiApp.on_ready).
        app.referee.watch(self._reported)
        self._ready = True
        self.course = Course.of(self.match)  # the first redraw
        session = app.session
        if session is not None and session.offer is not None:
            # Nothing moves until the player answers: the game behind is the offered one.
            self.app.push_screen(
                ResumeScreen(self.match, session.offer.updated, self.settings),
                self.keeping.resume_chosen,
            )
        else:
            self.at_table.started(self.call_after_refresh)
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

    # -- the shared state: each change redraws -----------------------------------------

    def watch_review_ply(self, ply: int | None) -> None:
        self.status_line.forget()
        if ply is not None:
            self._forget_hint()
        elif self._ready:
            self.query_one(BoardView).focus()
        self.show()

    def watch_premove(self) -> None:
        self.show()

    def watch_hint(self) -> None:
        self.show()

    def watch_link(self) -> None:
        self.show()

    def watch_paused(self) -> None:
        self.show()

    def watch_course(self, course: Course) -> None:
        self.show(animate=course.moved)

    def show(self, *, animate: bool = False) -> None:
        """Push the state of the game (or of the reviewed position) down to the widgets."""
        if not self._ready or self.closing_down:
            return
        referee, match, review_ply = self.referee, self.match, self.review_ply
        typed_ahead = self.premove
        self.view.show(
            Shown(
                match,
                review_ply,
                # in review, the best move from the reviewed position, when analysed
                hint=self.hint if review_ply is None else self.analysis.best(review_ply),
                premove=typed_ahead.square if typed_ahead is not None else None,
                legal_markers=self.settings.legal_moves,
                local_to_move=referee.local_to_move,
                plays_here=referee.plays_here,
                paused=self.paused,
                ratings=self.at_table.ratings(),
                marks=self.analysis.marks(match.game, allowed=self._analysis_allowed()),
            ),
            animate=animate,
        )
        self.status_line.show()
        self._show_analysis()

    def _scene(self) -> Scene:
        """What the title and status lines tell of, now."""
        game, review_ply = self.match.game, self.review_ply
        ply = game.ply if review_ply is None else review_ply
        return Scene(
            self.match,
            review_ply,
            opening(game, ply),
            None if review_ply is None else self.analysis.review_line(review_ply),
            paused=self.paused,
            at_table=self.link is not None,
        )

    def _forget_hint(self) -> None:
        """The position changed: no hint marked, and none looked for."""
        self.hints.cancel()
        self.hint = None

    def _return_to(self, ply: int | None) -> None:
        """Back to `ply` (None: the live game), as it was before a key moved it."""
        if ply != self.review_ply:
            self.review_ply = ply

    def _review(self, ply: int | None) -> None:
        """Show `ply` (None: the live game; asked there already, the message goes)."""
        if ply is None and self.review_ply is None:
            self.say_nothing()
        else:
            self.review_ply = ply

    # -- the referee's reports -----------------------------------------------------------

    def _reported(self, event: Event) -> None:
        """What the referee reports (`referee.watch`): each to the part it concerns,
        and the shared state it changes."""
        if isinstance(event, Began):
            self._began(event.match)
        elif isinstance(event, RecordChanged):
            # Work for the old position is dropped; the view is rebuilt from the game.
            self.thinking.stopped()
            review_ply = self.review_ply
            if review_ply is not None and review_ply > self.match.game.length:
                self.review_ply = None  # taken back past the reviewed position
            self._forget_hint()
            if not event.moved:  # taken back, or another position: typed ahead for none
                self.premove = None
            else:  # ("It is White's turn" is not true any more)
                self.status_line.moved()
            self.course = Course.of(self.match, moved=event.moved)
        elif isinstance(event, Ended):
            self.thinking.stopped()
            self.premove = None
            self.course = Course.of(self.match)  # nothing more to play: no markers, no Enter
            self.end_of_game.announce(self.match, event.ending)
        elif isinstance(event, Asked):
            if event.player.allows.local_input:  # (asked once this report is done)
                self.call_later(self._premove_turn_came)
            if event.player.allows.shows_thinking:
                self.thinking.started(event.turn, event.color)
        elif isinstance(event, Thinking):
            self.thinking.progressed(event.turn, event.info)
        elif isinstance(event, Refused):
            self._refused(event)
        elif isinstance(event, Failed):  # (the referee pauses next: `paused` follows)
            self.thinking.stopped()
            self.say(f"The computer player failed ({event.problem}); p tries again.", error=True)
        elif isinstance(event, Told):  # a toast: the status line clears as play goes on
            self.app.notify(sentence(event.text), severity="warning", timeout=20)
        elif isinstance(event, PauseChanged):
            if event.paused:
                self.thinking.stopped()
            self.paused = event.paused

    def _refused(self, event: Refused) -> None:
        if event.player.allows.local_input:
            self.say(f"{event.move} {event.reason}.", error=True)
            return
        self.thinking.stopped()
        if not event.move:
            problem = f"{event.color.label}'s player passed with a legal move available."
        else:
            problem = f"The computer tried an illegal move: {event.move} {event.reason}."
        self.say(problem, error=True)

    def _began(self, match: Match) -> None:
        """Another game is on the board (new, loaded, a rematch): nothing of the
        last one is shown any more (its result, a review, an analysis)."""
        self.end_of_game.close()
        self.another_game.name_the_player(match)
        self._take_analysis(match)
        self.review_ply = None
        self.premove = None
        self.back_to_play()

    def _take_analysis(self, match: Match) -> None:
        """`match` is about to take the screen: its analysis, as far as it is kept."""
        note = self.analysis.reset(match)
        if note is not None:
            self.notify(note, severity="warning", timeout=30)

    # -- the lines --------------------------------------------------------------------

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

    # -- playing -----------------------------------------------------------------------

    @on(BoardView.SquareChosen)
    def _square_chosen(self, event: BoardView.SquareChosen) -> None:
        self.play(event.move)

    def play(self, move: Move) -> None:
        """The person at this keyboard plays `move`, or is told why not."""
        referee, match = self.referee, self.match
        if self.review_ply is not None:
            then = "" if self.link is not None else ", ⏎ plays on from here"
            self.say(f"Reviewing: esc returns to the game{then}.", error=True)
            return
        why_not = self.at_table.why_not_play()
        if why_not is not None:
            self.say(why_not, error=True)
            return
        if match.is_over:
            self.say("The game is over: n starts a new one.", error=True)
            return
        self.status_line.forget()
        if referee.submit(move):
            return
        if premove.waits_for_turn(referee):  # kept for this keyboard's turn
            refusal = premove.refusal(referee, move)
            if refusal is not None:
                self.say(refusal, error=True)
                return
            self.premove = move
            # (gone once the other side has moved)
            self.say(premove.kept_sentence(move), for_this_turn=True)
            return
        self.say(
            f"It is {match.to_move.label}'s turn ({match.player_label(match.to_move)}).",
            error=True,
            for_this_turn=True,
        )

    def _premove_turn_came(self) -> None:
        """This keyboard is asked to move: play the premove, or say why not."""
        move = self.premove
        if move is None or not self.referee.local_to_move:
            return
        self.premove = None
        dropped = premove.dropped(self.referee, move)
        if dropped is not None:
            self.say(dropped, error=True)
        else:
            self.referee.submit(move)

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
        if event.text.strip() and self.app.screen is self and self.link is None:
            self.keeping.import_game(event.text)

    @on(HintReady)
    def _hint_ready(self, event: HintReady) -> None:
        best = self.hints.ready(event, current=self.match.is_current(event.turn))
        if best is None:
            return
        self.query_one(BoardView).cursor = best.move.square
        self.say(hint_sentence(best))
        self.hint = best.move.square

    @on(HintFailed)
    def _hint_failed(self, event: HintFailed) -> None:
        if self.hints.failed(event):
            self.say(f"No hint this time ({event.error}).", error=True)

    @on(AnalysisPanel.MoveScored)
    def _move_scored(self, event: AnalysisPanel.MoveScored) -> None:
        game = self.match.game
        if not self.analysis.scored(event, self.match):
            return
        if self.review_ply is not None:
            self.show()  # the board's best move and the status line may be this move's
        else:  # only what the analysis changes: the board stays as it is
            self.analysis.marks_shown(game, allowed=self._analysis_allowed())
            self._show_analysis()
        if isinstance(self.app.screen, EvalGraphScreen):
            self.analysis.graph_shown(self.app.screen, game)

    @on(AnalysisPanel.Ended)
    def _analysis_ended(self, event: AnalysisPanel.Ended) -> None:
        said = self.analysis.ended(event, self.match.game)
        if said is not None:
            text, error = said
            self.say(text, error=error)
        self.show()

    @on(MoveLog.PlySelected)
    def _ply_selected(self, event: MoveLog.PlySelected) -> None:
        self._review(review.to_show(self.match.game, event.ply))

    # -- the keys: each forwards to the part or the referee that owns the job ----------

    def action_lobby(self) -> None:
        invitations = self.reversi_app.invitations
        if invitations is not None:
            invitations.open_lobby()

    def action_no_lobby(self) -> None:
        self.say(NO_LOBBY)

    def action_resign(self) -> None:
        self.at_table.resign()

    def action_chat(self) -> None:
        self.at_table.chat()

    def action_takeback(self) -> None:
        self.at_table.ask_takeback()

    def action_rematch(self) -> None:
        self.at_table.ask_rematch()

    def table_news(self, news: News) -> None:
        """News from the server's table (the app brings it here)."""
        self.at_table.news(news)

    def leave_table(self) -> None:
        """Quit; at a table, leaving a game in progress asks first (see `AtTable.leave`)."""
        self.at_table.leave()

    def action_clear_premove(self) -> None:
        move = self.premove
        self.premove = None
        if move is not None:
            self.say(f"The premove {move} is cleared.")

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
        pausing = not self.referee.paused
        if not pausing:
            self.status_line.forget()
        self.referee.set_paused(pausing)  # reported back: `paused` redraws
        if pausing:
            self.say("Paused: p lets the computers play on.")

    def action_hint(self) -> None:
        if self.review_ply is not None or not self.referee.hints_allowed:
            self.say("A hint needs your turn in the live game.", error=True)
            return
        match = self.match
        self.say("Looking for the best move…")
        self.hints.ask(match.turn(), match.variant)  # answered as HintReady or HintFailed

    def action_review_step(self, delta: int) -> None:
        self._review(review.stepped(self.match.game, self.review_ply, delta))

    def action_review_to(self, ply: int) -> None:
        self._review(review.jumped(self.match.game, ply))

    def action_live(self) -> None:
        self._review(None)

    def action_continue_here(self) -> None:
        ply = self.review_ply
        if ply is None:
            return
        question = review.continue_question(self.match.game, ply)
        if question is None:  # no later move: back to the game
            self._review(None)
            return
        self.app.push_screen(
            ConfirmScreen(question, yes="Play from here"), partial(self._continue_from, ply)
        )

    def _continue_from(self, ply: int, confirmed: bool | None) -> None:
        if not confirmed:
            return
        self.review_ply = None
        self.back_to_play()
        try:
            self.referee.continue_from(ply)
        except ReversiError as error:
            self.say(sentence(str(error)), error=True)

    def _analysis_allowed(self) -> bool:
        reviewing, at_table = self.review_ply is not None, self.link is not None
        return analysis_allowed(self.match, reviewing=reviewing, at_table=at_table)

    def _show_analysis(self) -> None:
        """Push the analysis down to its panel."""
        self.analysis.shown(self.match.game, self.review_ply, ascii_=self.settings.ascii)

    def action_analyse(self) -> None:
        text, error = self.analysis.start_or_stop(
            self.match.game, allowed=self._analysis_allowed(), at_table=self.link is not None
        )
        self.say(text, error=error)
        self._show_analysis()

    def action_graph(self) -> None:
        if not self.analysis.analysed():
            self.say("Nothing analysed yet: a analyses the game.", error=True)
            return
        graph = self.analysis.graph(self.match.game, self.review_ply, ascii_=self.settings.ascii)
        self.app.push_screen(graph, self._graph_closed)

    def _graph_closed(self, ply: int | None) -> None:
        if ply is not None:
            self._review(review.to_show(self.match.game, ply))

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
        """The new-game dialog (not at a table: its game is the table's)."""
        if self.link is not None:
            self.say("This table's game is over: q leaves, and a new table starts a new game.")
            return
        lobby = self.action_lobby if self.reversi_app.invitations is not None else None
        self.app.push_screen(self.another_game.dialog(lobby), self.another_game.chosen)

    def begin(self, match: Match) -> bool:
        """Play `match` from now on (see `AnotherGame.begin`)."""
        return self.another_game.begin(match)

    def _at_the_end(self, match: Match) -> AtTheEnd:
        """What the game-over dialog offers beside the result of `match`."""
        rerated = self.at_table.rerated
        ratings = rerated[1] if rerated is not None and rerated[0] == match.game_id else ""
        return AtTheEnd(self.link is not None, self.at_table.can_ask_rematch(), ratings)

    def _after_the_end(self, choice: str | None) -> None:
        """The game-over dialog's button."""
        if choice == "new":
            self.action_new_game()
        elif choice == "review":
            self.action_review_step(-1)
        elif choice == "analyse":
            self.action_analyse()
        elif choice == "leave":
            self.app.exit()
        elif choice == "rematch":
            self.at_table.ask_rematch()

    # -- the look ----------------------------------------------------------------------

    def _look_changed(self) -> None:
        """The settings changed: the look follows them."""
        self.look.apply()
        self.show()

    def action_markers(self) -> None:
        markers = not self.settings.legal_moves
        self.reversi_app.change_settings(legal_moves=markers)
        self.show()
        self.say(f"Legal-move markers {'on' if markers else 'off'}.")

    def action_ascii(self) -> None:
        self.reversi_app.change_settings(ascii=not self.settings.ascii)
        self._look_changed()

    def action_animation(self) -> None:
        app = self.reversi_app
        app.change_settings(animation=not app.flips_animated)
        self.look.apply()
        self.say(f"Animation {'on' if app.flips_animated else 'off'}.")

    # -- which keys apply --------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """False: the key does nothing in this game (a table's key in a local
        game, saving without files): the help leaves it out too. None: not now
        (reviewing, not your turn, nothing analysed): the key bar and the
        palette leave it out, the help lists it."""
        keys = self._key_state()
        applies = applies_here(keys, action)
        if not applies:
            return applies
        return True if applies_now(keys, action, parameters) else None

    def _key_state(self) -> KeyState:
        """What the keys depend on, now."""
        referee, app, table = self.referee, self.reversi_app, self.at_table
        return KeyState(
            at_table=self.link is not None,
            served=app.invitations is not None,
            keeps_files=app.session is not None,
            reviewing=self.review_ply is not None,
            premove=self.premove is not None,
            takebacks_allowed=referee.takebacks_allowed,
            hints_offered=referee.hints_offered,
            hints_allowed=referee.hints_allowed,
            plays_here=referee.plays_here,
            local_to_move=referee.local_to_move,
            pausing_allowed=referee.allows(lambda allows: allows.pausing),
            paused=self.paused,
            can_resign=table.can_resign(),
            can_ask_rematch=table.can_ask_rematch(),
            analysis_allowed=self._analysis_allowed(),
            analysed=self.analysis.analysed(),
        )
