"""New-game dialog by keyboard only, help from the bindings, hint, markers,
the autosave hook, and the look options."""

import pytest
from textual import events
from textual.binding import Binding

from tui_reversi.app import ReversiApp
from tui_reversi.core import Color, Variant
from tui_reversi.screens.game import GameScreen
from tui_reversi.screens.help import help_rows
from tui_reversi.widgets.board import BoardView
from tui_reversi.widgets.move_log import MoveLog
from tui_reversi.widgets.themes import THEMES

from .conftest import FirstMovePlayer, in_front, settle, status, until


async def test_new_game_dialog_is_fully_keyboard_operable(make_app):
    app = make_app(player=FirstMovePlayer())
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("n")
        await pilot.pause()
        assert app.screen.__class__.__name__ == "NewGameScreen"
        await pilot.press("right")  # Black: Human -> Easy
        await pilot.press("down", "left")  # White: Easy -> Human
        await pilot.press("down", "right")  # Variant: Othello -> Reversi
        await pilot.press("enter")
        await settle(pilot, app)
        assert isinstance(app.screen, GameScreen)
        match = app.match
        assert (match.black, match.white, match.variant) == ("easy", "human", Variant.REVERSI)
        assert match.game.length == 1  # the computer, Black, opened in the centre
        assert match.to_move is Color.WHITE


async def test_new_game_choices_typed_together_with_enter_are_all_taken_before_it(make_app):
    app = make_app(player=FirstMovePlayer())
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("n")
        dialog = await in_front(pilot, "NewGameScreen")
        # As over SSH: the keys arrive in one read, Enter last.
        for key in ("right", "down", "left", "down", "right"):
            app.post_message(events.Key(key, None))
        app.post_message(events.Key("enter", "\r"))
        await until(pilot, lambda: app.screen is not dialog, "the new game")
        await settle(pilot, app)
        assert isinstance(app.screen, GameScreen)
        match = app.match
        assert (match.black, match.white, match.variant) == ("easy", "human", Variant.REVERSI)


async def test_escape_leaves_the_game_as_it_was(make_app):
    app = make_app(white="human", transcript="f5")
    async with app.run_test(size=(80, 24)) as pilot:
        before = app.match
        await pilot.press("n")
        await pilot.pause()
        await pilot.press("right", "escape")
        await pilot.pause()
        assert app.match is before and app.match.game.transcript() == "f5"


async def test_help_lists_every_binding_that_acts_in_this_game_from_the_bindings(make_app):
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        game = app.screen
        await pilot.press("question_mark")
        await pilot.pause()
        text = str(app.screen.query_one("#help-text").content)
        for cls, node in (
            (BoardView, None),
            (GameScreen, game),
            (MoveLog, None),
            (ReversiApp, app),
        ):
            for binding in cls.BINDINGS:
                assert isinstance(binding, Binding) and binding.id and binding.description
                acts = node is None or node.check_action(binding.action, ()) is not False
                if binding.action in ("no_lobby", "review_to"):  # shares an id / parameters
                    continue
                assert (f" {binding.description}" in text) == acts, binding
        assert "Type a square" in text
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, GameScreen)


def test_help_rows_follow_the_keymap(make_app):
    app = make_app()
    app.update_keymap({"game.undo": "z"})
    rows = {text.split(":")[0]: keys for _, keys, text in help_rows(app)}
    assert rows["Undo"] == "z"
    assert rows["Quit"] == "^q q"  # two bindings for one job share a line


async def test_hint_marks_the_engines_move_on_the_board(make_app):
    app = make_app(white="human")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("i")
        await settle(pilot, app)
        board = app.screen.query_one(BoardView)
        assert board.state.hint in app.match.position.legal_moves()
        assert status(app).startswith("Hint: ")
        assert board.cursor == board.state.hint  # Enter plays the hint


async def test_markers_can_be_turned_off(make_app):
    app = make_app(white="human")
    async with app.run_test(size=(80, 24)) as pilot:
        board = app.screen.query_one(BoardView)
        assert board.state.legal == app.match.position.legal_mask()
        await pilot.press("m")
        await pilot.pause()
        assert board.state.legal == 0
        assert not app.settings.legal_moves


async def test_every_change_to_the_game_reaches_the_save_hook(make_app):
    saved = []
    app = make_app(white="human", on_change=lambda match: saved.append(match.game.transcript()))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("f", "5", "d", "6", "u", "r")
        await pilot.press("comma", "enter")
        await pilot.pause()
        await pilot.press("y")
        await pilot.pause()
        await pilot.press("n")
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()
    assert saved == ["f5", "f5d6", "f5", "f5d6", "f5", ""]


