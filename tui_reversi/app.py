"""The Textual app: screens, app-wide keys, signals, and `create_app`, the one
factory the command line and the tests build the app with."""

from __future__ import annotations

import asyncio
import errno
import gc
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from types import FrameType
from typing import TYPE_CHECKING, Any

from rich.console import Console
from textual import events, on
from textual.app import App
from textual.binding import Binding, Keymap
from textual.geometry import Size
from textual.message import Message
from textual.notifications import SeverityLevel
from textual.screen import Screen
from textual.theme import Theme

from . import crash
from .core import Position, ReversiError, Variant
from .core.errors import sentence
from .crash import CRASH_STATUS, TEST_CRASH_VARIABLE, DeliberateCrash
from .match import Event, Match, Pacing, RecordChanged, Referee
from .players import Limit, MoveScore, Strategy, analyse, create_player
from .players.base import CancelCheck
from .players.kinds import StrategyFactory, seat
from .screens.game_app import GameApp, HintEngine
from .screens.too_small import MIN_HEIGHT, MIN_WIDTH, TooSmallScreen
from .session import AUTO_THEME
from .storage.paths import screenshots_dir, shown_path
from .storage.settings import Settings
from .styles_cache import release_rendered_lines
from .surroundings import current
from .widgets.glyphs import ascii_text
from .widgets.themes import BOARD_COLOURS, DEFAULT_THEME, SIXTEEN_COLOUR_THEME, THEMES

if TYPE_CHECKING:
    from rich.console import RenderableType
    from textual.actions import ActionParseResult
    from textual.dom import DOMNode

    from .net.lobby_link import LobbyLink, LobbyNews
    from .net.remote import News, TableLink
    from .screens.game import GameScreen
    from .screens.lobby import Invitations
    from .session import Session

SHORT_HEIGHT = 24  # below this, dialogs drop the line of keys the key bar repeats

SWITCH_INTERVAL = 0.001  # seconds; see ReversiApp.on_mount

# After SIGHUP or SIGTERM the app has this long to close down before it is ended.
SIGNAL_GRACE = 3.0


