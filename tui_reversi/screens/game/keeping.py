"""Keeping games, from the game screen: the answer to the resume offer, and
the keys that open the save, saved-games, import, export and settings
dialogs, with what happens when each one closes."""

from __future__ import annotations

from textual import events
from textual.binding import Binding
from textual.screen import Screen

from ...core import ReversiError
from ...match import Match
from ...session import AUTO_THEME, PREVIOUS_NAME, sentence
from ...storage import SavedGame

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


class KeepingGames(Screen):
    """The part of GameScreen that saves, opens, imports and exports games
    and changes the settings."""

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
        from ..save_game import SaveGameScreen

        session = self.app.session
        if session is not None:
            self.app.push_screen(SaveGameScreen(session, self.match), self._saved)

    def _saved(self, entry) -> None:
        if entry is not None:
            self.say(f"Saved as '{entry.name}'.")

    def action_open_games(self) -> None:
        from ..saved_games import SavedGamesScreen

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
        from ..import_game import ImportScreen

        players = (self.match.black, self.match.white)
        self.app.push_screen(ImportScreen(text, players), self._imported)

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
        from ..export import ExportScreen

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
        from ..settings import SettingsScreen

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
