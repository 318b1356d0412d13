"""The operator's port of a real `tui-reversi serve --metrics-port 0`: the metrics
count the people let in and the moves played at a table, `/livez` and `/readyz`
answer, a fleet node's `/readyz` says 503 while its PostgreSQL is stopped and 200
once it is back; and `--log-format json` writes each event as one JSON object
with the fields of its key=value line."""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import shlex
import subprocess
import sys
import time
import urllib.error
import urllib.request
from types import SimpleNamespace

import pytest
from prometheus_client import CollectorRegistry, generate_latest

from tui_reversi.server.config import ServeConfig
from tui_reversi.server.edge.budgets import Budgets
from tui_reversi.server.edge.door import Door
from tui_reversi.server.edge.event_log import EventLog
from tui_reversi.server.edge.health import Health
from tui_reversi.server.edge.metrics import ServerCollector
from tui_reversi.server.hall.fleet_port import Fleet
from tui_reversi.server.ledger import fleet_seal
from tui_reversi.server.ledger.archive import Archive
from tui_reversi.server.ledger.fleet_messages import LobbyChanged
from tui_reversi.server.ledger.fleet_seal import Seal
from tui_reversi.server.tally import STORE_CALLS, TALLY, Tally
from tui_reversi.tools.serve_options import operator_address

from .conftest import PATIENCE, STANDIN_COMMAND, Player
from .log_reading import read_event
from .test_table_game import Server
from .test_tables import Game, seat

STANDIN = ("--game-command", shlex.join(STANDIN_COMMAND), "--no-preload")
METRICS_AT = r"metrics at http://127\.0\.0\.1:(\d+)/metrics"


def operator_server(tmp_path, *options: str) -> tuple[Server, int]:
    """A real server with its operator's port on a free loopback port: it, and that port."""
    server = Server(tmp_path, "--metrics-port", "0", *options)
    try:
        return server, int(server.wait_for(METRICS_AT).group(1))
    except BaseException:
        server.stop()
        raise


def get(port: int, path: str) -> tuple[int, str]:
    """The operator port's answer to GET `path`: its status and body."""
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=PATIENCE) as answer:
            return answer.status, answer.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


def metric(port: int, sample: str) -> float:
    """The value of `sample` (`name{labels}` as written) on /metrics; 0 if not there."""
    status, text = get(port, "/metrics")
    assert status == 200
    for line in text.splitlines():
        name, _, value = line.rpartition(" ")
        if name == sample:
            return float(value)
    return 0.0


async def polled(check, what: str) -> None:
    """Poll `check()` (a blocking call, run off the loop) until it is true."""
    deadline = time.monotonic() + PATIENCE * 4
    last = None
    while time.monotonic() < deadline:
        last = await asyncio.to_thread(check)
        if last is True:
            return
        await asyncio.sleep(0.2)
    raise AssertionError(f"{what} never came; the last look saw {last!r}")


SESSIONS_KEYED = 'tui_reversi_sessions{door="ssh",kind="keyed"}'


async def test_the_metrics_count_a_player_let_in_and_the_moves_played_at_a_table(tmp_path):
    server, port = operator_server(tmp_path, *STANDIN)
    node = SimpleNamespace(port=server.port)
    games: list[Game] = []
    try:
        assert get(port, "/livez") == (200, "alive\n")
        assert get(port, "/readyz") == (200, "ready\n")
        assert metric(port, SESSIONS_KEYED) == 0
        assert metric(port, "tui_reversi_moves_played_total") == 0

        alice = await Game.connect(await seat(node, "alice", "table"))
        games.append(alice)
        code = (await alice.hear_until("ready"))[0].split()[1]  # (seated CODE black ...)
        await polled(lambda: metric(port, SESSIONS_KEYED) == 1, "one session")
        assert metric(port, 'tui_reversi_tables{state="open"}') == 1
        assert metric(port, 'tui_reversi_logins_total{door="ssh",result="keyed"}') == 1

        bob = await Game.connect(await seat(node, "bob", f"join {code}"))
        games.append(bob)
        await bob.hear_until("ready")
        await polled(lambda: metric(port, SESSIONS_KEYED) == 2, "two sessions")
        assert metric(port, 'tui_reversi_tables{state="playing"}') == 1
        assert metric(port, "tui_reversi_games_started_total") == 1

        alice.say("move 0 d3")
        for game in (alice, bob):
            await game.hear_until("moved 0 d3")
        assert metric(port, "tui_reversi_moves_played_total") == 1
        bob.say("move 1 c3")
        for game in (alice, bob):
            await game.hear_until("moved 1 c3")
        assert metric(port, "tui_reversi_moves_played_total") == 2
        # Each move was kept in the archive: the store's calls are timed.
        calls = 'tui_reversi_store_call_seconds_count{backend="sqlite",method="save_table"}'
        await polled(lambda: metric(port, calls) >= 1, "the table's saves timed")
    finally:
        for game in games:
            game.writer.close()
        for player in Player.connected:
            player.conn.close()
        Player.connected.clear()
        server.stop()


