"""The game screen at a server's table, driven by Pilot: the test is the server,
writing protocol lines down a socket pair to the app's TableLink. What the
players and spectators see at game over, in review, and the two clocks."""

from __future__ import annotations

import re
import socket

import pytest

from tui_reversi.core import Color, Game, Move, Variant
from tui_reversi.match import Match, table_seats
from tui_reversi.net.remote import ClockReading, TableLink, TableState
from tui_reversi.screens.chat import ChatScreen
from tui_reversi.screens.confirm import ConfirmScreen
from tui_reversi.screens.game_over import GameOverScreen
from tui_reversi.widgets.literal import Literal
from tui_reversi.widgets.score import ScorePanel

from .conftest import showing, status, title

pytestmark = pytest.mark.asyncio


def played_out() -> Game:
    """A whole game, first legal move every time."""
    game = Game()
    while not game.is_over:
        game.play(game.position.legal_moves()[0])
    return game


class Server:
    """The server's end of the app's line: writes what a server would say."""

    def __init__(self, state: TableState) -> None:
        self.sock, theirs = socket.socketpair()
        self.link = TableLink(theirs, theirs.makefile("rb"), state)

    def say(self, *lines: str) -> None:
        self.sock.sendall("".join(f"{line}\n" for line in lines).encode())

    def close(self) -> None:
        self.sock.close()
        self.link.close()


@pytest.fixture
def at_table(make_app):
    """`at_table(colour, names, game, clock)`: the app seated at a table where
    `game` has been played so far; its server."""
    servers: list[Server] = []

    def seat(colour, names=("alice", "bob"), game=None, clock=None):
        moves = game.moves[: game.ply] if game is not None else []
        state = TableState(
            code="K7QP2",
            colour=colour,
            variant=Variant.OTHELLO,
            names=names,
            moves=[(ply, Move.of(move)) for ply, move in enumerate(moves) if move >= 0],
            clock=clock,
        )
        server = Server(state)
        servers.append(server)
        black, white = table_seats(colour)
        match = Match(black, white, server.link.start_game(), names=names)
        return make_app(match=match, table_link=server.link), server

    yield seat
    for server in servers:
        server.close()


async def wait_for(pilot, condition, what: str, rounds: int = 300) -> None:
    for _ in range(rounds):
        if condition():
            return
        await pilot.pause(0.01)
    raise AssertionError(f"never: {what}")


def showing_result(app) -> bool:
    """The game-over dialog is up, and drawn (its buttons there: a key before is lost)."""
    return isinstance(app.screen, GameOverScreen) and bool(app.screen.query("Button"))


def one_move_from_the_end(at_table):
    """The app at a table one move before the end; the server's lines that end it."""
    game = played_out()
    last_ply = max(ply for ply, move in enumerate(game.played) if move)
    before = game.copy()
    before.continue_from(last_ply)
    app, server = at_table(Color.BLACK, game=before)
    ending = (
        f"moved {last_ply} {game.move_at(last_ply)}",
        "over normal - Game over: a result.",
    )
    return app, server, ending


async def test_game_over_at_a_table_offers_a_rematch_review_analyse_and_leaving_not_a_new_game(
    at_table,
):
    app, server, ending = one_move_from_the_end(at_table)
    async with app.run_test(size=(80, 24)) as pilot:
        server.say(*ending)
        await wait_for(pilot, lambda: showing_result(app), "the result")
        over = app.screen
        text = str(over.query_one("#dialog-keys").content)
        assert text == (
            "r Rematch · , Review · a Analyse · esc Close · ! Report · q Leave the table"
        )
        buttons = [str(button.label) for button in over.query("Button")]
        assert buttons == ["Rematch", "Review", "Analyse", "Leave", "Close"]
        await pilot.press("n")  # no new game at a table
        await pilot.pause()
        assert app.screen is over
        await pilot.press("escape")
        await wait_for(pilot, lambda: not isinstance(app.screen, GameOverScreen), "the board")
        await pilot.press("comma", "escape")  # a look back, then the status line's advice
        await wait_for(pilot, lambda: "Game over:" in status(app), "the advice")
        assert "Game over: r rematch · , review · a analyse · ^q leave the table" in status(app)
        assert "new game" not in status(app)


