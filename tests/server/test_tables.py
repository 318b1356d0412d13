"""Tables over real SSH on loopback: `table` opens one with a code, `join CODE`
sits at it, and the server referees. Here the games are the stand-in, and the
test speaks the games' line protocol itself, as a game (or a forger) would;
the real app at a table is in test_table_game.py."""

import asyncio
import os
import sqlite3
import stat

from tui_reversi.core import Color, Ending, square_name
from tui_reversi.core import Game as CoreGame
from tui_reversi.net.remote import TABLE_SECRET_VARIABLE, TABLE_SOCKET_VARIABLE
from tui_reversi.net.terms import TimeControl
from tui_reversi.server.bucket import Limit, per_minute
from tui_reversi.storage import SavedGames, export_ggf

from .conftest import PATIENCE, Player, wait_until


class Game:
    """One game's line to the server, as the test plays it."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter):
        self.reader, self.writer = reader, writer

    @classmethod
    async def connect(cls, env: dict, secret: str | None = None) -> "Game":
        reader, writer = await asyncio.open_unix_connection(env[TABLE_SOCKET_VARIABLE])
        game = cls(reader, writer)
        game.say(f"hello {secret or env[TABLE_SECRET_VARIABLE]}")
        return game

    def say(self, text: str) -> None:
        self.writer.write(f"{text}\n".encode())

    async def hear(self) -> str:
        data = await asyncio.wait_for(self.reader.readline(), PATIENCE)
        return data.decode().rstrip("\n")

    async def hear_until(self, last: str) -> list[str]:
        lines = []
        while not lines or lines[-1] != last:
            line = await self.hear()
            assert line, f"the server closed the line before {last!r}; got {lines}"
            lines.append(line)
        return lines


async def drop(arcade, user: str, game: Game) -> None:
    """`user`'s connection drops (their SSH client is gone), then their game's line."""
    for player in Player.connected:
        if player.conn.get_extra_info("username") == user:
            player.conn.abort()
    await wait_until(
        lambda: all(connection.user != user for connection in arcade.connections),
        f"{user}'s connection to go",
    )
    game.writer.close()


async def seat(arcade, user: str, command: str) -> dict:
    """Connect `user` with `command`; the environment their game was given."""
    player = await Player.connect(arcade, user, command=command)
    return (await player.facts())["env"]


def table_code(arcade) -> str:
    (code,) = arcade.tables.tables
    return code


async def sit_down(arcade) -> tuple[Game, Game, str]:
    """alice opens a table and bob joins it; their games, told all there is so far."""
    alice = await Game.connect(await seat(arcade, "alice", "table"))
    await alice.hear_until("ready")
    code = table_code(arcade)
    bob = await Game.connect(await seat(arcade, "bob", f"join {code}"))
    await bob.hear_until("ready")
    while not (await alice.hear()).endswith("sits at the table as White."):
        pass
    return alice, bob, code


async def test_a_table_is_opened_joined_by_its_code_and_refereed_by_the_server(serve):
    arcade = await serve()
    alice_env = await seat(arcade, "alice", "table")
    alice = await Game.connect(alice_env)
    code = table_code(arcade)
    assert await alice.hear_until("ready") == [
        f"seated {code} black othello",
        "players alice -",
        "rated alice 1500?",
        "ready",
    ]
    alice.say("move 0 d3")  # nobody to play against yet
    assert await alice.hear() == (
        f"refused Nobody has joined yet: give your friend the code {code}."
    )

    bob_env = await seat(arcade, "bob", f"join {code.lower()}")  # codes are not case-sensitive
    assert await alice.hear() == "players alice bob"
    assert await alice.hear() == "rated bob 1500?"
    assert await alice.hear() == "news bob (rated 1500?) sits at the table as White."
    bob = await Game.connect(bob_env)
    assert await bob.hear_until("ready") == [
        f"seated {code} white othello",
        "players alice bob",
        "rated alice 1500?",
        "rated bob 1500?",
        "ready",
    ]

    alice.say("move 0 d3")
    assert await alice.hear() == "moved 0 d3"
    assert await bob.hear() == "moved 0 d3"
    bob.say("move 1 c5")
    assert await alice.hear() == "moved 1 c5"
    assert await bob.hear() == "moved 1 c5"

    bob.say("resign")
    over = "over resigned black bob (White) resigned: alice (Black) wins."
    assert await alice.hear() == over
    assert await bob.hear() == over
    for game in (alice, bob):  # a rated game: both ratings now, and how it moved them
        assert await game.hear() == "rated alice 1741?"
        assert await game.hear() == "rated bob 1259?"
        assert await game.hear() == "rerated alice 1741? (+241), bob 1259? (-241)"
    alice.say("move 2 c6")
    assert await alice.hear() == "refused The game is over."
    assert any(f"table {code}: bob (White) resigned" in line for line in arcade.log_lines)
    # The table's ending is the one the players' games know (core.Ending), no copy of it.
    resigned = "bob (White) resigned: alice (Black) wins."
    assert arcade.tables.tables[code].ending == Ending("resigned", Color.BLACK, resigned)


async def test_a_forged_or_wrong_move_from_a_game_is_refused_and_changes_nothing(serve):
    arcade = await serve()
    alice_env = await seat(arcade, "alice", "table")
    alice = await Game.connect(alice_env)
    await alice.hear_until("ready")
    code = table_code(arcade)
    bob_env = await seat(arcade, "bob", f"join {code}")
    bob = await Game.connect(bob_env)
    await bob.hear_until("ready")
    await alice.hear_until("news bob (rated 1500?) sits at the table as White.")

    refusals = {
        "move 0 d3": "It is not your turn.",  # bob's game plays Black's move
        "move 1 d3": "It is not your turn.",
    }
    for forged, why in refusals.items():
        bob.say(forged)
        assert await bob.hear() == f"refused {why}"
    for forged, why in {
        "move 0 a1": "a1 is not a legal move: it flips nothing.",
        "move 5 d3": "That move was for another position.",
        "move 0 pass": "Passes are the server's to play: choose a square.",
        "move 0 z9": "That is not a move.",
        "move d3": "That is not a move.",
        "players mallory bob": "'players' is not something a game may say here.",
    }.items():
        alice.say(forged)
        line = await alice.hear()
        assert line.startswith("refused "), line
        if why.startswith("a1"):
            assert line.startswith("refused a1 "), line
        else:
            assert line == f"refused {why}"
    # Another game with a made-up secret, or a seat's secret already in use, gets no seat.
    for secret in ("made-up", alice_env[TABLE_SECRET_VARIABLE]):
        intruder = await Game.connect(alice_env, secret)
        assert await intruder.hear() == "bye this game has no seat at a table."
        assert await intruder.hear() == ""  # and the line is closed
    # None of it changed the game: Black's first move is still to come.
    assert arcade.tables.tables[code].game.ply == 0
    alice.say("move 0 d3")
    assert await bob.hear() == "moved 0 d3"


async def test_a_player_who_leaves_ends_the_table_and_the_other_is_told(serve):
    arcade = await serve()
    alice, bob, _ = await sit_down(arcade)
    bob.say("leave")  # bob quit
    assert await alice.hear_until("over left - bob left the table: the game ends here.")
    alice.writer.close()
    await wait_until(lambda: not arcade.tables.tables, "the table to be cleared away")


async def test_a_dropped_players_seat_is_held_with_a_countdown_and_taken_back_by_name(serve):
    arcade = await serve(hold_seat=30.0, max_per_address=10)
    alice, bob, code = await sit_down(arcade)
    alice.say("move 0 d3")
    for game in (alice, bob):
        await game.hear_until("moved 0 d3")
    await drop(arcade, "bob", bob)  # bob's game was hung up: his connection dropped
    countdown = await alice.hear()
    assert countdown == "news bob dropped out: their seat is held for 30 s."
    assert await alice.hear() == "news bob dropped out: their seat is held for 29 s."
    # bob connects again, as plainly as can be, and is back at his seat.
    again = await Game.connect(await seat(arcade, "bob", None))
    assert await again.hear_until("ready") == [
        f"seated {code} white othello",
        "players alice bob",
        "rated alice 1500?",
        "rated bob 1500?",
        "moved 0 d3",
        "ready",
    ]
    assert (await alice.hear_until("news bob is back."))[-1] == "news bob is back."
    again.say("move 1 c5")
    assert await alice.hear() == "moved 1 c5"


async def test_a_dropped_player_who_does_not_come_back_in_time_forfeits(serve):
    arcade = await serve(hold_seat=1.0)
    alice, bob, code = await sit_down(arcade)
    alice.say("move 0 d3")
    for game in (alice, bob):
        await game.hear_until("moved 0 d3")
    await drop(arcade, "bob", bob)
    over = "over left black bob did not come back in time: alice (Black) wins."
    assert (await alice.hear_until(over))[0] == "news bob dropped out: their seat is held for 1 s."
    assert str(await arcade.store.results("alice")) == "1 won, 0 lost, 0 drawn"
    again = await Player.connect(arcade, "bob", command=f"join {code}")
    await again.finished()
    assert f"there is no open table {code!r}" in again.output.decode()


async def test_the_tables_socket_is_private_to_the_server_user(serve):
    arcade = await serve()
    env = await seat(arcade, "alice", "table")
    path = env[TABLE_SOCKET_VARIABLE]
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    assert stat.S_IMODE(os.stat(os.path.dirname(path)).st_mode) == 0o700


async def test_a_wrong_code_own_table_or_option_gets_one_sentence(serve):
    arcade = await serve(max_per_address=10)
    await seat(arcade, "alice", "table")
    code, port = table_code(arcade), arcade.port
    cases = {
        ("bob", "join NOPE9"): "there is no open table 'NOPE9'; check the code with its host.",
        ("bob", "join " + "Q" * 5000): f"there is no open table '{'Q' * 20}…'; check the code",
        ("alice", f"join {code}"): f"you are at table {code} already.",
        ("bob", "join"): f"join needs the table's code: ssh -t -p {port} bob@127.0.0.1 join CODE",
        ("bob", "lobby extra"): f"lobby takes nothing after it: ssh -p {port} bob@127.0.0.1 lobby",
        ("bob", f"join {code} black hard"): "at a table only ascii, no-mouse, no-animation, "
        "theme may be chosen, not black",
        ("bob", "table variant chess"): "there is no variant 'chess': choose one of othello, "
        "reversi, anti",
    }
    for (user, command), sentence in cases.items():
        player = await Player.connect(arcade, user, command=command)
        done = await player.finished()
        assert done.exit_status != 0
        assert sentence in player.output.decode(), (command, player.output)
    # Two at one table: a third is told the seats are taken.
    await seat(arcade, "bob", f"join {code}")
    carol = await Player.connect(arcade, "carol", command=f"join {code}")
    await carol.finished()
    assert f"both seats at table {code} are taken." in carol.output.decode()


async def test_a_finished_game_goes_to_the_archive_and_both_players_saved_games(serve, tmp_path):
    arcade = await serve()
    alice, bob, code = await sit_down(arcade)
    played = CoreGame()
    games = (alice, bob)
    while not played.is_over:
        ply, move = played.ply, played.position.legal_moves()[-1]
        games[played.position.to_move].say(f"move {ply} {square_name(move)}")
        played.play(move)
        for game in games:
            assert await game.hear() == f"moved {ply} {square_name(move)}"
    result = played.result
    over = [await game.hear() for game in games]
    winner = "-" if result.winner is None else result.winner.name.lower()
    ended = arcade.tables.tables[code].ended
    assert over[0] == over[1] == f"over normal {winner} {ended}"

    archive = tmp_path / "server" / "archive.sqlite3"
    with sqlite3.connect(archive) as db:
        assert db.execute("PRAGMA journal_mode").fetchone() == ("wal",)
        rows = db.execute(
            "SELECT code, black, white, moves, winner, ending, black_score, white_score FROM games"
        ).fetchall()
    winner = "draw" if result.winner is None else result.winner.name.lower()
    assert rows == [
        (code, "alice", "bob", played.transcript(), winner, "board", result.black, result.white)
    ]
    alice_results = await arcade.store.results("alice")
    assert (alice_results.wins, alice_results.losses) == (
        (1, 0) if result.winner == Color.BLACK else (0, 1) if result.winner else (0, 0)
    )

    for name, kinds in (("alice", ("human", "person")), ("bob", ("person", "human"))):
        directory = tmp_path / "server" / "players" / name / "data" / "tui-reversi" / "games"
        (entry,) = SavedGames(directory).list()
        assert entry.record.players == kinds
        assert entry.record.names == ("alice", "bob")
        assert entry.record.transcript == played.transcript()
        assert f"table {code}" in entry.name
        assert "PB[alice]PW[bob]" in export_ggf(entry.record)


async def test_a_resignation_is_archived_as_a_win_for_the_other(serve):
    arcade = await serve()
    alice, bob, _ = await sit_down(arcade)
    alice.say("move 0 d3")
    await bob.hear_until("moved 0 d3")
    alice.say("resign")
    await bob.hear_until("over resigned white alice (Black) resigned: bob (White) wins.")
    assert str(await arcade.store.results("bob")) == "1 won, 0 lost, 0 drawn"
    assert str(await arcade.store.results("alice")) == "0 won, 1 lost, 0 drawn"
    # Elo: equals before, so the winner gains half of K and the loser gives it up.
    assert (await arcade.store.rating("bob")).shown == "1741?"
    assert (await arcade.store.rating("alice")).shown == "1259?"
    carol = await Game.connect(await seat(arcade, "carol", "table"))
    assert "rated carol 1500?" in await carol.hear_until("ready")


async def test_a_spectator_sees_the_game_so_far_then_every_move_and_cannot_play(serve):
    arcade = await serve(max_per_address=10)
    alice, bob, code = await sit_down(arcade)
    alice.say("move 0 d3")
    for player in (alice, bob):
        await player.hear_until("moved 0 d3")
    carol = await Game.connect(await seat(arcade, "carol", f"watch {code}"))
    assert await carol.hear_until("ready") == [
        f"seated {code} watching othello",
        "players alice bob",
        "rated alice 1500?",
        "rated bob 1500?",
        "moved 0 d3",
        "ready",
    ]
    for player in (alice, bob):
        assert await player.hear() == "news carol is watching."
    bob.say("move 1 c5")
    assert await carol.hear() == "moved 1 c5"
    for line in ("move 2 c6", "resign"):
        carol.say(line)
        assert await carol.hear() == "refused You are watching: only the players move."
    assert arcade.tables.tables[code].game.ply == 2
    alice.say("resign")
    assert await carol.hear() == "over resigned white alice (Black) resigned: bob (White) wins."


async def test_a_table_has_room_for_as_many_spectators_as_the_server_allows(serve):
    arcade = await serve(max_per_address=10, spectators_per_table=1)
    seated = await sit_down(arcade)  # kept: a game let go of leaves the table
    code = seated[2]
    await seat(arcade, "carol", f"watch {code}")
    dave = await Player.connect(arcade, "dave", command=f"watch {code}")
    done = await dave.finished()
    assert done.exit_status != 0
    assert f"table {code} has 1 watching already, the most this server allows" in (
        dave.output.decode()
    )


async def clocked_table(arcade, now: list[float], control: str = "1+2"):
    """alice's table with a time control, bob at it; the clocks read `now[0]`."""
    arcade.tables.now = lambda: now[0]
    alice = await Game.connect(await seat(arcade, "alice", f"table clock {control}"))
    base = TimeControl.parse(control).base
    assert f"clock {base:.1f} {base:.1f} -" in await alice.hear_until("ready")
    code = table_code(arcade)
    bob = await Game.connect(await seat(arcade, "bob", f"join {code}"))
    await bob.hear_until("ready")
    for game in (alice, bob):
        game.say("begun")  # the boards are up
    for game in (alice, bob):  # both seated, both games begun: Black's clock runs
        await game.hear_until(f"clock {base:.1f} {base:.1f} black")
    return alice, bob, code


