"""Several players' games in one process (`serve --games-per-process K`): the
hosts' plumbing, with hosted_standin.py standing in for the hosted game."""

import contextlib
import os
import signal
from pathlib import Path

import pytest

from tui_reversi.server.hall import game_hosts

from .conftest import Player, process_gone, wait_until
from .test_accounts import run
from .test_moderation import MODERATORS, known

HOSTED_STANDIN = f"{Path(__file__).with_name('hosted_standin.py')}:StandinGame"


@pytest.fixture
def serve_hosted(serve):
    async def start(**overrides):
        return await serve(
            games_per_process=3, hosted_game=HOSTED_STANDIN, max_per_address=10, **overrides
        )

    return start


async def connect_all(arcade, names):
    players = [await Player.connect(arcade, name) for name in names]
    return players, [await player.facts() for player in players]


async def test_three_games_share_a_host_and_a_fourth_gets_another(serve_hosted):
    arcade = await serve_hosted()
    assert "up to 3 games a process" in arcade.game_start
    players, facts = await connect_all(arcade, ["alice", "bob", "carol", "dave"])
    hosts = {fact["pid"] for fact in facts}
    assert facts[0]["pid"] == facts[1]["pid"] == facts[2]["pid"] != facts[3]["pid"]
    assert hosts == {host.pid for host in arcade.preloaded.hosts.hosts}
    assert {fact["ppid"] for fact in facts} == {arcade.preloaded.pid}
    # The game pid the server reports is the host's.
    pids = {c.user: c.game_pid for c in arcade.connections if c.game_pid}
    assert [pids[name] for name in ("alice", "bob", "carol", "dave")] == [f["pid"] for f in facts]
    for name, fact in zip(["alice", "bob", "carol", "dave"], facts, strict=True):
        assert fact["env"]["USER"] == name and fact["env"]["HOME"].endswith(name)
    # Each player's keys reach their own game only.
    for player, key in zip(players, [b"1", b"2", b"3", b"4"], strict=True):
        player.send(key)
    for player, key in zip(players, ["31", "32", "33", "34"], strict=True):
        await player.expect(f"KEY {key}")
    for player, key in zip(players, ["32", "33", "34", "31"], strict=True):
        assert f"KEY {key}".encode() not in player.output


async def test_a_hang_up_ends_only_that_game_and_a_resize_reaches_only_its_own(serve_hosted):
    arcade = await serve_hosted()
    (alice, bob, carol), facts = await connect_all(arcade, ["alice", "bob", "carol"])
    home = Path(facts[0]["env"]["HOME"])
    alice.close()
    await wait_until(lambda: any(home.glob("hup-*")), "alice's game to hear the hang-up")
    await wait_until(lambda: arcade.places_taken == 2, "alice's place to be freed")
    bob.process.change_terminal_size(100, 30)
    await bob.expect("SIZE 100x30")
    assert b"SIZE" not in carol.output
    carol.send(b"k")
    await carol.expect("KEY 6b")
    assert not process_gone(facts[1]["pid"])


async def test_a_crashed_game_ends_alone_and_the_others_play_on(serve_hosted):
    arcade = await serve_hosted()
    (alice, bob), _ = await connect_all(arcade, ["alice", "bob"])
    alice.send(b"c")
    assert (await alice.finished()).exit_status == 70
    await wait_until(
        lambda: any("game crashed (exit status 70)" in line for line in arcade.log_lines),
        "the log to say alice's game crashed",
    )
    bob.send(b"k")
    await bob.expect("KEY 6b")
    bob.send(b"q")
    assert (await bob.finished()).exit_status == 0


