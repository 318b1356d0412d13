"""A table's whole course through the referee, with no app: the real server's
tables (server/hall/tables.py, with its archive) on an event loop of their own,
and at each seat what a player's game runs: a TableLink to the server and a
Referee over the seats it makes, the table's news applied with
`follow_table`. A whole game, a takeback, a rematch, every ending, and a
player taking their seat over from another terminal."""

from __future__ import annotations

import asyncio
import inspect
import threading
from collections.abc import Callable
from typing import Any

import pytest

from tui_reversi.core import Color, Ending, Move
from tui_reversi.match import (
    Began,
    Ended,
    Inbox,
    Match,
    Pacing,
    RecordChanged,
    Referee,
    table_seats,
)
from tui_reversi.net.remote import TABLE_SOCKET_VARIABLE, News, TableLink, follow_table
from tui_reversi.net.terms import TimeControl
from tui_reversi.server.hall.fleet_port import Fleet
from tui_reversi.server.hall.tables import Tables
from tui_reversi.server.ledger.archive import Archive
from tui_reversi.storage import SavedGames

PATIENCE = 15.0  # seconds before a wait gives up: the machine is shared


class TableServer:
    """The server's tables and archive, on an event loop in a thread of their own."""

    def __init__(self, tmp_path, *, hold: float = 60.0, adjourn: bool = False) -> None:
        self.players_dir = tmp_path / "players"
        self.log: list[str] = []
        self.loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self._thread.start()
        self.archive: Archive = self.call(
            lambda: Archive(tmp_path / "archive.sqlite3", self.players_dir)
        )
        fleet = self.call(lambda: Fleet(self.archive, people=list, log=self.log.append))
        self.tables: Tables = self.call(
            lambda: Tables(self.log.append, self.archive, fleet, hold=hold, adjourn=adjourn)
        )
        asyncio.run_coroutine_threadsafe(self.tables.start(), self.loop).result(10)

    def call(self, function: Callable[[], Any]) -> Any:
        """`function()` run on the server's loop (as everything there runs), awaited
        if it is a coroutine."""

        async def run() -> Any:
            answer = function()  # (the store's and the tables' coroutines are awaited)
            return await answer if inspect.isawaitable(answer) else answer

        return asyncio.run_coroutine_threadsafe(run(), self.loop).result(10)

    def close(self) -> None:
        asyncio.run_coroutine_threadsafe(self.tables.close(), self.loop).result(10)
        self.call(self.archive.close)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self._thread.join(10)

    def saved_games(self, name: str) -> list:
        self.call(lambda: None)  # (what the loop was doing, such as keeping a game, is done)
        directory = self.players_dir / name / "data" / "tui-reversi" / "games"
        return SavedGames(directory).list()


class PlayersGame:
    """What a player's game process runs at a table, less the screen."""

    def __init__(self, server: TableServer, secret: str, inbox: Inbox) -> None:
        path = server.call(lambda: server.tables.environment(secret))[TABLE_SOCKET_VARIABLE]
        self.link = TableLink.connect(path, secret)
        state = self.link.state
        black, white = table_seats(state.colour)
        match = Match(black, white, self.link.start_game(), names=state.names, ending=state.ending)
        self.referee = Referee(match, self.link.seat, pacing=Pacing(0, 0), post=inbox.post)
        self.events: list[Any] = []
        self.news: list[News] = []
        self.referee.watch(self.events.append)
        self.referee.start()
        self.link.listen(lambda news: inbox.post(lambda: self._heard(news)))

    def _heard(self, news: News) -> None:
        self.news.append(news)
        follow_table(self.referee, news)

    @property
    def match(self) -> Match:
        return self.referee.match

    def play(self, square: str) -> None:
        assert self.referee.submit(Move.parse(square)), f"{square}: not this player's turn"

    def endings(self) -> list[Ending]:
        return [event.ending for event in self.events if isinstance(event, Ended)]

    def heard(self, text: str) -> bool:
        return any(text in news.text for news in self.news)


