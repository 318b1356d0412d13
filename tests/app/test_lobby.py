"""The lobby screen and the invitation dialogs, against a fake server side: the
real LobbyLink on one end of a socket pair, the test writing the server's
lines on the other and reading what the game asked for."""

from __future__ import annotations

import socket

import pytest
from textual.widgets import OptionList

from tui_reversi.net.lobby_link import LobbyLink
from tui_reversi.net.remote import GUEST_UNRATED
from tui_reversi.screens.help import HelpScreen
from tui_reversi.screens.invitation import InvitedScreen, InviteScreen, WaitingScreen
from tui_reversi.screens.lobby import NO_LOBBY, LobbyScreen
from tui_reversi.widgets.literal import Literal

from .conftest import showing, status, until

LOBBY = [
    "person alice free playing on their own",
    "person bob free playing on their own",
    "person carol playing at table K7QP2 (Black), against dave",
    "person dave playing at table K7QP2 (White), against carol",
    "person [b]eve[/b] watching watching table K7QP2",
    "table K7QP2 playing carol dave othello 5+3 12",
    "table M3XR9 open - frank anti - 1",
    "table P2QD4 adjourned alice bob othello - 31",
    "person guest-7f3a9c0d1e2f3a4b free playing on their own",
    "person a-very-long-name-indeed free playing on their own",
    "rated alice 1516?",
    "rated bob 1484?",
    "rated carol 1712",
    "rated dave 1650",
    "rated [b]eve[/b] 1500?",
    "rated frank 1523",
    "rated a-very-long-name-indeed 2011",
    "record 1516? 1 1 won, 0 lost, 0 drawn",
    "shown",
]


class FakeServer:
    """The server's end of the lobby line."""

    def __init__(self, name: str = "alice") -> None:
        self.ours, theirs = socket.socketpair()
        self.link = LobbyLink(theirs, theirs.makefile("rb"), name)
        self.ours.setblocking(False)
        self._pending = b""

    def say(self, *lines: str) -> None:
        self.ours.sendall("".join(f"{text}\n" for text in lines).encode())

    async def hear(self, pilot) -> str:
        """The next line the game sent (skipping look/away), waited for
        without blocking the app's loop (which may still have to send it)."""
        for _ in range(500):
            while b"\n" in self._pending:
                line, self._pending = self._pending.split(b"\n", 1)
                if line.decode() not in ("look", "away"):
                    return line.decode()
            try:
                self._pending += self.ours.recv(65536)
            except BlockingIOError:
                await pilot.pause(0.01)
        raise AssertionError("the game sent no line in 5 s")

    def close(self) -> None:
        self.link.close()
        self.ours.close()


@pytest.fixture
def server():
    fake = FakeServer()
    yield fake
    fake.close()


def invitation(app) -> int | None:
    """The number of the invitation whose dialog is up, if one is."""
    return app.screen.invitation.number if showing(app, InvitedScreen) else None


def highlighted(options: OptionList) -> str | None:
    """The id of the row the cursor is on."""
    option = options.highlighted_option
    return option.id if option is not None else None


def rows(app) -> list[str]:
    options = app.screen.query_one(OptionList)
    return [str(options.get_option_at_index(i).prompt) for i in range(options.option_count)]


async def open_lobby(pilot, app, server) -> LobbyScreen:
    await pilot.press("L")
    await until(pilot, lambda: showing(app, LobbyScreen), "the lobby")
    server.say(*LOBBY)
    await until(pilot, lambda: len(rows(app)) > 5, "the lobby's rows")
    return app.screen


async def invite_bob(pilot, app, server) -> None:
    """The lobby opened and bob (its second row) chosen: the invitation's terms are up."""
    await open_lobby(pilot, app, server)
    await pilot.press("j", "enter")
    await until(pilot, lambda: showing(app, InviteScreen), "the terms")