async def test_leave_at_a_tables_game_over_leaves_the_table(at_table):
    app, server, ending = one_move_from_the_end(at_table)
    async with app.run_test(size=(80, 24)) as pilot:
        server.say(*ending)
        await wait_for(pilot, lambda: showing_result(app), "the result")
        await pilot.pause()  # (laid out)
        assert await pilot.click("#leave")
        await wait_for(pilot, lambda: not app.is_running, "the app to end")
    assert app.return_code == 0  # so the game tells the server it leaves


async def test_the_game_over_dialog_away_from_a_table_still_offers_a_new_game(make_app):
    game = played_out()
    app = make_app(transcript=game.transcript())
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: showing_result(app), "the result")
        buttons = [str(button.label) for button in app.screen.query("Button")]
        assert buttons == ["New game", "Review", "Analyse", "Close"]
        await pilot.press("n")
        await wait_for(pilot, lambda: type(app.screen).__name__ == "NewGameScreen", "new game")


async def test_a_spectator_reviewing_is_not_offered_to_play_from_there(at_table):
    app, _ = at_table(None, game=Game.from_transcript("d3c3b3"))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("comma")
        await wait_for(pilot, lambda: "REVIEWING" in title(app), "the review banner")
        assert "play from here" not in title(app)
        assert "esc back" in title(app)
        await pilot.press("enter")
        await pilot.pause()
        assert "REVIEWING" in title(app)  # Enter plays on from nowhere
        assert type(app.screen).__name__ == "GameScreen"
        await pilot.press("d", "3")
        await pilot.pause()
        assert "plays on from here" not in status(app)


def clock_columns(panel: ScorePanel) -> list[int]:
    """Where each player's clock ends on the panel's two player lines."""
    lines = panel.render().plain.splitlines()[:2]
    return [re.search(r"\d+:\d\d", line).end() for line in lines]


@pytest.mark.parametrize(
    "names",
    [("alice", "bob"), ("al", "bartholomew"), ("a-very-long-name-indeed", "bob")],
)
async def test_both_clocks_line_up_whatever_the_names(at_table, names):
    clock = ClockReading((300.0, 5.0), None)  # 5:00 beside 0:05
    app, _ = at_table(Color.BLACK, names=names, clock=clock)
    async with app.run_test(size=(80, 24)) as pilot:
        panel = app.screen.query_one(ScorePanel)
        await wait_for(pilot, lambda: panel.clocks is not None, "the clocks")
        await pilot.pause()
        black, white = clock_columns(panel)
        assert black == white
        assert black <= panel.content_size.width  # a long name is cut, the clock kept
        assert "(you)" in panel.render().plain or "…" in panel.render().plain


async def test_clocks_of_different_widths_line_up_too(at_table):
    clock = ClockReading((600.0, 59.0), None)  # 10:00 beside 0:59
    app, _ = at_table(Color.WHITE, clock=clock)
    async with app.run_test(size=(80, 24)) as pilot:
        panel = app.screen.query_one(ScorePanel)
        await wait_for(pilot, lambda: panel.clocks is not None, "the clocks")
        black, white = clock_columns(panel)
        assert black == white


async def test_news_that_comes_as_the_game_starts_is_shown_once_the_screen_is_there(at_table):
    app, server = at_table(Color.WHITE, game=Game.from_transcript("d3"))
    # The other player sits down at the moment this game starts: all of it arrives
    # before the board is drawn.
    server.say("clock 291.0 300.0 white", "news You are both back: the game goes on.")
    async with app.run_test(size=(80, 24)) as pilot:
        panel = app.screen.query_one(ScorePanel)
        await wait_for(pilot, lambda: panel.clocks is not None, "the clocks")
        await wait_for(pilot, lambda: "both back" in status(app), "the news")
        assert panel.clocks.left == (291.0, 300.0)
        assert app.is_running and app.crash is None


@pytest.mark.parametrize("gone", ["adjourned", "closed"])
async def test_the_clocks_stop_when_the_game_is_adjourned_or_the_line_goes(at_table, gone):
    app, server = at_table(Color.WHITE, game=Game.from_transcript("d3"))
    server.say("clock 291.0 300.0 white")
    async with app.run_test(size=(80, 24)) as pilot:
        panel = app.screen.query_one(ScorePanel)
        await wait_for(pilot, lambda: panel.clocks is not None, "the clocks")
        if gone == "adjourned":  # (told so, with no clock line: another node's table went)
            server.say("adjourned the server's node with table K7QP2 went: the game waits.")
        else:
            server.close()
        await wait_for(pilot, lambda: panel.clocks.running is None, "the clocks to stop")
        stopped = panel.clocks
        assert stopped.left[Color.BLACK] == 291.0 and 0 < stopped.left[Color.WHITE] <= 300.0
        await pilot.pause(0.6)
        assert panel.clocks == stopped  # (and they stay so)


