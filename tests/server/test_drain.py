"""A graceful drain: SIGTERM to a real `tui-reversi serve` (or `serve --drain`)
stops it taking connections, tells everyone at a table in one sentence, waits for
the players to finish and go (`--drain-seconds`), then adjourns the games left;
the server started again resumes each one, every move in it. Real processes and
real SSH on loopback; the games are the stand-in, the test speaks their protocol."""

from __future__ import annotations

import asyncio
import os
import re
import shlex
import signal
import subprocess
import sys
from pathlib import Path

import pytest
import pytest_asyncio

from tui_reversi.server.hall.table_handover import HERE, THERE

from .conftest import PATIENCE, STANDIN_COMMAND, Player, wait_until
from .test_tables import Game, seat

TOLD = (
    "news The server is going down for a restart: games still in play in {} are "
    "adjourned, to resume when it is back."
)
ADJOURNED = "adjourned The server is stopping: the game is adjourned, clocks stopped."


class Node:
    """`tui-reversi serve` in a process of its own, on a free loopback port."""

    def __init__(self, process: asyncio.subprocess.Process, port: int) -> None:
        self.process = process
        self.port = port  # (what Player.connect needs of a server)
        self.log: list[str] = []
        self._reading = asyncio.ensure_future(self._read_log())

    @classmethod
    async def start(cls, data_dir: Path, *options: str) -> Node:
        process = await asyncio.create_subprocess_exec(
            *(sys.executable, "-m", "tui_reversi", "serve", "--data-dir", str(data_dir)),
            *("--port", "0", "--max-per-address", "10"),
            *("--game-command", shlex.join(STANDIN_COMMAND), *options),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env={**os.environ, "HOME": str(data_dir.parent / "home")},
        )
        assert process.stdout is not None
        while True:
            banner = (await asyncio.wait_for(process.stdout.readline(), 4 * PATIENCE)).decode()
            assert banner, "the server stopped before it listened"
            if listening := re.search(r"listening on 127\.0\.0\.1:(\d+)", banner):
                return cls(process, int(listening.group(1)))

    async def _read_log(self) -> None:
        assert self.process.stderr is not None
        async for line in self.process.stderr:
            self.log.append(line.decode().rstrip("\n"))

    async def stopped(self) -> int:
        """Its exit status, once it has stopped by itself."""
        status = await asyncio.wait_for(self.process.wait(), 4 * PATIENCE)
        await self._reading
        return status

    def kill(self) -> None:
        if self.process.returncode is None:
            self.process.kill()


@pytest_asyncio.fixture
async def nodes():
    """Start `Node`s with `await nodes(data_dir, *options)`; all gone at teardown."""
    started: list[Node] = []

    async def start(data_dir: Path, *options: str) -> Node:
        started.append(await Node.start(data_dir, *options))
        return started[-1]

    yield start
    for player in Player.connected:
        player.conn.abort()
    Player.connected.clear()
    for node in started:
        node.kill()
        await node.process.wait()


async def a_table(node) -> tuple[Game, Game, str]:
    """alice opens a table on `node`, bob joins it; d3 and c5 are played."""
    alice = await Game.connect(await seat(node, "alice", "table"))
    heard = await alice.hear_until("ready")
    code = heard[0].split()[1]  # seated CODE black othello
    bob = await Game.connect(await seat(node, "bob", f"join {code}"))
    await bob.hear_until("ready")
    while not (await alice.hear()).endswith("sits at the table as White."):
        pass
    for ply, (game, square) in enumerate(((alice, "d3"), (bob, "c5"))):
        game.say(f"move {ply} {square}")
        for player in (alice, bob):
            await player.hear_until(f"moved {ply} {square}")
    return alice, bob, code