async def test_without_a_server_the_lobby_key_says_so_in_one_sentence(make_app):
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("L")
        await pilot.pause()
        assert status(app) == NO_LOBBY
        assert not isinstance(app.screen, LobbyScreen)


async def test_the_lobby_lists_people_tables_adjourned_games_and_the_record(make_app, server):
    app = make_app(lobby=server.link)
    async with app.run_test(size=(80, 24)) as pilot:
        lobby = await open_lobby(pilot, app, server)
        shown = rows(app)
        assert shown[0] == "People here (⏎ invites)"
        assert "alice (you)      1516?  free, playing on their own" in shown
        assert f"{'[b]eve[/b]':<16} 1500?  watching table K7QP2" in shown  # literally
        playing = "K7QP2  carol 1712 (Black) against dave 1650 (White), othello, clock 5+3, move 12"
        assert playing in shown
        assert "M3XR9  frank 1523 waits (White), anti, move 1" in shown
        adjourned = "P2QD4  alice 1516? (Black) against bob 1484? (White), othello, move 31"
        assert adjourned in shown
        assert shown.index("Your adjourned games (⏎ resumes)") < shown.index(adjourned)
        record = str(lobby.query_one("#lobby-record", Literal).content)
        said = "Your record here: 1 won, 0 lost, 0 drawn; rating 1516? after 1 rated game."
        assert record == said
        await pilot.press("question_mark")  # the keys, over the lobby
        await until(pilot, lambda: showing(app, HelpScreen), "the help")
        await pilot.press("escape")
        await until(pilot, lambda: showing(app, LobbyScreen), "the lobby again")
        await pilot.press("escape")
        await until(pilot, lambda: not isinstance(app.screen, LobbyScreen), "back to the game")


async def test_after_a_rated_game_the_lobby_says_how_it_moved_the_rating(make_app, server):
    app = make_app(lobby=server.link)
    async with app.run_test(size=(80, 24)) as pilot:
        lobby = await open_lobby(pilot, app, server)
        shown = lobby.query_one("#lobby-record", Literal)
        assert "Your last game" not in str(shown.content)  # no rated game yet
        # alice wins her second rated game, against bob: the server sends the lobby again.
        after = [text for text in LOBBY if not text.startswith(("record ", "shown"))]
        last = "Your last game, against bob (id 12), moved your rating +15."
        server.say(*after, "record 1531? 2 2 won, 0 lost, 0 drawn", f"last {last}", "shown")
        await until(pilot, lambda: "+15" in str(shown.content), "the rating's change")
        assert str(shown.content) == (
            "Your record here: 2 won, 0 lost, 0 drawn; rating 1531? after 2 rated games.\n" + last
        )
        await pilot.pause()
        assert shown.region.height == 2  # both lines on screen, under the list
        # The next lobby without such a line (a game without a rating since): gone again.
        server.say(*LOBBY)
        await until(pilot, lambda: "+15" not in str(shown.content), "the change gone")


@pytest.mark.parametrize("size", [(80, 24), (60, 21)])
async def test_each_name_has_its_rating_beside_it_provisional_marked_a_guest_none(
    make_app, server, size
):
    app = make_app(lobby=server.link)
    async with app.run_test(size=size) as pilot:
        await open_lobby(pilot, app, server)
        people = {row.split()[0]: row for row in rows(app)[1:9]}
        assert people["bob"] == "bob              1484?  free, playing on their own"
        assert people["carol"] == "carol             1712  at table K7QP2 (Black), against dave"
        # A guest plays unrated: its name says so, its column stays empty.
        guest = "guest-7f3a9c            free, playing on their own"
        assert people["guest-7f3a9c"] == guest
        # A long name is cut, its rating kept in the column: every row lines up.
        assert people["a-very-long-nam…"] == "a-very-long-nam…  2011  free, playing on their own"
        assert {row.index("  free") for row in people.values() if "free" in row} == {22}
        listed = app.screen.query_one(OptionList)
        assert listed.content_size.width >= len(people["bob"])  # a person's row fits whole
        assert listed.virtual_size.height == listed.option_count  # no row wraps