async def test_the_clock_starts_once_both_games_have_begun_not_when_the_table_fills(serve):
    arcade = await serve()
    now = [1000.0]
    arcade.tables.now = lambda: now[0]
    alice = await Game.connect(await seat(arcade, "alice", "table clock 1+2"))
    await alice.hear_until("ready")
    alice.say("begun")
    bob_env = await seat(arcade, "bob", f"join {table_code(arcade)}")
    now[0] += 3  # bob's game starts
    bob = await Game.connect(bob_env)
    assert "clock 60.0 60.0 -" in await bob.hear_until("ready")
    now[0] += 2  # and draws its board
    bob.say("begun")
    for game in (alice, bob):
        await game.hear_until("clock 60.0 60.0 black")
    now[0] += 10
    alice.say("move 0 d3")  # ten seconds spent, two gained
    for game in (alice, bob):
        await game.hear_until("clock 52.0 60.0 white")


async def test_a_game_that_never_says_it_has_begun_holds_the_clocks_a_moment_only(
    serve, monkeypatch
):
    monkeypatch.setattr("tui_reversi.server.hall.table_clocks.BEGIN_GRACE", 0.2)
    arcade = await serve()
    arcade.tables.now = lambda: 0.0
    alice = await Game.connect(await seat(arcade, "alice", "table clock 1+2"))
    await alice.hear_until("ready")
    alice.say("begun")
    bob = await Game.connect(await seat(arcade, "bob", f"join {table_code(arcade)}"))
    await bob.hear_until("ready")  # and never a word more
    for game in (alice, bob):
        await game.hear_until("clock 60.0 60.0 black")


