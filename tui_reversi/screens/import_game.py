"""Import a game: a file's path, or the game itself pasted in (a GGF game, a
transcript, a board string or a saved game's JSON), and who plays it on."""

from __future__ import annotations

from dataclasses import replace

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import Static

from ..players.kinds import KINDS
from ..storage import SavedGame, StorageError, import_game
from ..widgets.choice import ChoiceRow
from ..widgets.paste_input import PasteInput
from .form import FormScreen

AS_SAVED = "saved"


class ImportScreen(FormScreen[SavedGame | None]):
    """Dismissed with the imported game (players chosen), or None."""

    BINDINGS = [
        Binding("enter", "submit", "Import", id="import.import", key_display="⏎"),
        Binding("escape", "cancel", "Cancel", id="import.cancel", key_display="esc"),
    ]

    def __init__(self, text: str = "") -> None:
        super().__init__()
        self.text = " ".join(text.split())

    def compose(self) -> ComposeResult:
        levels = [(AS_SAVED, "As saved")] + [(kind.name, kind.label) for kind in KINDS]
        with Vertical(id="dialog"):
            yield Static("[b]Import a game[/b]", id="dialog-title")
            yield PasteInput(
                self.text,
                placeholder="a file's path, or paste a transcript, board string or GGF game",
                id="source",
            )
            yield ChoiceRow("Black", levels, AS_SAVED, id="black")
            yield ChoiceRow("White", levels, AS_SAVED, id="white")
            yield Static(
                "A transcript or board string has no players: As saved means two humans.",
                id="describe",
            )
            yield from self.footer(
                "[b]⏎[/b] import · [b]tab[/b] players · [b]←→[/b] choose · [b]esc[/b] cancel",
                ok="Import",
            )

    def on_mount(self) -> None:
        self.query_one("#source", PasteInput).focus()

    def done(self) -> None:
        text = self.query_one("#source", PasteInput).value
        try:
            record = import_game(text)
        except StorageError as error:
            self.problem(str(error))
            return
        black = self.query_one("#black", ChoiceRow).value
        white = self.query_one("#white", ChoiceRow).value
        self.dismiss(
            replace(
                record,
                black=record.black if black == AS_SAVED else black,
                white=record.white if white == AS_SAVED else white,
            )
        )