async def said(pilot, server: Server, rounds: int = 300) -> str:
    """What the app says to the server within `rounds` pauses ('' if nothing), the app
    running meanwhile."""
    server.sock.setblocking(False)
    try:
        for _ in range(rounds):
            try:
                return server.sock.recv(4096).decode()
            except BlockingIOError:
                await pilot.pause(0.01)
        return ""
    finally:
        server.sock.setblocking(True)


def heard(server: Server) -> str:
    """What the app has said to the server so far."""
    server.sock.settimeout(5)
    return server.sock.recv(4096).decode()


async def test_a_player_tells_the_server_the_board_is_up_and_a_spectator_does_not(at_table):
    app, server = at_table(Color.WHITE)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: "Table K7QP2" in status(app), "the board")
        assert await said(pilot, server) == "begun\n"  # the clocks may start
    app, server = at_table(None)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: "Watching table K7QP2" in status(app), "the board")
        assert await said(pilot, server, rounds=20) == ""  # a spectator has no clock


async def test_a_rematch_asked_and_allowed_starts_a_new_game_with_colours_changed(at_table):
    app, server, ending = one_move_from_the_end(at_table)
    async with app.run_test(size=(80, 24)) as pilot:
        server.say(*ending)
        await wait_for(pilot, lambda: showing_result(app), "the result")
        assert await said(pilot, server) == "begun\n"  # (the board was drawn)
        await pilot.press("r")
        await pilot.pause()
        assert heard(server) == "rematch\n"
        server.say("news Asked bob for a rematch.", "again", "players bob alice")
        await wait_for(pilot, lambda: app.match.game.ply == 0, "the new game")
        assert not isinstance(app.screen, GameOverScreen)
        assert app.match.names == ("bob", "alice (you)")
        assert app.match.is_human(Color.WHITE) and not app.match.is_human(Color.BLACK)
        server.say("moved 0 d3")  # bob is Black now, and moves first
        await wait_for(pilot, lambda: app.match.game.ply == 1, "bob's move")
        await pilot.press("c", "5")
        await pilot.pause()
        assert heard(server) == "move 1 c5\n"


async def test_bang_in_the_game_over_dialog_reports_the_opponent(at_table):
    from tui_reversi.screens.report import ReportScreen

    app, server, ending = one_move_from_the_end(at_table)
    async with app.run_test(size=(80, 24)) as pilot:
        server.say(*ending)
        await wait_for(pilot, lambda: showing_result(app), "the result")
        assert await said(pilot, server) == "begun\n"  # (the board was drawn)
        await pilot.press("exclamation_mark")
        await wait_for(pilot, lambda: showing(app, ReportScreen), "the report's dialog")
        assert "Report bob to the moderators" in str(app.screen.query_one("#dialog-title").content)
        await pilot.press("left", "left")  # abuse -> boosting -> stalling
        await pilot.press("down", *"never moved", "enter")
        assert await said(pilot, server) == "report stalling never moved\n"
        server.say("news Report 1 on bob (stalling) is filed; you will be told when ...")
        await wait_for(pilot, lambda: "Report 1 on bob" in status(app), "the server's answer")


async def test_a_rematch_asked_by_the_opponent_is_answered_in_a_dialog(at_table):
    app, server, ending = one_move_from_the_end(at_table)
    async with app.run_test(size=(80, 24)) as pilot:
        server.say(*ending)
        await wait_for(pilot, lambda: showing_result(app), "the result")
        assert await said(pilot, server) == "begun\n"
        server.say("asked rematch bob")

        def asking() -> bool:  # the question pushed, and drawn (a key before that is lost)
            return type(app.screen).__name__ == "ConfirmScreen" and bool(app.screen.query("#yes"))

        await wait_for(pilot, asking, "the question, drawn")
        assert "bob asks for a rematch (you change colours)." in str(
            app.screen.query_one("#dialog-title").content
        )
        await pilot.press("y")
        await pilot.pause()
        assert heard(server) == "allow\n"