def _unretrieved(loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
    """asyncio's word on a future whose exception no one asked for. One that
    was cancelled (as the app closes down, an update still under way: Textual
    8.2's keys panel does not await its Markdown's) is no error, and its
    traceback would be printed after the game: dropped. Anything else is
    reported as asyncio does."""
    if not isinstance(context.get("exception"), asyncio.CancelledError):
        loop.default_exception_handler(context)


def over_slow_link() -> bool:
    """True over SSH, where animation frames only cost bandwidth."""
    surroundings = current()
    return bool(surroundings.get("SSH_CONNECTION") or surroundings.get("SSH_TTY"))


def _collect_again() -> None:
    """A game with its process to itself has drawn its first frame."""
    if not gc.isenabled():  # the command line held collections for start-up
        gc.freeze()  # what start-up made lives as long as the app: never scan it again
        gc.enable()


# What a terminal in cooked mode sends for ctrl+c and ctrl+\\.
INTERRUPTS = (signal.SIGINT, signal.SIGQUIT)


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
            tooltip="This list of keys (f1 in a dialog: at the dialog's keys)",
        ),
    ]

    def __init__(
        self,
        match: Match,
        settings: Settings,
        *,
        pacing: Pacing,
        clock: Callable[[], float],
        player_factory: StrategyFactory,
        limit: Limit | None = None,
        hint_engine: HintEngine,
        on_change: Callable[[Match], None] | None = None,
        session: Session | None = None,
        table_link: TableLink | None = None,
        lobby: LobbyLink | None = None,
    ) -> None:
        super().__init__()
        surroundings = current()
        self._read_terminal_variables(surroundings.env)
        release_rendered_lines()  # else every closed dialog's lines stay in memory
        for theme in THEMES:
            self.register_theme(theme)
        # The player's preferences for this run: the saved settings with the
        # command line's options on top. `theme` may be AUTO_THEME.
        self.settings = settings
        self.clock = clock  # for the thinking indicator's elapsed time
        self.hint_engine = hint_engine
        self._on_change = on_change
        # The player's files (autosave, saved games, settings); None: nothing is kept.
        self.session = session
        # At a server's table (people playing each other): the line to the server.
        self.table_link = table_link
        # The turn loop; answers from the players' threads come back as RefereeCall.
        self.referee = Referee(
            match,
            table_link.seat
            if table_link is not None
            else lambda kind, variant: seat(kind, variant, player_factory, limit),
            pacing=pacing,
            post=self._call_referee,
        )
        self.referee.watch(self._referee_reported)
        self.keymap: dict[str, str] = {}  # binding id -> keys, as given: the help shows them
        theme_name = self.auto_theme(settings.theme)
        if theme_name in self.available_themes:  # else create_app says so
            self.theme = theme_name
        self._autosave_problem: str | None = None
        self._signalled = False
        # Set by whoever runs the app (game_run.py): what it takes on once running (by
        # default the process's signals: a game with its process to itself) and how it
        # ends at once when closing down hangs (by default its process exits).
        self.take_signals: Callable[[], None] = self._end_on_signals
        self.end_at_once: Callable[[int], None] = os._exit
        # And what its first frame ends (by default the command line's hold on collections).
        self.start_up_over: Callable[[], None] = _collect_again
        # The bug that ended the app, if one did (the command line reports it).
        self.crash: BaseException | None = None
        crash_key = surroundings.get(TEST_CRASH_VARIABLE)
        if crash_key:
            self.bind(crash_key, "deliberate_crash", show=False)
        from .screens.dialog import KeysForDialogs

        self._keys_for_dialogs = KeysForDialogs(self)
        # On a server, in the player's own game: the lobby and invitations.
        self.lobby = lobby
        self.invitations: Invitations | None = None
        if lobby is not None:
            from .screens.lobby import Invitations

            self.invitations = Invitations(self, lobby)

    def _read_terminal_variables(self, env: Mapping[str, str]) -> None:
        """Textual 8.2's App.__init__ reads NO_COLOR, and its console TERM,
        COLORTERM, COLUMNS and the like, from the process's environment: a game's
        own are read again from its `env` (they differ for a hosted game)."""
        from textual import constants
        from textual.filter import Monochrome, NoColor

        environ = dict(env)
        self.no_color = environ.pop("NO_COLOR", None) is not None
        self._filters = [f for f in self._filters if not isinstance(f, (Monochrome, NoColor))]
        if self.no_color:
            self._filters.append(NoColor() if self.native_ansi_color else Monochrome())
        self.console = Console(
            color_system=constants.COLOR_SYSTEM,  # type: ignore[arg-type]  # (as Textual has it)
            file=self.console.file,
            markup=True,
            highlight=False,
            emoji=False,
            legacy_windows=False,
            _environ=environ,
            force_terminal=True,
            safe_box=False,
            soft_wrap=False,
        )

    @dataclass
    class AutosaveFailed(Message):
        """The autosave thread could not write the game (one sentence)."""

        problem: str

    @dataclass
    class AutosaveMoved(Message):
        """The game is autosaved as an earlier autosave from now on (one sentence why)."""

        note: str

    @dataclass
    class TableNews(Message):
        """News from the server's table, brought from the link's thread."""

        news: News

    @dataclass
    class LobbyNewsCame(Message):
        """News from the server's lobby, brought from the link's thread."""

        news: LobbyNews

    @dataclass
    class RefereeCall(Message):
        """A player's answer, brought from its thread to the referee's."""

        call: Callable[[], None]

    # -- keys ---------------------------------------------------------------------

    def set_keymap(self, keymap: Keymap) -> None:
        super().set_keymap(keymap)
        self.keymap = dict(keymap)

    def update_keymap(self, keymap: Keymap) -> None:
        super().update_keymap(keymap)
        self.keymap = {**self.keymap, **keymap}

    # -- the live game ------------------------------------------------------------

    @property
    def match(self) -> Match:
        """The live game (the referee's)."""
        return self.referee.match

    def _referee_reported(self, event: Event) -> None:
        if isinstance(event, RecordChanged) and event.save:
            self.record_changed()

    def _call_referee(self, call: Callable[[], None]) -> None:
        self.post_message(self.RefereeCall(call))

    def on_reversi_app_referee_call(self, event: RefereeCall) -> None:
        event.call()

    def record_changed(self) -> None:
        """Runs after every change to the live game: a move, a new game, undo,
        redo, continue-from-here: the game is autosaved."""
        if self.session is not None:
            self.session.match_changed(self.match)
        if self._on_change is not None:
            self._on_change(self.match)

    def notify(
        self,
        message: str,
        *,
        title: str = "",
        severity: SeverityLevel = "information",
        timeout: float | None = None,
        markup: bool = False,
    ) -> None:
        """A notification, shown literally by default: its sentences quote
        names, paths and files, whose square brackets are not markup."""
        super().notify(message, title=title, severity=severity, timeout=timeout, markup=markup)

    def get_key_display(self, binding: Binding) -> str:
        return self.text(super().get_key_display(binding))

    def text(self, text: str) -> str:
        """`text` as the terminal should get it: symbols spelled out in ASCII mode."""
        return ascii_text(text) if self.settings.ascii else text

    @property
    def flips_animated(self) -> bool:
        """Whether flipped discs turn over visibly (the setting, or for "auto":
        on, except over SSH)."""
        animation = self.settings.animation
        return (not over_slow_link()) if animation is None else animation

    def change_settings(self, **changes: Any) -> None:
        """The player changed settings in the app (a key, the new-game dialog,
        the palette's theme): they apply now and become the defaults of the
        next start, and only they are saved (a command-line option that was
        not changed stays for this run only)."""
        before = self.settings
        self.settings = replace(before, **changes)
        if self.session is None:
            return
        from .storage import StorageError

        try:
            note = self.session.settings_changed(before, self.settings)
        except StorageError as error:
            self.notify(sentence(f"The setting was not saved: {error}"), severity="error")
            return
        if note:
            self.notify(sentence(note), severity="warning")

    def settings_saved(self, changed: dict[str, Any]) -> None:
        """The settings dialog saved new values for `changed`: they apply now
        (the others may be held by a command-line option for this run)."""
        self.settings = replace(self.settings, **changed)
        if "theme" in changed:
            self.theme = self.auto_theme(self.settings.theme)

    def auto_theme(self, theme: str) -> str:
        """`theme`, or for AUTO_THEME the default for this terminal (the
        16-colour theme where the terminal has only 16 colours)."""
        if theme != AUTO_THEME:
            return theme
        return SIXTEEN_COLOUR_THEME if self.console.color_system == "standard" else DEFAULT_THEME

    def deliver_screenshot(
        self, filename: str | None = None, path: str | None = None, time_format: str | None = None
    ) -> str | None:
        """The palette's Screenshot, saved where the player's own files go: Textual
        would put it in the downloads folder of the process's user, which for a
        game hosted beside others is the server's (tui_reversi/hosted_game.py)."""
        if path is None:
            folder = screenshots_dir()
            path = str(folder) if folder is not None else None
        return super().deliver_screenshot(filename, path, time_format)

    @on(events.DeliveryComplete)
    def _screenshot_saved(self, event: events.DeliveryComplete) -> None:
        """Where the screenshot went, the home folder as ~: Textual's own sentence
        puts markup around the path, which this app's notices show literally."""
        if event.name == "screenshot":
            event.prevent_default()
            where = "" if event.path is None else f" to {shown_path(event.path)}"
            self.notify(f"Saved a screenshot{where}.", title="Screenshot")

    def get_theme_variable_defaults(self) -> dict[str, str]:
        return dict(BOARD_COLOURS)

    def get_default_screen(self) -> Screen:
        from .screens.game import GameScreen

        return GameScreen()

    # -- app-wide actions -----------------------------------------------------------

    def action_help(self) -> None:
        from .screens.help import HelpScreen, section_of

        # Nothing opens over the size notice: it would be drawn too small, and bury it.
        # The size is asked, not the screen: a key may come before the notice is pushed.
        if not isinstance(self.screen, HelpScreen) and not self._too_small():
            self.push_screen(HelpScreen(section_of(self.screen)))

    def action_command_palette(self) -> None:
        from .screens.command_palette import CommandPalette

        # One palette at a time, also when another screen (the size notice,
        # game over) has come in front of it: two would share an id.
        open_already = any(isinstance(screen, CommandPalette) for screen in self.screen_stack)
        if self.use_command_palette and not open_already and not self._too_small():
            self.push_screen(CommandPalette(id="--command-palette"))

    def search_themes(self) -> None:
        from textual.theme import ThemeProvider

        from .screens.command_palette import CommandPalette

        self.push_screen(
            CommandPalette(providers=[ThemeProvider], placeholder="Search for themes…")
        )

    @property
    def quitting(self) -> bool:
        """True once the app has been asked to end (a quit, a signal, a bug)."""
        return self.return_code is not None

    def exit(
        self, result: None = None, return_code: int = 0, message: RenderableType | None = None
    ) -> None:
        super().exit(result, return_code, message)
        # The game stands as it is from the quit on: no seat is asked for a
        # move any more (a square typed with the quit is not played, a
        # computer's answer is dropped), so the last autosave is this game.
        self.referee.close()

    async def run_action(
        self,
        action: str | ActionParseResult,
        default_namespace: DOMNode | None = None,
        namespaces: Mapping[str, DOMNode] | None = None,
    ) -> bool:
        # Once quitting, nothing more happens to the game or on screen: a key
        # typed with the quit (`qs`, `qu` in one burst) would open a dialog
        # as the app closes down, or change the game before its last autosave.
        if self.quitting:
            return False
        try:
            return await super().run_action(action, default_namespace, namespaces)
        finally:  # the keys typed behind the one bound to it may go on now
            self._keys_for_dialogs.acted()

    async def on_event(self, event: events.Event) -> None:
        if self.quitting and isinstance(event, (events.InputEvent, events.Paste)):
            return  # the keys behind a quit: see run_action
        # Keys typed right after one that opens or closes a dialog wait for it.
        if (
            isinstance(event, events.Key)
            and not event.is_forwarded
            and self._keys_for_dialogs.held(event)
        ):
            return
        if isinstance(event, events.MouseDown) and self._pressed_where_nothing_is(event):
            return
        await super().on_event(event)

    def _pressed_where_nothing_is(self, event: events.MouseDown) -> bool:
        """A press on a widget being removed (it has left the DOM, the screen
        has not been redrawn yet): Textual 8.2 would start a text selection
        in its parent, which it no longer has, and raise AttributeError."""
        from textual.errors import NoWidget

        try:
            widget, offset = self.screen.get_widget_and_offset_at(event.x, event.y)
        except NoWidget:
            return False
        return (
            widget is not None
            and offset is not None
            and not isinstance(widget, Screen)
            and widget.parent is None
        )

    def on_resize(self, event: events.Resize) -> None:
        self._check_size(event.size)

    def on_mount(self) -> None:
        self.call_after_refresh(self.start_up_over)
        # The computer searches in a thread holding the GIL; a waiting UI thread
        # gets it back after this interval (default 5 ms), once per await.
        sys.setswitchinterval(SWITCH_INTERVAL)
        self._check_size(self.size)
        # A dialog the game opens while the terminal is too small goes behind the notice.
        self.screen_change_signal.subscribe(self, lambda _screen: self._check_size(self.size))
        if not self.is_headless:
            self.take_signals()
            asyncio.get_running_loop().set_exception_handler(_unretrieved)
        if self.lobby is not None:
            self.lobby.listen(self._lobby_news)
        if self.session is not None:
            self.session.on_autosave_error = self._autosave_failed
            self.session.on_autosave_note = self._autosave_moved
            self.theme_changed_signal.subscribe(self, self._theme_changed)

    def on_ready(self) -> None:
        """The board is drawn: the game starts (unless the player is asked first
        whether to resume the unfinished one: keeping.py starts it then), and
        the table's news comes in."""
        session = self.session
        if session is None or session.offer is None:
            # A game loaded from a file is autosaved at once, so a crash before the
            # first move still offers it; a resumed or new one has nothing new to save.
            self.referee.start(save=session is not None and session.loaded)
        if self.table_link is not None:
            self.table_link.listen(self._table_news)

    def on_unmount(self) -> None:
        self.referee.close()  # the players' threads stop thinking

    def describe_state(self) -> str:
        """The screens (front last), what has the focus, and whether keys wait for a dialog."""
        screens = " > ".join(
            f"{type(screen).__name__}{'' if screen.is_mounted else ' (not mounted)'}"
            + (" (answered)" if getattr(screen, "_answered", False) else "")
            for screen in self.screen_stack
        )
        focused = type(self.focused).__name__ if self.focused else "nothing"
        return f"screens: {screens}\nfocused: {focused}\nkeys: {self._keys_for_dialogs.state()}"

    def _theme_changed(self, theme: Theme) -> None:
        # Chosen in the palette: remembered. Applied from the settings: already saved.
        if theme.name != self.auto_theme(self.settings.theme):
            self.change_settings(theme=theme.name)

    def _autosave_failed(self, problem: str) -> None:  # on the autosave's thread
        self.post_message(self.AutosaveFailed(problem))

    def _autosave_moved(self, note: str) -> None:
        self.post_message(self.AutosaveMoved(note))

    def _table_news(self, news: News) -> None:  # on the table link's thread
        self.post_message(self.TableNews(news))

    def on_reversi_app_table_news(self, event: TableNews) -> None:
        from .net.remote import follow_table

        follow_table(self.referee, event.news)  # what the table decided: the referee plays it
        game = self._game_screen()
        if game is not None:
            game.table_news(event.news)  # and what it says: the screen shows it

    def _lobby_news(self, news: LobbyNews) -> None:  # on the lobby link's thread
        self.post_message(self.LobbyNewsCame(news))

    def on_reversi_app_lobby_news_came(self, event: LobbyNewsCame) -> None:
        if self.invitations is not None:
            self.invitations.news(event.news)

    def on_reversi_app_autosave_failed(self, event: AutosaveFailed) -> None:
        if event.problem != self._autosave_problem:  # once, not after every move
            self._autosave_problem = event.problem
            self.notify(
                sentence(f"The game could not be autosaved: {event.problem}"),
                severity="error",
                timeout=20,
            )

    def on_reversi_app_autosave_moved(self, event: AutosaveMoved) -> None:
        self.notify(sentence(event.note), severity="warning", timeout=30, markup=False)

    # -- bugs: the game ends with a report, never a traceback ------------------------------

    def _handle_exception(self, error: Exception) -> None:
        """An exception nothing handled (a bug): close down as on ctrl+q, so
        the terminal is put back, and leave the report to the command line
        (`crash`): Textual would print the traceback to the player."""
        if self.crash is None:
            self.crash = error
        self._return_code = CRASH_STATUS
        if self._exception is None:  # Pilot re-raises it in tests
            self._exception = error
            self._exception_event.set()
        self._close_messages_no_wait()

    def thread_failed(self, error: BaseException) -> None:
        """An exception escaped a thread (the terminal's input thread, say):
        without this the app would carry on deaf, or die with exit status 0.
        The terminal gone (EIO, EPIPE on it) is a hang-up, not a bug."""
        if isinstance(error, OSError) and error.errno in (errno.EIO, errno.EPIPE):
            self.call_later(self._signalled_to_end, signal.SIGHUP)
        elif isinstance(error, Exception):
            self.call_later(self._handle_exception, error)

    def action_deliberate_crash(self) -> None:
        raise DeliberateCrash(f"the test-only crash key ({TEST_CRASH_VARIABLE}) was pressed")

    # -- SIGHUP (a dropped SSH connection), SIGTERM, SIGINT and SIGQUIT ------------------------

    def _end_on_signals(self) -> None:
        crash.describe_state = self.describe_state  # for a hang's diagnosis
        loop = asyncio.get_running_loop()
        for signum in (signal.SIGHUP, signal.SIGTERM):
            loop.add_signal_handler(signum, self._signalled_to_end, signum)

    def end_on_interrupts(self) -> None:
        """Called just before `run`: from then on SIGINT and SIGQUIT end the
        running app as SIGTERM does (game saved, terminal put back) and do
        nothing once it is closing down. In raw mode ctrl+c and ctrl+\\ are
        keys; they are SIGINT and SIGQUIT again once the terminal is back in
        cooked mode, after a quit, as the app closes down and writes the last
        autosave, and must cut neither short (over SSH, ctrl+\\ typed then
        killed the game: found by bench/fuzz.py --ssh).
        A plain handler, not the event loop's (closing the loop would put
        Python's KeyboardInterrupt back), so asyncio installs none of its own
        (which cancels the app in the middle of its shutdown)."""

        def interrupted(signum: int, frame: FrameType | None) -> None:
            try:
                loop = asyncio.get_running_loop()
            except RuntimeError:  # the app has ended: the game is being saved
                return
            if self.return_code is None:  # running, not closing down
                loop.call_soon_threadsafe(self._signalled_to_end, signum)

        for signum in INTERRUPTS:
            signal.signal(signum, interrupted)

    def signalled(self, signum: int) -> None:
        """`signum` reached the game (by its host: hosted_game.py), on the app's
        thread: what the handlers of a game with its own process do. SIGHUP and
        SIGTERM end it (game saved, terminal put back; a second one at once);
        SIGINT and SIGQUIT too, and nothing once it is closing down."""
        if signum in INTERRUPTS and self.return_code is not None:
            return
        self._signalled_to_end(signum)

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
        self.end_at_once(code)

    def _too_small(self, size: Size | None = None) -> bool:
        """Whether the terminal (or `size`) is below the game's minimum."""
        width, height = size if size is not None else self.size
        return width < MIN_WIDTH or height < MIN_HEIGHT

    def _check_size(self, size: Size) -> None:
        # Short terminals: dialogs leave out their keys line (the key bar has them).
        self.set_class(size.height < SHORT_HEIGHT, "-short")
        too_small = self._too_small(size)
        showing = isinstance(self.screen, TooSmallScreen)
        # The notice is always in front while the terminal is too small; one
        # left under a dialog goes when it is in front again (screen_change_signal).
        if too_small and not showing:
            self.push_screen(TooSmallScreen())
        elif showing and not too_small:
            self.pop_screen()

    async def action_quit(self) -> None:
        """Quit; at a table, leaving a game in progress asks first (it is lost)."""
        game = self._game_screen()
        if game is None:
            self.exit()
        else:
            game.leave_table()

    def _game_screen(self) -> GameScreen | None:
        from .screens.game import GameScreen

        for screen in self.screen_stack:
            if isinstance(screen, GameScreen):
                return screen
        return None