async def test_the_servers_clock_counts_and_a_flag_falls_with_an_injected_clock(serve):
    arcade = await serve()
    now = [1000.0]
    alice, bob, code = await clocked_table(arcade, now)
    now[0] += 10  # alice thinks for ten seconds, and gains two for her move
    alice.say("move 0 d3")
    for game in (alice, bob):
        assert await game.hear_until("clock 52.0 60.0 white")
    now[0] += 59.5
    assert not arcade.tables.check_flag(arcade.tables.tables[code])  # half a second left
    now[0] += 1
    assert arcade.tables.check_flag(arcade.tables.tables[code])
    over = "over flag black bob's time ran out: alice (Black) wins."
    for game in (alice, bob):
        # A move whose write waited (a loaded machine) has its clock started again once
        # told (table_writes.py): the same line may come a second time before the flag.
        heard = await game.hear_until(over)
        assert heard[-2:] == ["clock 52.0 0.0 -", over]  # the clocks stop where they were
        assert set(heard[:-2]) <= {"clock 52.0 60.0 white"}
        rerated = "rerated alice 1741? (+241), bob 1259? (-241)"
        assert await game.hear_until(rerated) == ["rated alice 1741?", "rated bob 1259?", rerated]
    bob.say("move 1 c5")
    assert await bob.hear() == "refused The game is over."
    assert str(await arcade.store.results("alice")) == "1 won, 0 lost, 0 drawn"


