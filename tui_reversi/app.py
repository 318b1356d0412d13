"""The Textual app: screens, app-wide keys, signals, and `create_app`, the one
factory the command line and the tests build the app with."""

from __future__ import annotations

import asyncio
import gc
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from textual import events
from textual.app import App, SystemCommand
from textual.binding import Binding
from textual.geometry import Size
from textual.message import Message
from textual.screen import Screen

from .core import Color, Position, ReversiError, Variant
from .match import Match, parse_level
from .players import MoveScore, Player, analyse, create_player
from .players.base import CancelCheck
from .session import sentence
from .widgets.glyphs import ascii_text
from .widgets.themes import BOARD_COLOURS, DEFAULT_THEME, SIXTEEN_COLOUR_THEME, THEMES

if TYPE_CHECKING:
    from .session import Session

# Below this the layout cannot fit; a "too small" notice takes over.
MIN_WIDTH, MIN_HEIGHT = 60, 21

SWITCH_INTERVAL = 0.001  # seconds; see ReversiApp.on_mount

# After SIGHUP or SIGTERM the app has this long to close down before it is ended.
SIGNAL_GRACE = 3.0


PlayerFactory = Callable[[str, Variant], Player]
HintEngine = Callable[[Position, Variant, CancelCheck], list[MoveScore]]


@dataclass
class Options:
    """How the app looks and paces itself. The settings a player can persist
    (theme, ascii, markers, animation, default players and variant) map onto
    `create_app`'s keyword arguments."""

    theme: str = DEFAULT_THEME
    ascii: bool = False
    markers: bool = True
    animation: bool = False
    # Who plays a new game started without the dialog (New game at the resume offer).
    black: str = "human"
    white: str = "easy"
    variant: Variant = Variant.OTHELLO
    # Shortest time a computer takes to answer, so its reply is seen after yours.
    computer_delay: float = 0.35
    # Pause between moves when two computers play each other.
    watch_delay: float = 0.6
    hint_time: float = 1.0
    clock: Callable[[], float] = field(default=time.monotonic, repr=False)


def over_slow_link() -> bool:
    """True over SSH, where animation frames only cost bandwidth."""
    return bool(os.environ.get("SSH_CONNECTION") or os.environ.get("SSH_TTY"))