@pytest.mark.parametrize(
    "told",
    [
        "over left - bob left the table: the game ends here.",
        "over banned black bob is banned from this server: alice (Black) wins.",
    ],
    ids=["left", "banned"],
)
async def test_a_game_the_opponent_left_offers_no_rematch_with_nobody_to_ask(at_table, told):
    app, server = at_table(Color.BLACK, game=Game.from_transcript("d3c5"))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: "Table K7QP2" in status(app), "the board")
        server.say(told)
        await wait_for(pilot, lambda: showing_result(app), "the result")
        buttons = [str(button.label) for button in app.screen.query("Button")]
        assert buttons == ["Review", "Analyse", "Leave", "Close"]
        assert "rematch" not in str(app.screen.query_one("#dialog-keys").content)
        await pilot.press("escape")
        await wait_for(pilot, lambda: not isinstance(app.screen, GameOverScreen), "the board")
        assert "Rematch" not in key_bar(app)
        await pilot.press("comma", "escape")  # a look back, then the status line's advice
        await wait_for(pilot, lambda: "Game over:" in status(app), "the advice")
        assert "rematch" not in status(app)


async def test_a_spectator_at_game_over_is_not_offered_a_rematch(at_table):
    game = played_out()
    app, _ = at_table(None, game=game)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: showing_result(app), "the result")
        buttons = [str(button.label) for button in app.screen.query("Button")]
        assert buttons == ["Review", "Analyse", "Leave", "Close"]
        await pilot.press("r")
        await pilot.pause()
        assert isinstance(app.screen, GameOverScreen)


def key_bar(app) -> str:
    return app.screen.query_one("KeyBar").render().plain


async def test_the_keys_to_play_show_only_on_your_turn_and_a_person_is_awaited_not_thinking(
    at_table,
):
    app, server = at_table(Color.WHITE)  # bob, and alice (Black) moves first
    game = Game.from_transcript("d3c5")
    black_reply = Move.of(game.position.legal_moves()[0])
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: "Table K7QP2" in status(app), "the board")
        assert "Play" not in key_bar(app) and "Markers" not in key_bar(app)
        server.say("moved 0 d3")
        await wait_for(pilot, lambda: "Play" in key_bar(app), "bob's turn")
        assert "⏎ Play" in key_bar(app) and "m Markers" in key_bar(app)
        await pilot.press("c", "5")
        server.say("moved 1 c5")  # bob's move, as the server accepted it
        await wait_for(pilot, lambda: "Waiting for alice (Black) to move…" in status(app), "wait")
        assert "thinking" not in status(app)
        assert "Play" not in key_bar(app) and "Markers" not in key_bar(app)
        server.say(f"moved 2 {black_reply}")
        await wait_for(pilot, lambda: "Play" in key_bar(app), "bob's turn again")
        server.say("over resigned white alice (Black) resigned: bob (White) wins.")
        await wait_for(pilot, lambda: showing_result(app), "the resignation's result")
        assert app.screen.headline == "You win!"
        assert "alice (Black) resigned: bob (White) wins." in app.screen.detail
        await pilot.press("escape")
        await wait_for(pilot, lambda: "resigned" in status(app), "the resignation")
        assert "Play" not in key_bar(app) and "Markers" not in key_bar(app)
        panel = app.screen.query_one(ScorePanel).scoreboard
        # nobody's turn now, and the panel says who won and how
        assert (panel.to_move, panel.status) == (None, "White wins: Black resigned")


@pytest.mark.parametrize(
    ("told", "panel_says"),
    [
        (
            "over resigned black bob (White) resigned: alice (Black) wins.",
            "Black wins: White resigned",
        ),
        (
            "over resigned - bob (White) resigned: The table closes.",
            "No result: a player resigned",
        ),
        ("over flag black bob's time ran out: alice (Black) wins.", "Black wins on time"),
        ("over left black bob left the table: alice (Black) wins.", "Black wins: White left"),
        (
            "over left black bob did not come back in time: alice (Black) wins.",
            "Black wins: White left",
        ),
        ("over left - bob left the table: the game ends here.", "No result: a player left"),
        (
            "over banned black bob is banned from this server: alice (Black) wins.",
            "Black wins: White was banned",
        ),
        (
            "over banned - bob is banned from this server: the game ends here, with no result.",
            "No result: a player was banned",
        ),
        (
            "adjourned bob's game stopped unexpectedly: the game is adjourned until bob is back.",
            "Adjourned",
        ),
    ],
    ids=[
        "resigned",
        "resigned-alone",
        "flag",
        "left",
        "not-back",
        "left-early",
        "banned",
        "banned-early",
        "adjourned",
    ],
)
async def test_the_panel_says_how_a_game_ended_off_the_board(at_table, told, panel_says):
    app, server = at_table(Color.BLACK, game=Game.from_transcript("d3c5"))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: "Table K7QP2" in status(app), "the board")
        server.say(told)
        panel = app.screen.query_one(ScorePanel)
        await wait_for(pilot, lambda: panel.scoreboard.to_move is None, "the game's end")
        assert panel.scoreboard.status == panel_says
        assert panel_says in panel.render().plain


