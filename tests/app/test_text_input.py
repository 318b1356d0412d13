"""Keys that arrive together (a slow SSH link) act in the order typed, in
every text box of the app: editing keys and typed characters alike."""

import pytest
from textual import events
from textual.app import App
from textual.widgets import Input

from tui_reversi.widgets.paste_input import PasteInput
from tui_reversi.widgets.text_input import TextInput


class Box(App):
    def __init__(self, kind: type[Input]) -> None:
        super().__init__()
        self.kind = kind
        self.submitted: list[str] = []

    def compose(self):
        yield self.kind("reversi-1.ggf")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.submitted.append(event.value)


def burst(app: App, *keys: str) -> None:
    """Queue every key before the app handles any of them."""
    for key in keys:
        character = key if len(key) == 1 else {"ctrl+u": "\x15", "enter": "\r"}.get(key)
        app.post_message(events.Key(key, character))


@pytest.mark.parametrize("kind", [TextInput, PasteInput])
async def test_a_burst_of_editing_and_typed_keys_acts_in_order(kind):
    app = Box(kind)
    async with app.run_test() as pilot:
        await pilot.pause()
        burst(app, "ctrl+u", "g", "a", "m", "e", "backspace", "backspace", "left", "x", "enter")
        await pilot.pause()
        assert app.submitted == ["gxa"]