@pytest.fixture
def table(tmp_path):
    """`table(**server options)`: the server, alice (Black) and bob (White) sat at one
    table, and `settle(condition)`, which handles what comes in until it holds."""
    made: list[tuple[TableServer, list[PlayersGame]]] = []

    def sit(clock: TimeControl | None = None, **options):
        server = TableServer(tmp_path, **options)
        inbox = Inbox()
        tables = server.tables
        opened, alice_secret = server.call(lambda: tables.open("alice", time_control=clock))
        _, bob_secret = server.call(lambda: tables.join(opened.code, "bob"))
        alice = PlayersGame(server, alice_secret, inbox)
        bob = PlayersGame(server, bob_secret, inbox)
        games = [alice, bob]
        made.append((server, games))

        def settle(condition: Callable[[], bool], what: str) -> None:
            assert inbox.run(condition, timeout=PATIENCE), f"never: {what}"

        def join(secret: str) -> PlayersGame:
            game = PlayersGame(server, secret, inbox)
            games.append(game)
            return game

        return server, opened, (alice, alice_secret), (bob, bob_secret), settle, join

    yield sit
    for server, games in made:
        for game in games:
            game.referee.close()
            game.link.close()
        server.close()


def test_a_whole_table_game_is_played_through_both_referees_and_kept_with_its_result(table):
    server, _, (alice, _), (bob, _), settle, _ = table()
    games = {Color.BLACK: alice, Color.WHITE: bob}
    while not alice.match.is_over:
        mover = games[alice.match.to_move]
        assert mover.referee.local_to_move
        assert not games[mover.match.to_move.other].referee.local_to_move
        ply = alice.match.game.ply
        mover.play(str(Move.of(mover.match.position.legal_moves()[0])))
        settle(lambda ply=ply: min(alice.match.game.ply, bob.match.game.ply) > ply, "the move")
    settle(lambda: alice.heard("Game over") and bob.heard("Game over"), "the server's word")
    result = alice.match.game.result
    assert result is not None and bob.match.game.transcript() == alice.match.game.transcript()
    for game in (alice, bob):
        assert [ending.reason for ending in game.endings()] == ["normal"]  # told once
        assert game.endings()[0].winner == result.winner
    for name in ("alice", "bob"):
        (entry,) = server.saved_games(name)
        record = entry.record
        assert record.names == ("alice", "bob") and record.ending is not None
        assert record.ending.reason == "normal" and record.ending.winner == result.winner
        assert entry.status == str(result)


def test_an_agreed_takeback_rewinds_both_referees_and_the_mover_plays_again(table):
    _, _, (alice, _), (bob, _), settle, _ = table()
    alice.play("d3")
    settle(lambda: bob.match.game.ply == 1 and bob.referee.local_to_move, "d3 at bob's")
    alice.link.ask_takeback()
    settle(lambda: any(news.asked for news in bob.news), "bob asked")
    bob.link.answer(True)
    settle(lambda: alice.match.game.ply == 0 and bob.match.game.ply == 0, "the takeback")
    for game in (alice, bob):
        assert game.match.game.length == 0  # the move is gone, not only stepped back
        assert any(isinstance(event, RecordChanged) and not event.moved for event in game.events)
    assert alice.referee.local_to_move and not bob.referee.local_to_move
    alice.play("c4")
    settle(lambda: bob.match.game.transcript() == "c4", "alice's other move")


def test_a_rematch_begins_a_new_game_with_the_colours_changed(table):
    _, _, (alice, _), (bob, _), settle, _ = table()
    alice.play("d3")
    settle(lambda: bob.match.game.ply == 1, "d3 at bob's")
    bob.link.resign()
    settle(lambda: alice.endings() and bob.endings(), "the resignation")
    for game in (alice, bob):
        assert game.endings() == [
            Ending("resigned", Color.BLACK, "bob (White) resigned: alice (Black) wins.")
        ]
        assert game.match.is_over and not game.referee.local_to_move
    bob.link.ask_rematch()
    settle(lambda: any(news.asked for news in alice.news), "alice asked")
    alice.link.answer(True)
    settle(lambda: alice.match.game.ply == 0 and bob.match.game.ply == 0, "the rematch")
    for game in (alice, bob):
        assert any(isinstance(event, Began) for event in game.events)
        assert game.match.ending is None and not game.match.is_over
    settle(lambda: alice.match.names == ("bob", "alice"), "the names where they sit now")
    assert alice.match.is_human(Color.WHITE) and bob.match.is_human(Color.BLACK)
    assert bob.referee.local_to_move and not alice.referee.local_to_move
    bob.play("d3")
    settle(lambda: alice.match.game.transcript() == "d3", "bob, Black now, moves first")


