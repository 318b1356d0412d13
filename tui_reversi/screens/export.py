"""Export the game: the transcript, the board string or a GGF game, copied to
the clipboard (OSC 52, which reaches the player's own clipboard over SSH) or
written to a file, in the games folder unless the player names another; the
message says where, in full."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from pathlib import Path

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Input, Static

from ..session import sentence
from ..storage import (
    NameTakenError,
    SavedGame,
    StorageError,
    export_ggf,
    export_position,
    export_transcript,
    games_dir,
    shown_path,
    write_export,
)
from ..widgets.choice import ChoiceRow
from ..widgets.key_bar import KeyLine
from ..widgets.literal import Literal
from ..widgets.text_input import TextInput
from .dialog import Dialog

# format -> (label in the row, what it is in a sentence, file suffix, exporter)
FORMATS: dict[str, tuple[str, str, str, Callable[[SavedGame], str]]] = {
    "transcript": ("Transcript", "the transcript", ".txt", export_transcript),
    "board": ("Board string", "the board string", ".txt", export_position),
    "ggf": ("GGF", "the GGF game", ".ggf", export_ggf),
}
PREVIEW_CHARS = 40


class ExportScreen(Dialog[str | None]):
    """Dismissed with a sentence saying what was copied or written, or None."""

    BINDINGS = [
        Binding(
            "c,enter",
            "copy",
            "Copy",
            id="export.copy",
            tooltip="Copy it to the clipboard (OSC 52: works over SSH in most terminals)",
        ),
        Binding(
            "w",
            "write",
            "Write a file",
            id="export.write",
            tooltip="Type a file name, then Enter writes it (asks before replacing a file)",
        ),
        # In the file box, Enter writes the file (and c, w are letters of its name).
        Binding(
            "enter",
            "write_now",
            "Write the file",
            id="export-file.write",
            tooltip="Asks before replacing a file",
        ),
        Binding("escape", "cancel", "Close", id="export.close", key_display="esc"),
    ]

    def __init__(self, record: SavedGame) -> None:
        super().__init__()
        self.record = record

    def compose(self) -> ComposeResult:
        formats = [(key, label) for key, (label, *_rest) in FORMATS.items()]
        with Vertical(id="dialog"):
            yield Static("[b]Export the game[/b]", id="dialog-title")
            yield ChoiceRow("Format", formats, "ggf", id="format")
            yield Literal(id="export-text")
            yield TextInput(self._file_name("ggf"), placeholder="file name", id="file")
            yield Literal(id="problem")
            yield KeyLine(id="dialog-keys")
            with Horizontal(id="dialog-buttons"):
                yield Button("Copy", variant="primary", id="copy")
                yield Button("Write file", id="write")
                yield Button("Close", id="close")

    def on_mount(self) -> None:
        self.query_one("#format", ChoiceRow).focus()
        self._show()

    @property
    def format(self) -> str:
        return self.query_one("#format", ChoiceRow).value

    def text(self) -> str:
        return FORMATS[self.format][3](self.record)

    def _file_name(self, format: str) -> str:
        """The file offered: a dated name in the games folder (not wherever the
        app was started), home written as ~."""
        name = f"reversi-{datetime.now():%Y%m%d-%H%M}{FORMATS[format][2]}"
        return shown_path(games_dir() / name)

    @on(ChoiceRow.Changed, "#format")
    def _show(self) -> None:
        self.query_one("#export-text", Literal).update(self.text() or "(no moves yet)")
        file = self.query_one("#file", Input)
        suffix = FORMATS[self.format][2]
        if Path(file.value).suffix in (".txt", ".ggf"):
            file.value = str(Path(file.value).with_suffix(suffix))
        self.query_one("#problem", Literal).update("")

    def action_copy(self) -> None:
        text = self.text()
        self.app.copy_to_clipboard(text)
        shown = text if len(text) <= PREVIEW_CHARS else text[: PREVIEW_CHARS - 1] + "…"
        self.dismiss(f"Copied {FORMATS[self.format][1]} to the clipboard: {shown}")

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("copy", "write", "write_now"):
            in_file_box = self.is_mounted and self.query_one("#file", Input).has_focus
            return in_file_box == (action == "write_now")
        return True

    def action_write_now(self) -> None:
        self._write(replace=False)

    def action_write(self) -> None:
        # Now, not later: the name may be typed at once.
        self.set_focus(self.query_one("#file", Input))

    @on(Input.Submitted, "#file")
    def _submitted(self) -> None:
        self._write(replace=False)

    def _write(self, *, replace: bool) -> None:
        from .confirm import ConfirmScreen

        name = self.query_one("#file", Input).value.strip()
        if not name:
            self.query_one("#problem", Literal).update("Type a file name first.")
            return
        try:
            path = write_export(name, self.text(), replace=replace)
        except NameTakenError as error:
            self.app.push_screen(
                ConfirmScreen(f"{sentence(str(error))} Replace it?", yes="Replace"),
                lambda yes: self._write(replace=True) if yes else None,
            )
            return
        except StorageError as error:
            self.query_one("#problem", Literal).update(sentence(str(error)))
            return
        self.dismiss(f"Wrote {FORMATS[self.format][1]} to {path}.")

    def action_cancel(self) -> None:
        self.dismiss(None)

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id == "copy":
            self.action_copy()
        elif event.button.id == "write":
            self._write(replace=False)
        else:
            self.dismiss(None)