async def test_a_guests_own_lobby_says_it_plays_unrated_not_a_rating(make_app):
    guest = FakeServer("guest-7f3a9c0d1e2f3a4b")
    try:
        app = make_app(lobby=guest.link)
        async with app.run_test(size=(80, 24)) as pilot:
            lobby = await open_lobby(pilot, app, guest)
            assert str(lobby.query_one("#lobby-record", Literal).content) == GUEST_UNRATED
            assert "guest-7f3… (you)        free, playing on their own" in rows(app)
    finally:
        guest.close()


async def test_an_update_keeps_the_cursor_on_its_row(make_app, server):
    app = make_app(lobby=server.link)
    async with app.run_test(size=(80, 24)) as pilot:
        await open_lobby(pilot, app, server)
        await pilot.press("j", "j")  # bob, then carol
        options = app.screen.query_one(OptionList)
        await until(pilot, lambda: highlighted(options) == "person:carol", "carol chosen")
        server.say("person aaron free playing on their own", *LOBBY)  # a new name above
        await until(pilot, lambda: "aaron" in rows(app)[1], "the new lobby")
        assert highlighted(options) == "person:carol"


async def test_enter_on_a_table_watches_or_sits_down(make_app, server):
    app = make_app(lobby=server.link)
    async with app.run_test(size=(80, 24)) as pilot:
        await open_lobby(pilot, app, server)
        options = app.screen.query_one(OptionList)
        options.highlighted = options.get_option_index("playing:K7QP2")
        await pilot.press("enter")
        assert await server.hear(pilot) == "watch K7QP2"
        options.highlighted = options.get_option_index("open:M3XR9")
        await pilot.press("enter")
        assert await server.hear(pilot) == "sit M3XR9"
        options.highlighted = options.get_option_index("adjourned:P2QD4")
        await pilot.press("enter")
        assert await server.hear(pilot) == "sit P2QD4"
        server.say("go P2QD4")  # the server has the seat: the game ends, to be seated there
        await until(pilot, lambda: app.return_code is not None, "the app to end")
        assert app.return_code == 0 and server.link.going == "P2QD4"


async def test_inviting_a_player_with_a_colour_variant_and_clock(make_app, server):
    app = make_app(lobby=server.link)
    async with app.run_test(size=(80, 24)) as pilot:
        await open_lobby(pilot, app, server)
        problem = app.screen.query_one("#problem", Literal)
        await pilot.press("enter")  # alice: yourself
        await until(pilot, lambda: "That is you" in str(problem.content), "the refusal")
        await pilot.press("j", "j")  # carol is playing
        await pilot.press("enter")
        playing = "carol is at table K7QP2 (Black), against dave"
        await until(pilot, lambda: playing in str(problem.content), "carol's table")
        await pilot.press("k", "enter")  # bob
        await until(pilot, lambda: showing(app, InviteScreen), "the terms")
        await pilot.press("left", "left")  # random -> white -> black
        await pilot.press("down", "right", "right")  # othello -> reversi -> anti
        await pilot.press("down", *["right"] * 3)  # no clock -> 1+0 -> 3+2 -> 5+3
        describe = app.screen.query_one("#describe", Literal)
        chosen = "You play Black; anti, 5+3"
        await until(pilot, lambda: chosen in str(describe.content), "the terms chosen")
        await pilot.press("enter")
        assert await server.hear(pilot) == "invite bob black variant anti clock 5+3"
        server.say("waiting 4 bob")
        await until(pilot, lambda: showing(app, WaitingScreen), "waiting")
        server.say("answered bob declined your invitation.")
        await until(pilot, lambda: showing(app, LobbyScreen), "back in the lobby")
        problem = str(app.screen.query_one("#problem", Literal).content)
        assert problem == "bob declined your invitation."