class ReversiApp(App[None]):
    """tui-reversi. The live game is `self.match`; everything else is derived."""

    CSS_PATH = "app.tcss"
    TITLE = "tui-reversi"
    BINDINGS = [
        Binding("ctrl+q", "quit", "Quit", id="app.quit", priority=True),
        Binding("q", "quit", "Quit", id="app.quit-q", show=False),
        Binding(
            "question_mark,f1",
            "help",
            "Help",
            id="app.help",
            key_display="?",
            tooltip="This list of keys",
        ),
    ]

    def __init__(
        self,
        match: Match,
        options: Options,
        *,
        player_factory: PlayerFactory,
        hint_engine: HintEngine,
        on_change: Callable[[Match], None] | None = None,
        session: Session | None = None,
    ) -> None:
        super().__init__()
        for theme in THEMES:
            self.register_theme(theme)
        self.options = options
        self.match = match
        self.player_factory = player_factory
        self.hint_engine = hint_engine
        self._on_change = on_change
        # The player's files (autosave, saved games, settings); None: nothing is kept.
        self.session = session
        self.players = self.make_players(match)
        self.theme = options.theme
        self._autosave_problem: str | None = None
        self._signalled = False

    class AutosaveFailed(Message):
        """The autosave thread could not write the game (one sentence)."""

        def __init__(self, problem: str) -> None:
            super().__init__()
            self.problem = problem

    # -- the live game ------------------------------------------------------------

    def make_players(self, match: Match) -> dict[Color, Player | None]:
        """The computer players for `match` (None for a human). Raises
        ReversiError when a level cannot play (its factory failed)."""
        return {
            color: None
            if match.is_human(color)
            else self.player_factory(match.level(color), match.variant)
            for color in (Color.BLACK, Color.WHITE)
        }

    def start_match(self, match: Match) -> None:
        """Replace the live game (new game, or a loaded one). Raises ReversiError
        and changes nothing if a player cannot be created."""
        self.players = self.make_players(match)
        self.match = match

    def record_changed(self) -> None:
        """Runs after every change to the live game: a move, a new game, undo,
        redo, continue-from-here: the game is autosaved."""
        if self.session is not None:
            self.session.match_changed(self.match)
        if self._on_change is not None:
            self._on_change(self.match)

    def get_key_display(self, binding: Binding) -> str:
        return self.text(super().get_key_display(binding))

    def text(self, text: str) -> str:
        """`text` as the terminal should get it: symbols spelled out in ASCII mode."""
        return ascii_text(text) if self.options.ascii else text

    def options_changed(self) -> None:
        """Runs after the player changes a setting in the app (markers, ASCII,
        animation, theme): the ones that changed are saved in the settings."""
        if self.session is None:
            return
        from .storage import StorageError

        try:
            note = self.session.look_changed(self.look())
        except StorageError as error:
            self.notify(sentence(f"The setting was not saved: {error}"), severity="error")
            return
        if note:
            self.notify(sentence(note), severity="warning")

    def look(self) -> dict[str, object]:
        """The look options as they are now (the settings screen and the
        session compare them)."""
        options = self.options
        return {
            "theme": self.theme,
            "ascii": options.ascii,
            "markers": options.markers,
            "animation": options.animation,
        }

    def auto_theme(self, theme: str | None) -> str:
        """`theme`, or for None the default for this terminal (the 16-colour
        theme where the terminal has only 16 colours)."""
        if theme is not None:
            return theme
        return SIXTEEN_COLOUR_THEME if self.console.color_system == "standard" else DEFAULT_THEME

    @staticmethod
    def auto_animation(animation: bool | None) -> bool:
        """`animation`, or for None: on, except over SSH."""
        return (not over_slow_link()) if animation is None else animation

    def get_theme_variable_defaults(self) -> dict[str, str]:
        return dict(BOARD_COLOURS)

    def get_default_screen(self) -> Screen:
        from .screens.game import GameScreen

        return GameScreen()

    # -- app-wide actions -----------------------------------------------------------

    def action_help(self) -> None:
        from .screens.help import HelpScreen

        if not isinstance(self.screen, HelpScreen):
            self.push_screen(HelpScreen())

    def on_resize(self, event: events.Resize) -> None:
        self._check_size(event.size)

    def on_mount(self) -> None:
        self.call_after_refresh(self._first_frame_drawn)
        # The computer searches in a thread holding the GIL; a waiting UI thread
        # gets it back after this interval (default 5 ms), once per await.
        sys.setswitchinterval(SWITCH_INTERVAL)
        self._check_size(self.size)
        if not self.is_headless:
            self._end_on_signals()
        if self.session is not None:
            self.session.on_autosave_error = lambda problem: self.post_message(
                self.AutosaveFailed(problem)
            )
            self.session.look_changed(self.look())
            self.theme_changed_signal.subscribe(self, lambda _theme: self.options_changed())

    @staticmethod
    def _first_frame_drawn() -> None:
        if not gc.isenabled():  # the command line held collections for start-up
            gc.freeze()  # what start-up made lives as long as the app: never scan it again
            gc.enable()

    def on_reversi_app_autosave_failed(self, event: AutosaveFailed) -> None:
        if event.problem != self._autosave_problem:  # once, not after every move
            self._autosave_problem = event.problem
            self.notify(
                sentence(f"The game could not be autosaved: {event.problem}"),
                severity="error",
                timeout=20,
            )

    # -- SIGHUP (a dropped SSH connection) and SIGTERM ------------------------------------

    def _end_on_signals(self) -> None:
        loop = asyncio.get_running_loop()
        for signum in (signal.SIGHUP, signal.SIGTERM):
            loop.add_signal_handler(signum, self._signalled_to_end, signum)

    def _signalled_to_end(self, signum: int) -> None:
        """Close down as on ctrl+q (the game is autosaved; the terminal is put
        back), but never hang: a dead terminal can stall the shutdown."""
        code = 128 + signum
        if self._signalled:  # a second signal: stop now
            self._end_now(code)
        self._signalled = True
        timer = threading.Timer(SIGNAL_GRACE, self._end_now, args=(code,))
        timer.daemon = True
        timer.start()
        self.exit(return_code=code)

    def _end_now(self, code: int) -> None:
        if self.session is not None:
            self.session.close(timeout=1.0)
        os._exit(code)

    def _check_size(self, size: Size) -> None:
        from .screens.too_small import TooSmallScreen

        too_small = size.width < MIN_WIDTH or size.height < MIN_HEIGHT
        showing = isinstance(self.screen, TooSmallScreen)
        if too_small and not showing:
            self.push_screen(TooSmallScreen())
        elif showing and not too_small:
            self.pop_screen()

    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        yield from super().get_system_commands(screen)
        game = self._game_screen()
        if game is None:
            return
        yield SystemCommand("New game", "Choose the players and the variant", game.action_new_game)
        yield SystemCommand("Undo", "Take back the last move", game.action_undo)
        yield SystemCommand("Redo", "Replay a move you took back", game.action_redo)
        yield SystemCommand("Hint", "Show the engine's best move", game.action_hint)
        yield SystemCommand(
            "Analyse the game",
            "Score every move: mistakes, best moves, evaluation graph (a)",
            game.action_analyse,
        )
        yield SystemCommand(
            "Evaluation graph", "The analysed game's graph on its own screen (g)", game.action_graph
        )
        yield SystemCommand(
            "Toggle legal-move markers", "Show or hide where you may play", game.action_markers
        )
        yield SystemCommand(
            "Toggle ASCII board", "X/O/. instead of Unicode discs", game.action_ascii
        )
        yield SystemCommand(
            "Toggle animation", "Turn flipped discs over visibly, or not", game.action_animation
        )
        yield SystemCommand(
            "Export or copy the game",
            "Transcript, board string or GGF: to the clipboard or a file",
            game.action_export,
        )
        if self.session is not None:
            yield SystemCommand("Save the game", "Keep it under a name", game.action_save_game)
            yield SystemCommand(
                "Open a saved game", "Load, delete or import games", game.action_open_games
            )
            yield SystemCommand(
                "Import a game",
                "From a file or pasted text (GGF, transcript...)",
                game.action_import,
            )
            yield SystemCommand(
                "Settings", "Default players and variant, theme, ASCII...", game.action_settings
            )

    def _game_screen(self):
        from .screens.game import GameScreen

        for screen in self.screen_stack:
            if isinstance(screen, GameScreen):
                return screen
        return None


