"""Keys that arrive together (a slow SSH link) act in the order typed, in
every text box of the app: editing keys and typed characters alike."""

import pytest
from textual import events
from textual.app import App
from textual.widgets import Input

from tui_reversi.net.remote import CHAT_LENGTH
from tui_reversi.screens.chat import ChatScreen
from tui_reversi.storage import SavedGames
from tui_reversi.widgets.literal import Literal
from tui_reversi.widgets.paste_input import PasteInput
from tui_reversi.widgets.text_input import TextInput

from .test_keeping import keeping_app  # noqa: F401 (a fixture)


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


# -- a paste longer than the box holds ------------------------------------------------


def problem_line(screen) -> str:
    return str(screen.query_one("#problem", Literal).content)


async def test_a_long_paste_into_the_save_name_keeps_what_fits_and_says_so(keeping_app):  # noqa: F811
    app, _ = keeping_app(cli={"white": "human"})
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("f", "5", "s")
        await pilot.pause()
        app.post_message(events.Paste("x" * 600))  # over the suggested name, selected
        await pilot.pause()
        box = app.screen.query_one("#name", Input)
        assert box.value == "x" * box.max_length
        said = problem_line(app.screen)
        assert f"Only {box.max_length} of the 600 characters pasted fit" in said
        await pilot.press("enter")
        await pilot.pause()
    assert [entry.name for entry in SavedGames().list()] == ["x" * box.max_length]


@pytest.mark.parametrize("pasted", [CHAT_LENGTH + 50, 6000])
async def test_a_long_paste_into_the_chat_line_keeps_what_fits_and_says_so(make_app, pasted):
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        app.push_screen(ChatScreen())
        await pilot.pause()
        app.post_message(events.Paste("hi " + "y" * (pasted - 3)))
        await pilot.pause()
        assert app.screen.query_one("#line", Input).value == ("hi " + "y" * pasted)[:CHAT_LENGTH]
        assert f"Only {CHAT_LENGTH} of the {pasted:,} characters" in problem_line(app.screen)


async def test_a_paste_of_several_lines_keeps_them_all_on_one_line(make_app):
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        app.push_screen(ChatScreen())
        await pilot.pause()
        app.post_message(events.Paste("good game\nwell played"))
        await pilot.pause()
        assert app.screen.query_one("#line", Input).value == "good game well played"
        assert problem_line(app.screen) == ""
