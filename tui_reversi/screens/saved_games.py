"""The saved games: a list to load from, delete from (after a question) or
import into. A file that cannot be read is listed with the reason."""

from __future__ import annotations

from functools import partial

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, DataTable, Static

from ..core import Color
from ..core.errors import sentence
from ..session import Session
from ..storage import SavedGame, SavedGameEntry, StorageError
from ..widgets.key_bar import KeyLine
from ..widgets.literal import Literal, literal_cell
from .dialog import Dialog
from .resume import when

DIALOG_WIDTH = 100  # as #games-dialog in app.tcss
# Cells the columns beside the name take (with the table's padding), and the
# least a name gets: below that the players and the score leave the table
# for the line under it, and the result says the score.
WIDE_COLUMNS, NARROW_COLUMNS = 59, 40
NAME_MIN = 17


def details(record: SavedGame) -> str:
    """', rated 2197.01 and 2199.72, 05:00//02:00, played 2003.12.15_13:24:03.MST':
    what an imported game's file said about it, where it said it."""
    said = ""
    if record.ratings is not None:
        black, white = (rating or "?" for rating in record.ratings)
        said += f", rated {black} and {white}"
    if record.time_control is not None:
        said += f", {record.time_control}"
    if record.date is not None:
        said += f", played {record.date}"
    return said


def short(text: str, width: int) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"


class SavedGamesScreen(Dialog[tuple[SavedGame, str] | str | None]):
    """Dismissed with (record, how to call it) to load a game, "import" to
    import one, or None."""

    BINDINGS = [
        Binding("enter", "load", "Load", id="games.load", key_display="⏎"),
        Binding("d,delete", "delete", "Delete", id="games.delete", tooltip="Asks first"),
        Binding(
            "i",
            "import",
            "Import",
            id="games.import",
            tooltip="A game from a file or pasted text: GGF, transcript, board string",
        ),
        Binding("up,k", "cursor(-1)", "Previous game", id="games.up", show=False),
        Binding("down,j", "cursor(1)", "Next game", id="games.down", show=False),
        Binding("escape", "close", "Close", id="games.close", key_display="esc"),
    ]

    def __init__(self, session: Session) -> None:
        super().__init__()
        self.session = session
        self.entries: list[SavedGameEntry] = []

    def compose(self) -> ComposeResult:
        with Vertical(id="games-dialog"):
            yield Static("[b]Saved games[/b]", id="dialog-title")
            yield DataTable(id="games", cursor_type="row", zebra_stripes=True)
            yield Literal(id="describe")
            yield Literal(id="problem")
            yield KeyLine(id="dialog-keys")
            with Horizontal(id="dialog-buttons"):
                yield Button("Load", variant="primary", id="load")
                yield Button("Delete", variant="error", id="delete")
                yield Button(self.terminal_text("Import…"), id="import")
                yield Button("Close", id="close")

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        if self._wide:
            table.add_columns("Name", "Saved", "Players", "Moves", "Score", "")
        else:
            table.add_columns("Name", "Saved", "Moves", "Result")
        self.refresh_list()
        table.focus()

    def refresh_list(self, keep: int = 0) -> None:
        """Read the list again and put the cursor on row `keep` (or the last)."""
        table = self.query_one(DataTable)
        table.clear()
        try:
            self.entries = self.session.list_games()
        except StorageError as error:
            self.entries = []
            self._problem(str(error))
        for entry in self.entries:
            table.add_row(*(literal_cell(cell) for cell in self._cells(entry)))
        if self.entries:
            table.move_cursor(row=min(keep, len(self.entries) - 1))
        self._describe()

    @property
    def _inner_width(self) -> int:
        return min(DIALOG_WIDTH, self.app.size.width) - 4  # border and padding

    @property
    def _wide(self) -> bool:
        """Room for every column (80 columns and up)."""
        return self._inner_width - WIDE_COLUMNS >= NAME_MIN

    def _name_width(self) -> int:
        beside = WIDE_COLUMNS if self._wide else NARROW_COLUMNS
        return max(12, self._inner_width - beside)

    def _cells(self, entry: SavedGameEntry) -> tuple[str, ...]:
        name = self.terminal_text(short(entry.name, self._name_width()))
        saved = when(entry.updated)
        if not entry.readable:
            blanks = ("", "", "") if self._wide else ("",)
            return (name, saved, *blanks, "unreadable")
        result = entry.result
        if result is None:
            score, state = f"{entry.black_discs}-{entry.white_discs}", entry.status
            if entry.ending is not None and entry.ending.winner is not None:
                state = f"{entry.ending.winner.label} won"
        else:
            score = f"{result.score(Color.BLACK)}-{result.score(Color.WHITE)}"
            state = "Draw" if result.winner is None else f"{result.winner.label} won"
        if not self._wide:
            return (name, saved, str(entry.moves), state if result is None else f"{state} {score}")
        return (name, saved, entry.players, str(entry.moves), score, state)

    @property
    def entry(self) -> SavedGameEntry | None:
        table = self.query_one(DataTable)
        if not self.entries or not 0 <= table.cursor_row < len(self.entries):
            return None
        return self.entries[table.cursor_row]

    @on(DataTable.RowHighlighted)
    def _describe(self) -> None:
        entry = self.entry
        describe = self.query_one("#describe", Literal)
        if entry is None:
            describe.update(
                "No saved games yet: s saves the game in progress; i imports a game."
                if not self.entries
                else ""
            )
        elif not entry.readable:
            describe.update(f"{entry.name} cannot be read: {entry.error}")
        else:
            about = details(entry.record) if entry.record is not None else ""
            describe.update(
                f"{entry.name}: {entry.players}{about}, {entry.status}, {entry.moves} moves."
            )
        self._problem("")

    def _problem(self, text: str) -> None:
        self.query_one("#problem", Literal).update(sentence(text) if text else "")

    # -- actions ------------------------------------------------------------------

    @on(DataTable.RowSelected)
    def action_load(self) -> None:
        entry = self.entry
        if entry is None:
            self._problem("there is no game to load")
        elif entry.record is None:
            self._problem(f"'{entry.name}' cannot be loaded: {entry.error}")
        else:
            self.dismiss((entry.record, f"'{entry.name}'"))

    def action_delete(self) -> None:
        from .confirm import ConfirmScreen

        entry = self.entry
        if entry is None:
            self._problem("there is no game to delete")
            return
        row = self.query_one(DataTable).cursor_row
        question = f"Delete the saved game '{entry.name}'? This cannot be undone."
        self.app.push_screen(
            ConfirmScreen(question, yes="Delete"), partial(self._delete_confirmed, entry, row)
        )

    def _delete_confirmed(self, entry: SavedGameEntry, row: int, yes: bool | None) -> None:
        if not yes:
            return
        try:
            self.session.delete_game(entry)
        except StorageError as error:
            self._problem(str(error))
            return
        self.refresh_list(keep=row)
        self.query_one("#problem", Literal).update(f"Deleted '{entry.name}'.")

    def action_import(self) -> None:
        self.dismiss("import")

    def action_cursor(self, step: int) -> None:
        table = self.query_one(DataTable)
        if self.entries:
            table.move_cursor(row=max(0, min(len(self.entries) - 1, table.cursor_row + step)))

    def action_close(self) -> None:
        self.dismiss(None)

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        event.stop()
        actions = {
            "load": self.action_load,
            "delete": self.action_delete,
            "import": self.action_import,
            "close": self.action_close,
        }
        if event.button.id in actions:
            actions[event.button.id]()
