"""Tournaments over real SSH on loopback (SQLite): `tournament new`, `tournaments`,
`tournament ID`, and players who `tournament join ID` and are seated at table
after table by the server's director (hall/tournaments.py). The games are the
stand-in; one game is played by the test through the tables' line protocol, as
the app would, and the others end by simulated results (tables' course.end),
since real games would be too slow. Nothing here asserts a duration: it polls."""

from __future__ import annotations

import asyncio
import json
import re
import time

import pytest

from tui_reversi.core import Color, Ending
from tui_reversi.net.lobby_link import LOBBY_SOCKET_VARIABLE
from tui_reversi.net.remote import TABLE_SECRET_VARIABLE
from tui_reversi.server.hall import tournament_wait, tournaments
from tui_reversi.server.hall.arena_schedule import ArenaSchedule, ScheduleRefused
from tui_reversi.server.ledger.playbans import Outcome
from tui_reversi.server.ledger.tournaments import BYE, FINISHED, PAUSED, WAITING

from .conftest import PATIENCE, Player, wait_until
from .test_accounts import run
from .test_invitations import Guest
from .test_tables import Game


@pytest.fixture(autouse=True)
def quick(monkeypatch):
    """The director looks often, and a game's board stays only a moment."""
    monkeypatch.setattr(tournaments, "TICK", 0.2)
    monkeypatch.setattr(tournament_wait, "GAME_OVER_PAUSE", 0.2)


