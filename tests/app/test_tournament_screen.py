"""A tournament's screen in the app (screens/tournament.py), from the lobby (`T`, then
⏎ on a tournament), against the fake server side of tests/app/test_lobby.py: the
player in it (the time left, their place, their next game) and the standings,
asked for again while shown; at 80x24 and 60x21, with a snapshot at each."""

from __future__ import annotations

import pytest

from tui_reversi.screens import tournament
from tui_reversi.screens.lobby import LobbyScreen
from tui_reversi.screens.standings import StandingsScreen
from tui_reversi.screens.tournament import TournamentScreen

from .conftest import showing
from .test_lobby import LOBBY, FakeServer, open_lobby, rows, until
from .test_lobby import server as server  # (the fixture: the fake server's end)

TOURNAMENTS = [
    "page Tournaments",
    "row tournament:3 Arena 3   othello, 3+2, rated; 12:30 left; 5 players",
    "row tournament:4 Swiss 4   othello, 5+3, rated; 3 rounds in 4:10; 2 players",
    "paged",
]


def arena_page(left: str) -> list[str]:
    return [
        "page Arena 3 (othello, 3+2, rated)",
        f"row standings-of:3 {left} left · you: #2, 6 points",
        "row - Your next game: waiting to be paired.",
        "row -     #  player           points games",
        "row player:bob      1  bob                   9     4 *",
        "row player:alice      2  alice                 6     3",
        "row player:[b]x[/b]      3  [b]x[/b]                   2     2",
        "row player:dave      4  dave                  0     1",
        "row -   * on fire: the next game scores double",
        "paged",
    ]


async def open_arena(pilot, app, server, page: list[str] | None = None) -> None:
    """The lobby, `T`, then ⏎ on Arena 3: its screen (`page`, or the player in it)."""
    await open_lobby(pilot, app, server)
    await pilot.press("T")
    assert await server.hear(pilot) == "tournaments"
    server.say(*TOURNAMENTS)
    await until(pilot, lambda: showing(app, StandingsScreen), "the tournaments")
    await pilot.pause()
    await pilot.press("enter")
    assert await server.hear(pilot) == "tournament 3"
    server.say(*(page or arena_page("12:30")))
    await until(pilot, lambda: showing(app, TournamentScreen), "the arena's screen")
    await pilot.pause()


async def test_the_tournament_screen_shows_you_in_it_and_the_standings_kept_up(
    make_app, server, monkeypatch
):
    monkeypatch.setattr(tournament, "REFRESH", 0.2)
    app = make_app(lobby=server.link)
    async with app.run_test(size=(80, 24)) as pilot:
        await open_arena(pilot, app, server)
        shown = rows(app)
        assert shown[:2] == [
            "12:30 left · you: #2, 6 points",
            "Your next game: waiting to be paired.",
        ]
        assert "     3  [b]x[/b]                   2     2" in shown  # literally, never markup
        assert shown[-1] == "  * on fire: the next game scores double"
        # Asked for again while shown: the time left moves on.
        assert await server.hear(pilot) == "tournament 3"
        server.say(*arena_page("12:28"))
        await until(pilot, lambda: rows(app)[0].startswith("12:28 left"), "the update")
        assert isinstance(app.screen, TournamentScreen)
        await pilot.press("down", "enter")  # a player's row: their profile
        heard = await server.hear(pilot)
        while heard == "tournament 3":  # (asked again meanwhile)
            heard = await server.hear(pilot)
        assert heard == "player bob"
        await pilot.press("escape")
        await until(pilot, lambda: not isinstance(app.screen, TournamentScreen), "back")


@pytest.mark.parametrize("size", [(80, 24), (60, 21)])
async def test_the_tournament_screen_fits(make_app, server, size):
    app = make_app(lobby=server.link)
    async with app.run_test(size=size) as pilot:
        await open_arena(pilot, app, server)
        screen = app.screen
        listed = screen.query_one("#standings-list")
        assert listed.region.bottom <= size[1] and listed.region.height >= 8
        assert screen.query_one("#problem").region.bottom <= size[1]


@pytest.mark.parametrize("size", [(80, 24), (60, 21)])
def test_tournament_snapshot(snap_compare, make_app, size):
    fake = FakeServer()
    fake.say(*LOBBY)

    async def opened(pilot):
        await pilot.press("L")
        await until(pilot, lambda: showing(pilot.app, LobbyScreen), "the lobby")
        await until(pilot, lambda: len(rows(pilot.app)) > 5, "the lobby's rows")
        await pilot.press("T")
        assert await fake.hear(pilot) == "tournaments"
        fake.say(*TOURNAMENTS)
        await until(pilot, lambda: showing(pilot.app, StandingsScreen), "the list")
        await pilot.pause()
        await pilot.press("enter")
        assert await fake.hear(pilot) == "tournament 3"
        fake.say(*arena_page("12:30"))
        await until(pilot, lambda: showing(pilot.app, TournamentScreen), "its screen")
        await pilot.pause()

    try:
        assert snap_compare(make_app(lobby=fake.link), run_before=opened, terminal_size=size)
    finally:
        fake.close()


async def test_enter_on_the_join_row_joins_the_tournament_from_the_lobby(make_app, server):
    app = make_app(lobby=server.link)
    page = arena_page("12:30")
    page[1] = "row standings-of:3 12:30 left · you are not in it"
    page[2] = "row join-tournament:3 Join: ⏎ on this line (your game waits, saved)"
    async with app.run_test(size=(80, 24)) as pilot:
        await open_arena(pilot, app, server, page)
        await pilot.press("down", "enter")
        heard = await server.hear(pilot)
        while heard == "tournament 3":  # (asked again meanwhile)
            heard = await server.hear(pilot)
        assert heard == "tournament join 3"
        server.say("go tournament-3")
        await until(pilot, lambda: app.return_code is not None, "the game ended for the arena")