async def test_ascii_mode_draws_x_o_and_dots(make_app):
    app = make_app(white="human", ascii=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        view = app.screen.query_one(BoardView)
        lines = [view.render_line(y).text for y in range(view.size.height)]
        assert not set("".join(lines)) & set("●○│─┼▄▀█")
        row4 = next(line.split() for line in lines if line.startswith("4"))
        assert row4 == ["4", ".", ".", "+", "O", "X", ".", ".", "."]


@pytest.mark.parametrize("theme", [theme.name for theme in THEMES] + ["nord", "textual-light"])
async def test_every_theme_styles_every_screen(make_app, theme):
    app = make_app(theme=theme, transcript="d3c3f5f4f3d2d1e3", white="human")
    seen = []
    async with app.run_test(size=(80, 24)) as pilot:
        for keys, dialog in (
            (["question_mark"], "HelpScreen"),
            (["n"], "NewGameScreen"),
            (["comma", "enter"], "ConfirmScreen"),
            (["escape", "b", "3"], "GameOverScreen"),
        ):
            await pilot.press(*keys)
            await in_front(pilot, dialog)
            seen.append(type(app.screen).__name__)
            await pilot.press("escape")
            await in_front(pilot, "GameScreen")
    assert seen == ["HelpScreen", "NewGameScreen", "ConfirmScreen", "GameOverScreen"]


def test_the_playing_page_lists_every_key(make_app):
    from pathlib import Path

    page = (Path(__file__).resolve().parents[2] / "docs" / "playing.md").read_text()
    for _, keys, text in help_rows(make_app()):
        assert f"| `{keys}` | {text} |" in page, (keys, text)


def test_no_section_of_the_help_gives_a_key_two_jobs(make_app):
    """`u` and `r` were listed twice under "Game": undo/redo and, at a table,
    take back/rematch. Each section is one place where the keys act."""
    sections: dict[str, list[str]] = {}
    for heading, keys, _ in help_rows(make_app()):
        sections.setdefault(heading, []).extend(keys.split())
    for heading, keys in sections.items():
        assert len(keys) == len(set(keys)), (heading, keys)


async def test_the_command_palette_offers_the_game_commands(make_app):
    app = make_app(white="human")
    async with app.run_test(size=(80, 24)) as pilot:
        commands = await game_commands(app)
        for title in ("New game", "Undo", "Hint", "Toggle ASCII board", "Toggle animation"):
            assert title in commands
        await commands["Toggle ASCII board"]()
        await pilot.pause()
        board = app.screen.query_one(BoardView)
        assert board.glyphs.name == "ascii" and app.settings.ascii
        assert app.has_class("-ascii")
        assert "⏎" not in app.screen.query_one("KeyBar").render().plain
        assert "enter" in status(app)  # no ⏎ either


async def game_commands(app) -> dict:
    """The palette's commands over the game screen, by title (what the palette discovers)."""
    from tui_reversi.screens.command_palette import KeyCommands

    provider = KeyCommands(app.screen)
    return {hit.text: hit.command async for hit in provider.discover()}


async def palette_hits(pilot, app, text):
    from textual.command import CommandList

    await pilot.press("ctrl+p", *text)
    await settle(pilot, app)
    await pilot.pause(0.3)  # the palette searches in a worker
    await settle(pilot, app)
    results = app.screen.query_one(CommandList)
    hits = [str(results.get_option_at_index(i).prompt) for i in range(results.option_count)]
    await pilot.press("escape")
    await settle(pilot, app)
    return hits


async def test_the_game_commands_are_offered_over_the_board_only(make_app):
    """Over a dialog the palette offered the game's commands too, which act
    on the board behind it (New game, Settings... opened their dialogs over
    the one in front, without limit). Over a dialog: the app's own only."""
    app = make_app(white="human", transcript="f5")
    async with app.run_test(size=(80, 24)) as pilot:
        assert any("Undo" in hit for hit in await palette_hits(pilot, app, "undo"))
        await pilot.press("n")
        await settle(pilot, app)
        assert type(app.screen).__name__ == "NewGameScreen"
        assert not any("Undo" in hit for hit in await palette_hits(pilot, app, "undo"))
        assert any("Quit" in hit for hit in await palette_hits(pilot, app, "quit"))
        assert type(app.screen).__name__ == "NewGameScreen"
        assert app.match.game.length == 1


async def test_ascii_mode_puts_nothing_but_ascii_on_the_screen(make_app):
    import html
    import re

    app = make_app(transcript="f5d6c3d3c4f4", white="human", ascii=True)
    async with app.run_test(size=(80, 24)) as pilot:
        for keys in ([], ["comma"], ["escape", "n"], ["escape", "question_mark"]):
            await pilot.press(*keys)
            await pilot.pause()
            svg = app.export_screenshot()
            text = html.unescape("".join(re.findall(r"<text[^>]*>([^<]*)</text>", svg)))
            odd = {char for char in text if ord(char) > 127 and char != "\xa0"}
            assert not odd, (keys, odd)


@pytest.mark.parametrize(
    ("keys", "dialog", "its_keys"),
    [
        (["question_mark"], "HelpScreen", "Close help"),
        (["n"], "NewGameScreen", "Start"),
        (["comma", "enter"], "ConfirmScreen", "Yes"),
        (["b", "3"], "GameOverScreen", "Review"),
    ],
)
async def test_a_dialog_shows_its_own_keys_not_the_game_s(make_app, keys, dialog, its_keys):
    app = make_app(transcript="d3c3f5f4f3d2d1e3", white="human")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press(*keys)
        await pilot.pause()
        assert type(app.screen).__name__ == dialog
        bars = list(app.screen.query("KeyBar"))
        assert len(bars) == 1 and bars[0].region.bottom == 24
        bar = bars[0].render().plain
        assert its_keys in bar and "Quit" in bar
        assert "Undo" not in bar and "Markers" not in bar, bar


async def test_help_scrolls_with_j_and_k_like_the_arrows(make_app):
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("question_mark")
        await pilot.pause()
        body = app.screen.query_one("#help-body")
        assert body.max_scroll_y > 3  # the list is longer than the screen at 80x24
        await pilot.press("j", "j", "j")
        await pilot.pause()
        assert body.scroll_y == 3
        await pilot.press("k")
        await pilot.pause()
        assert body.scroll_y == 2
        await pilot.press("down")
        await pilot.pause()
        assert body.scroll_y == 3
        for key in ("j", "j", "down", "down", "k"):  # a burst: every key counts
            app.post_message(events.Key(key, key if len(key) == 1 else None))
        await pilot.pause()
        await pilot.pause()
        assert body.scroll_y == 6


@pytest.mark.parametrize(
    ("keys", "dialog", "heading"),
    [
        (["x"], "ExportScreen", "Export dialog (x)"),
        (["n"], "NewGameScreen", "New-game dialog (n)"),
    ],
)
async def test_f1_over_a_dialog_opens_help_at_its_keys_and_esc_comes_back(
    make_app, keys, dialog, heading
):
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press(*keys)
        await in_front(pilot, dialog)
        await pilot.press("f1")
        help_screen = await in_front(pilot, "HelpScreen")
        body = help_screen.query_one("#help-body")
        lines = help_screen.query_one("#help-text").content.plain.split("\n")
        # Scrolled down to its keys (the last sections cannot reach the top) once drawn.
        await until(pilot, lambda: body.scroll_y > 0, "the help scrolled to the dialog's keys")
        top = int(body.scroll_y)
        assert heading in lines[top : top + body.scrollable_content_region.height]
        await pilot.press("escape")
        await in_front(pilot, dialog)  # back where the player was


async def test_a_dialog_answered_before_it_is_drawn_answers_once_it_is(make_app):
    # An invitation from the server, say, and a key typed ahead of it: the
    # dialog's set-up looked for buttons it no longer had, and the app crashed.
    from tui_reversi.screens.confirm import ConfirmScreen

    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        answers: list[bool] = []
        app.push_screen(ConfirmScreen("Play bob?"), answers.append)
        app.screen.action_answer(False)  # before it has mounted
        app.screen.action_answer(True)  # and again: still one answer
        await pilot.pause()
        await pilot.pause()
        assert answers == [False]
        assert isinstance(app.screen, GameScreen) and app.return_code is None


async def test_the_app_describes_its_screens_and_held_keys_for_a_hang_report(make_app):
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("x")
        await in_front(pilot, "ExportScreen")
        await until(pilot, lambda: "keys: none held" in app.describe_state(), "no key held")
        state = app.describe_state()
        assert state.splitlines()[0] == "screens: GameScreen > ExportScreen"
        assert state.splitlines()[2] == "keys: none held"


def drawn_text(app) -> str:
    """Every character on the terminal, as the app draws it now."""
    return "\n".join(strip.text for strip in app.screen._compositor.render_strips())


@pytest.mark.parametrize("search", ["", "e"])
async def test_the_command_palette_is_ascii_in_ascii_mode(make_app, search):
    """--ascii: the palette drew its box edges, search icon and scrollbar
    with characters beyond ASCII (for terminals that have none of them)."""
    app = make_app(white="human", ascii=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("ctrl+p", *search)
        await settle(pilot, app)
        await pilot.pause(0.3)  # the palette searches in a worker
        await settle(pilot, app)
        text = drawn_text(app)
        assert "Search" in text or "New game" in text
        assert text.isascii(), sorted({char for char in text if not char.isascii()})
