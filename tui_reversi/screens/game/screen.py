"""The game screen: the board, the score panel, the move log and the status line.

It shows the live game (or a reviewed position) and forwards input: moves
go to the seat of the person at this keyboard, takebacks and new games to
the referee (match.py), which owns the turn loop and reports back. Its
other jobs are parts it is composed of, each owning its own state: history
review (review.py), hints (hint.py), the thinking indicator (thinking.py),
keeping games (keeping.py) and analysis (analysis.py); what it says in
words is in status.py.
State goes down to the widgets; their messages come back up here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.screen import Screen
from textual.widgets import Static

from ...core import Color, Ending, Game, Move, ReversiError
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
from ...session import sentence
from ...widgets.analysis_panel import AnalysisPanel
from ...widgets.board import BoardState, BoardView, largest_cell
from ...widgets.glyphs import glyphs_for
from ...widgets.key_bar import KeyBar, key_for
from ...widgets.move_log import MoveList, MoveLog
from ...widgets.score import Scoreboard, ScorePanel
from ..command_palette import KeyCommands
from ..lobby import LOBBY_BINDINGS, NO_LOBBY
from ..resume import ResumeScreen
from ..start_problems import StartProblemsScreen
from . import status
from .analysis import ANALYSIS_BINDINGS, Analysis
from .hint import HintFailed, HintReady, Hints
from .keeping import KEEPING_BINDINGS, KeepingGames
from .key_bar_order import KEPT, key_bar_order
from .premove import PREMOVE_BINDINGS, Premove
from .review import REVIEW_BINDINGS, Review
from .table import NOT_AT_TABLE, TABLE_BINDINGS, AtTable
from .thinking import ThinkingIndicator

if TYPE_CHECKING:
    from ...net.remote import News
    from ...storage import Settings
    from ..game_app import GameApp
    from ..new_game import NewGame

# Keys that, pressed when they do not apply now, say why ("needs your turn").
EXPLAINED = ("hint", "graph")

SIDE_PANEL_MIN = 24  # columns the score panel and the move log need beside the board
CHROME_LINES = 3  # title bar, status line, footer
SIDE_PANEL_LINES = 12  # lines the score panel and the move log need under the board


class GameScreen(Screen[None]):
    """Play, take back, get a hint and review the game."""

    BINDINGS = [
        Binding(
            "n",
            "new_game",
            "New game",
            id="game.new",
            tooltip="Choose who plays Black and White (human, easy ... expert) and the variant",
        ),
        Binding(
            "u",
            "undo",
            "Undo",
            id="game.undo",
            tooltip="Take back your last move; against the computer, its reply too",
        ),
        Binding("r", "redo", "Redo", id="game.redo", tooltip="Replay a move you took back"),
        Binding(
            "i",
            "hint",
            "Hint",
            id="game.hint",
            tooltip="Mark the engine's best move on the board (Enter then plays it)",
        ),
        Binding(
            "m",
            "markers",
            "Markers",
            id="game.markers",
            tooltip="Show or hide the dots on the squares you may play",
        ),
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
    PALETTE_COMMANDS = (
        ("ascii", "Toggle ASCII board", "X/O/. instead of Unicode discs"),
        ("animation", "Toggle animation", "Turn flipped discs over visibly, or not"),
    )

    KEY_BAR_KEPT = KEPT  # (given way last when the bar is narrow)

    @property
    def KEY_BAR_ORDER(self) -> tuple[str, ...]:  # (a property: the name key_bar.py reads)
        """The key bar's binding ids for now, most important first."""
        return key_bar_order(reviewing=self.review.reviewing, over=self.match.is_over)

    def __init__(self) -> None:
        super().__init__()
        # (text, its shorter form for a narrow status line, is it an error)
        self.notice: tuple[Content, Content | None, bool] | None = None
        self._notice_for_this_turn = False  # the notice goes when the game moves on
        self._game_over_shown: tuple[int, int, Ending] | None = None  # (game, ply, ending)
        self.review = Review(self)
        self.hints = Hints(self)
        self.keeping = KeepingGames(self)
        self.analysis = Analysis(self)
        self.table = AtTable(self)
        self.premove = Premove(self)
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

    def on_mount(self) -> None:
        self.query_one("#score").border_title = "Score"
        self.query_one("#log").border_title = "Moves"
        self.apply_look()
        self.query_one(BoardView).focus()
        app = self.reversi_app
        self._name_the_player(self.match)
        self.analysis.reset(self.match)  # what the loaded or resumed game has
        # The app starts the referee once this screen is drawn (ReversiApp.on_ready).
        app.referee.watch(self._referee_reported)
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
        self._fit_board()
        # (the title's and a notice's narrow forms, or their whole)
        self.call_after_refresh(self._show_title)
        self.call_after_refresh(self._show_status)

    def _fit_board(self) -> None:
        """The biggest board the screen holds, with the score and moves beside
        it, or under it where that gives a bigger board (a phone held upright)."""
        board = self.query_one(BoardView)
        width, height = self.size.width, self.size.height - CHROME_LINES
        beside = largest_cell(width - SIDE_PANEL_MIN - 2, height, board.glyphs)
        under = largest_cell(width - 1, height - SIDE_PANEL_LINES, board.glyphs)
        stacked = under > beside
        self.set_class(stacked, "-stacked")
        board.cell = under if stacked else beside

    def apply_look(self) -> None:
        glyphs = glyphs_for(self.settings.ascii)
        self.app.set_class(self.settings.ascii, "-ascii")
        self.query_one(BoardView).glyphs = glyphs
        self.query_one(ScorePanel).glyphs = glyphs
        self.query_one(MoveLog).glyphs = glyphs
        self.query_one(BoardView).animate_flips = self.reversi_app.flips_animated
        self._fit_board()

    # -- what the referee reports ------------------------------------------------------

    def _referee_reported(self, event: Event) -> None:
        if isinstance(event, Began):
            self._began(event.match)
        elif isinstance(event, RecordChanged):
            # Work for the old position is dropped; the view is rebuilt from the game.
            self.thinking.stopped()
            self.hints.clear()
            if not event.moved:  # taken back, or another position: typed ahead for none
                self.premove.move = None
            elif self._notice_for_this_turn:  # ("It is White's turn" is not true any more)
                self.notice = None
            review_ply = self.review.ply
            if review_ply is not None and review_ply > self.match.game.length:
                self.review.reset()  # taken back past the reviewed position
            self.show(animate=event.moved)
            self.refresh_bindings()
        elif isinstance(event, Ended):
            self.thinking.stopped()
            self.premove.move = None
            self.show()  # nothing more to play: no markers, no Enter to play
            self.refresh_bindings()
            self._announce_game_over(event.ending)
        elif isinstance(event, Asked):
            if event.player.allows.local_input:  # (asked once this report is done)
                self.call_later(self.premove.turn_came)
            if event.player.allows.shows_thinking:
                self.thinking.started(event.turn, event.color)
        elif isinstance(event, Thinking):
            self.thinking.progressed(event.turn, event.info)
        elif isinstance(event, Refused):
            self._refused(event)
        elif isinstance(event, Failed):
            self.thinking.stopped()
            self.say(f"The computer player failed ({event.problem}); p tries again.", error=True)
            self.refresh_bindings()
        elif isinstance(event, Told):  # a toast: the status line clears as play goes on
            self.app.notify(sentence(event.text), severity="warning", timeout=20)
        elif isinstance(event, PauseChanged) and event.paused:
            self.thinking.stopped()

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
        self.refresh_bindings()

    # -- the one place the view is rebuilt from the game ----------------------------

    def show(self, *, animate: bool = False) -> None:
        """Push the state of the game (or of the reviewed position) down to the widgets."""
        match, game = self.match, self.match.game
        review_ply = self.review.ply
        ply = game.ply if review_ply is None else review_ply
        position = game.positions[ply]
        last, flipped = _last_move(game, ply)
        # Whether a move may be played here now (so the key bar offers "⏎ Play"):
        # not while a computer or the person across the table is to move.
        to_play = self.referee.local_to_move
        human_live = review_ply is None and to_play
        self.query_one(BoardView).show(
            BoardState(
                position,
                legal=position.legal_mask() if human_live and self.settings.legal_moves else 0,
                last_move=last,
                flipped=flipped,
                # in review, the best move from the reviewed position, when analysed
                hint=self.hints.square if review_ply is None else self.analysis.best(review_ply),
                premove=self.premove.square if review_ply is None else None,
                readonly=review_ply is not None,
                playable=self.referee.plays_here,
                to_play=to_play,
                over=match.is_over and review_ply is None,
            ),
            animate=animate,
        )
        turn = status.turn_text(
            match, ply, reviewing=review_ply is not None, paused=self.referee.paused
        )
        # A game may end off the board (a resignation, a flag, a player gone).
        ending = match.ending if review_ply is None else None
        self.query_one(ScorePanel).scoreboard = Scoreboard(
            players=(match.player_label(Color.BLACK), match.player_label(Color.WHITE)),
            ratings=self.table.ratings(),
            counts=(position.count(Color.BLACK), position.count(Color.WHITE)),
            to_move=None if position.is_game_over() or ending is not None else position.to_move,
            status=turn if ending is None or position.is_game_over() else _ended_status(ending),
        )
        marks, notes = self.analysis.marks(game)
        self.query_one(MoveLog).moves = MoveList(
            game.played,
            game.ply,
            review_ply,
            first=game.positions[0].to_move,
            marks=marks,
            notes=notes,
        )
        self._show_title()
        self._show_status()
        self.analysis.shown()

    def _show_title(self) -> None:
        title = self.query_one("#title-bar", Static)
        ply = self.match.game.ply if self.review.ply is None else self.review.ply
        opening = self.analysis.opening(ply)
        bar = status.title_bar(
            self.match, self.review.ply, self.reversi_app.text, opening, key=self.key_for
        )
        width = title.content_size.width  # (0 before the first layout)
        if 0 < width < bar.cell_length:
            bar = status.title_bar(
                self.match,
                self.review.ply,
                self.reversi_app.text,
                opening,
                key=self.key_for,
                narrow=True,
            )
        title.update(bar)
        title.set_class(self.review.reviewing, "-review")

    def _show_status(self) -> None:
        line = self.query_one("#status", Static)
        if self.notice is not None:
            text, narrow, error = self.notice
            width = line.content_size.width  # (0 before the first layout)
            line.update(narrow if narrow is not None and 0 < width < text.cell_length else text)
            line.set_class(error, "-error")
        else:
            review_ply = self.review.ply
            review = None if review_ply is None else self.analysis.review_line(review_ply)
            line.update(
                review  # the best move from the reviewed position, when analysed
                or status.advice(
                    self.match,
                    self.review.ply,
                    paused=self.referee.paused,
                    spell=self.reversi_app.text,
                    key=self.key_for,
                    at_table=self.table.link is not None,
                )
            )
            line.remove_class("-error")

    def key_for(self, action: str) -> str | None:
        """The key shown for `action` as bound, where it acts now (for the words)."""
        return key_for(self, action)

    def say(
        self,
        text: str,
        *,
        error: bool = False,
        for_this_turn: bool = False,
        narrow: str | None = None,
    ) -> None:
        """Show a one-line message on the status line until the next key, or
        (`for_this_turn`: it tells of whose turn it is) until a move is played;
        `narrow` instead where `text` does not fit on the line."""
        spell = self.reversi_app.text
        shorter = status.notice(narrow, spell) if narrow is not None else None
        self.notice = (status.notice(text, spell), shorter, error)
        self._notice_for_this_turn = for_this_turn
        self._show_status()
        if error:
            self.app.bell()

    def say_nothing(self) -> None:
        """Clear the status line's message: it gives advice again."""
        self.notice = None
        self._show_status()

    def back_to_play(self) -> None:
        """Before the live game changes from a dialog or a review: no stale
        message, the end may be announced again, and the keys go to the board."""
        self.notice = None
        self._game_over_shown = None
        self.query_one(BoardView).focus()

    def review_changed(self) -> None:
        """The review part moved to another position, or back to the live game."""
        self.notice = None
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
        self.notice = None
        if self.referee.submit(move) or self.premove.keep(move):
            return
        self.say(
            f"It is {match.to_move.label}'s turn ({match.player_label(match.to_move)}).",
            error=True,
            for_this_turn=True,
        )

    def on_key(self, event: events.Key) -> None:
        # Reached by the keys no widget took (typing a square stops at the
        # board); the app's bindings run after this, so ask them first.
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
        move = self.premove.move
        self.premove.clear()
        if move is not None:
            self.say(f"The premove {move} is cleared.")

    def action_undo(self) -> None:
        self.notice = None
        if self.referee.undo():
            if self.referee.paused:  # between computers: the referee paused the game
                self.say("Undone; paused: p lets the computers play on.")
        else:
            self.say("Nothing to undo.", error=True)

    def action_redo(self) -> None:
        self.notice = None
        if not self.referee.redo():
            self.say("Nothing to redo.", error=True)

    def action_pause(self) -> None:
        self.referee.set_paused(not self.referee.paused)
        if self.referee.paused:
            self.say("Paused: p lets the computers play on.")
        else:
            self.notice = None
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
        if self.table.link is not None:
            self.say("This table's game is over: q leaves, and a new table starts a new game.")
            return
        from ..new_game import NewGame, NewGameScreen

        def check(choice: NewGame) -> str | None:
            try:
                self.referee.check_seats(Match.new(choice.black, choice.white, choice.variant))
            except ReversiError as error:
                return f"{str(error)[:1].upper()}{str(error)[1:]}."
            return None

        match = self.match
        current = NewGame(match.black, match.white, match.variant)
        lobby = self.action_lobby if self.reversi_app.invitations is not None else None
        self.app.push_screen(NewGameScreen(current, check, lobby), self._new_game_chosen)

    def _new_game_chosen(self, choice: NewGame | None) -> None:
        if choice is None:
            return
        if self.begin(Match.new(choice.black, choice.white, choice.variant)):
            # Every choice made in the app is the default of the next start.
            self.reversi_app.change_settings(
                black=choice.black, white=choice.white, variant=choice.variant
            )

    def begin(self, match: Match) -> bool:
        """Play `match` from now on (a new, loaded or imported game). Says why
        and changes nothing if one of its players cannot be seated."""
        try:
            self.referee.check_seats(match)
        except ReversiError as error:
            self.say(sentence(str(error)), error=True)
            return False
        self.referee.begin(match)  # reported back as Began
        return True

    def _began(self, match: Match) -> None:
        """Another game is on the board (new, loaded, a rematch): nothing of the
        last one is shown any more (its result, a review, an analysis)."""
        from ..game_over import GameOverScreen

        if isinstance(self.app.screen, GameOverScreen):
            self.app.screen.dismiss(None)
        self._name_the_player(match)
        self.analysis.reset(match)
        self.review.reset()
        self.premove.move = None
        self.back_to_play()

    def _name_the_player(self, match: Match) -> None:
        """On a server, in the player's own game against the computer: the
        person's seat shows their name (as the server knows it), not "Human"."""
        invitations = self.reversi_app.invitations
        if invitations is None or match.humans != 1 or any(match.names):
            return
        name = invitations.link.name
        black, white = (name if match.is_human(color) else "" for color in Color)
        match.names = (black, white)

    # -- the look: markers, ASCII, animation ---------------------------------------------

    def action_markers(self) -> None:
        self.reversi_app.change_settings(legal_moves=not self.settings.legal_moves)
        self.show()
        self.say(f"Legal-move markers {'on' if self.settings.legal_moves else 'off'}.")

    def action_ascii(self) -> None:
        self.reversi_app.change_settings(ascii=not self.settings.ascii)
        self.apply_look()
        self.show()

    def action_animation(self) -> None:
        self.reversi_app.change_settings(animation=not self.reversi_app.flips_animated)
        self.apply_look()
        self.say(f"Animation {'on' if self.reversi_app.flips_animated else 'off'}.")

    # -- game over ---------------------------------------------------------------------------

    def _announce_game_over(self, ending: Ending) -> None:
        from ..game_over import GameOverScreen

        match = self.match
        shown = (match.game_id, match.game.ply, ending)
        if self._game_over_shown == shown or ending.reason == "adjourned":
            return  # (adjourned: the game goes on later; the status line says so)
        self._game_over_shown = shown
        at_table = self.table.link is not None
        rerated = self.table.rerated
        ratings = rerated[1] if rerated is not None and rerated[0] == match.game_id else ""
        over = GameOverScreen(
            match, ending, at_table=at_table, rematch=self.table.can_ask_rematch(), ratings=ratings
        )
        self.app.push_screen(over, self._after_game_over)

    def show_rating_changes(self, text: str) -> None:
        """How the game just over moved the ratings: in the game-over dialog if it is
        up (else it shows them when it opens), and on the status line."""
        from ..game_over import GameOverScreen

        if isinstance(self.app.screen, GameOverScreen):
            self.app.screen.show_ratings(text)
        self.say(f"Ratings: {text}")

    def set_game_over_aside(self) -> bool:
        """A newer dialog is coming: the game-over one, if it is up, goes for
        now (one dialog at a time). True if it was up."""
        from ..game_over import GameOverScreen

        if not isinstance(self.app.screen, GameOverScreen):
            return False
        self.app.screen.dismiss(None)
        return True

    def game_over_again(self) -> None:
        """Show the result again (after the dialog that put it aside), if the
        game is still over."""
        ending = self.match.ended
        if ending is not None:
            self._game_over_shown = None
            self._announce_game_over(ending)

    def _after_game_over(self, choice: str | None) -> None:
        if choice == "new":
            self.action_new_game()
        elif choice == "review":
            self.review.step(-1)
        elif choice == "analyse":
            self.analysis.start_or_stop()
        elif choice == "leave":
            self.app.exit()
        elif choice == "rematch":
            self.table.ask_rematch()

    # -- which keys apply --------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """False: the key does nothing in this game (a table's key in a local
        game, saving without files): the help leaves it out too. None: not now
        (reviewing, not your turn, nothing analysed): the key bar and the
        palette leave it out, the help lists it."""
        applies = self._applies_here(action)
        if not applies:
            return applies
        return True if self._applies_now(action, parameters) else None

    def _applies_here(self, action: str) -> bool:
        referee, at_table = self.referee, self.table.link is not None
        if action in ("resign", "chat", "takeback", "rematch"):
            return at_table
        if action in NOT_AT_TABLE and at_table:
            return False
        if action in ("lobby", "no_lobby"):  # at a table, q goes back to the lobby's game
            served = self.reversi_app.invitations is not None
            return not at_table and served == (action == "lobby")
        if action in ("undo", "redo", "continue_here"):  # (continuing takes moves back)
            return referee.takebacks_allowed
        if action == "hint":
            return referee.hints_offered
        if action == "clear_premove":
            # False, not None, without one: esc is then the review's key.
            return self.premove.move is not None and not self.review.reviewing
        if action == "markers":  # someone plays at this keyboard (not watching)
            return referee.plays_here
        if action == "pause":  # watching two computers, or after a player failed
            return referee.allows(lambda allows: allows.pausing) or referee.paused
        if action in ("save_game", "open_games", "settings"):
            return self.reversi_app.session is not None
        return True

    def _applies_now(self, action: str, parameters: tuple[object, ...]) -> bool:
        reviewing = self.review.reviewing
        if action == "resign":
            return self.table.can_resign()
        if action == "takeback":
            return self.table.can_ask_takeback()
        if action == "rematch":
            return self.table.can_ask_rematch()
        if action in ("live", "continue_here"):
            return reviewing
        if action == "review_step" and parameters == (1,):
            return reviewing
        if action in ("undo", "redo", "pause"):
            return not reviewing
        if action == "hint":  # the person to move, in the live game
            return not reviewing and self.referee.hints_allowed
        if action == "markers":  # at a table, only on your turn (the key bar is short)
            on_turn = self.referee.local_to_move or self.table.link is None
            return not reviewing and on_turn
        if action == "analyse":  # never a help during play
            return self.analysis.allowed()
        if action == "graph":
            return self.analysis.allowed() and self.analysis.analysed()
        return True


def _ended_status(ending: Ending) -> str:
    """The score panel's line for a game ended off the board: who won and
    how ('Black wins: White resigned', 'White wins on time', 'Adjourned'),
    there for as long as the game is shown, as a result on the board is."""
    return str(ending)


def _last_move(game: Game, ply: int) -> tuple[int | None, int]:
    """The last real move before `ply` and the discs it flipped (a bitboard)."""
    for earlier in range(ply - 1, -1, -1):
        move = game.move_at(earlier)
        if move:
            return move.square, game.positions[earlier].flips(move.square)
    return None, 0