async def test_the_clocks_offered_have_increments_and_the_last_one_chosen_comes_first(
    make_app, server
):
    from tui_reversi.widgets.choice import ChoiceRow

    app = make_app(lobby=server.link)
    async with app.run_test(size=(80, 24)) as pilot:
        await invite_bob(pilot, app, server)
        clocks = app.screen.query_one("#clock", ChoiceRow)
        offered = [shown for _, shown in clocks.options]
        assert offered == ["None", "1+0", "3+2", "5+3", "10+5", "15+10", "30+20"]
        assert clocks.value == ""  # nothing chosen before: no clock
        await pilot.press("down", "down", "left")  # to the clock; from none back to 30+20
        describe = app.screen.query_one("#describe", Literal)
        chosen = "30+20: minutes each + seconds a move"
        await until(pilot, lambda: chosen in str(describe.content), "30+20 chosen")
        await pilot.press("enter")
        assert await server.hear(pilot) == "invite bob random variant othello clock 30+20"
        assert app.settings.clock == "30+20"  # remembered (and saved: change_settings)
        server.say("answered bob declined your invitation.")
        await until(pilot, lambda: showing(app, LobbyScreen), "back in the lobby")
        await pilot.press("enter")
        await until(pilot, lambda: showing(app, InviteScreen), "the terms again")
        assert app.screen.query_one("#clock", ChoiceRow).value == "30+20"
        await pilot.press("down", "down", "left")  # 30+20 -> 15+10
        await pilot.press("enter")
        assert await server.hear(pilot) == "invite bob random variant othello clock 15+10"
        assert app.settings.clock == "15+10"


async def test_escape_while_waiting_withdraws_the_invitation(make_app, server):
    app = make_app(lobby=server.link)
    async with app.run_test(size=(80, 24)) as pilot:
        await open_lobby(pilot, app, server)
        server.say("waiting 4 bob")
        await until(pilot, lambda: showing(app, WaitingScreen), "waiting")
        await pilot.press("escape")
        assert await server.hear(pilot) == "withdraw"


async def test_an_invitation_shows_who_and_the_terms_and_is_accepted_or_declined(make_app, server):
    app = make_app(lobby=server.link)
    async with app.run_test(size=(80, 24)) as pilot:
        server.say("invited 7 [red]bob[/red] white variant reversi clock 10+5")
        await until(pilot, lambda: showing(app, InvitedScreen), "the invitation")
        question = str(app.screen.query_one("#dialog-title", Literal).content)
        told = "[red]bob[/red] invites you to a game: you play Black, reversi, clock 10+5."
        assert question == told
        await pilot.press("n")
        assert await server.hear(pilot) == "decline 7"
        server.say("invited 8 bob random variant othello")
        await until(pilot, lambda: invitation(app) == 8, "another")
        assert "a colour drawn at random, othello, no clock" in str(
            app.screen.query_one("#dialog-title", Literal).content
        )
        await pilot.press("y")
        assert await server.hear(pilot) == "accept 8"


def title_of(app) -> str:
    return str(app.screen.query_one("#dialog-title", Literal).content)


async def test_an_invitation_shows_the_inviters_rating_and_a_guest_inviter_unrated(
    make_app, server
):
    app = make_app(lobby=server.link)
    async with app.run_test(size=(80, 24)) as pilot:
        server.say("rated bob 1484?", "invited 7 bob white variant othello")
        await until(pilot, lambda: showing(app, InvitedScreen), "the invitation")
        told = "bob (1484?) invites you to a game: you play Black, othello, no clock."
        assert title_of(app) == told
        await pilot.press("n")
        assert await server.hear(pilot) == "decline 7"
        server.say("invited 8 guest-7f3a9c0d1e2f3a4b black variant othello")
        await until(pilot, lambda: invitation(app) == 8, "the guest's")
        assert title_of(app).startswith("guest-7f3a9c (a guest, unrated) invites you to a game")