def create_app(
    *,
    settings: Settings | None = None,
    match: Match | None = None,
    seed: int | None = None,
    player_factory: StrategyFactory | None = None,
    hint_engine: HintEngine | None = None,
    limit: Limit | None = None,
    pacing: Pacing | None = None,
    clock: Callable[[], float] = time.monotonic,
    on_change: Callable[[Match], None] | None = None,
    session: Session | None = None,
    table_link: TableLink | None = None,
    lobby: LobbyLink | None = None,
) -> ReversiApp:
    """The app, ready to run, with the player's `settings` (default: the
    defaults). `match` continues a given game (resume, load); otherwise a new
    game starts with the settings' players and variant. `session` keeps the
    player's files (autosave, saved games, settings); without it nothing is
    written. `table_link` seats the people at a server's table (the match's
    players are then `human`, this player, and `person`). `seed` makes the
    computers' choices repeatable; `lobby` is the line to a server's lobby
    (the player's own game when served); `player_factory` (the engines) and
    `hint_engine` replace the real ones in tests, and `limit` the computer
    levels' own (a repeatable depth, say). Raises ReversiError (one
    sentence) for a bad theme."""
    settings = settings if settings is not None else Settings()
    if match is None:
        match = Match.new(settings.black, settings.white, settings.variant)
    if player_factory is None:

        def player_factory(level: str, variant: Variant) -> Strategy:
            return create_player(level, variant=variant, seed=seed)

    if hint_engine is None:

        def hint_engine(
            position: Position, variant: Variant, cancelled: CancelCheck
        ) -> list[MoveScore]:
            return analyse(position, variant=variant, cancelled=cancelled)

    app = ReversiApp(
        match,
        settings,
        pacing=pacing if pacing is not None else Pacing(),
        clock=clock,
        player_factory=player_factory,
        limit=limit,
        hint_engine=hint_engine,
        on_change=on_change,
        session=session,
        table_link=table_link,
        lobby=lobby,
    )
    _: GameApp = app  # what the screens rely on (mypy checks it here)
    if app.auto_theme(settings.theme) not in app.available_themes:
        names = ", ".join(sorted(app.available_themes))
        raise ReversiError(f"unknown theme {settings.theme!r}: choose one of {names}")
    return app
