"""Keys typed right after the key that opens a dialog belong to the dialog,
even when they all arrive at once (a paste, a fast typist, a slow SSH link):
none of them acts on the board behind it."""

from textual import events

from .conftest import FirstMovePlayer, moves, settle
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
