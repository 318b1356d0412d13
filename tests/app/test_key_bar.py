"""The key bars show what matters there first, and q quits wherever ctrl+q
does, except in a text box, where it is a letter."""

import pytest
from textual.widgets import Input

from .conftest import FirstMovePlayer
from .test_keeping import keeping_app  # noqa: F401 (a fixture)

ALMOST_OVER = "d3c3f5f4f3d2d1e3"  # Black's b3 ends it 64-0


def bar_text(app) -> str:
    return app.screen.query_one("KeyBar").render().plain


async def test_at_80_columns_the_game_bar_has_open_export_and_settings(keeping_app):  # noqa: F811
    app, _ = keeping_app(cli={"white": "human"})
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        words = bar_text(app).split()
        for key, what in (("n", "New"), ("u", "Undo"), ("i", "Hint"), ("s", "Save")):
            assert words[words.index(what) - 1] == key, words
        for key, what in (("o", "Open"), ("x", "Export"), ("t", "Settings")):
            assert words[words.index(what) - 1] == key, words
        assert bar_text(app).rstrip().endswith("^q Quit ? Help")
        await pilot.press("f", "5", "comma")  # reviewing: the review keys come first
        await pilot.pause()
        assert bar_text(app).split()[:2] == [".", "Forward"]


async def test_the_saved_games_bar_shows_enter_load(keeping_app):  # noqa: F811
    app, _ = keeping_app(cli={"white": "human"})
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("f", "5", "o")
        await pilot.pause()
        assert bar_text(app).startswith("⏎ Load d Delete i Import esc Close")


@pytest.mark.parametrize(
    ("keys", "dialog"),
    [
        (["b", "3"], "GameOverScreen"),
        (["n"], "NewGameScreen"),
        (["question_mark"], "HelpScreen"),
        (["comma", "enter"], "ConfirmScreen"),
        (["x"], "ExportScreen"),
    ],
)
async def test_q_quits_from_every_dialog_as_ctrl_q_does(make_app, keys, dialog):
    app = make_app(transcript=ALMOST_OVER, white="human")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press(*keys)
        await pilot.pause()
        assert type(app.screen).__name__ == dialog
        await pilot.press("q")
        await pilot.pause()
        assert app.return_code == 0 and not app.is_running


async def test_q_in_a_text_box_is_a_letter(keeping_app):  # noqa: F811
    app, _ = keeping_app(cli={"white": "human"}, player=FirstMovePlayer())
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("s", "ctrl+u", "q", "u", "i", "z")
        await pilot.pause()
        assert app.is_running
        assert app.screen.query_one("#name", Input).value == "quiz"
