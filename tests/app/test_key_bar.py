"""The key bars show what matters there first, and q quits wherever ctrl+q
does, except in a text box, where it is a letter."""

import pytest
from textual.widgets import Input

from .conftest import FirstMovePlayer, GatedPlayer, settle
from .test_keeping import keeping_app  # noqa: F401 (a fixture)
from .test_lobby import server  # noqa: F401 (a fixture)

ALMOST_OVER = "d3c3f5f4f3d2d1e3"  # Black's b3 ends it 64-0


def bar_text(app) -> str:
    return app.screen.query_one("KeyBar").render().plain


def shown(app) -> dict[str, str]:
    """The key bar as {description's first word: key}."""
    words = bar_text(app).split()
    return {words[i + 1]: words[i] for i in range(0, len(words) - 1)}


async def test_at_80_columns_the_game_bar_has_review_save_open_and_export(keeping_app):  # noqa: F811
    app, _ = keeping_app(cli={"white": "human"})
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        keys = shown(app)
        for key, what in (("n", "New"), ("u", "Undo"), ("i", "Hint"), ("s", "Save")):
            assert keys.get(what) == key, bar_text(app)
        for key, what in ((",", "Review"), ("o", "Open"), ("x", "Export")):
            assert keys.get(what) == key, bar_text(app)
        assert bar_text(app).rstrip().endswith("^q Quit ? Help")
        await pilot.press("f", "5", "comma")  # reviewing: the review keys come first
        await pilot.pause()
        assert bar_text(app).split()[:4] == [",", "Review", ".", "Forward"]


@pytest.mark.parametrize("size", [(80, 24), (60, 21)])
@pytest.mark.parametrize("served", [False, True])
async def test_the_bar_never_drops_review_analyse_and_on_a_server_the_lobby(
    keeping_app,  # noqa: F811
    server,  # noqa: F811
    size,
    served,
):
    """At 80 columns the bar left out , (review), a (analyse) and L (the
    lobby): found only through n or ?. Now they stay while they act."""
    app, _ = keeping_app(cli={"white": "human"})
    if served:
        from tui_reversi.screens.lobby import Invitations

        app.invitations = Invitations(app, server.link)
    lobby = {"Lobby": "L"} if served else {}
    async with app.run_test(size=size) as pilot:
        await pilot.press("f", "5")  # playing
        await pilot.pause()
        assert shown(app).items() >= ({"Review": ","} | lobby).items(), bar_text(app)
        await pilot.press("comma")  # reviewing
        await pilot.pause()
        wanted = {"Review": ",", "Forward": ".", "Analyse": "a"} | lobby
        assert shown(app).items() >= wanted.items(), bar_text(app)
        await pilot.press("escape", "u", *ALMOST_OVER, "b", "3", "escape")  # game over
        await pilot.pause()
        assert app.match.is_over
        wanted = {"New": "n", "Review": ",", "Analyse": "a"} | lobby
        assert shown(app).items() >= wanted.items(), bar_text(app)
        assert bar_text(app).rstrip().endswith("^q Quit ? Help")


@pytest.mark.parametrize("size", [(80, 24), (60, 21)])
async def test_with_a_premove_pending_on_a_server_the_bar_keeps_review_and_the_lobby(
    make_app,
    server,  # noqa: F811
    size,
):
    """At 60 columns `esc Clear premove` pushed L (the lobby) off the bar."""
    from tui_reversi.screens.lobby import Invitations

    from .test_premove import legal_after_reply, while_the_computer_thinks

    player = GatedPlayer()
    app = make_app(player=player, white="hard")
    app.invitations = Invitations(app, server.link)
    async with app.run_test(size=size) as pilot:
        await while_the_computer_thinks(pilot, player)
        await pilot.press(*legal_after_reply())
        await pilot.pause()
        wanted = {"Clear": "esc", "Review": ",", "Lobby": "L"}
        assert shown(app).items() >= wanted.items(), bar_text(app)
        assert bar_text(app).rstrip().endswith("^q Quit ? Help")
        assert len(bar_text(app)) <= size[0]  # (not cut to "? Hel…")
        player.gate.set()
        await settle(pilot, app)


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
