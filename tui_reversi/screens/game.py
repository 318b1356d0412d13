"""The game screen: the board, the score panel, the move log and the status line.

It owns the flow of play: human moves, the computer's turn (an exclusive
thread worker whose answer carries the Turn it was asked for), undo/redo,
hints and history review. State goes down to the widgets; their messages
come back up here.
"""

from __future__ import annotations

import time
from functools import partial

from textual import events, on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Static
from textual.worker import get_current_worker

from ..core import (
    PASS,
    Color,
    Game,
    IllegalMoveError,
    ReversiError,
    Variant,
    parse_square,
    square_name,
)
from ..match import Match, Turn
from ..players import MoveScore, SearchInfo
from ..session import AUTO_THEME, PREVIOUS_NAME, sentence
from ..storage import SavedGame
from ..widgets.board import BoardState, BoardView, largest_cell
from ..widgets.glyphs import glyphs_for
from ..widgets.key_bar import KeyBar
from ..widgets.move_log import MoveList, MoveLog
from ..widgets.score import Scoreboard, ScorePanel, Thinking
from .resume import ResumeScreen

SIDE_PANEL_MIN = 24  # columns the score panel and the move log need beside the board
CHROME_LINES = 3  # title bar, status line, footer


class GameScreen(Screen):
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
        Binding(
            "comma",
            "review_step(-1)",
            "Review",
            id="review.back",
            key_display=",",
            tooltip="Step back one move (starts reviewing the game)",
        ),
        Binding(
            "full_stop",
            "review_step(1)",
            "Forward",
            id="review.forward",
            key_display=".",
            tooltip="Step forward one move; past the last one returns to the game",
        ),
        Binding(
            "home",
            "review_to(0)",
            "Start",
            id="review.start",
            show=False,
            tooltip="Jump to the start position",
        ),
        Binding(
            "end",
            "review_to(-1)",
            "End",
            id="review.end",
            show=False,
            tooltip="Jump to the last move",
        ),
        Binding(
            "escape",
            "live",
            "Back to game",
            id="review.live",
            key_display="esc",
            tooltip="Stop reviewing: back to the game in progress",
        ),
        Binding(
            "enter",
            "continue_here",
            "Play from here",
            id="review.continue",
            key_display="⏎",
            tooltip="Play on from the reviewed position (asks first: later moves are discarded)",
        ),
        Binding(
            "s",
            "save_game",
            "Save",
            id="game.save",
            tooltip="Keep this game under a name (asks before replacing another)",
        ),
        Binding(
            "o",
            "open_games",
            "Open",
            id="game.open",
            tooltip="The saved games: load or delete one, or import a game from a file or text",
        ),
        Binding(
            "x",
            "export",
            "Export",
            id="game.export",
            tooltip="Copy the transcript, board string or GGF to the clipboard, or write a file",
        ),
        Binding(
            "t",
            "settings",
            "Settings",
            id="game.settings",
            tooltip="Default players and variant, theme, ASCII board, markers, animation",
        ),
    ]

    # -- messages from the worker threads ------------------------------------------

    class ComputerMoved(Message):
        def __init__(self, turn: Turn, move: str | None) -> None:
            super().__init__()
            self.turn, self.move = turn, move

    class ComputerProgress(Message):
        def __init__(self, turn: Turn, info: SearchInfo) -> None:
            super().__init__()
            self.turn, self.info = turn, info

    class ComputerFailed(Message):
        def __init__(self, turn: Turn, error: str) -> None:
            super().__init__()
            self.turn, self.error = turn, error

    class HintReady(Message):
        def __init__(self, turn: Turn, scores: list[MoveScore]) -> None:
            super().__init__()
            self.turn, self.scores = turn, scores

    def __init__(self) -> None:
        super().__init__()
        self.review_ply: int | None = None
        self.paused = False
        self.hint: int | None = None
        self.notice: tuple[Content, bool] | None = None  # (text, is it an error)
        self._thinking_turn: Turn | None = None
        self._hint_turn: Turn | None = None
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
                yield MoveLog(id="log")
        yield Static(id="status")
        yield KeyBar()

    def on_mount(self) -> None:
        self.query_one("#score").border_title = "Score"
        self.query_one("#log").border_title = "Moves"
        self._apply_look()
        self.query_one(BoardView).focus()
        session = self.app.session
        if session is not None and session.offer is not None:
            # Nothing moves until the player answers: the game behind is the offered one.
            self._show()
            self.refresh_bindings()
            self.app.push_screen(
                ResumeScreen(self.match, session.offer.updated, self.options),
                self._resume_chosen,
            )
            return
        # A game loaded from a file is autosaved at once, so a crash before the
        # first move still offers it; a resumed or new one has nothing new to save.
        self._record_changed(animate=False, save=session is not None and session.loaded)

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
                hint=self.hint if self.review_ply is None else None,
                readonly=self.review_ply is not None,
                playable=match.humans > 0,
            ),
            animate=animate,
        )
        self.query_one(ScorePanel).scoreboard = Scoreboard(
            players=(match.player_label(Color.BLACK), match.player_label(Color.WHITE)),
            counts=(position.count(Color.BLACK), position.count(Color.WHITE)),
            to_move=None if position.is_game_over() else position.to_move,
            status=self._turn_text(ply),
        )
        self.query_one(MoveLog).moves = MoveList(tuple(game.moves), game.ply, self.review_ply)
        self._show_title()
        self._show_status()

    def _turn_text(self, ply: int) -> str:
        game = self.match.game
        position = game.positions[ply]
        if position.is_game_over():
            return str(game.variant.result(position))
        side = position.to_move.label
        if ply and game.moves[ply - 1] == PASS:
            return f"{position.to_move.other.label} passed: {side} again"
        if position.must_pass:
            return f"{side} has no move: must pass"
        if self.review_ply is None and self.paused:
            return f"{side} to move (paused)"
        return f"{side} to move"

    def _show_title(self) -> None:
        title = self.query_one("#title-bar", Static)
        match = self.match
        if self.review_ply is not None:
            total = match.game.length
            where = "the start" if self.review_ply == 0 else f"move {self.review_ply} of {total}"
            title.update(
                Content.from_markup(
                    self.app.text(
                        " REVIEWING $where · [b]esc[/b] back to the game · "
                        "[b]⏎[/b] play from here · [b],[/b] [b].[/b] step"
                    ),
                    where=where.upper()
                    if self.review_ply == 0
                    else f"MOVE {self.review_ply} OF {total}",
                )
            )
            title.add_class("-review")
            return
        title.remove_class("-review")
        title.update(
            Content.from_markup(
                self.app.text(" [b]tui-reversi[/b] · $variant · $black vs $white"),
                variant=match.variant.value.capitalize(),
                black=f"Black {match.player_label(Color.BLACK)}",
                white=f"White {match.player_label(Color.WHITE)}",
            )
        )

    def _show_status(self) -> None:
        status = self.query_one("#status", Static)
        if self.notice is not None:
            text, error = self.notice
            status.update(text)
            status.set_class(error, "-error")
        else:
            status.update(self._advice())
            status.remove_class("-error")

    def _advice(self) -> Content:
        """What the player can do now, when there is nothing else to say."""
        match, game = self.match, self.match.game
        if self.review_ply is not None:
            return Content(f" {_describe_ply(game, self.review_ply)}")
        if match.is_over:
            return Content.from_markup(
                self.app.text(
                    " Game over: [b]n[/b] new game · [b],[/b] review · [b]ctrl+q[/b] quit"
                )
            )
        passed = game.ply and game.moves[game.ply - 1] == PASS
        who = match.to_move.label
        if passed:
            text = f" {match.to_move.other.label} has no legal move and passes. {who} to move."
            return Content.from_markup("[b $warning]$text[/]", text=text)
        if match.human_to_move:
            return Content.from_markup(
                self.app.text(
                    " $who to play: arrows/hjkl + [b]⏎[/b], type a square ([b]d3[/b]) or click"
                ),
                who=who,
            )
        if self.paused:
            return Content.from_markup(" Paused: [b]p[/b] to let the computers play on")
        return Content.from_markup(
            self.app.text(" $who ($level) is thinking…"),
            who=who,
            level=match.player_label(match.to_move),
        )

    def say(self, text: str, *, error: bool = False) -> None:
        """Show a one-line message on the status line until the game moves on."""
        self.notice = (Content.from_markup("[b]$text[/b]", text=f" {self.app.text(text)}"), error)
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

    # -- the computer's turn -------------------------------------------------------------

    def _start_thinking(self) -> None:
        match = self.match
        player = self.app.players[match.to_move]
        if player is None:
            return
        turn = match.turn()
        self._thinking_turn = turn
        delay = self.options.computer_delay if match.humans else self.options.watch_delay
        self.query_one(ScorePanel).thinking = Thinking(match.to_move, self.options.clock())
        self._think(player, turn, delay)

    @work(thread=True, exclusive=True, group="computer", exit_on_error=False)
    def _think(self, player, turn: Turn, delay: float) -> None:
        worker = get_current_worker()
        clock = self.options.clock
        started = clock()

        def cancelled() -> bool:
            return worker.is_cancelled

        def progress(info: SearchInfo) -> None:
            self.post_message(self.ComputerProgress(turn, info))

        try:
            move = player.choose_move(turn.position, cancelled=cancelled, progress=progress)
        except Exception as error:  # a bug in a player: report it, keep the game
            self.post_message(self.ComputerFailed(turn, f"{type(error).__name__}: {error}"))
            return
        # A reply that lands before yours has been drawn looks like cheating.
        while not cancelled() and clock() - started < delay:
            time.sleep(0.02)
        if not cancelled():
            self.post_message(self.ComputerMoved(turn, move))

    @on(ComputerProgress)
    def _computer_progress(self, event: ComputerProgress) -> None:
        panel = self.query_one(ScorePanel)
        if event.turn == self._thinking_turn and panel.thinking is not None:
            info = event.info
            panel.thinking = Thinking(
                panel.thinking.color, panel.thinking.started, info.depth, info.exact
            )

    @on(ComputerMoved)
    def _computer_moved(self, event: ComputerMoved) -> None:
        if not self.match.is_current(event.turn) or event.turn != self._thinking_turn:
            return  # stale: the game moved on (undo, new game) while it thought
        self._thinking_turn = None
        self.query_one(ScorePanel).thinking = None
        if event.move is None:
            self.say(
                f"{self.match.to_move.label}'s player passed with a legal move available.",
                error=True,
            )
            return
        try:
            self.match.game.play(event.move)
        except IllegalMoveError as error:
            self.say(f"The computer tried an illegal move: {error}.", error=True)
            return
        self._record_changed(animate=True)

    @on(ComputerFailed)
    def _computer_failed(self, event: ComputerFailed) -> None:
        if event.turn == self._hint_turn:
            self._hint_turn = None
            self.say(f"No hint this time ({event.error}).", error=True)
            return
        if event.turn != self._thinking_turn:
            return
        self._thinking_turn = None
        self.query_one(ScorePanel).thinking = None
        self.paused = True
        self.say(f"The computer player failed ({event.error}); p tries again.", error=True)
        self.refresh_bindings()

    def _cancel_thinking(self) -> None:
        self._thinking_turn = None
        self.workers.cancel_group(self, "computer")
        self.query_one(ScorePanel).thinking = None

    def action_pause(self) -> None:
        self.paused = not self.paused
        if self.paused:
            self._cancel_thinking()
            self.say("Paused: p lets the computers play on.")
        else:
            self.notice = None
            if self.match.computer_to_move:
                self._start_thinking()
        self._show()
        self.refresh_bindings()

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
        from .new_game import NewGame, NewGameScreen

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
        self.query_one(BoardView).focus()
        self._record_changed(animate=False)
        return True

    # -- keeping games: resume, save, open, import, export, settings ----------------------

    def _resume_chosen(self, resume: bool | None) -> None:
        session = self.app.session
        session.offer = None
        if resume is not False:
            self._record_changed(animate=False, save=False)
            self.say(f"Resumed at move {self.match.game.ply}.")
            return
        options = self.options
        if self.begin(Match.new(options.black, options.white, options.variant)):
            self.say(f"New game. The unfinished one is kept: o lists it as '{PREVIOUS_NAME}'.")

    def action_save_game(self) -> None:
        from .save_game import SaveGameScreen

        session = self.app.session
        if session is not None:
            self.app.push_screen(SaveGameScreen(session, self.match), self._saved)

    def _saved(self, entry) -> None:
        if entry is not None:
            self.say(f"Saved as '{entry.name}'.")

    def action_open_games(self) -> None:
        from .saved_games import SavedGamesScreen

        session = self.app.session
        if session is not None:
            self.app.push_screen(SavedGamesScreen(session), self._game_opened)

    def _game_opened(self, opened) -> None:
        if opened == "import":
            self.action_import()
        elif opened is not None:
            record, label = opened
            self._play_record(record, f"Loaded {label}.")

    def action_import(self, text: str = "") -> None:
        from .import_game import ImportScreen

        self.app.push_screen(ImportScreen(text), self._imported)

    def on_paste(self, event: events.Paste) -> None:
        # A game pasted onto the board: offer to import it.
        event.stop()
        if event.text.strip() and self.app.screen is self:
            self.action_import(event.text)

    def _imported(self, record: SavedGame | None) -> None:
        if record is not None:
            moves = record.to_game().ply
            self._play_record(record, f"Imported a game at move {moves}.")

    def _play_record(self, record: SavedGame, message: str) -> None:
        session = self.app.session
        try:
            if session is not None:
                match = session.match_from(record)
            else:
                match = Match(record.black, record.white, record.to_game())
        except ReversiError as error:
            self.say(sentence(str(error)), error=True)
            return
        if self.begin(match) and not self.match.is_over:
            self.say(message)

    def action_export(self) -> None:
        from .export import ExportScreen

        session, match = self.app.session, self.match
        if session is not None:
            record = session.record_for(match)
        else:
            record = SavedGame.from_game(match.game, match.black, match.white)
        self.app.push_screen(ExportScreen(record), self._exported)

    def _exported(self, message: str | None) -> None:
        if message:
            self.say(message)

    def action_settings(self) -> None:
        from .settings import SettingsScreen

        session = self.app.session
        if session is not None:
            self.app.push_screen(SettingsScreen(session), self._settings_saved)

    def _settings_saved(self, changed: dict | None) -> None:
        """Apply the settings the player changed (the others may be held by
        a command-line option for this run)."""
        if not changed:
            return
        options = self.options
        for key in ("black", "white", "variant"):
            if key in changed:
                setattr(options, key, changed[key])
        if "legal_moves" in changed:
            options.markers = changed["legal_moves"]
        if "ascii" in changed:
            options.ascii = changed["ascii"]
        if "animation" in changed:
            options.animation = self.app.auto_animation(changed["animation"])
        if "theme" in changed:
            theme = changed["theme"]
            self.app.theme = self.app.auto_theme(None if theme == AUTO_THEME else theme)
        self._apply_look()
        self._show()
        self.app.options_changed()
        self.say("Settings saved.")

    # -- hint and markers ------------------------------------------------------------------

    def action_hint(self) -> None:
        match = self.match
        if self.review_ply is not None or not match.human_to_move:
            self.say("A hint needs your turn in the live game.", error=True)
            return
        turn = match.turn()
        self._hint_turn = turn
        self.say("Looking for the best move…")
        self._find_hint(turn, match.variant)

    @work(thread=True, exclusive=True, group="hint", exit_on_error=False)
    def _find_hint(self, turn: Turn, variant: Variant) -> None:
        worker = get_current_worker()
        try:
            scores = self.app.hint_engine(turn.position, variant, lambda: worker.is_cancelled)
        except Exception as error:  # a bug in the engine: say so, keep the game
            self.post_message(self.ComputerFailed(turn, f"{type(error).__name__}: {error}"))
            return
        if not worker.is_cancelled:
            self.post_message(self.HintReady(turn, scores))

    @on(HintReady)
    def _hint_ready(self, event: HintReady) -> None:
        if (
            event.turn != self._hint_turn
            or not self.match.is_current(event.turn)
            or not event.scores
        ):
            return
        self._hint_turn = None
        best = event.scores[0]
        self.hint = parse_square(best.move)
        self.query_one(BoardView).cursor = self.hint
        text = f"Hint: {best.move} looks best"
        if best.exact:  # the engine solved the ending: say how it ends
            outcome = "wins" if best.score > 0 else "draws" if best.score == 0 else "loses"
            margin = f" by {abs(round(best.score))}" if best.score else ""
            text += f"; with perfect play it {outcome}{margin}"
        self.say(f"{text}. Enter plays it.")
        self._show()

    def _cancel_hint(self) -> None:
        self._hint_turn = None
        self.workers.cancel_group(self, "hint")

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

    # -- history review ----------------------------------------------------------------------

    def action_review_step(self, delta: int) -> None:
        game = self.match.game
        current = game.ply if self.review_ply is None else self.review_ply
        self._review(max(0, min(game.length, current + delta)))

    def action_review_to(self, ply: int) -> None:
        self._review(self.match.game.length if ply < 0 else ply)

    @on(MoveLog.PlySelected)
    def _ply_selected(self, event: MoveLog.PlySelected) -> None:
        self._review(event.ply)

    def _review(self, ply: int) -> None:
        game = self.match.game
        if ply == game.ply and game.at_end:
            self.action_live()
            return
        self.review_ply = ply
        self.notice = None
        self._cancel_hint()
        self.hint = None
        self._show()
        self.refresh_bindings()

    def action_live(self) -> None:
        if self.review_ply is None:
            self.notice = None
            self._show_status()
            return
        self.review_ply = None
        self.notice = None
        self._show()
        self.refresh_bindings()
        self.query_one(BoardView).focus()

    def action_continue_here(self) -> None:
        from .confirm import ConfirmScreen

        ply = self.review_ply
        if ply is None:
            return
        later = self.match.game.length - ply
        if not later:
            self.action_live()
            return
        moves = "move" if later == 1 else "moves"
        question = f"Play on from move {ply}? The {later} later {moves} will be discarded."
        if ply == 0:
            question = f"Play on from the start? All {later} {moves} will be discarded."
        self.app.push_screen(
            ConfirmScreen(question, yes="Play from here"), partial(self._continue_confirmed, ply)
        )

    def _continue_confirmed(self, ply: int, confirmed: bool | None) -> None:
        if not confirmed:
            return
        self._cancel_thinking()
        self.match.game.continue_from(ply)
        self.review_ply = None
        self._game_over_shown = None
        self.paused = False
        self.notice = None
        self.query_one(BoardView).focus()
        self._record_changed(animate=False)

    # -- game over ---------------------------------------------------------------------------

    def _announce_game_over(self) -> None:
        from .game_over import GameOverScreen

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
        return True


def _describe_ply(game: Game, ply: int) -> str:
    """'Move 4: White played d3, flipping 1. Black 4, White 4.' for review."""
    position = game.positions[ply]
    counts = f"Black {position.count(Color.BLACK)}, White {position.count(Color.WHITE)}."
    if ply == 0:
        return f"The start. {counts}"
    move, before = game.moves[ply - 1], game.positions[ply - 1]
    if move == PASS:
        return f"Move {ply}: {before.to_move.label} had no move and passed. {counts}"
    flipped = before.flips(move).bit_count()
    return (
        f"Move {ply}: {before.to_move.label} played {square_name(move)}, "
        f"flipping {flipped}. {counts}"
    )


def _last_move(game: Game, ply: int) -> tuple[int | None, int]:
    """The last real move before `ply` and the discs it flipped (a bitboard)."""
    for earlier in range(ply - 1, -1, -1):
        move = game.moves[earlier]
        if move != PASS:
            return move, game.positions[earlier].flips(move)
    return None, 0