async def test_a_move_that_arrives_after_the_flag_fell_is_not_played(serve):
    arcade = await serve()
    now = [0.0]
    alice, bob, _ = await clocked_table(arcade, now)
    now[0] += 61
    alice.say("move 0 d3")  # the server had not looked yet: the move finds the flag down
    assert await bob.hear_until("over flag white alice's time ran out: bob (White) wins.")
    assert "moved 0 d3" not in await alice.hear_until(
        "over flag white alice's time ran out: bob (White) wins."
    )


async def test_a_time_control_that_cannot_be_read_is_one_sentence(serve):
    arcade = await serve()
    player = await Player.connect(arcade, "alice", command="table clock 5x3")
    await player.finished()
    assert "'5x3' is not a time control: minutes (1-180), then +seconds a move" in (
        player.output.decode()
    )


async def test_chat_reaches_everyone_at_the_table_as_it_was_typed_within_limits(serve, monkeypatch):
    three = Limit(per_minute(3), per_minute(3), "chat lines", "wait a moment")
    monkeypatch.setattr("tui_reversi.server.hall.table_referee.CHAT", three)
    arcade = await serve(max_per_address=10)
    alice, bob, code = await sit_down(arcade)
    carol = await Game.connect(await seat(arcade, "carol", f"watch {code}"))
    await carol.hear_until("ready")
    for player in (alice, bob):
        await player.hear_until("news carol is watching.")
    alice.say("say [b]good luck[/b] \x1b[31m!")  # markup and escapes stay text, controls go
    for game in (alice, bob, carol):
        assert await game.hear() == "said alice [b]good luck[/b] [31m!"
    carol.say("say and may the best one win")  # spectators may chat too
    for player in (alice, bob):
        assert await player.hear() == "said carol and may the best one win"
    alice.say("say " + "x" * 201)
    assert await alice.hear() == "refused A chat line is at most 200 characters."
    alice.say("say two")
    alice.say("say three")
    alice.say("say four")  # the fourth within a minute
    assert await alice.hear_until("refused Too fast: at most 3 chat lines a minute; wait a moment.")
    assert "said alice four" not in await bob.hear_until("said alice three")


