"""Keeping games, from the game screen: the answer to the resume offer, and
the keys that open the save, saved-games, import, export and settings
dialogs, with what happens when each one closes."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from textual.binding import Binding

from ...core import ReversiError
from ...match import Match
from ...session import PREVIOUS_NAME, sentence
from ...storage import SavedGame, SavedGameEntry

if TYPE_CHECKING:
    from .screen import GameScreen

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

    def __init__(self, screen: GameScreen) -> None:
        self.screen = screen

    def resume_chosen(self, resume: bool | None) -> None:
        screen, app = self.screen, self.screen.reversi_app
        if app.session is not None:
            app.session.offer = None
        if resume is not False:
            app.referee.start()
            screen.say(f"Resumed at move {app.match.game.move_number() + 1}.")  # (the next)
            return
        settings = app.settings
        if screen.begin(Match.new(settings.black, settings.white, settings.variant)):
            screen.say(f"New game. The unfinished one is kept: o lists it as '{PREVIOUS_NAME}'.")

    def save_game(self) -> None:
        from ..save_game import SaveGameScreen

        app = self.screen.reversi_app
        if app.session is not None:
            self.screen.app.push_screen(SaveGameScreen(app.session, app.match), self._saved)

    def _saved(self, entry: SavedGameEntry | None) -> None:
        if entry is not None:
            self.screen.say(f"Saved as '{entry.name}'.")

    def open_games(self) -> None:
        from ..saved_games import SavedGamesScreen

        app = self.screen.reversi_app
        if app.session is not None:
            self.screen.app.push_screen(SavedGamesScreen(app.session), self._game_opened)

    def _game_opened(self, opened: Any) -> None:
        if opened == "import":
            self.import_game()
        elif opened is not None:
            record, label = opened
            self._play_record(record, f"Loaded {label}.")

    def import_game(self, text: str = "") -> None:
        from ..import_game import ImportScreen

        app = self.screen.reversi_app
        players = (app.match.black, app.match.white)
        self.screen.app.push_screen(ImportScreen(text, players), self._imported)

    def _imported(self, record: SavedGame | None) -> None:
        if record is not None:
            moves = record.to_game().move_number()
            self._play_record(record, f"Imported a game of {moves} move{'s' * (moves != 1)}.")

    def _play_record(self, record: SavedGame, message: str) -> None:
        screen = self.screen
        session = screen.reversi_app.session
        try:
            if session is not None:
                match = session.match_from(record)
            else:
                match = Match(record.black, record.white, record.to_game())
        except ReversiError as error:
            screen.say(sentence(str(error)), error=True)
            return
        if screen.begin(match) and not match.is_over:
            screen.say(message)

    def export(self) -> None:
        from ..export import ExportScreen

        app = self.screen.reversi_app
        session, match = app.session, app.match
        if session is not None:
            record = session.record_for(match)
        else:
            record = SavedGame.from_game(match.game, match.black, match.white)
        self.screen.app.push_screen(ExportScreen(record), self._exported)

    def _exported(self, message: str | None) -> None:
        if message:
            self.screen.say(message)

    def settings(self) -> None:
        from ..settings import SettingsScreen

        app = self.screen.reversi_app
        if app.session is not None:
            self.screen.app.push_screen(SettingsScreen(app.session), self._settings_saved)

    def _settings_saved(self, changed: dict[str, Any] | None) -> None:
        """Apply the settings the player changed (the others may be held by
        a command-line option for this run)."""
        if not changed:
            return
        screen, app = self.screen, self.screen.reversi_app
        app.settings_saved(changed)
        screen.look.apply()
        screen.show()
        screen.say("Settings saved.")
