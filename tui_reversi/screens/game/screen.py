"""The game screen: the board, the score panel, the move log and the status line.

It owns the flow of play: human moves, undo/redo, new game, the look
toggles, game over, and which keys apply now. Its other jobs live beside
it, one idea each, as parts of the class: the computer's turn
(computer.py), hints (hint.py), history review (review.py) and keeping
games (keeping.py); what it says in words is in status.py. State goes down
to the widgets; their messages come back up here.
"""

from __future__ import annotations

from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.widgets import Static

from ...core import PASS, Color, Game, ReversiError, square_name
from ...match import Match, Turn
from ...session import sentence
from ...widgets.analysis_panel import AnalysisPanel
from ...widgets.board import BoardState, BoardView, largest_cell
from ...widgets.glyphs import glyphs_for
from ...widgets.key_bar import KeyBar
from ...widgets.move_log import MoveList, MoveLog
from ...widgets.score import Scoreboard, ScorePanel
from ..resume import ResumeScreen
from ..start_problems import StartProblemsScreen
from . import status
from .analysis import ANALYSIS_BINDINGS, GameAnalysisPart
from .computer import ComputerTurns
from .hint import Hints
from .keeping import KEEPING_BINDINGS, KeepingGames
from .review import REVIEW_BINDINGS, HistoryReview

SIDE_PANEL_MIN = 24  # columns the score panel and the move log need beside the board
CHROME_LINES = 3  # title bar, status line, footer