async def test_a_fleet_node_is_unready_while_its_database_is_stopped_and_ready_again_after(
    tmp_path, postgres, database
):
    server, port = operator_server(tmp_path, "--database", database, *STANDIN)
    try:
        assert get(port, "/readyz") == (200, "ready\n")
        assert metric(port, "tui_reversi_fleet_nodes_alive") == 1
        postgres.halt()
        try:
            await polled(lambda: get(port, "/readyz")[0] == 503, "a 503 from /readyz")
            status, why = get(port, "/readyz")
            assert status == 503 and why.startswith("not ready: ")
            assert len(why.splitlines()) == 1
            assert get(port, "/livez") == (200, "alive\n")  # (alive all the while)
        finally:
            postgres.start_again()
        await polled(lambda: get(port, "/readyz") == (200, "ready\n"), "a 200 from /readyz")
    finally:
        server.stop()


def test_the_operator_port_takes_an_address_and_refuses_a_bad_one_in_a_sentence(tmp_path):
    server, _ = operator_server(tmp_path)  # (the default address: this machine only)
    server.stop()
    assert operator_address("9100") == ("127.0.0.1", 9100)
    assert operator_address("0.0.0.0:9100") == ("0.0.0.0", 9100)
    assert operator_address("[::1]:0") == ("::1", 0)
    for bad in ("::1:9100", "host name:9100", "127.0.0.1:99999", ":9100"):
        with pytest.raises(argparse.ArgumentTypeError, match=r"is not"):
            operator_address(bad)


# -- the JSON log --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "fields",
    [
        {"peer": "127.0.0.1:5022", "user": "alice"},
        {"user": "evil\x1b]0;PWNED\x07 name=x", "why": 'say "hi"\nnext', "after": "3 s"},
        {"text": "é" * 2000, "bytes": 812, "more": None},
    ],
)
def test_a_json_line_has_the_fields_of_the_key_value_line(fields):
    text: list[str] = []
    objects: list[str] = []
    EventLog(text.append).write("disconnect", **fields)
    EventLog(objects.append, as_json=True).write("disconnect", **fields)
    event, read = read_event(text[0])
    entry = json.loads(objects[0])
    assert objects[0].isascii() and "\n" not in objects[0]  # (JSON's escapes: nothing raw)
    assert entry.pop("event") == event
    assert re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d", entry.pop("time"))
    assert list(entry) == list(read)
    for key, value in entry.items():
        if "characters)" in read[key]:  # cut: at the same length, said the same way
            assert value.endswith(read[key][read[key].rindex("...(") :])
        else:
            assert str(value) == read[key]


async def test_serve_with_a_json_log_writes_one_object_a_line(tmp_path):
    server = Server(tmp_path, "--log-format", "json", *STANDIN)
    try:
        player = await Player.connect(SimpleNamespace(port=server.port), "alice", command="table")
        await player.expect("READY")
        player.conn.close()
        server.wait_for(r'"event": "disconnect"')
    finally:
        Player.connected.clear()
        server.stop()
    server.wait_for("stopped")
    logged = [line for line in server.logged() if not line.startswith("tui-reversi serve: ")]
    entries = [json.loads(line) for line in logged]  # (each line one object, or this fails)
    (connect,) = [entry for entry in entries if entry["event"] == "connect"]
    assert connect["user"] == "alice" and connect["peer"].startswith("127.0.0.1:")
    assert set(connect) == {"time", "event", "peer", "user"}
    assert entries[-1]["text"] == "tui-reversi serve: stopped"


# -- readiness, and what a server without the port loads -------------------------------------


