"""The fleet's messages are sealed (ledger/fleet_seal.py): a node hears only what
another node of its fleet sealed, lately and once. Any role that can connect to
the database may NOTIFY the nodes' channels; a read-only one, forging a `sit`,
a `moves` or replaying a real message, is dropped and logged, and the real
messages flow on. On the real PostgreSQL of the fleet's tests."""

from __future__ import annotations

import asyncio
import json

import psycopg
import pytest

from tui_reversi.server.config import ServeError
from tui_reversi.server.ledger.fleet_messages import Line, LobbyChanged, Moves, Sit, encode
from tui_reversi.server.ledger.fleet_seal import WINDOW, Seal, secret_from_file
from tui_reversi.server.ledger.migrations import SECRET_TABLE
from tui_reversi.server.ledger.postgres import LOBBY_CHANNEL, MAX_MESSAGE, PostgresStore

from .conftest import wait_until
from .test_fleet import shown_on, two_nodes
from .test_tables import Game, seat

SECRET = b"s" * 32
TO = "tui_reversi_b"  # (the channel a message is sealed for and heard on)


class Clock:
    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now


def sealed_pair(clock: Clock) -> tuple[Seal, Seal, list[tuple]]:
    """Node a's seal and node b's, one secret; b's drops, as told."""
    drops: list[tuple] = []
    a = Seal(SECRET, "a", lambda *drop: None, clock)
    b = Seal(SECRET, "b", lambda *drop: drops.append(drop), clock)
    return a, b, drops


def test_a_sealed_message_opens_once_within_its_window_and_under_its_secret_only():
    clock = Clock()
    a, b, drops = sealed_pair(clock)
    message = Sit("L1", "S", "")
    payload = a.seal(message, TO)
    assert b.open(payload, TO) == ("a", message)
    assert b.open(payload, TO) is None  # replayed
    assert drops[-1][:2] == ("replayed (message 1)", "a")
    # A late one, and one from a node whose clock is far ahead.
    late = a.seal(message, TO)
    clock.now += WINDOW + 1
    assert b.open(late, TO) is None and drops[-1][0] == f"sealed {WINDOW + 1:.0f} s ago"
    clock.now -= 2 * (WINDOW + 1)
    assert b.open(late, TO) is None and drops[-1][0] == f"sealed {WINDOW + 1:.0f} s ahead of here"
    clock.now += WINDOW + 1
    # Touched, or sealed under another secret: dropped.
    fresh = a.seal(message, TO)
    assert b.open(fresh.replace('"L1"', '"L2"'), TO) is None and drops[-1][0] == "bad MAC"
    stranger = Seal(b"t" * 32, "a", lambda *drop: None, clock)
    assert b.open(stranger.seal(message, TO), TO) is None and drops[-1][0] == "bad MAC"
    assert b.open(json.dumps(encode(message)), TO) is None  # an unsealed one
    assert b.open(fresh, TO) == ("a", message)  # (the real one, untouched, still opens)


def test_the_numbers_had_are_forgotten_once_their_time_refuses_them():
    clock = Clock()
    a, b, _ = sealed_pair(clock)
    for _ in range(100):
        assert b.open(a.seal(LobbyChanged(), TO), TO) is not None
        clock.now += 1
    clock.now += WINDOW
    assert b.open(a.seal(LobbyChanged(), TO), TO) is not None
    assert sum(len(numbers) for numbers in b._seen.values()) == 1


def test_a_flood_of_forgeries_is_summed_up_in_the_log_not_copied():
    clock = Clock()
    _, b, drops = sealed_pair(clock)
    for number in range(1000):
        b.open(f"v1 {number:064x} {{}}", TO)
    assert 1 <= len(drops) <= 25  # (a burst of lines, then the bucket's)
    b._told = type(b._told)(b._told.rate)  # (a second later, say)
    b.open("v1 0 {}", TO)
    assert drops[-1][3] == 1000 - len(drops) + 1  # how many went untold


def test_a_forgery_past_ascii_is_dropped_not_raised():
    """compare_digest raised TypeError on a MAC with a character past ASCII: one
    `pg_notify(channel, 'v1 é x')` from any role ended the node's listening for good."""
    _, b, drops = sealed_pair(Clock())
    assert b.open("v1 \u00e9 x", "tui_reversi_b") is None
    assert b.open("v1 \udcff {}", TO) is None
    assert [drop[0] for drop in drops] == ["bad MAC", "bad MAC"]


def test_a_message_is_heard_only_on_the_channel_it_was_sealed_for():
    """Any role may LISTEN: a message to node b, copied into node c's channel (or the
    lobby's) within the window, is not heard there."""
    clock = Clock()
    a, b, drops = sealed_pair(clock)
    c = Seal(SECRET, "c", lambda *drop: drops.append(drop), clock)
    message = Moves("L1", "c4")
    payload = a.seal(message, "tui_reversi_b")
    assert c.open(payload, "tui_reversi_c") is None
    assert c.open(payload, "tui_reversi_lobby") is None
    assert drops[-1][0] == "sent on another channel"
    assert b.open(payload, "tui_reversi_b") == ("a", message)


