"""The leaderboard and a profile from the lobby (`t`, then ⏎ on a player), against
the fake server side of tests/app/test_lobby.py: the rows are the server's,
shown literally; ⏎ on a player asks for their profile."""

from __future__ import annotations

import pytest

from tui_reversi.screens.lobby import LobbyScreen
from tui_reversi.screens.standings import StandingsScreen
from tui_reversi.widgets.literal import Literal

from .conftest import showing
from .test_lobby import FakeServer, open_lobby, rows, until

LEADERBOARD = [
    "page Leaderboard",
    "row - the leaderboard",
    "row - rank  name   rating",
    "row player:bob    1  bob    1624",
    "row player:[b]x[/b]    2  [b]x[/b]    1600",
    "paged",
]


@pytest.fixture
def server():
    fake = FakeServer()
    yield fake
    fake.close()


async def open_leaderboard(pilot, app, server) -> None:
    """The lobby, then `t`: the game asks for the leaderboard, the server sends it."""
    await open_lobby(pilot, app, server)
    await pilot.press("t")
    assert await server.hear(pilot) == "top"
    server.say(*LEADERBOARD)
    await until(pilot, lambda: showing(app, StandingsScreen), "the leaderboard")
    await pilot.pause()


async def test_t_in_the_lobby_shows_the_leaderboard_and_enter_opens_a_profile(make_app, server):
    app = make_app(lobby=server.link)
    async with app.run_test(size=(80, 24)) as pilot:
        await open_leaderboard(pilot, app, server)
        shown = rows(app)
        assert shown[0] == "the leaderboard"
        assert "   2  [b]x[/b]    1600" in shown  # literally, never markup
        await pilot.press("enter")  # the cursor starts on the first player: bob
        assert await server.hear(pilot) == "player bob"
        server.say(
            "page bob",
            "row - bob, rating 1624, rank 1 after 12 rated games",
            "row - Rating over the last 12 rated games: ▁▂▃▅▆▇█  (1500 to 1624)",
            "row player:alice   alice                3 won, 0 lost, 0 drawn",
            "row game:1234   2026-05-01 12:00  against alice  Black won (+16)  board  id 1234",
            "paged",
        )
        await until(pilot, lambda: "bob, rating" in " ".join(rows(app)), "bob's profile")
        assert "Rating over the last 12 rated games: ▁▂▃▅▆▇█  (1500 to 1624)" in rows(app)
        await pilot.press("enter")  # on alice, the only player there
        assert await server.hear(pilot) == "player alice"
        server.say("refused Nobody called alice has finished a game here.")
        screen = app.screen
        await until(
            pilot,
            lambda: "Nobody called" in str(screen.query_one("#problem", Literal).content),
            "the refusal under the list",
        )
        await pilot.press("down", "enter")  # on the game: opened for review, by the server
        assert await server.hear(pilot) == "replay 1234"
        server.say("go game-1234")
        await until(pilot, lambda: app.return_code is not None, "the game to end for the replay")


async def test_esc_goes_back_from_the_leaderboard_to_the_lobby(make_app, server):
    app = make_app(lobby=server.link)
    async with app.run_test(size=(80, 24)) as pilot:
        await open_leaderboard(pilot, app, server)
        await pilot.press("escape")
        await until(pilot, lambda: showing(app, LobbyScreen), "back in the lobby")


@pytest.mark.parametrize("size", [(80, 24), (60, 21)])
async def test_the_leaderboard_s_columns_all_show_at_80_and_60_columns(make_app, server, size):
    from datetime import datetime

    from tui_reversi.server.hall.standings_pages import leaderboard_rows
    from tui_reversi.server.ledger.ratings import Rating
    from tui_reversi.server.ledger.standings import Results, Standing

    from .test_sentences_fit import screen_lines

    standings = [
        Standing("bob", Rating(1624.0, 64.0, 0.06, 40), Results(30, 8, 2), datetime(2026, 5, 1), 1),
        Standing(
            "a-name-of-thirty-two-characters1",
            Rating(1500.0, 100.0, 0.06, 3),
            Results(1, 2, 0),
            None,
            2,
        ),
    ]
    app = make_app(lobby=server.link)
    async with app.run_test(size=size) as pilot:
        await open_lobby(pilot, app, server)
        await pilot.press("t")
        assert await server.hear(pilot) == "top"
        server.say(
            "page Leaderboard",
            *(f"row {key or '-'} {text}" for key, text in leaderboard_rows(standings)),
            "paged",
        )
        await until(pilot, lambda: showing(app, StandingsScreen), "the leaderboard")
        await pilot.pause()
        lines = screen_lines(app)
        shown = "\n".join(lines)
        assert any("rating" in line and line.rstrip(" █").endswith("last") for line in lines)
        bob = next(line for line in lines if " bob " in line)
        assert "30-2-8" in bob and "2026-05-01" in bob, shown  # the record and the last game
        assert "a-name-of-thirt…" in shown and "1-0-2" in shown, shown