class GameScreen(ComputerTurns, Hints, HistoryReview, KeepingGames, GameAnalysisPart):
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
        *REVIEW_BINDINGS,
        *KEEPING_BINDINGS,
        *ANALYSIS_BINDINGS,  # analysis hook
    ]

    def __init__(self) -> None:
        super().__init__()
        self.notice: tuple[Content, bool] | None = None  # (text, is it an error)
        self._game_over_shown: Turn | None = None

    @property
    def match(self) -> Match:
        return self.app.match

    @property
    def options(self):
        return self.app.options

    # -- layout ----------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield Static(id="title-bar")
        with Horizontal(id="main"):
            yield BoardView(id="board", animate=self.options.animation)
            with Vertical(id="side"):
                yield ScorePanel(id="score", clock=self.options.clock)
                yield AnalysisPanel(id="analysis")  # analysis hook
                yield MoveLog(id="log")
        yield Static(id="status")
        yield KeyBar()

    def on_mount(self) -> None:
        self.query_one("#score").border_title = "Score"
        self.query_one("#log").border_title = "Moves"
        self._apply_look()
        self.query_one(BoardView).focus()
        self.analysis_reset()  # analysis hook: what the loaded or resumed game has
        session = self.app.session
        if session is not None and session.offer is not None:
            # Nothing moves until the player answers: the game behind is the offered one.
            self._show()
            self.refresh_bindings()
            self.app.push_screen(
                ResumeScreen(self.match, session.offer.updated, self.options),
                self._resume_chosen,
            )
        else:
            # A game loaded from a file is autosaved at once, so a crash before the
            # first move still offers it; a resumed or new one has nothing new to save.
            self._record_changed(animate=False, save=session is not None and session.loaded)
        notes = session.take_notes() if session is not None else []
        if notes:  # on top: read first, then the resume offer (if any) below it
            self.app.push_screen(StartProblemsScreen(notes, session.settings_file))

    def on_resize(self) -> None:
        self._fit_board()

    def _fit_board(self) -> None:
        board = self.query_one(BoardView)
        width = self.size.width - SIDE_PANEL_MIN - 2
        height = self.size.height - CHROME_LINES
        board.cell = largest_cell(width, height, board.glyphs)

    def _apply_look(self) -> None:
        glyphs = glyphs_for(self.options.ascii)
        self.app.set_class(self.options.ascii, "-ascii")
        self.query_one(BoardView).glyphs = glyphs
        self.query_one(ScorePanel).glyphs = glyphs
        self.query_one(BoardView).animate_flips = self.options.animation
        self._fit_board()

    # -- the one place the view is rebuilt from the game ----------------------------

    def _record_changed(self, *, animate: bool, save: bool = True) -> None:
        """After any change to the live game: drop work for the old position,
        save, redraw, then hand the turn to the computer or announce the end."""
        self._cancel_thinking()
        self._cancel_hint()
        self.hint = None
        if save:
            self.app.record_changed()
        self._show(animate=animate)
        self.refresh_bindings()
        if self.match.is_over:
            self._announce_game_over()
        elif self.match.computer_to_move and not self.paused:
            self._start_thinking()

    def _show(self, *, animate: bool = False) -> None:
        """Push the state of the game (or of the reviewed position) down to the widgets."""
        match, game = self.match, self.match.game
        ply = game.ply if self.review_ply is None else self.review_ply
        position = game.positions[ply]
        last, flipped = _last_move(game, ply)
        human_live = self.review_ply is None and match.human_to_move
        self.query_one(BoardView).show(
            BoardState(
                position,
                legal=position.legal_mask() if human_live and self.options.markers else 0,
                last_move=last,
                flipped=flipped,
                # analysis hook: in review, the best move from the reviewed position
                hint=self.hint if self.review_ply is None else self.analysis_best(ply),
                readonly=self.review_ply is not None,
                playable=match.humans > 0,
            ),
            animate=animate,
        )
        self.query_one(ScorePanel).scoreboard = Scoreboard(
            players=(match.player_label(Color.BLACK), match.player_label(Color.WHITE)),
            counts=(position.count(Color.BLACK), position.count(Color.WHITE)),
            to_move=None if position.is_game_over() else position.to_move,
            status=status.turn_text(
                match, ply, reviewing=self.review_ply is not None, paused=self.paused
            ),
        )
        marks, notes = self.analysis_marks(game)  # analysis hook
        self.query_one(MoveLog).moves = MoveList(
            tuple(game.moves), game.ply, self.review_ply, marks, notes
        )
        self._show_title()
        self._show_status()
        self.analysis_shown()  # analysis hook

    def _show_title(self) -> None:
        title = self.query_one("#title-bar", Static)
        ply = self.match.game.ply if self.review_ply is None else self.review_ply
        opening = self.opening_title(ply)  # analysis hook
        title.update(status.title_bar(self.match, self.review_ply, self.app.text, opening))
        title.set_class(self.review_ply is not None, "-review")

    def _show_status(self) -> None:
        line = self.query_one("#status", Static)
        if self.notice is not None:
            text, error = self.notice
            line.update(text)
            line.set_class(error, "-error")
        else:
            review = None if self.review_ply is None else self.analysis_review_line(self.review_ply)
            line.update(
                review  # analysis hook: the best move from the reviewed position
                or status.advice(
                    self.match, self.review_ply, paused=self.paused, spell=self.app.text
                )
            )
            line.remove_class("-error")

    def say(self, text: str, *, error: bool = False) -> None:
        """Show a one-line message on the status line until the game moves on."""
        self.notice = (status.notice(text, self.app.text), error)
        self._show_status()
        if error:
            self.app.bell()

    # -- playing -----------------------------------------------------------------------

    @on(BoardView.SquareChosen)
    def _square_chosen(self, event: BoardView.SquareChosen) -> None:
        self.play(event.square)

    def play(self, square: int) -> None:
        """The human to move plays `square`, or is told why not."""
        match = self.match
        name = square_name(square)
        if self.review_ply is not None:
            self.say("Reviewing: esc returns to the game, ⏎ plays on from here.", error=True)
            return
        if match.is_over:
            self.say("The game is over: n starts a new one.", error=True)
            return
        if not match.human_to_move:
            self.say(
                f"It is {match.to_move.label}'s turn ({match.player_label(match.to_move)}).",
                error=True,
            )
            return
        reason = match.position.illegal_reason(square)
        if reason is not None:
            self.say(f"{name} {reason}.", error=True)
            return
        match.game.play(square)
        self.notice = None
        self._record_changed(animate=True)

    def on_key(self, event: events.Key) -> None:
        # Reached by the keys no widget took (typing a square stops at the
        # board); the app's bindings run after this, so ask them first.
        character = event.character
        if not event.is_printable or not character or event.key in self.active_bindings:
            return
        name = character if character.strip() else event.key
        self.say(f"{name} does nothing now: ? lists the keys.")

    # -- undo, redo, new game ------------------------------------------------------------

    def action_undo(self) -> None:
        if self.match.undo():
            self.notice = None
            self.paused = self.paused or self.match.humans == 0
            self._record_changed(animate=False)
            if self.match.humans == 0:
                self.say("Undone; paused: p lets the computers play on.")
        else:
            self.say("Nothing to undo.", error=True)

    def action_redo(self) -> None:
        if self.match.redo():
            self.notice = None
            self._record_changed(animate=False)
        else:
            self.say("Nothing to redo.", error=True)

    def action_new_game(self) -> None:
        from ..new_game import NewGame, NewGameScreen

        def check(choice: NewGame) -> str | None:
            try:
                self.app.make_players(Match.new(choice.black, choice.white, choice.variant))
            except ReversiError as error:
                return f"{str(error)[:1].upper()}{str(error)[1:]}."
            return None

        match = self.match
        current = NewGame(match.black, match.white, match.variant)
        self.app.push_screen(NewGameScreen(current, check), self._new_game_chosen)

    def _new_game_chosen(self, choice) -> None:
        if choice is not None:
            self.begin(Match.new(choice.black, choice.white, choice.variant))

    def begin(self, match: Match) -> bool:
        """Play `match` from now on (a new, loaded or imported game). Says why
        and changes nothing if one of its players cannot be created."""
        try:
            self.app.start_match(match)
        except ReversiError as error:
            self.say(sentence(str(error)), error=True)
            return False
        self.review_ply = None
        self.paused = False
        self.notice = None
        self._game_over_shown = None
        self.analysis_reset()  # analysis hook
        self.query_one(BoardView).focus()
        self._record_changed(animate=False)
        return True

    # -- the look: markers, ASCII, animation ---------------------------------------------

    def action_markers(self) -> None:
        self.options.markers = not self.options.markers
        self.app.options_changed()
        self._show()
        self.say(f"Legal-move markers {'on' if self.options.markers else 'off'}.")

    def action_ascii(self) -> None:
        self.options.ascii = not self.options.ascii
        self.app.options_changed()
        self._apply_look()
        self._show()

    def action_animation(self) -> None:
        self.options.animation = not self.options.animation
        self.app.options_changed()
        self._apply_look()
        self.say(f"Animation {'on' if self.options.animation else 'off'}.")

    # -- game over ---------------------------------------------------------------------------

    def _announce_game_over(self) -> None:
        from ..game_over import GameOverScreen

        turn = self.match.turn()
        if self._game_over_shown == turn:
            return
        self._game_over_shown = turn
        result = self.match.game.result
        self.app.push_screen(GameOverScreen(self.match, result), self._after_game_over)

    def _after_game_over(self, choice: str | None) -> None:
        if choice == "new":
            self.action_new_game()
        elif choice == "review":
            self.action_review_step(-1)
        elif choice == "analyse":  # analysis hook
            self.action_analyse()

    # -- which keys apply now -----------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        reviewing = self.review_ply is not None
        if action in ("live", "continue_here"):
            return reviewing
        if action in ("undo", "redo"):
            return not reviewing
        if action in ("hint", "markers"):
            return not reviewing and self.match.humans > 0
        if action == "pause":  # watching two computers, or after a player failed
            return (self.match.humans == 0 or self.paused) and not reviewing
        if action == "review_step" and parameters == (1,):
            return reviewing
        if action in ("save_game", "open_games", "settings"):
            return self.app.session is not None
        if action in ("analyse", "graph"):  # analysis hook: never a help during play
            return self.match.is_over or reviewing
        return True


def _last_move(game: Game, ply: int) -> tuple[int | None, int]:
    """The last real move before `ply` and the discs it flipped (a bitboard)."""
    for earlier in range(ply - 1, -1, -1):
        move = game.moves[earlier]
        if move != PASS:
            return move, game.positions[earlier].flips(move)
    return None, 0