async def test_readiness_says_why_not_while_draining_stopping_or_without_its_store(tmp_path):
    archive = Archive(tmp_path / "archive.sqlite3", tmp_path / "players")
    fleet = Fleet(archive, people=list, log=print)  # (a fleet of one)
    health = Health()
    assert await health.unready(archive, fleet) == "starting: not listening yet"
    assert health.said() == "starting: not listening yet"
    health.listening = True
    assert await health.unready(archive, fleet) is None
    health.drain("the node restarts for an upgrade")
    assert await health.unready(archive, fleet) == "draining: the node restarts for an upgrade"
    health.draining = None
    await archive.close()  # (the store gone: its file closed under it)
    why = await health.unready(archive, fleet)
    assert why is not None and why.startswith("the store cannot be reached: ")
    health.stopping = True
    assert await health.unready(archive, fleet) == "stopping"


def test_a_server_without_the_operator_port_loads_no_prometheus_client():
    code = (
        "import sys, tui_reversi.tools.serve, tui_reversi.server.edge.arcade\n"
        "print('prometheus_client' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


# -- what the rooms count, as /metrics writes it ---------------------------------------------


def scraped(tally: Tally) -> dict[str, float]:
    """The samples /metrics would show for `tally`, on a server with nobody in it."""
    nobody = SimpleNamespace(
        connections=set(),
        tables=SimpleNamespace(tables={}),
        health=SimpleNamespace(listening=False),
    )
    registry = CollectorRegistry()
    registry.register(ServerCollector(nobody, tally))
    lines = generate_latest(registry).decode().splitlines()
    return {
        name: float(value)
        for name, _, value in (line.rpartition(" ") for line in lines)
        if not name.startswith("#")
    }


def test_a_fleet_message_opened_is_timed_from_its_sealing(monkeypatch):
    # A tally of its own: the process's is shared with every test this worker ran.
    tally = Tally()
    monkeypatch.setattr(fleet_seal, "TALLY", tally)
    now = [1_800_000_000.0]
    a = Seal(b"s" * 32, "a", lambda *drop: None, lambda: now[0])
    b = Seal(b"s" * 32, "b", lambda *drop: None, lambda: now[0])
    payload = a.seal(LobbyChanged(), "tui_reversi_lobby")
    now[0] += 0.3  # (a busy database)
    assert b.open(payload, "tui_reversi_lobby") is not None
    after = scraped(tally)
    assert after["tui_reversi_fleet_notify_delay_seconds_count"] == 1
    assert after['tui_reversi_fleet_notify_delay_seconds_bucket{le="0.25"}'] == 0
    assert after['tui_reversi_fleet_notify_delay_seconds_bucket{le="0.5"}'] == 1


def test_door_refusals_and_budget_hits_are_counted_by_kind(tmp_path):
    refused = '{kind="address-full"}'
    window = '{kind="window changes"}'
    before = scraped(TALLY)
    door = Door(ServeConfig(data_dir=tmp_path, max_per_address=1))
    assert door.arrive("192.0.2.1")
    door.enter("192.0.2.1")
    assert door.room_inside("192.0.2.1") is not None  # (a second connection: no room)
    budget = Budgets(EventLog(lambda line: None)).for_connection(
        ("192.0.2.1", "192.0.2.1:1"), lambda: "mallory", lambda hold: None, lambda: None
    )
    allowed = sum(budget.window_change() for _ in range(100))
    after = scraped(TALLY)
    door_refusals = "tui_reversi_door_refusals_total"
    assert after[door_refusals + refused] == before.get(door_refusals + refused, 0) + 1
    hits = "tui_reversi_budget_hits_total"
    assert after[hits + window] == before.get(hits + window, 0) + 100 - allowed


def test_a_histogram_is_written_in_cumulative_buckets_and_counters_from_zero():
    tally = Tally()
    tally.observe(STORE_CALLS, 0.003, "sqlite", "keep")
    tally.observe(STORE_CALLS, 0.3, "sqlite", "keep")
    samples = scraped(tally)
    keep = 'tui_reversi_store_call_seconds_bucket{backend="sqlite",le="%s",method="keep"}'
    assert samples[keep % "0.0025"] == 0 and samples[keep % "0.005"] == 1
    assert samples[keep % "0.5"] == 2 and samples[keep % "+Inf"] == 2
    total = 'tui_reversi_store_call_seconds_sum{backend="sqlite",method="keep"}'
    assert samples[total] == pytest.approx(0.303)
    assert samples["tui_reversi_moves_played_total"] == 0  # (there before the first move)
    assert samples['tui_reversi_sessions{door="ssh",kind="guest"}'] == 0
