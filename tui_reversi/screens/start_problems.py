"""At start: what was wrong with the player's files (settings, autosave),
gathered in one dialog that waits to be read, instead of a stack of
notifications that hide the board and each other at 80x24."""

from __future__ import annotations

from pathlib import Path

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.widgets import Static

from ..core.errors import capitalised
from ..surroundings import current
from ..widgets.key_bar import KeyLine
from ..widgets.literal import Literal
from .dialog import Dialog


def shorter_paths(text: str) -> str:
    """`text` with the home directory written as ~ (paths are most of its length)."""
    home = str(current().home)
    return text.replace(home + "/", "~/") if home not in ("", "/") else text


def gather(notes: list[str], settings_file: Path | None) -> list[tuple[str, bool]]:
    """(paragraph, is it an item under the one before) for the notes: the
    settings file is named once, above what was wrong in it."""
    prefix = f"The settings file {settings_file} "
    about_settings = [note.removeprefix(prefix) for note in notes if note.startswith(prefix)]
    paragraphs = []
    if about_settings:
        paragraphs.append((f"The settings file {settings_file}:", False))
        paragraphs.extend((capitalised(note), True) for note in about_settings)
    paragraphs.extend((note, False) for note in notes if not note.startswith(prefix))
    return [(shorter_paths(text), item) for text, item in paragraphs]


class StartProblemsScreen(Dialog[None]):
    """One short paragraph per problem; Enter or Esc closes."""

    BINDINGS = [
        Binding("escape,enter", "close", "OK", id="problems.close", key_display="⏎"),
    ]

    def __init__(self, notes: list[str], settings_file: Path | None = None) -> None:
        super().__init__()
        self.notes = notes
        self.settings_file = settings_file

    def compose(self) -> ComposeResult:
        title = "Something was wrong at start" if len(self.notes) == 1 else "Problems at start"
        with Vertical(id="dialog"):
            yield Static(f"[b]{title}[/b]", id="dialog-title")
            with VerticalScroll(id="problems"):
                for text, item in gather(self.notes, self.settings_file):
                    yield Literal(text, classes="problem -item" if item else "problem")
            yield KeyLine(id="dialog-keys")

    def action_close(self) -> None:
        self.dismiss(None)
