"""The Textual app: screens, themes, app-wide keys, and `create_app`, the one
factory the command line and the tests build the app with."""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from textual import events
from textual.app import App, SystemCommand
from textual.binding import Binding
from textual.geometry import Size
from textual.screen import Screen
from textual.theme import BUILTIN_THEMES, Theme

from .core import Color, Position, ReversiError, Variant
from .match import Match, parse_level
from .players import MoveScore, Player, analyse, create_player
from .players.base import CancelCheck
from .widgets.glyphs import ascii_text

# Below this the layout cannot fit; a "too small" notice takes over.
MIN_WIDTH, MIN_HEIGHT = 60, 21

SWITCH_INTERVAL = 0.001  # seconds; see ReversiApp.on_mount

DEFAULT_THEME = "reversi"
SIXTEEN_COLOUR_THEME = "reversi-16"

# Board colours are theme variables: every theme may set them (app.tcss uses them).
BOARD_COLOURS = {
    "board-background": "#1d6b3a",
    "board-review-background": "#4a5a50",
    "board-grid": "#0e3d20",
    "board-coord": "#9e9e9e",
    "board-coord-typed": "#ffd54f",
    "disc-black": "#000000",
    "disc-white": "#ffffff",
    "board-legal": "#b9f6ca",
    "board-hint": "#ffd54f",
    "board-cursor": "#3b9a5c",
    "board-cursor-mark": "#ffeb3b",
    "board-last-mark": "#ff7043",
    "board-last": "#256f43",
    "board-flipped": "#2b7f85",
}

THEMES = (
    Theme(
        name=DEFAULT_THEME,
        primary="#43a047",
        secondary="#2e7d32",
        accent="#ffb300",
        warning="#ffb300",
        error="#ef5350",
        success="#66bb6a",
        foreground="#e6e6e6",
        background="#15191a",
        surface="#1d2224",
        panel="#26302b",
        dark=True,
    ),
    Theme(
        name="reversi-light",
        primary="#2e7d32",
        secondary="#1b5e20",
        accent="#e65100",
        warning="#e65100",
        error="#c62828",
        success="#2e7d32",
        foreground="#1a1a1a",
        background="#f2f0e8",
        surface="#e8e5da",
        panel="#dcd8c8",
        dark=False,
        variables={
            "board-background": "#2e8b4e",
            "board-grid": "#14502a",
            "board-coord": "#555555",
            "board-coord-typed": "#e65100",
            "board-review-background": "#7d8c82",
            "board-cursor": "#52b474",
            "board-last": "#3a9a5d",
            "board-flipped": "#3c9aa0",
        },
    ),
    # Sixteen-colour terminals (TERM=xterm, many SSH set-ups): ANSI names only,
    # so the terminal's own palette draws the board.
    Theme(
        name=SIXTEEN_COLOUR_THEME,
        ansi=True,
        primary="ansi_green",
        secondary="ansi_cyan",
        accent="ansi_yellow",
        warning="ansi_yellow",
        error="ansi_red",
        success="ansi_green",
        foreground="ansi_default",
        background="ansi_default",
        surface="ansi_default",
        panel="ansi_default",
        boost="ansi_default",
        dark=True,
        variables={
            # Textual's own ANSI theme supplies what its widgets need (ansi-background...).
            **BUILTIN_THEMES["ansi-dark"].variables,
            "board-background": "ansi_green",
            "board-review-background": "ansi_bright_black",
            "board-grid": "ansi_black",
            "board-coord": "ansi_default",
            "board-coord-typed": "ansi_bright_yellow",
            "disc-black": "ansi_black",
            "disc-white": "ansi_bright_white",
            "board-legal": "ansi_bright_green",
            "board-hint": "ansi_bright_yellow",
            "board-cursor": "ansi_yellow",
            "board-cursor-mark": "ansi_bright_white",
            "board-last-mark": "ansi_bright_red",
            "board-last": "ansi_green",
            "board-flipped": "ansi_cyan",
            "footer-key-foreground": "ansi_bright_yellow",
        },
    ),
)

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
    ) -> None:
        super().__init__()
        for theme in THEMES:
            self.register_theme(theme)
        self.options = options
        self.match = match
        self.player_factory = player_factory
        self.hint_engine = hint_engine
        self._on_change = on_change
        self.players = self.make_players(match)
        self.theme = options.theme

    # -- the live game ------------------------------------------------------------

    def make_players(self, match: Match) -> dict[Color, Player | None]:
        """The computer players for `match` (None for a human). Raises
        ReversiError when a level cannot play (e.g. not built)."""
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
        redo, continue-from-here. The autosave goes here."""
        if self._on_change is not None:
            self._on_change(self.match)

    def get_key_display(self, binding: Binding) -> str:
        return self.text(super().get_key_display(binding))

    def text(self, text: str) -> str:
        """`text` as the terminal should get it: symbols spelled out in ASCII mode."""
        return ascii_text(text) if self.options.ascii else text

    def options_changed(self) -> None:
        """Runs after the player changes a setting in the app (markers, ASCII,
        animation). Saving the settings goes here."""

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
        # The computer searches in a thread holding the GIL; a waiting UI thread
        # gets it back after this interval (default 5 ms), once per await.
        sys.setswitchinterval(SWITCH_INTERVAL)
        self._check_size(self.size)

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
            "Toggle legal-move markers", "Show or hide where you may play", game.action_markers
        )
        yield SystemCommand(
            "Toggle ASCII board", "X/O/. instead of Unicode discs", game.action_ascii
        )
        yield SystemCommand(
            "Toggle animation", "Turn flipped discs over visibly, or not", game.action_animation
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
    **pacing,
) -> ReversiApp:
    """The app, ready to run. `match` continues a given game (resume, load);
    otherwise a new game of `variant` starts with `black` and `white` (human,
    easy, medium, hard, expert). `theme=None` picks the default for the
    terminal; `animation=None` turns animation off over SSH. Raises
    ReversiError (one sentence) for a bad level, variant or theme."""
    if match is None:
        match = Match.new(parse_level(black), parse_level(white), Variant.parse(variant))
    if player_factory is None:

        def player_factory(level: str, variant: Variant) -> Player:
            return create_player(level, variant=variant, seed=seed)

    options = Options(
        ascii=ascii,
        markers=markers,
        animation=(not over_slow_link()) if animation is None else animation,
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
    )
    if theme is None:
        theme = SIXTEEN_COLOUR_THEME if app.console.color_system == "standard" else DEFAULT_THEME
    if theme not in app.available_themes:
        names = ", ".join(sorted(app.available_themes))
        raise ReversiError(f"unknown theme {theme!r}: choose one of {names}")
    app.options.theme = theme
    app.theme = theme
    return app