async def test_a_long_chat_line_cut_on_the_status_line_reads_in_full_in_the_chat(at_table):
    app, server = at_table(Color.BLACK)
    long_line = "well played, " + " ".join(f"word{n}" for n in range(30)) + " THE END"
    server.say("said bob hello", f"said bob {long_line}")
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: "THE END" in status(app), "the line")
        assert app.screen.query_one("#status").size.width < len(status(app))  # cut there
        await pilot.press("slash")
        await wait_for(pilot, lambda: showing(app, ChatScreen), "the chat")
        await pilot.pause()
        said_lines = [str(line.content) for line in app.screen.query("#chat-said Literal")]
        assert said_lines == ["bob: hello", f"bob: {long_line}"]
        history = app.screen.query_one("#chat-said")
        assert history.region.width < len(long_line)  # wrapped, so it reads in full
        await pilot.press("up", "up")  # the history scrolls from the keys, the box keeps them
        await pilot.press("h", "i", "enter")
        assert (await said(pilot, server)).endswith("say hi\n")


async def test_the_chat_dialog_with_a_long_chat_fits_the_smallest_terminal(make_app):
    app = make_app()
    async with app.run_test(size=(60, 21)) as pilot:
        app.push_screen(ChatScreen([f"bob: line {n} " + "word " * 20 for n in range(30)]))
        await pilot.pause()
        dialog = app.screen.query_one("#dialog")
        for part in ("#line", "#dialog-buttons", "#chat-said"):
            region = app.screen.query_one(part).region
            assert dialog.content_region.contains_region(region), (part, region)


def one_move_played() -> Game:
    game = Game()
    game.play(Move.parse("d3"))
    return game


async def test_quitting_a_game_in_progress_asks_first_for_it_is_lost(at_table):
    app, _ = at_table(Color.WHITE, game=one_move_played())
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: "Table K7QP2" in status(app), "the board")
        for keep_playing in ("n", "escape"):
            await pilot.press("q")
            await wait_for(pilot, lambda: showing(app, ConfirmScreen), "the question")
            question = str(app.screen.query_one("#dialog-title").render())
            assert question == "Leave the table? The game is lost to alice."
            await pilot.press(keep_playing)
            await wait_for(pilot, lambda: not isinstance(app.screen, ConfirmScreen), "the board")
            assert app.is_running
        await pilot.press("q")
        await wait_for(pilot, lambda: showing(app, ConfirmScreen), "the question")
        await pilot.press("y")
        await wait_for(pilot, lambda: not app.is_running, "the app to end")
    assert app.return_code == 0  # so the game tells the server it leaves
    app, _ = at_table(Color.WHITE, game=one_move_played())
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: "Table K7QP2" in status(app), "the board")
        await pilot.press("q")
        await wait_for(pilot, lambda: showing(app, ConfirmScreen), "the question")
        await pilot.press("q")  # a second quit as it asks: that is a yes
        await wait_for(pilot, lambda: not app.is_running, "the app to end")


@pytest.mark.parametrize(
    "colour, game, news",
    [
        (Color.WHITE, None, ()),  # no move played: nothing to lose
        (None, one_move_played(), ()),  # watching
        (Color.WHITE, one_move_played(), ("adjourned Adjourned: both away.",)),
    ],
    ids=["no move", "watching", "adjourned"],
)
async def test_quitting_where_nothing_is_lost_leaves_at_once(at_table, colour, game, news):
    app, server = at_table(colour, game=game)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: "able K7QP2" in status(app), "the board")
        server.say(*news)
        await wait_for(pilot, lambda: not news or app.match.is_over, "the news")
        await pilot.press("q")
        await wait_for(pilot, lambda: not app.is_running, "the app to end")
    assert app.return_code == 0


async def test_a_guest_at_the_table_is_marked_a_guest_unrated(at_table):
    """bob at a guest's table read `you play White against guest-2e5d.`,
    without the mark docs/playing.md promises."""
    app, _ = at_table(Color.WHITE, names=("guest-2e5d", "bob"))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: "Table K7QP2" in status(app), "the board")
        assert status(app) == ("Table K7QP2: you play White against guest-2e5d (a guest, unrated).")


