"""A moderator's lobby in the app: the open reports the server sends are shown
under their heading, literally (what a reporter typed is never markup), and
choosing one says how to act on it; `b` on a person blocks them once asked (Enter
or y blocks, Esc or n sends nothing), `u` unblocks."""

from __future__ import annotations

import pytest

from tui_reversi.screens.blocking import WHAT_A_BLOCK_DOES
from tui_reversi.screens.confirm import ConfirmScreen

from .conftest import in_front, showing
from .test_lobby import LOBBY, open_lobby, rows, server, until  # noqa: F401 (a fixture)


async def test_a_moderators_lobby_shows_the_open_reports_literally(make_app, server):  # noqa: F811
    app = make_app(lobby=server.link)
    async with app.run_test(size=(80, 24)) as pilot:
        lobby = await open_lobby(pilot, app, server)
        assert not any(text.startswith("Open reports") for text in rows(app))
        reports = ["report 3 alice bob abuse says [b]rude[/b] things", "report 4 carol bob spam "]
        server.say(*LOBBY[:-1], *reports, "shown")
        await until(pilot, lambda: any("Open reports" in text for text in rows(app)), "reports")
        shown = rows(app)
        assert "   3 alice on bob, abuse: says [b]rude[/b] things" in shown
        assert "   4 carol on bob, spam" in shown
        lobby.query_one("OptionList").highlighted = shown.index("   4 carol on bob, spam")
        await pilot.press("enter")
        await until(
            pilot,
            lambda: "Act on report 4 with" in str(lobby.query_one("#problem").content),
            "how to act",
        )


@pytest.mark.parametrize(
    ("keys", "asked", "answer"),
    [
        (("b", "enter"), "block bob", "You block bob: no invitation, chat or pairing between you."),
        (("b", "y"), "block bob", "You block bob: no invitation, chat or pairing between you."),
        (("u",), "unblock bob", "You no longer block bob."),
    ],
)
async def test_b_or_u_on_a_person_asks_the_server_to_block_or_unblock_them(
    make_app,
    server,  # noqa: F811
    keys,
    asked,
    answer,
):
    app = make_app(lobby=server.link)
    async with app.run_test(size=(80, 24)) as pilot:
        lobby = await open_lobby(pilot, app, server)
        await pilot.press("j", keys[0])  # bob, the second row
        if keys[0] == "b":  # (a block is asked first)
            await in_front(pilot, ConfirmScreen)
            await pilot.press(*keys[1:])
        assert await server.hear(pilot) == asked
        server.say(f"answered {answer}")
        problem = lobby.query_one("#problem")
        await until(pilot, lambda: answer in str(problem.content), "the answer")
        await pilot.press("k", keys[0])  # alice, herself: refused, and nothing asked
        await until(pilot, lambda: str(problem.content) == "That is you.", "the refusal")
        assert app.screen is lobby


def question(app) -> str:
    """The confirmation's question, as drawn."""
    return app.screen.query_one("#dialog-title").render().plain


@pytest.mark.parametrize("no", ["escape", "n"])
async def test_b_asks_first_saying_what_a_block_does_and_no_sends_nothing(
    make_app,
    server,  # noqa: F811
    no,
):
    app = make_app(lobby=server.link)
    async with app.run_test(size=(80, 24)) as pilot:
        lobby = await open_lobby(pilot, app, server)
        await pilot.press("j", "b")  # bob
        await in_front(pilot, ConfirmScreen)
        assert question(app) == f"Block bob? {WHAT_A_BLOCK_DOES}"
        await pilot.press(no)
        await until(pilot, lambda: app.screen is lobby, "back in the lobby")
        assert "Blocking" not in str(lobby.query_one("#problem").content)
        await pilot.press("u")  # the next line the game sends is this one: no block went
        assert await server.hear(pilot) == "unblock bob"