async def test_sigterm_adjourns_the_game_in_play_and_the_restarted_server_resumes_it(
    nodes, tmp_path
):
    data_dir = tmp_path / "server"
    first = await nodes(data_dir, "--drain-seconds", "1")
    alice, bob, code = await a_table(first)
    first.process.send_signal(signal.SIGTERM)
    for game in (alice, bob):  # told, then (nobody leaving in that second) adjourned
        await game.hear_until(TOLD.format("1 s"))
        await game.hear_until(ADJOURNED)
    assert await first.stopped() == 0
    assert any(line.endswith(" draining seconds=1 connections=2") for line in first.log)
    assert not (data_dir / "serve.pid").exists()

    second = await nodes(data_dir)
    bob = await Game.connect(await seat(second, "bob", "resume"))
    heard = await bob.hear_until("ready")
    assert heard[0] == f"seated {code} white othello"
    assert heard[-3:] == ["moved 0 d3", "moved 1 c5", "ready"]
    alice = await Game.connect(await seat(second, "alice", f"resume {code}"))
    await alice.hear_until("ready")
    for game in (alice, bob):
        await game.hear_until("resumed You are both back: the game goes on.")
    alice.say("move 2 c6")
    assert await bob.hear_until("moved 2 c6")


async def test_serve_drain_closes_the_door_and_the_server_stops_once_its_players_go(
    nodes, tmp_path
):
    data_dir = tmp_path / "server"
    node = await nodes(data_dir)  # (the default 60 s to finish)
    alice, bob, _ = await a_table(node)
    drain = await asyncio.create_subprocess_exec(
        *(sys.executable, "-m", "tui_reversi", "serve", "--data-dir", str(data_dir), "--drain"),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    for game in (alice, bob):
        await game.hear_until(TOLD.format("1 min"))
    with pytest.raises(OSError):  # nobody new comes in
        await Player.connect(node, "carol")
    # alice resigns and both go home: the server has nobody left, and stops.
    alice.say("resign")
    await bob.hear_until("over resigned white alice (Black) resigned: bob (White) wins.")
    for player in Player.connected:
        player.close()
    out, err = await asyncio.wait_for(drain.communicate(), 4 * PATIENCE)
    assert (drain.returncode, err) == (0, b"")
    assert out.decode().splitlines()[-1] == (
        f"tui-reversi serve: the server on {data_dir} (pid {node.process.pid}) has stopped"
    )
    assert await node.stopped() == 0


async def test_a_second_sigterm_during_the_drain_stops_the_server_at_once(nodes, tmp_path):
    data_dir = tmp_path / "server"
    node = await nodes(data_dir)  # (the default 60 s to finish)
    alice, bob, code = await a_table(node)
    node.process.send_signal(signal.SIGTERM)
    for game in (alice, bob):
        await game.hear_until(TOLD.format("1 min"))
    node.process.send_signal(signal.SIGTERM)
    for game in (alice, bob):
        await game.hear_until(ADJOURNED)
    assert await node.stopped() == 0
    assert any(
        line.endswith(
            f"table {code}: adjourned (The server is stopping: the game is "
            'adjourned, clocks stopped.)"'
        )
        for line in node.log
    )


def test_serve_drain_with_no_server_running_says_so_in_one_sentence(tmp_path):
    argv = [sys.executable, "-m", "tui_reversi", "serve", "--data-dir", str(tmp_path), "--drain"]
    refused = subprocess.run(argv, capture_output=True, text=True, timeout=60)
    assert refused.returncode == 2
    assert refused.stderr == (
        f"tui-reversi serve: --drain: no server is running with --data-dir {tmp_path} "
        f"(there is no {tmp_path / 'serve.pid'})\n"
    )


async def test_a_fleet_node_whose_drain_runs_out_leaves_the_game_handed_over_adjourned(
    nodes, serve, tmp_path, database
):
    a = await nodes(tmp_path / "a", "--database", database, "--drain-seconds", "1")
    b = await serve(data_dir=tmp_path / "b", database=database, max_per_address=10)
    alice, bob, code = await a_table_across(a, b)
    a.process.send_signal(signal.SIGTERM)
    await alice.hear_until(f"news {HERE.format(code=code, within='1 s')}")
    await bob.hear_until("resumed You are both back: the game goes on.")
    # alice stays on node A to its end: the game waits for her on B, nobody losing.
    assert await a.stopped() == 0
    await bob.hear_until(
        "adjourned alice cannot be heard (their node of the server stopped): "
        "the game is adjourned until alice is back."
    )
    alice = await Game.connect(await seat(b, "alice", f"resume {code}"))
    heard = await alice.hear_until("ready")
    assert heard[-3:] == ["moved 0 d3", "moved 1 c5", "ready"]
    for game in (alice, bob):
        await game.hear_until("resumed You are both back: the game goes on.")
    alice.say("move 2 c6")
    await bob.hear_until("moved 2 c6")


async def test_sigterm_to_a_fleet_node_hands_its_table_over_at_once_and_play_goes_on_there(
    nodes, serve, tmp_path, database
):
    a = await nodes(tmp_path / "a", "--database", database)  # (the default 60 s to finish)
    b = await serve(data_dir=tmp_path / "b", database=database, max_per_address=10)
    alice, bob, code = await a_table_across(a, b)
    a.process.send_signal(signal.SIGTERM)
    # bob (on node B) is told the table comes to his node, and sits at it there at once,
    # every move in it; alice (on node A) is told to connect again once A stops, and
    # plays on meanwhile through A.
    await bob.hear_until(f"news {THERE.format(code=code)}")
    heard = await bob.hear_until("resumed You are both back: the game goes on.")
    seated = heard[heard.index(f"seated {code} white othello") :]
    assert seated[seated.index("ready") - 2 : seated.index("ready")] == ["moved 0 d3", "moved 1 c5"]
    assert code in b.tables.tables
    await alice.hear_until(f"news {HERE.format(code=code, within='1 min')}")
    await alice.hear_until("resumed You are both back: the game goes on.")
    alice.say("move 2 c6")
    await bob.hear_until("moved 2 c6")
    bob.say("move 3 c7")
    await alice.hear_until("moved 3 c7")
    assert a.process.returncode is None  # all before node A has stopped
    # A stops (a second SIGTERM: at once): its player's game is adjourned on B, not
    # dropped, and alice connecting again (through the balancer: to B) sits back down.
    a.process.send_signal(signal.SIGTERM)
    assert await a.stopped() == 0
    await bob.hear_until(
        "adjourned alice cannot be heard (their node of the server stopped): "
        "the game is adjourned until alice is back."
    )
    alice = await Game.connect(await seat(b, "alice", ""))
    heard = await alice.hear_until("ready")
    assert heard[0] == f"seated {code} black othello"
    assert heard[-3:] == ["moved 2 c6", "moved 3 c7", "ready"]
    await bob.hear_until("resumed You are both back: the game goes on.")
    alice.say("move 4 b5")
    await bob.hear_until("moved 4 b5")


async def test_a_guests_table_handed_over_goes_on_there_and_is_not_ended_on_the_node_it_left(
    nodes, serve, tmp_path, database
):
    a = await nodes(tmp_path / "a", "--database", database)
    b = await serve(data_dir=tmp_path / "b", database=database, max_per_address=10)
    guest = await Player.connect(a, "anyone", command="table", guest=True)
    alice, bob, _ = await a_table_across(a, b, Game.connect((await guest.facts())["env"]))
    a.process.send_signal(signal.SIGTERM)
    await bob.hear_until("resumed You are both back: the game goes on.")
    alice.say("move 2 c6")
    await bob.hear_until("moved 2 c6")
    # Node A kept nothing of it as ended (a guest's game ends there when its player
    # goes, and the game there had: it was handed over, not left).
    assert await b.store.profile("bob", 5) is None
    assert not any("ends here" in line for line in a.log)


async def a_table_across(a, b, opened=None) -> tuple[Game, Game, str]:
    """alice opens a table on node `a` (or `opened`, a game's connect), bob joins it
    on node `b`; d3 and c5 are played."""
    alice = await (opened or Game.connect(await seat(a, "alice", "table")))
    code = (await alice.hear_until("ready"))[0].split()[1]
    await wait_until(
        lambda: any(view.code == code for view in b.tables.views(everywhere=True)),
        f"table {code} to show on node B",
    )
    bob = await Game.connect(await seat(b, "bob", f"join {code}"))
    await bob.hear_until("ready")
    for ply, (game, square) in enumerate(((alice, "d3"), (bob, "c5"))):
        game.say(f"move {ply} {square}")
        for player in (alice, bob):
            await player.hear_until(f"moved {ply} {square}")
    return alice, bob, code