async def test_a_host_that_dies_ends_its_games_and_only_those(serve_hosted):
    arcade = await serve_hosted()
    (alice, bob, carol, dave), facts = await connect_all(arcade, ["alice", "bob", "carol", "dave"])
    dead = facts[0]["pid"]
    os.kill(dead, signal.SIGKILL)
    for player in (alice, bob, carol):
        assert (await player.finished()).exit_signal[0] == "KILL"
    await wait_until(
        lambda: any(
            f"game host (pid {dead}) killed by signal 9" in line for line in arcade.log_lines
        ),
        "the log to say the host died with its games",
    )
    dave.send(b"k")
    await dave.expect("KEY 6b")
    # The next players go where there is room: dave's host, then a new one.
    erin, frank, gina = [await Player.connect(arcade, name) for name in ("erin", "frank", "gina")]
    pids = [(await player.facts())["pid"] for player in (erin, frank, gina)]
    assert pids[0] == pids[1] == facts[3]["pid"] != pids[2] != dead


async def test_a_host_exits_once_its_last_game_has_ended(serve_hosted):
    arcade = await serve_hosted()
    (alice, bob), facts = await connect_all(arcade, ["alice", "bob"])
    for player in (alice, bob):
        player.send(b"q")
        assert (await player.finished()).exit_status == 0
    await wait_until(lambda: process_gone(facts[0]["pid"]), "the host to exit")
    assert arcade.preloaded.hosts.hosts == []


async def test_where_a_host_cannot_start_the_log_says_why_and_games_get_a_process_each(serve):
    arcade = await serve(games_per_process=3, hosted_game="/nowhere/hosted.py:Game")
    assert any(
        "the hosted game /nowhere/hosted.py:Game cannot be loaded" in line
        and "every game gets a process of its own" in line
        for line in arcade.log_lines
    ), arcade.log_lines
    assert "games a process" not in arcade.game_start
    _, facts = await connect_all(arcade, ["alice", "bob"])
    assert facts[0]["pid"] != facts[1]["pid"]
    assert facts[0]["ppid"] == facts[1]["ppid"] == arcade.preloaded.pid


async def test_a_host_the_server_lets_go_hangs_up_each_of_its_games_and_exits(serve_hosted):
    # (What a host does when the server stops or dies: its end of the socket closes.)
    arcade = await serve_hosted()
    (alice, bob), facts = await connect_all(arcade, ["alice", "bob"])
    (host,) = arcade.preloaded.hosts.hosts
    host.close()
    for player, fact in zip((alice, bob), facts, strict=True):
        await player.finished()
        assert list(Path(fact["env"]["HOME"]).glob("hup-*"))
    await wait_until(lambda: process_gone(facts[0]["pid"]), "the host to exit")


async def test_a_host_that_answers_no_more_is_killed_with_its_games(serve_hosted, monkeypatch):
    # The server waits this long for a host told SIGKILL for a game (10 s for real).
    monkeypatch.setattr(game_hosts, "HOST_ANSWERS_KILL_WITHIN", 0.5)
    arcade = await serve_hosted(moderators=MODERATORS, hangup_grace=0.5)
    await known(arcade, "mia")
    (alice, bob), facts = await connect_all(arcade, ["alice", "bob"])
    host = facts[0]["pid"]
    assert facts[1]["pid"] == host
    os.kill(host, signal.SIGSTOP)  # (stuck: it reads and answers nothing)
    try:
        # The server ends alice's game: hung up, then killed, neither answered.
        assert (await run(arcade, "mia", "mod ban alice 1h abuse"))[0] == 0
        assert (await alice.finished()).exit_status == 1
        assert "tui-reversi: You are banned from this server" in alice.output.decode()
        assert (await bob.finished()).exit_signal[0] == "KILL"  # (his game was in it too)
        await wait_until(lambda: process_gone(host), "the stuck host to be killed and reaped")
        assert any(
            f"game host (pid {host}) killed by signal 9; its 2 games ended with it" in line
            for line in arcade.log_lines
        ), arcade.log_lines
        assert arcade.preloaded.hosts.hosts == []
    finally:  # (a failure leaves no stopped process behind; harmless to a gone one)
        with contextlib.suppress(ProcessLookupError):
            os.kill(host, signal.SIGCONT)
