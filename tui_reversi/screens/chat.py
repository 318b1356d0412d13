"""One line of chat for the people at a server's table."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import Input, Static

from ..net.remote import CHAT_LENGTH
from ..widgets.text_input import TextInput
from .form import FormScreen


class ChatScreen(FormScreen[str | None]):
    """Type a line, Enter says it. Dismissed with the line, or None."""

    BINDINGS = [
        Binding("enter", "submit", "Say", id="chat.say", key_display="⏎"),
        Binding("escape", "cancel", "Cancel", id="chat.cancel", key_display="esc"),
    ]

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Static("[b]Say something to the table[/b]", id="dialog-title")
            yield TextInput(placeholder="one line", id="line", max_length=CHAT_LENGTH)
            yield from self.footer(ok="Say")

    def on_mount(self) -> None:
        self.query_one("#line", Input).focus()

    def done(self) -> None:
        text = self.query_one("#line", Input).value.strip()
        self.dismiss(text or None)
