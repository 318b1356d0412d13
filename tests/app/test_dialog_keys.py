"""Keys typed right after the key that opens a dialog belong to the dialog,
even when they all arrive at once (a paste, a fast typist, a slow SSH link):
none of them acts on the board behind it. Keys typed right after the Esc
that closes a dialog belong to the screen below it, which the player sees."""

import pytest
from textual import events

from tui_reversi.storage import Autosave

from .conftest import FirstMovePlayer, in_front, moves, settle, showing, until
from .test_keeping import keeping_app  # noqa: F401 (a fixture)


def burst(app, keys: str | list[str]) -> None:
    """Queue keys before the app handles any, as a slow SSH link delivers them."""
    named = {"enter": "\r", "escape": "\x1b"}
    for key in keys:
        character = named.get(key, key)
        name = {"/": "slash", ".": "full_stop", "-": "minus", " ": "space"}.get(key, key)
        app.post_message(events.Key(name, character))


async def test_o_i_a_path_and_enter_at_once_import_the_file(keeping_app, tmp_path):  # noqa: F811
    path = tmp_path / "game1.txt"  # e then 1: a legal square nowhere, but a key
    path.write_text("f5d6c3\n")
    app, _ = keeping_app(cli={"white": "human"}, player=FirstMovePlayer())
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        burst(app, ["o", "i", *str(path), "enter"])
        await settle(pilot, app)
        await pilot.pause()
        assert type(app.screen).__name__ == "GameScreen"
        assert moves(app) == "f5d6c3"  # imported; nothing was played from the path's keys


async def test_s_a_name_and_enter_at_once_save_under_that_name(keeping_app):  # noqa: F811
    from tui_reversi.storage import SavedGames

    app, _ = keeping_app(cli={"white": "human"}, player=FirstMovePlayer())
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("f", "5")
        await pilot.pause()
        burst(app, ["s", *" d3 b4", "enter"])  # squares in the name: typed, not played
        await settle(pilot, app)
        await pilot.pause()
        assert moves(app) == "f5"
        assert type(app.screen).__name__ == "GameScreen"
        names = [entry.name for entry in SavedGames().list()]
        assert len(names) == 1 and names[0].endswith("d3 b4"), names


# -- keys typed right after a quit ---------------------------------------------------


@pytest.mark.parametrize("after", ["s", "o", "n", "x", "t", "u", "c3"])
async def test_keys_typed_right_after_q_do_nothing(keeping_app, after):  # noqa: F811
    """`q` and another key in one burst: the app quits with the game as it
    was (no dialog opens as it closes down, no move is taken back or played)."""
    app, session = keeping_app(cli={"white": "human"}, player=FirstMovePlayer())
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("f", "5", "d", "6")
        await pilot.pause()
        burst(app, ["q", after])
        await settle(pilot, app)
    assert app.crash is None and app.return_code == 0
    assert session.close()
    kept = Autosave().load().game
    assert kept is not None and (kept.transcript(kept.length), kept.ply) == ("f5d6", 2)


# -- keys typed right after the Esc that closes a dialog ------------------------------


@pytest.mark.parametrize(
    ("opens", "dialog"),
    [
        ("question_mark", "HelpScreen"),  # nothing focused but the dialog's list of keys
        ("s", "SaveGameScreen"),  # a text box focused: it would take the letter
        ("n", "NewGameScreen"),
        ("t", "SettingsScreen"),
    ],
)
@pytest.mark.parametrize("then", ["square", "dialog"])
async def test_a_key_typed_right_after_the_esc_that_closes_a_dialog_reaches_the_board(
    keeping_app,  # noqa: F811
    opens,
    dialog,
    then,
):
    app, _ = keeping_app(cli={"white": "human"}, player=FirstMovePlayer())
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press(opens)
        await in_front(pilot, dialog)
        await pilot.pause()  # (drawn, its focus taken)
        if then == "square":  # typed on the board: played
            burst(app, ["escape", "d", "3"])
            await until(pilot, lambda: moves(app) == "d3", "d3 played on the board")
        else:  # the board's key for another dialog: it opens
            burst(app, ["escape", "o"])
            await until(pilot, lambda: showing(app, "SavedGamesScreen"), "the saved games")
