"""Import a game: a file's path, or the game itself pasted in (a GGF game, a
transcript, a board string or a saved game's JSON), and who plays it on."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import Static

from ..players.kinds import KINDS, label
from ..storage import SavedGame, StorageError, import_game
from ..widgets.choice import ChoiceRow
from ..widgets.literal import Literal
from ..widgets.paste_input import PasteInput
from .form import FormScreen

AS_SAVED = "saved"


class ImportScreen(FormScreen[SavedGame | None]):
    """Dismissed with the imported game (players chosen), or None."""

    BINDINGS = [
        Binding("enter", "submit", "Import", id="import.import", key_display="⏎"),
        Binding("escape", "cancel", "Cancel", id="import.cancel", key_display="esc"),
    ]

    def __init__(self, text: str = "", players: tuple[str, str] = ("human", "human")) -> None:
        """`players`: who plays now (Black, White), kept for a game that names none."""
        super().__init__()
        self.text = " ".join(text.split())
        self.players = players

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
            yield Literal(self._as_saved_means(), id="describe")
            yield from self.footer(ok="Import")

    def _as_saved_means(self) -> str:
        black, white = (label(name) for name in self.players)
        return (
            "As saved: the game's players; one without any (a transcript, a board "
            f"string) keeps yours: {black} vs {white}."
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
        saved = (record.black, record.white)
        if saved == ("human", "human") and record.names is None:  # a game without players
            saved = self.players  # you keep your colour and your opponent
        black = self.query_one("#black", ChoiceRow).value
        white = self.query_one("#white", ChoiceRow).value
        self.dismiss(
            record.with_players(
                saved[0] if black == AS_SAVED else black,
                saved[1] if white == AS_SAVED else white,
            )
        )