@pytest.mark.parametrize(
    ("size", "said"),
    [
        ((80, 24), "Table K7QP2: you (1517) play White against guest-2e5d (a guest, unrated)."),
        ((60, 21), "You play White against guest-2e5d (a guest, unrated)."),
    ],
)
async def test_the_guest_mark_is_read_whole_at_60_columns_too(at_table, size, said):
    """At 60 columns the sentence was cut: `...against guest-2e5d (a g…`."""
    app, server = at_table(Color.WHITE, names=("guest-2e5d", "bob"))
    server.link.state.ratings = {"bob": "1517"}
    async with app.run_test(size=size) as pilot:
        await wait_for(pilot, lambda: "guest-2e5d" in status(app), "the board")
        await pilot.pause()
        line = app.screen.query_one("#status")
        assert status(app) == said
        assert line.content.cell_length <= line.size.width


async def test_a_rematch_request_puts_the_result_aside_and_a_no_brings_it_back(at_table):
    """The request opened on top of the game-over dialog: two at once."""
    app, server, ending = one_move_from_the_end(at_table)
    async with app.run_test(size=(80, 24)) as pilot:
        server.say(*ending)
        await wait_for(pilot, lambda: showing_result(app), "the result")
        assert await said(pilot, server) == "begun\n"
        server.say("asked rematch bob")
        await wait_for(pilot, lambda: showing(app, ConfirmScreen), "the question")
        assert not any(isinstance(screen, GameOverScreen) for screen in app.screen_stack)
        await wait_for(pilot, lambda: bool(app.screen.query("#no")), "the question, drawn")
        await pilot.press("n")
        await wait_for(pilot, lambda: showing_result(app), "the result again")
        assert heard(server) == "deny\n"
        assert [type(screen).__name__ for screen in app.screen_stack] == [
            "GameScreen",
            "GameOverScreen",
        ]


async def test_after_a_rated_game_the_dialog_shows_how_it_moved_both_ratings(at_table):
    app, server = at_table(Color.WHITE)
    async with app.run_test(size=(100, 30)) as pilot:
        server.say("over resigned white alice (Black) resigned: bob (White) wins.")
        await wait_for(pilot, lambda: showing_result(app), "the result")
        assert not app.screen.query_one("#ratings", Literal).display  # not said yet
        server.say("rerated alice 1484 (-16), bob 1516 (+16)")
        await wait_for(
            pilot,
            lambda: (
                str(app.screen.query_one("#ratings", Literal).content)
                == "Ratings: alice 1484 (-16), bob 1516 (+16)"
            ),
            "the ratings in the dialog",
        )
        await pilot.press("escape")
        await wait_for(pilot, lambda: not isinstance(app.screen, GameOverScreen), "the board")
        assert status(app) == "Ratings: alice 1484 (-16), bob 1516 (+16)"


def player_lines(panel: ScorePanel) -> list[str]:
    return panel.render().plain.splitlines()[:2]


@pytest.mark.parametrize("size", [(80, 24), (60, 21)])
async def test_the_panel_shows_both_ratings_in_a_column_a_long_name_cut(at_table, size):
    app, server = at_table(Color.WHITE, names=("a-very-long-name-indeed", "bob"))
    async with app.run_test(size=size) as pilot:
        panel = app.screen.query_one(ScorePanel)
        server.say("rated a-very-long-name-indeed 1516?", "rated bob 1712")
        await wait_for(pilot, lambda: "1712" in player_lines(panel)[1], "the ratings")
        black, white = player_lines(panel)
        assert "1516?" in black and "…" in black  # the name cut, its rating kept
        assert black.index("1516?") + 1 == white.index("1712")  # one column, right-aligned
        assert max(len(black), len(white)) <= panel.content_size.width  # nothing cut off
        server.say("rated bob 1728")  # (after a rated game: the new one)
        await wait_for(pilot, lambda: "1728" in player_lines(panel)[1], "the new rating")


async def test_the_panel_leaves_a_guests_rating_empty(at_table):
    app, server = at_table(Color.WHITE, names=("guest-2e5d", "bob"))
    async with app.run_test(size=(80, 24)) as pilot:
        panel = app.screen.query_one(ScorePanel)
        server.say("rated bob 1500?")
        await wait_for(pilot, lambda: "1500?" in player_lines(panel)[1], "bob's rating")
        black, _ = player_lines(panel)
        assert black.split() == ["●", "Black", "guest-2e5d", "2", "◀"]