async def test_a_takeback_is_asked_for_and_the_opponent_allows_or_declines_it(serve):
    arcade = await serve()
    alice, bob, code = await sit_down(arcade)
    for ply, (game, square) in enumerate(((alice, "d3"), (bob, "c5"))):
        game.say(f"move {ply} {square}")
        for player in (alice, bob):
            await player.hear_until(f"moved {ply} {square}")
    bob.say("allow")  # nothing was asked
    assert await bob.hear() == "refused No takeback is waiting for your answer."
    alice.say("takeback")
    assert await alice.hear() == "news Asked bob to take back your move."
    assert await bob.hear() == "asked takeback alice"
    alice.say("allow")  # not hers to answer
    assert await alice.hear() == "refused No takeback is waiting for your answer."
    bob.say("deny")
    assert await alice.hear() == "news bob declined the takeback."
    assert arcade.tables.tables[code].game.ply == 2
    alice.say("takeback")
    await bob.hear_until("asked takeback alice")
    bob.say("allow")  # alice's d3 goes, and bob's reply with it
    for player in (alice, bob):
        assert (await player.hear_until("news bob allowed alice's takeback."))[-2:] == [
            "undone 0",
            "news bob allowed alice's takeback.",
        ]
    assert arcade.tables.tables[code].game.ply == 0
    alice.say("move 0 c4")
    assert await bob.hear() == "moved 0 c4"


