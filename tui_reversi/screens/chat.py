"""One line of chat for the people at a server's table, under what was said so far."""

from __future__ import annotations

from collections.abc import Sequence

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.widgets import Input, Static

from ..net.remote import CHAT_LENGTH
from ..widgets.literal import Literal
from ..widgets.text_input import TextInput
from .form import FormScreen

# In the key bars: "↑↓ The chat so far".
SAID = Binding.Group("The chat so far", compact=True)


class ChatScreen(FormScreen[str | None]):
    """The chat so far (each line in full, scrolled to the newest), and a box
    to type a line in: Enter says it. Dismissed with the line, or None."""

    DEFAULT_CSS = """
    ChatScreen #chat-said {
        height: auto;
        max-height: 25vh;
        margin-bottom: 1;
    }
    """

    BINDINGS = [
        Binding("enter", "submit", "Say", id="chat.say", key_display="⏎"),
        Binding("escape", "cancel", "Cancel", id="chat.cancel", key_display="esc"),
        Binding("up", "scroll_said(-1)", "Earlier", id="chat.earlier", group=SAID),
        Binding("down", "scroll_said(1)", "Later", id="chat.later", group=SAID),
        Binding("pageup", "scroll_said(-8)", "Page up", id="chat.page-up", show=False),
        Binding("pagedown", "scroll_said(8)", "Page down", id="chat.page-down", show=False),
    ]

    def __init__(self, said: Sequence[str] = ()) -> None:
        super().__init__()
        self.said = list(said)

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Static("[b]Say something to the table[/b]", id="dialog-title")
            if self.said:
                with VerticalScroll(id="chat-said", can_focus=False):
                    for line in self.said:
                        yield Literal(line)
            yield TextInput(placeholder="one line", id="line", max_length=CHAT_LENGTH)
            yield from self.footer(ok="Say")

    def on_mount(self) -> None:
        self.query_one("#line", Input).focus()
        if self.said:
            self.call_after_refresh(self._said().scroll_end, animate=False)

    def _said(self) -> VerticalScroll:
        return self.query_one("#chat-said", VerticalScroll)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return bool(self.said) if action == "scroll_said" else True

    def action_scroll_said(self, lines: int) -> None:
        self._said().scroll_relative(y=lines, animate=False)

    def done(self) -> None:
        text = self.query_one("#line", Input).value.strip()
        self.dismiss(text or None)
