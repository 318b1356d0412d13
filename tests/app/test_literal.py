"""Text from players and files is shown as written, everywhere: square
brackets in a game's name, a GGF move or a message are never markup."""

import html
import re
from pathlib import Path

from textual.widgets import Input

from tui_reversi.core import Game
from tui_reversi.storage import SavedGame, SavedGames

from .conftest import in_front, until
from .test_keeping import keeping_app  # noqa: F401 (a fixture)

NAME = "[b]Bold[/b] [A1] game"
# White's second move, a1, flips nothing: the message quotes it as W[A1].
BAD_GGF = (
    "(;GM[Othello]PB[x]PW[y]TY[8]BO[8 -------- -------- -------- ---O*--- ---*O--- "
    "-------- -------- -------- *]B[F5]W[D6]B[C3]W[A1];)"
)


def screen_text(app) -> str:
    """Everything the screen shows, as one string (what a player reads)."""
    svg = app.export_screenshot()
    text = "".join(re.findall(r"<text[^>]*>([^<]*)</text>", svg))
    return html.unescape(text).replace("\xa0", " ")


async def test_a_saved_game_s_name_shows_as_written_in_the_list_and_questions(keeping_app):  # noqa: F811
    SavedGames().save(SavedGame.from_game(Game.from_transcript("f5d6"), "human", "easy"), NAME)
    app, _ = keeping_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("o")
        await pilot.pause()
        await in_front(pilot, "SavedGamesScreen")
        shown = screen_text(app)
        assert shown.count(NAME) == 2, shown  # the list's row and the line about it
        await pilot.press("d")
        await in_front(pilot, "ConfirmScreen")
        assert f"'{NAME}'" in screen_text(app)


async def test_an_import_problem_quotes_the_move_as_written(keeping_app):  # noqa: F811
    app, _ = keeping_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("o", "i")
        dialog = await in_front(pilot, "ImportScreen")
        dialog.query_one("#source", Input).value = BAD_GGF
        await pilot.press("enter")
        problem = dialog.query_one("#problem")
        await until(pilot, lambda: str(problem.content), "the import's problem")
        await pilot.pause()  # (drawn)
        assert "(W[A1])" in screen_text(app)


async def test_a_notification_shows_brackets_as_written(keeping_app):  # noqa: F811
    app, _ = keeping_app()
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        app.notify(f"Saved as '{NAME}'.")
        await pilot.pause()
        await pilot.pause()
        assert f"'{NAME}'" in screen_text(app)


async def test_a_saved_screenshot_is_told_in_a_plain_sentence_with_home_as_a_tilde(make_app):
    app = make_app()
    folder = Path.home() / "shots"
    folder.mkdir(parents=True)
    async with app.run_test(size=(80, 24)) as pilot:
        app.deliver_screenshot(filename="board.svg", path=str(folder))
        for _ in range(200):
            if app._notifications:
                break
            await pilot.pause(0.05)
        (notice,) = [n.message for n in app._notifications]
    assert notice == "Saved a screenshot to ~/shots/board.svg."
    assert (folder / "board.svg").read_text().startswith("<svg")
