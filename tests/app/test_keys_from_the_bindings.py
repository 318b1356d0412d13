"""Every key the player is shown comes from the bindings (and the keymap), and
only where it acts: the help, the key bar, a dialog's line of keys and the
command palette."""

from .conftest import settle, status
from .test_dialogs import palette_hits

OVER = "d3c3f5f4f3d2d1e3b3"  # Black's b3 ended it 64-0

TABLE_ONLY = ("Resign", "Take back", "Rematch", "Chat", "Lobby")


def bar(app) -> str:
    return app.screen.query_one("KeyBar").render().plain


def key_line(app) -> str:
    return str(app.screen.query_one("#dialog-keys").content)


async def palette(pilot, app) -> list[str]:
    """What the command palette lists before typing: each entry's title and help."""
    return await palette_hits(pilot, app, "")


def titled(entries: list[str], title: str) -> list[str]:
    return [entry for entry in entries if entry.split("\n")[0].strip() == title]


async def test_a_local_games_help_lists_no_key_that_only_acts_at_a_table(make_app):
    app = make_app(white="human")
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.press("question_mark")
        await pilot.pause()
        text = app.screen.query_one("#help-text").content.plain
        assert "Undo" in text and "New game" in text
        for word in TABLE_ONLY:
            assert word not in text, word


async def test_after_a_game_the_bar_and_palette_offer_no_hint_and_no_graph(make_app):
    app = make_app(transcript=OVER, white="human")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("escape")  # the game-over dialog: the board
        await settle(pilot, app)
        words = bar(app).split()
        assert "Analyse" in words
        assert "Hint" not in words and "Graph" not in words, words
        entries = await palette(pilot, app)
        assert titled(entries, "Analyse") or titled(entries, "Analyse the game"), entries
        for title in ("Hint", "Graph", "Evaluation graph"):
            assert not titled(entries, title), entries
        await pilot.press("g")  # pressed anyway, they say why
        await pilot.pause()
        assert "Nothing analysed yet" in status(app)
        await pilot.press("i")
        await pilot.pause()
        assert "needs your turn" in status(app)


async def test_the_export_dialog_says_enter_writes_the_file_in_the_file_box(make_app):
    app = make_app(white="human", transcript="f5")
    async with app.run_test(size=(80, 30)) as pilot:
        await pilot.press("x")
        await settle(pilot, app)
        assert "c Copy" in bar(app) and "c Copy" in key_line(app)
        await pilot.press("w")  # to the file box
        await settle(pilot, app)
        for keys in (bar(app), key_line(app)):
            assert "⏎ Write the file" in keys and "Copy" not in keys, keys


async def test_the_keys_shown_follow_the_keymap(make_app):
    app = make_app(white="human", transcript="f5")
    app.update_keymap({"export.copy": "y", "game.undo": "z"})
    async with app.run_test(size=(80, 30)) as pilot:
        (undo,) = titled(await palette(pilot, app), "Undo")
        assert undo.endswith("(z)"), undo
        assert "z Undo" in bar(app)
        await pilot.press("x")
        await settle(pilot, app)
        assert "y Copy" in key_line(app) and "c Copy" not in key_line(app), key_line(app)


async def test_a_new_game_dialog_off_a_server_shows_no_lobby_key(make_app):
    app = make_app(white="human")
    async with app.run_test(size=(80, 30)) as pilot:
        await pilot.press("n")
        await settle(pilot, app)
        assert "Lobby" not in key_line(app) and "Lobby" not in bar(app)
        await pilot.press("f1")
        await settle(pilot, app)
        assert "Lobby" not in app.screen.query_one("#help-text").content.plain
