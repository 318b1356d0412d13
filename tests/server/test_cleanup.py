"""When a player goes, their game goes too: hung up, killed if it must be, reaped."""

import asyncio
import os
import random
import signal
import sys

from .conftest import STANDIN, Player, process_gone, wait_until


async def games_with_helpers(serve, count):
    """`count` players in games that each started a helper process: players, [pid, helper...]."""
    command = (sys.executable, str(STANDIN), "--helper")
    # These games leave on the hang-up itself; the fixture's 2 s before the
    # SIGKILL could run out for one of ten on a loaded machine, and a killed
    # game leaves no marker (one failure in four clean-clone runs).
    arcade = await serve(game_command=command, max_per_address=count, hangup_grace=20.0)
    players = [await Player.connect(arcade, f"p{n}") for n in range(count)]
    pids = []
    for player in players:
        facts = await player.facts()
        pids += [facts["pid"], facts["helper"]]
    return arcade, players, pids


async def test_ten_players_leaving_at_random_leave_no_processes_behind(serve, tmp_path):
    arcade, players, pids = await games_with_helpers(serve, 10)
    chance = random.Random(6)
    for player in chance.sample(players, len(players)):
        player.send(b"half-typed")
        if chance.random() < 0.5:
            player.conn.abort()  # the TCP connection just drops: no SSH goodbye
        else:
            player.conn.close()  # the client quits without ending the game
        await asyncio.sleep(chance.uniform(0, 0.05))
    for pid in pids:
        await wait_until(lambda pid=pid: process_gone(pid), f"process {pid} to be reaped")
    await wait_until(lambda: arcade.places_taken == 0, "every seat to be freed")
    # The games were hung up, not just killed: each had its chance to save.
    for n in range(len(players)):
        pid = pids[2 * n]
        assert (tmp_path / "server" / "players" / f"p{n}" / f"hup-{pid}").exists()
    await wait_until(lambda: len(arcade.log_lines) == 20, "a disconnect line each")
    assert sum(" disconnect " in line for line in arcade.log_lines) == 10


async def test_a_game_that_ignores_the_hang_up_is_killed_after_the_grace(serve):
    arcade = await serve(
        game_command=(sys.executable, str(STANDIN), "--ignore-hup"), hangup_grace=0.3
    )
    player = await Player.connect(arcade)
    pid = (await player.facts())["pid"]
    player.conn.abort()
    await wait_until(lambda: process_gone(pid), "the stubborn game to be killed and reaped")
    await wait_until(lambda: arcade.places_taken == 0, "the seat to be freed")


async def test_a_client_that_stops_answering_is_dropped_by_keepalives(serve):
    arcade = await serve(keepalive_interval=0.2, keepalive_count_max=2)
    player = await Player.connect(arcade)
    pid = (await player.facts())["pid"]
    # The client goes silent without closing anything, like a phone in a tunnel.
    player.conn._transport.pause_reading()
    await wait_until(lambda: process_gone(pid), "the silent client's game to be reaped")
    await wait_until(lambda: any("disconnect" in line for line in arcade.log_lines), "the log")
    player.conn.abort()


async def test_an_idle_game_is_ended_with_a_message(serve):
    arcade = await serve(idle_timeout=0.5)
    player = await Player.connect(arcade)
    pid = (await player.facts())["pid"]
    done = await player.finished()
    assert done.exit_status == 1
    assert "without a key press" in player.output.decode()
    assert process_gone(pid)


async def test_key_presses_keep_a_game_from_going_idle(serve):
    arcade = await serve(idle_timeout=1.0)
    player = await Player.connect(arcade)
    await player.facts()
    for n in range(6):  # 1.5 s of typing, never 1 s apart
        player.send(b"k")
        await player.expect("KEY 6b" + "\r\nKEY 6b" * n)
        await asyncio.sleep(0.25)
    assert player.process.exit_status is None
    player.send(b"q")
    assert (await player.finished()).exit_status == 0


async def test_the_session_time_limit_ends_even_a_busy_game(serve):
    arcade = await serve(session_limit=0.5)
    player = await Player.connect(arcade)
    await player.facts()
    done = await player.finished()
    assert done.exit_status == 1
    assert "ends sessions after" in player.output.decode()


async def test_a_game_killed_by_a_signal_leaves_the_players_terminal_usable(serve):
    arcade = await serve()
    player = await Player.connect(arcade)
    pid = (await player.facts())["pid"]
    os.kill(pid, signal.SIGKILL)
    done = await player.finished()
    assert done.exit_signal is not None and done.exit_signal[0] == "KILL"
    assert b"\x1b[?1049l" in player.output and b"\x1b[?25h" in player.output
    assert process_gone(pid)


async def test_stopping_the_server_hangs_up_every_game(serve):
    arcade, players, pids = await games_with_helpers(serve, 3)
    await arcade.close()
    assert process_gone(pids[0]) and process_gone(pids[2]) and process_gone(pids[4])
    for helper in pids[1::2]:  # orphans by now, reaped by init
        await wait_until(lambda pid=helper: process_gone(pid), f"helper {helper} to be gone")
    for player in players:
        await player.finished()
        assert "shutting down" in player.output.decode()
