"""Save the game under a name; asks before replacing a saved game of that name."""

from __future__ import annotations

from datetime import datetime

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import Input, Static

from ..core import Color
from ..match import Match
from ..session import Session, sentence
from ..storage import NameTakenError, SavedGameEntry, StorageError
from ..widgets.text_input import TextInput
from .form import FormScreen


def suggested_name(match: Match) -> str:
    """'Human vs Easy 2025-01-02 14:03' for a game that has no name yet."""
    black, white = match.player_label(Color.BLACK), match.player_label(Color.WHITE)
    return f"{black} vs {white} {datetime.now():%Y-%m-%d %H:%M}"


class SaveGameScreen(FormScreen[SavedGameEntry | None]):
    """Type a name, Enter saves. Dismissed with the saved entry, or None."""

    BINDINGS = [
        Binding("enter", "submit", "Save", id="save.save", key_display="⏎"),
        Binding("escape", "cancel", "Cancel", id="save.cancel", key_display="esc"),
    ]

    def __init__(self, session: Session, match: Match) -> None:
        super().__init__()
        self.session = session
        self.match = match

    def compose(self) -> ComposeResult:
        name = self.session.current_name(self.match) or suggested_name(self.match)
        with Vertical(id="dialog"):
            yield Static("[b]Save the game[/b]", id="dialog-title")
            yield TextInput(name, placeholder="a name for this game", id="name", max_length=80)
            yield from self.footer(ok="Save")

    def on_mount(self) -> None:
        self.query_one("#name", Input).focus()

    def done(self) -> None:
        self._save(replace=False)

    def _save(self, *, replace: bool) -> None:
        name = self.query_one("#name", Input).value
        try:
            entry = self.session.save_game(self.match, name, replace_existing=replace)
        except NameTakenError as taken:
            self._ask_to_replace(f"{sentence(str(taken))} Replace it?")
            return
        except StorageError as error:
            self.problem(str(error))
            return
        self.dismiss(entry)

    def _ask_to_replace(self, question: str) -> None:
        from .confirm import ConfirmScreen

        def answered(yes: bool | None) -> None:
            if yes:
                self._save(replace=True)

        self.app.push_screen(ConfirmScreen(question, yes="Replace"), answered)
