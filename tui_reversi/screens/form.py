"""What the save, import and settings dialogs share: Enter does the dialog's
job (unless Cancel has the focus; in a text box, after what was typed), Esc
cancels, a problem is one sentence under the fields, and two buttons end the
dialog."""

from __future__ import annotations

from abc import abstractmethod
from typing import TypeVar

from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.widgets import Button, Input

from ..core.errors import sentence
from ..widgets.key_bar import KeyLine
from ..widgets.literal import Literal
from ..widgets.text_input import TextInput
from .dialog import Dialog

Result = TypeVar("Result")


class FormScreen(Dialog[Result]):
    """Subclasses bind Enter to `submit` and Esc to `cancel`, yield
    `footer()` last in their dialog, and implement `done()`."""

    def footer(self, ok: str) -> ComposeResult:
        """The problem line, the keys line and the OK/Cancel buttons."""
        yield Literal(id="problem")
        yield KeyLine(id="dialog-keys")
        with Horizontal(id="dialog-buttons"):
            yield Button(ok, variant="primary", id="ok")
            yield Button("Cancel", id="cancel")

    @abstractmethod
    def done(self) -> None:
        """Do the dialog's job: dismiss with the result, or say the problem."""

    def problem(self, text: str) -> None:
        """Say what stops the dialog, as a sentence ('' clears it)."""
        self.query_one("#problem", Literal).update(sentence(text) if text else "")

    def _answering(self) -> bool:
        """Whether an Enter or OK may do the dialog's job now: not before it
        was drawn, and not once it has answered or asked something in front
        of itself (a second Enter typed fast saved, then asked to replace
        the game it had just saved, over the board)."""
        return self.is_mounted and not self._answered and self._in_front()

    def action_submit(self) -> None:
        if not self._answering():
            return
        if isinstance(self.focused, Button) and self.focused.id == "cancel":
            self.dismiss(None)
        else:
            self.done()

    def action_cancel(self) -> None:
        self.dismiss(None)

    @on(TextInput.PasteCut)
    def _paste_cut(self, event: TextInput.PasteCut) -> None:
        self.problem(event.sentence)

    @on(Input.Submitted)
    def _input_submitted(self, event: Input.Submitted) -> None:
        # Enter in a text box: it comes after every key typed before it, even
        # when they arrive together (a priority binding would not).
        event.stop()
        self.action_submit()

    @on(Button.Pressed, "#ok")
    def _ok_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if self._answering():
            self.done()

    @on(Button.Pressed, "#cancel")
    def _cancel_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss(None)