async def test_the_lobby_lists_who_is_here_the_tables_and_the_askers_record(serve):
    arcade = await serve(max_per_address=10)
    alice, bob, _ = await sit_down(arcade)
    alice.say("move 0 d3")
    await bob.hear_until("moved 0 d3")
    alice.say("resign")  # an earlier game on record for bob
    await bob.hear_until("over resigned white alice (Black) resigned: bob (White) wins.")
    for game in (alice, bob):
        game.writer.close()
    await wait_until(lambda: not arcade.tables.tables, "the finished table to go")
    alice, bob, code = await sit_down(arcade)
    await seat(arcade, "carol", f"watch {code}")
    await seat(arcade, "dave", "table clock 5+3")
    (waiting,) = [c for c in arcade.tables.tables if c != code]
    await seat(arcade, "erin", None)  # a game of her own
    asker = await Player.connect(arcade, "frank", term=None, command="lobby")
    done = await asker.finished()
    assert done.exit_status == 0
    text = asker.output.decode()
    for line in (
        "tui-reversi: 5 here",
        # each name with its rating, '?' while it rests on few games (issue 39)
        f"  alice            1259?  at table {code} (Black), against bob",
        f"  bob              1741?  at table {code} (White), against alice",
        f"  carol            1500?  watching table {code}",
        f"  dave             1500?  at table {waiting} (Black), waiting for someone to join",
        "  erin             1500?  playing on their own",
        f"  {code}  alice 1259? (Black) against bob 1741? (White), othello, move 1",
        f"  {waiting}  dave 1500? waits (Black), othello, clock 5+3, move 1",
        "Your record here: 0 won, 0 lost, 0 drawn; rating 1500? after 0 rated games",
    ):
        assert line in text, (line, text)
    assert "Open tables (anyone may sit down: ssh -t -p" in text
    assert "frank" not in text.split("Tables in progress")[0]  # only looking
    bob_asks = await Player.connect(arcade, "bob", term=None, command="lobby")
    await bob_asks.finished()
    record = "Your record here: 1 won, 0 lost, 0 drawn; rating 1741? after 1 rated game"
    assert record in bob_asks.output.decode()
    last = "Your last game, against alice (id 1), moved your rating +241."  # (issue 39)
    assert last in bob_asks.output.decode()