def test_a_relayed_line_sealed_fits_a_notify():
    from tui_reversi.server.hall.fleet_relay import PIECE

    a = Seal(SECRET, "a" * 12, lambda *drop: None, Clock())  # (a node's name: 12 digits)
    message = Line("x" * 12, b"\xff" * PIECE)
    assert len(a.seal(message, TO).encode()) < MAX_MESSAGE


def test_the_secret_file_is_read_only_if_it_is_private_and_long_enough(tmp_path):
    path = tmp_path / "fleet.secret"
    path.write_text("x" * 44 + "\n")
    path.chmod(0o644)
    with pytest.raises(ServeError, match=r"may be read by others \(mode 644\): chmod 600 it"):
        secret_from_file(path)
    path.chmod(0o600)
    assert secret_from_file(path) == b"x" * 44
    path.write_text("short")
    with pytest.raises(ServeError, match="holds 5 bytes, fewer than 32"):
        secret_from_file(path)
    with pytest.raises(ServeError, match="cannot read"):
        secret_from_file(tmp_path / "none")


def reporter(database: str) -> str:
    """A read-only role on `database` (SELECT on every table in `public`, as a reporting
    tool is given): its URL."""
    name = f"reporter_{database.rsplit('/', 1)[1]}"
    with psycopg.connect(database, autocommit=True) as conn:
        conn.execute(f"CREATE ROLE {name} LOGIN".encode())  # (a name made here)
        conn.execute(f"GRANT SELECT ON ALL TABLES IN SCHEMA public TO {name}".encode())
    return database.replace("postgres@", f"{name}@", 1)


def dropped_lines(node) -> list[str]:
    return [line for line in node.log_lines if " fleet-message-dropped " in line]


async def test_a_read_only_roles_forged_notify_is_dropped_and_logged_and_real_ones_flow(
    serve, tmp_path, database
):
    a, b = await two_nodes(serve, tmp_path, database)
    alice = await Game.connect(await seat(a, "alice", "table"))
    await alice.hear_until("ready")
    (code,) = a.tables.tables
    await shown_on(b, code)
    channel = f"tui_reversi_{a.store.node}"
    with psycopg.connect(reporter(database), autocommit=True) as forger:
        # It reads the tables it was given, not the secret.
        forger.execute("SELECT count(*) FROM nodes")
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            forger.execute(f"SELECT key FROM {SECRET_TABLE}".encode())
        forger.execute(f"LISTEN {LOBBY_CHANNEL}".encode())
        # Mallory, "from node B", takes the free seat at alice's table; then moves.
        forged = [
            {"kind": "sit", "node": b.store.node, "link": "L", "how": "join", "code": code,
             "name": "mallory", "address": "192.0.2.7"},
            {"kind": "moves", "node": b.store.node, "code": code, "moves": "c4c3"},
        ]  # fmt: skip
        for message in forged:
            forger.execute("SELECT pg_notify(%s, %s)", (channel, json.dumps(message)))
        # The seat is still free for bob, on node B; his node shares him.
        bob = await Game.connect(await seat(b, "bob", f"join {code}"))
        assert (await bob.hear_until("ready"))[1] == "players alice bob"
        # A real message, heard on the lobby's channel, sent again as it was, and touched.
        heard = await asyncio.to_thread(lambda: list(forger.notifies(timeout=10, stop_after=1)))
        real = heard[0].payload
        sender = json.loads(real.split(" ", 2)[2])["node"]
        forger.execute("SELECT pg_notify(%s, %s)", (LOBBY_CHANNEL, real))
        forger.execute("SELECT pg_notify(%s, %s)", (channel, real + " "))
    await wait_until(lambda: len(dropped_lines(a)) >= 4, "the four dropped on node A")
    lines = dropped_lines(a)
    assert sum('why="bad MAC"' in line for line in lines) == 3, lines
    assert any("replayed" in line and f"node={sender}" in line for line in lines), lines
    assert not any("address=" in line for line in lines)  # charged to nobody
    # The real messages go on flowing both ways.
    alice.say("move 0 d3")
    await bob.hear_until("moved 0 d3")
    bob.say("move 1 c5")
    await alice.hear_until("moved 1 c5")


async def test_a_node_that_cannot_read_the_secret_says_so_and_other_secrets_are_not_heard(
    database, tmp_path
):
    with pytest.raises(ServeError, match=r"cannot read the fleet's secret \(tui_reversi_fleet"):
        PostgresStore(reporter(database), tmp_path)
    drops: list[tuple] = []
    a = PostgresStore(database, tmp_path)  # the database's secret
    b = PostgresStore(database, tmp_path, secret=b"another fleet's secret, 32 bytes+")
    c = PostgresStore(database, tmp_path, dropped=lambda *drop: drops.append(drop))
    heard: list[tuple] = []
    try:
        for store in (a, b, c):
            await store.open()
        await c.listen(heard.append)
        await b.send(c.node, Line("L", b"from b"))
        await a.send(c.node, Line("L", b"from a"))
        await wait_until(lambda: heard, "a's message")
        assert heard == [(a.node, Line("L", b"from a"))]
        assert drops[0][:2] == ("bad MAC", None)  # b's, in order before a's
    finally:
        for store in (a, b, c):
            await store.leave()
            await store.close()