async def games_begun(player: Player, count: int) -> dict:
    """Read until the stand-in has started `count` games for `player`; the last one's
    environment."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + PATIENCE
    while player.output.count(b"\nREADY") < count:
        if loop.time() > deadline:
            pytest.fail(f"game {count} never began; got {player.output[-300:]!r}")
        try:
            chunk = await asyncio.wait_for(player.process.stdout.read(65536), 0.5)
        except TimeoutError:
            continue
        if not chunk:
            pytest.fail(f"the session ended before game {count}; got {player.output[-300:]!r}")
        player.output += chunk
    envs = [line for line in player.output.decode().splitlines() if line.startswith("ENV ")]
    return json.loads(envs[-1].removeprefix("ENV "))


def tables_of(arcade) -> list:
    """The tables in play, each with both seats taken."""
    return [t for t in arcade.tables.tables.values() if t.ended is None and len(t.names) == 2]


def end_by_result(arcade, table, winner: Color | None) -> None:
    """A simulated result: one move, then a resignation (or a draw agreed on the board)."""
    table.game.play("d3")
    if winner is None:
        arcade.tables.course.end(table, Ending("normal", None, "A draw."))
    else:
        arcade.tables.course.end(table, Ending("resigned", winner, "Resigned."))


async def black_moves_white_resigns(black_env: dict, white_env: dict) -> None:
    """A game played as the app plays it, each side through its own game's
    environment (its node's socket): Black plays d3, White resigns."""
    black, white = await Game.connect(black_env), await Game.connect(white_env)
    await black.hear_until("ready")
    await white.hear_until("ready")
    black.say("move 0 d3")
    await white.hear_until("moved 0 d3")
    white.say("resign")
    while not (await black.hear()).startswith("over resigned black"):
        pass


async def test_an_arena_pairs_everyone_again_within_seconds_of_each_game_s_end(serve):
    arcade = await serve(max_per_address=10)
    status, said = await run(arcade, "ann", "tournament new arena 30 1+0")
    assert status == 0 and "Arena 1 made; it starts now." in said
    assert "tournament join 1" in said
    names = ["ann", "bob", "cy", "di"]
    players = {
        name: await Player.connect(arcade, name, command="tournament join 1") for name in names
    }
    envs = {name: await games_begun(player, 1) for name, player in players.items()}
    first = tables_of(arcade)
    assert len(first) == 2 and sorted(n for t in first for n in t.names.values()) == names
    # One game played as the app plays it: Black moves, White resigns.
    real = first[0]
    await black_moves_white_resigns(envs[real.names[Color.BLACK]], envs[real.names[Color.WHITE]])
    end_by_result(arcade, first[1], Color.WHITE)
    # Everyone is at a new table within seconds, none with the same opponent again.
    for player in players.values():
        await games_begun(player, 2)
    second = tables_of(arcade)
    assert len(second) == 2
    before = {frozenset(t.names.values()) for t in first}
    assert not {frozenset(t.names.values()) for t in second} & before
    status, standings = await run(arcade, "cy", "tournament 1")
    lines = standings.splitlines()
    assert lines[0] == "Arena 1 (othello, 1+0, rated)"
    winners = [real.names[Color.BLACK], first[1].names[Color.WHITE]]
    assert sorted(line.split()[1] for line in lines[2:4]) == sorted(winners)
    assert all(line.split()[2] == "2" for line in lines[2:4])  # a win: 2 points
    # A fifth, alone free while the others play, leaves: paused; and comes back.
    leaver = await Player.connect(arcade, "ed", command="tournament join 1")
    await leaver.expect("esc leaves.")
    leaver.send(b"\x1b")
    done = await leaver.finished()
    assert done.exit_status == 0 and "you left the tournament (paused)" in leaver.output.decode()

    async def state_of_ed(state: str) -> bool:
        entries = await arcade.store.entries(1)
        return any(e.name == "ed" and e.state == state for e in entries)

    await wait_until(lambda: state_of_ed(PAUSED), "ed paused")
    back = await Player.connect(arcade, "ed", command="tournament join 1")
    await back.expect("esc leaves.")
    await wait_until(lambda: state_of_ed(WAITING), "ed back, waiting")
    # ed berserks the next game: paired, their clock starts at half its minute.
    back.send(b"b")
    await back.expect("b berserks (on)")

    async def berserk() -> bool:
        return any(e.name == "ed" and e.berserk for e in await arcade.store.entries(1))

    await wait_until(berserk, "ed's berserk kept")
    _sixth = await Player.connect(arcade, "flo", command="tournament join 1")  # (all six paired)

    async def flo_entered() -> bool:
        return any(e.name == "flo" for e in await arcade.store.entries(1))

    # (not the wait's first words: paired with ed at once, flo may be seated before they show)
    await wait_until(flo_entered, "flo entered")
    for table in second:
        end_by_result(arcade, table, Color.BLACK)
    await games_begun(back, 1)
    (eds,) = [t for t in tables_of(arcade) if "ed" in t.names.values()]
    ed_colour = next(colour for colour, name in eds.names.items() if name == "ed")
    assert eds.remaining == {ed_colour: 30.0, ed_colour.other: 60.0}
    status, listed = await run(arcade, "bob", "tournaments")
    assert "Arena 1   othello, 1+0, rated; 29:" in listed and "6 players" in listed


async def test_a_swiss_of_seven_plays_three_rounds_a_bye_each_and_no_pairing_twice(serve):
    arcade = await serve(max_per_address=10)
    status, said = await run(arcade, "ann", "tournament new swiss 3 1+0 in 5")
    assert status == 0 and "Swiss 1 made; it starts in 5 min." in said
    names = ["ann", "bob", "cy", "di", "ed", "flo", "gus"]
    players = {
        name: await Player.connect(arcade, name, command="tournament join 1") for name in names
    }
    for player in players.values():
        await player.expect("starts in")
    arcade.tournaments.now = lambda: time.time() + 600  # the start comes
    met: set[frozenset[str]] = set()
    byes: list[str] = []
    for number in range(1, 4):
        await wait_until(lambda: len(tables_of(arcade)) == 3, f"round {number}'s three tables")
        games = await arcade.store.tournament_games(1)
        (bye,) = [g.black for g in games if g.round == number and g.result == BYE]
        byes.append(bye)
        await players[bye].expect(f"round {number} of 3, a bye for you (a point)")
        for table in tables_of(arcade):
            pair = frozenset(table.names.values())
            assert pair not in met and bye not in pair
            met.add(pair)
        for player_name, player in players.items():
            if player_name != bye:
                await games_begun(player, number - byes[:-1].count(player_name))
        for index, table in enumerate(tables_of(arcade)):
            end_by_result(arcade, table, (Color.BLACK, Color.WHITE, None)[index])
        await wait_until(lambda: not tables_of(arcade), f"round {number}'s games over")
    assert len(set(byes)) == 3  # a bye each round, to three players
    for player in players.values():
        await player.expect("Swiss 1 is over")
    status, standings = await run(arcade, "ann", "tournament 1")
    assert "Buchholz" in standings and "Swiss 1 is over." in standings


async def test_a_casual_arena_s_games_are_kept_and_not_rated(serve):
    arcade = await serve(max_per_address=10)
    status, said = await run(arcade, "ann", "tournament new arena 20 3+2 anti casual")
    assert status == 0 and "Arena 1 made" in said
    players = [
        await Player.connect(arcade, name, command="tournament join 1") for name in ("ann", "bob")
    ]
    for player in players:
        await games_begun(player, 1)
    (table,) = tables_of(arcade)
    assert table.game.variant.value == "anti" and str(table.time_control) == "3+2"
    again = await Player.connect(arcade, "ann", command="tournament join 1")  # a second session
    assert (await again.finished()).exit_status == 1
    assert "you are in tournament 1 already, in another session." in again.output.decode()
    end_by_result(arcade, table, Color.BLACK)

    async def scored() -> bool:
        games = await arcade.store.tournament_games(1)
        return bool(games) and games[0].result is not None

    await wait_until(scored, "the game's result kept")
    ratings = await arcade.store.ratings(["ann", "bob"])
    assert [rating.games for rating in ratings.values()] == [0, 0]  # casual: not rated
    status, listed = await run(arcade, "bob", "tournaments")
    # (20:00 left while under half a second has gone: the time left is rounded)
    assert re.search(r"Arena 1   anti, 3\+2, casual; (19:\d\d|20:00) left; 2 players", listed)
    status, refused = await run(arcade, "bob", "tournament new arena 20 9+x")
    assert status == 2 and "'9+x' is not a time control" in refused
    # The app's page of it (the lobby's): the player, their next game, the standings.
    looker = await Guest.arrive(arcade, "cy")
    looker.say("tournament 1")
    assert await looker.hear_starting("page ") == "page Arena 1 (anti, 3+2, casual)"
    rows = []
    while (text := await looker.hear()) != "paged":
        rows.append(text)
    assert re.fullmatch(r"row standings-of:1 (19:\d\d|20:00) left · you are not in it", rows[0])
    assert rows[1] == "row join-tournament:1 Join: ⏎ on this line (your game waits, saved)"
    assert rows[3].split()[:3] == ["row", f"player:{table.names[Color.BLACK]}", "1"]
    looker.say("tournaments")
    assert await looker.hear_starting("page ") == "page Tournaments"
    assert (await looker.hear()).startswith("row tournament:1 Arena 1   anti, 3+2, casual;")
    # Its time up, the winner is announced to everyone waiting in it.
    winner = table.names[Color.BLACK]
    arcade.tournaments.now = lambda: time.time() + 20 * 60
    for player in players:
        await player.expect(f"Arena 1 is over, won by {winner}.")
        assert (await player.finished()).exit_status == 0


async def test_players_at_their_game_when_the_arena_ends_are_told_who_won_once_it_is_over(serve):
    arcade = await serve(max_per_address=10)
    status, said = await run(arcade, "ann", "tournament new arena 20 1+0")
    assert status == 0 and "Arena 1 made" in said
    players = [
        await Player.connect(arcade, name, command="tournament join 1") for name in ("ann", "bob")
    ]
    for player in players:
        await games_begun(player, 1)
    (table,) = tables_of(arcade)
    arcade.tournaments.now = lambda: time.time() + 20 * 60  # its time is up mid-game

    async def over() -> bool:
        tournament = await arcade.store.tournament(1)
        return tournament is not None and tournament.state == FINISHED

    await wait_until(over, "the arena over")
    end_by_result(arcade, table, Color.BLACK)  # the game ends after the arena
    for player in players:
        await player.expect("Arena 1 is over, won by nobody.")
        assert (await player.finished()).exit_status == 0
    # Only the games over before the end count (as lichess's): the winner told stays first.
    status, standings = await run(arcade, "cy", "tournament 1")
    assert [line.split()[2] for line in standings.splitlines()[2:4]] == ["0", "0"]


async def test_a_swiss_pairs_a_late_joiner_and_leaves_out_one_who_went(serve):
    arcade = await serve(max_per_address=10)
    await run(arcade, "ann", "tournament new swiss 2 1+0 in 5")
    players = {n: await Player.connect(arcade, n, command="tournament join 1") for n in "abcd"}
    for player in players.values():
        await player.expect("starts in")
    arcade.tournaments.now = lambda: time.time() + 600
    await wait_until(lambda: len(tables_of(arcade)) == 2, "round 1's two tables")
    players["d"].close()  # d goes during round 1: paused
    late = await Player.connect(arcade, "e", command="tournament join 1")  # e comes late
    await late.expect("esc leaves.")
    for table in tables_of(arcade):
        end_by_result(arcade, table, Color.BLACK)
    await wait_until(lambda: len(tables_of(arcade)) == 2, "round 2's two tables")
    second = {name for table in tables_of(arcade) for name in table.names.values()}
    assert second == {"a", "b", "c", "e"}  # e paired, d left out (and no bye: four)
    games = await arcade.store.tournament_games(1)
    assert [g.round for g in games] == [1, 1, 2, 2]


async def test_the_operator_s_schedule_keeps_the_next_arena_made_once(serve):
    arcade = await serve(arenas=("hourly 30m 3+2", "daily 120m 1+0 anti casual"))

    async def made() -> bool:
        return len(await arcade.store.tournaments()) == 2

    await wait_until(made, "the two schedules' next arenas")
    await arcade.tournaments.look()  # (again: nothing more is made)
    hourly, daily = sorted(await arcade.store.tournaments(), key=lambda t: t.starts)
    assert hourly.starts % 3600 == 0 and hourly.ends - hourly.starts == 30 * 60
    assert (hourly.clock, hourly.state, hourly.made_by) == (
        "3+2",
        "coming",
        "schedule: hourly 30m 3+2",
    )
    assert (daily.variant, daily.rated, daily.starts % 86400) == ("anti", False, 0)
    # Another node's director, or this one after a restart: the same arena, kept once.
    assert not await arcade.store.schedule_tournament(
        ArenaSchedule.parse("hourly 30m 3+2").next_arena(hourly.starts - 1)
    )
    status, listed = await run(arcade, "bob", "tournaments")
    assert status == 0 and "Arena 1   othello, 3+2, rated; starts in " in listed


def test_a_schedule_is_read_or_refused_in_one_sentence():
    schedule = ArenaSchedule.parse("hourly  45m 5+3 reversi")
    assert (schedule.minutes, str(schedule.clock), schedule.variant.value) == (45, "5+3", "reversi")
    assert schedule.next_arena(7200.0).starts == 10800.0
    for wrong, said in (
        ("weekly 30m 3+2", "is not an arena's schedule"),
        ("hourly 90m 3+2", "is not a length in minutes"),
        ("hourly 30m 3+x", "is not a time control"),
        ("hourly 30m 3+2 blitz", "is not a term of an arena"),
    ):
        with pytest.raises(ScheduleRefused, match=said):
            ArenaSchedule.parse(wrong)


async def test_tournament_commands_asked_wrongly_say_so_in_one_sentence(serve):
    arcade = await serve(max_per_address=10)
    for command, status, said in (
        ("tournament", 2, "tournament needs what to do:"),
        ("tournament xyz", 2, "'xyz' is not a tournament's number:"),
        ("tournament 7", 1, "there is no tournament 7 here."),
        ("tournament new", 2, "say which and how: tournament new arena MINUTES CLOCK"),
        ("tournament new swiss 99 3+2", 2, "'99' is not a number of rounds (1-15)"),
        ("tournament new arena 30 3+2 blitz", 2, "'blitz' is not a term of a tournament"),
        ("tournament join 1", 1, "a tournament's games need a terminal:"),
        ("tournaments now", 2, "tournaments takes nothing after it"),
    ):
        got, text = await run(arcade, "ann", command)
        assert (got, text.count("\n")) == (status, 1), (command, text)
        assert text.startswith(f"tui-reversi: {said}"), (command, text)
    got, text = await run(arcade, "zed", "tournament new arena 30 3+2", guest=True)
    assert got == 1 and "a guest cannot make a tournament" in text
    got, text = await run(arcade, "ann", "help")
    assert "tournament new arena|swiss ... | join ID | ID" in text and "  tournaments " in text
    player = await Player.connect(arcade, "ann", command="tournament join 9")
    assert (await player.finished()).exit_status == 1
    assert "tui-reversi: there is no tournament 9 here." in player.output.decode()


async def test_a_player_joins_an_arena_from_the_app_s_lobby_then_comes_back_to_their_game(serve):
    arcade = await serve(max_per_address=10)
    await run(arcade, "ann", "tournament new arena 30 1+0")
    bob = await Player.connect(arcade, "bob", command="tournament join 1")
    ann = await Guest.arrive(arcade, "ann")  # her own game, the lobby a line away
    ann.say("tournament join 9")
    assert await ann.hear_starting("refused ") == "refused There is no tournament 9 here."
    ann.say("tournament join 1")
    assert await ann.hear_starting("go ") == "go tournament-1"
    ann.player.output = b""
    ann.player.send(b"q")  # the stand-in quits, as the app does on `go`
    env = await games_begun(ann.player, 1)  # paired with bob: the arena's game
    await games_begun(bob, 1)
    assert TABLE_SECRET_VARIABLE in env and LOBBY_SOCKET_VARIABLE not in env
    (table,) = tables_of(arcade)
    assert sorted(table.names.values()) == ["ann", "bob"]
    ann.player.output = b""
    end_by_result(arcade, table, Color.BLACK)
    await ann.player.expect("esc leaves.")  # the game's board gone: waiting in the arena again
    ann.player.output = b""
    ann.player.send(b"\x1b")
    home = (await ann.player.facts())["env"]  # her own game again, the lobby near
    assert "you left the tournament (paused)" in ann.player.output.decode()
    assert LOBBY_SOCKET_VARIABLE in home and TABLE_SECRET_VARIABLE not in home

    async def ann_paused() -> bool:
        return any(e.name == "ann" and e.state == PAUSED for e in await arcade.store.entries(1))

    await wait_until(ann_paused, "ann paused")


async def test_an_arena_over_is_refused_in_one_sentence_in_the_lobby(serve):
    arcade = await serve(max_per_address=10)
    await run(arcade, "ann", "tournament new arena 1 1+0")
    zed = await Guest.arrive(arcade, "zed")
    arcade.tournaments.now = lambda: time.time() + 120  # its minute is over

    async def over() -> bool:
        tournament = await arcade.store.tournament(1)
        return tournament is not None and tournament.state == FINISHED

    await wait_until(over, "the arena over")
    zed.say("tournament join 1")
    said = await zed.hear_starting("refused ")
    assert said == "refused Arena 1 is over; see it with: tournament 1"


async def test_stopping_the_server_ends_a_wait_in_a_tournament_in_one_sentence(serve):
    arcade = await serve()
    await run(arcade, "ann", "tournament new arena 30 1+0")
    ann = await Player.connect(arcade, "ann", command="tournament join 1")
    await ann.expect("esc leaves.")
    await arcade.close()
    done = await ann.finished()
    assert done.exit_status == 1 and "the server is shutting down" in ann.output.decode()
    assert arcade.tournaments.present(1, "ann") is None


async def test_a_player_with_a_playban_may_not_join_over_ssh_nor_from_the_lobby(serve):
    arcade = await serve()
    await run(arcade, "ann", "tournament new arena 30 1+0")
    for _ in range(4):  # alice's ban (conduct.py), kept in the store
        await arcade.store.record_conduct({"alice": Outcome.RAGE_QUIT})
    player = await Player.connect(arcade, "alice", command="tournament join 1")
    done = await player.finished()
    assert done.exit_status == 1
    assert "tui-reversi: you may not play rated games for another" in player.output.decode()
    alice = await Guest.arrive(arcade, "alice")
    alice.say("tournament join 1")
    said = await alice.hear_starting("refused ")
    assert said.startswith("refused You may not play rated games for another 10 minutes")
    assert not await arcade.store.entries(1)
