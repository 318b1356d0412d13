"""A yes/no question before something that cannot be taken back."""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Button

from ..widgets.key_bar import KeyLine
from ..widgets.literal import Literal
from .dialog import Dialog


class ConfirmScreen(Dialog[bool]):
    """Ask `question`; y or Enter says yes, n or Esc says no."""

    BINDINGS = [
        Binding("y", "answer(True)", "Yes", id="confirm.yes"),
        Binding("n,escape", "answer(False)", "No", id="confirm.no", key_display="n/esc"),
    ]

    def __init__(self, question: str, *, yes: str = "Yes", no: str = "Cancel") -> None:
        super().__init__()
        self.question = question
        self.yes, self.no = yes, no

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Literal(self.question, id="dialog-title")
            yield KeyLine(id="dialog-keys")
            with Horizontal(id="dialog-buttons"):
                yield Button(self.yes, variant="warning", id="yes")
                yield Button(self.no, id="no")

    def on_mount(self) -> None:
        self.query_one("#yes", Button).focus()

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "yes")