def test_a_flag_ends_the_game_for_both(table):
    server, opened, (alice, _), (bob, _), settle, _ = table(clock=TimeControl(60, 0))
    for game in (alice, bob):
        game.link.begun()  # both boards are up: Black's clock runs
    settle(lambda: server.call(lambda: opened.since is not None), "the clock to run")
    server.tables.now = lambda: 10_000_000.0
    server.call(lambda: server.tables.check_flag(opened))
    settle(lambda: alice.endings() and bob.endings(), "the flag")
    assert alice.endings()[0].reason == "flag" and alice.endings()[0].winner == Color.WHITE
    assert not alice.referee.local_to_move


def test_a_player_who_leaves_a_game_in_progress_loses_it(table):
    _, _, (alice, _), (bob, _), settle, _ = table()
    alice.play("d3")
    settle(lambda: bob.match.game.ply == 1, "d3 at bob's")
    bob.link.leave()
    bob.link.close()
    settle(lambda: alice.endings(), "bob gone")
    (ending,) = alice.endings()
    assert (ending.reason, ending.winner) == ("left", Color.BLACK)
    assert ending.text == "bob left the table: alice (Black) wins."


def test_a_player_who_leaves_before_any_move_ends_the_game_with_no_result(table):
    _, _, (alice, _), (bob, _), settle, _ = table()
    bob.link.leave()
    bob.link.close()
    settle(lambda: alice.endings(), "bob gone")
    (ending,) = alice.endings()
    assert (ending.reason, ending.winner) == ("left", None)
    assert "bob left the table" in ending.text


def test_a_dropped_player_who_does_not_come_back_in_time_loses(table):
    server, _, (alice, _), (bob, bob_secret), settle, _ = table(hold=0.3)
    alice.play("d3")
    settle(lambda: bob.match.game.ply == 1, "d3 at bob's")
    server.call(lambda: server.tables.dropped(bob_secret))  # bob's connection went
    bob.link.close()
    settle(lambda: alice.endings(), "the seat's hold to run out")
    (ending,) = alice.endings()
    assert (ending.reason, ending.winner) == ("left", Color.BLACK)


def test_an_adjourned_game_waits_and_goes_on_when_both_are_back(table):
    server, opened, (alice, _), (bob, _), settle, join = table()
    alice.play("d3")
    settle(lambda: bob.match.game.ply == 1, "d3 at bob's")
    bob.link.close()  # bob's game went without a word: adjourned at once
    settle(lambda: alice.endings(), "the adjournment")
    assert alice.endings()[0].reason == "adjourned"
    assert alice.match.is_over and not alice.referee.local_to_move
    _, secret = server.call(lambda: server.tables.join(opened.code, "bob"))
    again = join(secret)
    settle(lambda: alice.match.ending is None and again.match.ending is None, "both back")
    assert again.match.game.transcript() == "d3" and again.referee.local_to_move
    again.play("c5")
    settle(lambda: alice.match.game.transcript() == "d3c5", "bob's move")


def test_a_player_who_takes_their_game_over_elsewhere_sits_back_down_as_it_was(table):
    server, opened, (alice, alice_secret), (bob, _), settle, join = table(hold=0.3)
    alice.play("d3")
    settle(lambda: bob.match.game.ply == 1, "d3 at bob's")
    bob.link.say("good luck")
    settle(lambda: alice.heard("bob: good luck"), "the chat")
    # dave's second ssh session takes the game over: its game gets the seat, the
    # first is hung up (its player's connection counts as gone, as on a drop).
    secret = server.call(lambda: server.tables.hand_over(alice_secret))
    assert secret is not None
    server.call(lambda: server.tables.dropped(alice_secret))
    alice.link.close()
    here = join(secret)
    server.call(lambda: server.tables.leave(alice_secret))  # the first session has ended
    settle(lambda: here.heard("bob: good luck"), "the chat so far, told again")
    assert here.match.game.transcript() == "d3" and here.match.ending is None
    assert here.match.is_human(Color.BLACK) and here.match.names == ("alice", "bob")
    bob.play("c5")
    settle(lambda: here.match.game.transcript() == "d3c5", "bob's move at alice's new game")
    here.play("e6")
    settle(lambda: bob.match.game.transcript() == "d3c5e6", "alice plays on")
    # Well past the seat's hold: nothing was forfeited, nobody was told anyone left.
    here.referee.inbox.run(lambda: False, timeout=0.6)
    settle(lambda: True, "the news meanwhile")
    assert not server.call(lambda: opened.held) and opened.ended is None
    assert not bob.endings() and not bob.heard("left") and not bob.heard("dropped")