async def test_the_inviter_sees_the_invitees_rating_choosing_the_terms_and_waiting(
    make_app, server
):
    app = make_app(lobby=server.link)
    async with app.run_test(size=(80, 24)) as pilot:
        await invite_bob(pilot, app, server)
        assert title_of(app) == "Invite bob (1484?) to a game"
        await pilot.press("enter")
        assert await server.hear(pilot) == "invite bob random variant othello"
        server.say("waiting 4 bob")
        await until(pilot, lambda: showing(app, WaitingScreen), "waiting")
        assert title_of(app) == "Waiting for bob (1484?) to answer your invitation…"


async def test_an_invitation_that_lapses_closes_its_dialog_with_one_sentence(make_app, server):
    app = make_app(lobby=server.link)
    async with app.run_test(size=(80, 24)) as pilot:
        server.say("invited 3 bob black variant othello")
        await until(pilot, lambda: showing(app, InvitedScreen), "the invitation")
        server.say("withdrawn 3 bob's invitation lapsed after 1m without an answer.")
        await until(pilot, lambda: not isinstance(app.screen, InvitedScreen), "it to close")
        note = "bob's invitation lapsed after 1m without an answer."
        # A notification is a message to the app: it lands a moment later.
        await until(pilot, lambda: note in [n.message for n in app._notifications], "the note")


async def test_the_new_game_dialog_leads_to_the_lobby_when_served(make_app, server):
    app = make_app(lobby=server.link)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("n")
        await pilot.pause()
        await pilot.press("L")
        await until(pilot, lambda: showing(app, LobbyScreen), "the lobby")


async def test_the_lobby_fits_60x21(make_app, server):
    app = make_app(lobby=server.link)
    async with app.run_test(size=(60, 21)) as pilot:
        lobby = await open_lobby(pilot, app, server)
        record = lobby.query_one("#lobby-record")
        assert record.region.bottom <= 21 and record.region.height >= 1
        assert lobby.query_one(OptionList).region.height >= 8


def test_lobby_snapshot_80x24(snap_compare, make_app):
    fake = FakeServer()
    fake.say(*LOBBY)

    async def opened(pilot):
        await pilot.press("L")
        await until(pilot, lambda: showing(pilot.app, LobbyScreen), "the lobby")
        await until(pilot, lambda: len(rows(pilot.app)) > 5, "the lobby's rows")

    try:
        assert snap_compare(make_app(lobby=fake.link), run_before=opened, terminal_size=(80, 24))
    finally:
        fake.close()


async def test_terms_typed_together_with_enter_are_all_taken_before_it(make_app, server):
    from textual import events

    app = make_app(lobby=server.link)
    async with app.run_test(size=(80, 24)) as pilot:
        await invite_bob(pilot, app, server)
        # As over a slow link: the keys arrive in one read, Enter last.
        for key, character in (("left", None), ("left", None), ("down", None), ("right", " ")):
            app.post_message(events.Key(key, character))
        app.post_message(events.Key("enter", "\r"))
        await until(pilot, lambda: not isinstance(app.screen, InviteScreen), "the invitation")
        assert await server.hear(pilot) == "invite bob black variant reversi"


async def test_at_home_on_a_server_the_player_is_labelled_by_name_not_human(make_app, server):
    from tui_reversi.widgets.score import ScorePanel

    from .conftest import title

    app = make_app(lobby=server.link)  # alice, Black, against Easy
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert app.screen.query_one(ScorePanel).scoreboard.players == ("alice", "Easy")
        assert "Black alice vs White Easy" in title(app)
        first = app.match
        await pilot.press("n", "enter")  # another game, the same players
        again = "Black alice vs White Easy"
        await until(pilot, lambda: app.match is not first and again in title(app), "a new game")