async def test_the_block_question_shows_a_name_as_it_is_written(make_app, server):  # noqa: F811
    app = make_app(lobby=server.link)
    async with app.run_test(size=(80, 24)) as pilot:
        lobby = await open_lobby(pilot, app, server)
        lobby.query_one("OptionList").highlighted = rows(app).index(
            f"{'[b]eve[/b]':<16} 1500?  watching table K7QP2"
        )
        await pilot.press("b")
        await in_front(pilot, ConfirmScreen)
        assert question(app).startswith("Block [b]eve[/b]? Neither of you")
        await pilot.press("y")
        assert await server.hear(pilot) == "block [b]eve[/b]"


async def test_r_on_a_person_reports_them_with_a_reason_and_words(make_app, server):  # noqa: F811
    from tui_reversi.screens.report import ReportScreen

    app = make_app(lobby=server.link)
    async with app.run_test(size=(80, 24)) as pilot:
        lobby = await open_lobby(pilot, app, server)
        await pilot.press("j", "r")  # bob
        await until(pilot, lambda: showing(app, ReportScreen), "the report's dialog")
        await pilot.press("right", "down")  # abuse -> spam, then the words
        await pilot.press(*"invites me [b]all[/b] day")
        await pilot.press("enter")
        assert await server.hear(pilot) == "report bob spam invites me [b]all[/b] day"
        await until(pilot, lambda: app.screen is lobby, "back in the lobby")
        server.say("answered Report 7 on bob (spam) is filed; you will be told when ...")
        problem = lobby.query_one("#problem")
        await until(pilot, lambda: "Report 7 on bob" in str(problem.content), "the answer")
        table = next(i for i, text in enumerate(rows(app)) if text.startswith("K7QP2"))
        lobby.query_one("OptionList").highlighted = table
        await pilot.press("r")  # a table's row: nobody to report
        await until(pilot, lambda: "Choose a person" in str(problem.content), "the refusal")


async def test_b_and_r_on_a_player_in_the_leaderboard(make_app, server):  # noqa: F811
    from tui_reversi.screens.report import ReportScreen
    from tui_reversi.screens.standings import StandingsScreen

    from .test_standings import open_leaderboard

    app = make_app(lobby=server.link)
    async with app.run_test(size=(80, 24)) as pilot:
        await open_leaderboard(pilot, app, server)  # the cursor on bob, its first player
        standings = app.screen
        await pilot.press("b")
        await in_front(pilot, ConfirmScreen)
        assert question(app) == f"Block bob? {WHAT_A_BLOCK_DOES}"
        await pilot.press("enter")
        assert await server.hear(pilot) == "block bob"
        server.say("answered You block bob: no invitation, chat or pairing between you.")
        problem = standings.query_one("#problem")
        await until(pilot, lambda: "You block bob" in str(problem.content), "the answer")
        await pilot.press("u")
        assert await server.hear(pilot) == "unblock bob"
        await pilot.press("r")
        await until(pilot, lambda: showing(app, ReportScreen), "the report's dialog")
        await pilot.press("left", "enter")  # abuse -> boosting, no words
        assert await server.hear(pilot) == "report bob boosting"
        await until(pilot, lambda: showing(app, StandingsScreen), "the leaderboard")


async def test_b_on_a_profiles_first_row_blocks_the_player_it_shows(make_app, server):  # noqa: F811
    from .test_standings import open_leaderboard

    app = make_app(lobby=server.link)
    async with app.run_test(size=(80, 24)) as pilot:
        await open_leaderboard(pilot, app, server)
        await pilot.press("enter")  # bob's profile
        assert await server.hear(pilot) == "player bob"
        server.say(
            "page bob",
            "row player:bob bob",
            "row - Rating 1624, rank 1 after 12 rated games",
            "row player:alice   alice                3 won, 0 lost, 0 drawn",
            "paged",
        )
        await until(pilot, lambda: "Rating 1624, rank 1" in " ".join(rows(app)), "bob's profile")
        await pilot.press("b")  # the cursor starts on bob himself
        await in_front(pilot, ConfirmScreen)
        await pilot.press("y")
        assert await server.hear(pilot) == "block bob"
