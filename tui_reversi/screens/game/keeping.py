"""Keeping games, from the game screen: the answer to the resume offer, and
the keys that open the save, saved-games, import, export and settings
dialogs, with what happens when each one closes."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, cast

from textual.app import App
from textual.binding import Binding

from ...core import ReversiError
from ...core.errors import sentence
from ...match import Match
from ...session import PREVIOUS_NAME
from ...storage import SavedGame, SavedGameEntry
from .status_line import Say

if TYPE_CHECKING:
    from ..game_app import GameApp

KEEPING_BINDINGS = [
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


class KeepingGames:
    """Saves, opens, imports and exports games and changes the settings, for
    the game screen: each dialog, and what happens when it closes."""

    def __init__(
        self,
        app: App[Any],
        say: Say,
        *,
        begin: Callable[[Match], bool],
        settings_applied: Callable[[], None],
    ) -> None:
        self._app = app
        self._game_app = cast("GameApp", app)
        self._say = say
        self._begin = begin  # another game takes the board (`AnotherGame.begin`)
        self._settings_applied = settings_applied  # the look follows them

    def resume_chosen(self, resume: bool | None) -> None:
        app = self._game_app
        if app.session is not None:
            app.session.offer = None
        if resume is not False:
            app.referee.start()
            self._say(f"Resumed at move {app.match.game.move_number() + 1}.")  # (the next)
            return
        settings = app.settings
        if self._begin(Match.new(settings.black, settings.white, settings.variant)):
            self._say(f"New game. The unfinished one is kept: o lists it as '{PREVIOUS_NAME}'.")

    def save_game(self) -> None:
        from ..save_game import SaveGameScreen

        app = self._game_app
        if app.session is not None:
            self._app.push_screen(SaveGameScreen(app.session, app.match), self._saved)

    def _saved(self, entry: SavedGameEntry | None) -> None:
        if entry is not None:
            self._say(f"Saved as '{entry.name}'.")

    def open_games(self) -> None:
        from ..saved_games import SavedGamesScreen

        app = self._game_app
        if app.session is not None:
            self._app.push_screen(SavedGamesScreen(app.session), self._game_opened)

    def _game_opened(self, opened: Any) -> None:
        if opened == "import":
            self.import_game()
        elif opened is not None:
            record, label = opened
            self._play_record(record, f"Loaded {label}.")

    def import_game(self, text: str = "") -> None:
        from ..import_game import ImportScreen

        match = self._game_app.match
        self._app.push_screen(ImportScreen(text, (match.black, match.white)), self._imported)

    def _imported(self, record: SavedGame | None) -> None:
        if record is not None:
            moves = record.to_game().move_number()
            self._play_record(record, f"Imported a game of {moves} move{'s' * (moves != 1)}.")

    def _play_record(self, record: SavedGame, message: str) -> None:
        session = self._game_app.session
        try:
            if session is not None:
                match = session.match_from(record)
            else:
                match = Match(record.black, record.white, record.to_game())
        except ReversiError as error:
            self._say(sentence(str(error)), error=True)
            return
        if self._begin(match) and not match.is_over:
            self._say(message)

    def export(self) -> None:
        from ..export import ExportScreen

        app = self._game_app
        session, match = app.session, app.match
        if session is not None:
            record = session.record_for(match)
        else:
            record = SavedGame.from_game(match.game, match.black, match.white)
        self._app.push_screen(ExportScreen(record), self._exported)

    def _exported(self, message: str | None) -> None:
        if message:
            self._say(message)

    def settings(self) -> None:
        from ..settings import SettingsScreen

        app = self._game_app
        if app.session is not None:
            self._app.push_screen(SettingsScreen(app.session), self._settings_saved)

    def _settings_saved(self, changed: dict[str, Any] | None) -> None:
        """Apply the settings the player changed (the others may be held by
        a command-line option for this run)."""
        if not changed:
            return
        self._game_app.settings_saved(changed)
        self._settings_applied()
        self._say("Settings saved.")