async def test_the_lobby_shows_a_named_players_rating_and_none_beside_a_guest(serve):
    arcade = await serve(max_per_address=10)
    guest = await Player.connect(arcade, "zed", guest=True)
    await guest.facts()
    await seat(arcade, "dave", "table")
    await seat(arcade, "erin", "table")
    store, read = arcade.store, []  # each read of ratings: the names asked for
    many, one = store.ratings, store.rating
    store.ratings = lambda names: read.append(sorted(names)) or many(names)
    store.rating = lambda name: read.append([name]) or one(name)
    asker = await Player.connect(arcade, "frank", term=None, command="lobby")
    await asker.finished()
    # Everyone's beside their name in one read (a guest's not), then the asker's own.
    assert read == [["dave", "erin"], ["frank"]]
    lines = asker.output.decode().splitlines()
    (guest_line,) = [line for line in lines if line.startswith("  guest-")]
    assert guest_line.split()[1:] == ["playing", "on", "their", "own"]  # (guests are unrated)
    assert any(line.startswith("  dave             1500?  at table ") for line in lines)
    assert any("  dave 1500? waits (Black)" in line for line in lines)


async def test_with_on_drop_adjourn_a_dropped_players_game_waits_for_both_to_join_again(serve):
    arcade = await serve(hold_seat=1.0, on_drop="adjourn", max_per_address=10)
    alice, bob, code = await sit_down(arcade)
    alice.say("move 0 d3")
    await bob.hear_until("moved 0 d3")
    await drop(arcade, "bob", bob)
    adjourned = (
        f"adjourned bob did not come back in time: the game is adjourned. "
        f"Either of you resumes it with  join {code}"
    )
    await alice.hear_until(adjourned)
    alice.say("move 1 c5")
    assert await alice.hear_until(
        "refused The game is adjourned until you are both back at the table."
    )
    alice.say("leave")  # alice goes home too: the game is kept
    await wait_until(lambda: not arcade.tables.tables[code].links, "alice to leave")
    look = await Player.connect(arcade, "carol", term=None, command="lobby")
    await look.finished()
    shown = look.output.decode()
    assert f"  {code}  alice 1500? (Black) against bob 1500? (White), othello, move 2" in shown
    # Days later (for the server), both join it again and play on from where it was.
    bob = await Game.connect(await seat(arcade, "bob", f"join {code}"))
    assert "moved 0 d3" in await bob.hear_until("ready")
    alice = await Game.connect(await seat(arcade, "alice", f"join {code}"))
    await alice.hear_until("ready")
    for game in (alice, bob):
        await game.hear_until("resumed You are both back: the game goes on.")
    bob.say("move 1 c5")
    assert await alice.hear() == "moved 1 c5"
    assert (await arcade.store.results("bob")).wins == 0  # nobody lost by the drop