def create_app(
    *,
    black: str = "human",
    white: str = "easy",
    variant: str | Variant = Variant.OTHELLO,
    match: Match | None = None,
    theme: str | None = None,
    ascii: bool = False,
    markers: bool = True,
    animation: bool | None = None,
    seed: int | None = None,
    player_factory: PlayerFactory | None = None,
    hint_engine: HintEngine | None = None,
    on_change: Callable[[Match], None] | None = None,
    session: Session | None = None,
    **pacing,
) -> ReversiApp:
    """The app, ready to run. `match` continues a given game (resume, load);
    otherwise a new game of `variant` starts with `black` and `white` (human,
    easy, medium, hard, expert). `theme=None` picks the default for the
    terminal; `animation=None` turns animation off over SSH. `session`
    keeps the player's files (autosave, saved games, settings); without it
    nothing is written. Raises ReversiError (one sentence) for a bad level,
    variant or theme."""
    black, white, variant = parse_level(black), parse_level(white), Variant.parse(variant)
    if match is None:
        match = Match.new(black, white, variant)
    if player_factory is None:

        def player_factory(level: str, variant: Variant) -> Player:
            return create_player(level, variant=variant, seed=seed)

    options = Options(
        ascii=ascii,
        markers=markers,
        animation=ReversiApp.auto_animation(animation),
        black=black,
        white=white,
        variant=variant,
        **pacing,
    )
    if hint_engine is None:

        def hint_engine(position: Position, variant: Variant, cancelled: CancelCheck):
            return analyse(
                position, variant=variant, time_limit=options.hint_time, cancelled=cancelled
            )

    app = ReversiApp(
        match,
        options,
        player_factory=player_factory,
        hint_engine=hint_engine,
        on_change=on_change,
        session=session,
    )
    theme = app.auto_theme(theme)
    if theme not in app.available_themes:
        names = ", ".join(sorted(app.available_themes))
        raise ReversiError(f"unknown theme {theme!r}: choose one of {names}")
    app.options.theme = theme
    app.theme = theme
    return app
