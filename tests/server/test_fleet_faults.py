"""A fleet that survives its faults, on a real PostgreSQL with real SSH: the
database stopped a while and started again (the nodes keep their games, lose
no move and rejoin by themselves), and a slow database slowing only what
needs it (a table's writes; a login's key check, `top`), never the games
beside it. A node killed outright: test_fleet.py."""

from __future__ import annotations

import asyncio

import asyncssh
import psycopg
import pytest

from .conftest import Player, wait_until
from .test_accounts import Listener, run
from .test_fleet import archived, lobby_shows, shown_on, two_nodes
from .test_tables import Game, seat

# An opening with no pass: its moves, in order, for either side to play.
OPENING = ["d3", "c3", "b3", "b2", "b1", "a1", "c4", "c1"]
OUTAGE = 10.0  # seconds the database is away
SLOW = 5.0  # seconds a table's row stays locked


def kept_moves(database: str, code: str) -> str:
    with psycopg.connect(database) as conn:
        row = conn.execute("SELECT moves FROM unfinished WHERE code = %s", (code,)).fetchone()
    return row[0] if row else ""


async def table_between(host_node, host: str, guest_node, guest: str) -> tuple[Game, Game, str]:
    """`host` opens a table on `host_node`, `guest` joins it on `guest_node`: their
    games, seated, and its code."""
    opened = await Game.connect(await seat(host_node, host, "table"))
    code = (await opened.hear_until("ready"))[0].split()[1]
    if guest_node is not host_node:
        await shown_on(guest_node, code)
    joined = await Game.connect(await seat(guest_node, guest, f"join {code}"))
    await joined.hear_until("ready")
    return opened, joined, code


async def play(first: Game, second: Game, moves: list[str], start: int) -> None:
    """`first` and `second` play `moves` in turn from ply `start`; each move reaches both."""
    for ply, square in enumerate(moves, start):
        mover = first if (ply - start) % 2 == 0 else second
        mover.say(f"move {ply} {square}")
        for game in (first, second):
            await game.hear_until(f"moved {ply} {square}")


async def test_the_database_stopped_a_while_loses_no_move_and_the_nodes_rejoin(
    serve, tmp_path, postgres, database
):
    a, b = await two_nodes(serve, tmp_path, database)
    # alice's table on A, bob at it through B; carol and dave at a table on A alone.
    alice, bob, code = await table_between(a, "alice", b, "bob")
    carol, dave, local = await table_between(a, "carol", a, "dave")
    await play(alice, bob, OPENING[:2], 0)
    await play(carol, dave, OPENING[:2], 0)

    postgres.halt()
    try:
        # Both nodes know at once; bob and alice stay at their board, told why.
        await wait_until(lambda: a.fleet.down and b.fleet.down, "both nodes to miss the database")
        await bob.hear_until(
            "adjourned the server lost its database: the game is adjourned, clocks stopped, "
            "until the database is back."
        )
        await alice.hear_until(
            "adjourned bob cannot be heard (the server lost its database): the game is "
            "adjourned until bob is back."
        )
        # The game on A alone goes on meanwhile.
        await play(carol, dave, OPENING[2:6], 2)
        dave.say("resign")  # (a game may end meanwhile too)
        for game in (carol, dave):
            await game.hear_until("over resigned black dave (White) resigned: carol (Black) wins.")
        # A newcomer is refused in one sentence: nobody can check keys.
        Listener.banners = []
        with pytest.raises(asyncssh.PermissionDenied):
            await Player.connect(a, "erin", client_factory=Listener)
        assert Listener.banners == [
            "tui-reversi: the server cannot check keys just now (its database is away); "
            "try again in a minute.\r\n"
        ]
        await asyncio.sleep(OUTAGE)
    finally:
        postgres.start_again()

    # Both back in the fleet, no restart; bob sits back down at alice's table by himself.
    async def both_back() -> bool:
        both = {a.archive.node, b.archive.node}
        if a.fleet.down or b.fleet.down:
            return False
        return await a.archive.live_nodes() == await b.archive.live_nodes() == both

    await wait_until(both_back, "both nodes back in the fleet")
    for game in (alice, bob):
        await game.hear_until("resumed You are both back: the game goes on.")
    await play(alice, bob, OPENING[2:4], 2)
    # Every move is kept, the ones played while the database was away among them,
    # and the game that ended meanwhile is archived.
    result = [(local, "carol", "dave", "".join(OPENING[:6]), "black")]
    await wait_until(lambda: archived(database) == result, "carol's game archived")
    assert kept_moves(database, local) == ""
    await wait_until(lambda: kept_moves(database, code) == "".join(OPENING[:4]), "bob's game kept")
    # And the fleet works as before: a table opened on A now is joined from B.
    erin = await Game.connect(await seat(a, "erin", "table"))
    fresh = (await erin.hear_until("ready"))[0].split()[1]
    await shown_on(b, fresh)
    frank = await Game.connect(await seat(b, "frank", f"join {fresh}"))
    await frank.hear_until("ready")
    await play(erin, frank, OPENING[:2], 0)
    await lobby_shows(b, f"{fresh}  erin 1500? (Black) against frank 1500? (White)")
    assert any("is in the fleet again" in line for line in a.log_lines)


async def test_a_slow_database_slows_only_the_table_waiting_on_it(serve, tmp_path, database):
    a = await serve(data_dir=tmp_path / "a", database=database, max_per_address=10)
    alice, bob, code = await table_between(a, "alice", a, "bob")
    carol, dave, other = await table_between(a, "carol", a, "dave")
    await play(alice, bob, OPENING[:2], 0)

    # alice's table is locked in the database (as by a long transaction): her move
    # waits to be written, and is told once it is; carol and dave play on meanwhile.
    with psycopg.connect(database) as locker:
        locker.execute("SELECT 1 FROM unfinished WHERE code = %s FOR UPDATE", (code,))
        alice.say(f"move 2 {OPENING[2]}")
        heard_by_bob = asyncio.ensure_future(bob.hear_until(f"moved 2 {OPENING[2]}"))
        await play(carol, dave, OPENING, 0)
        assert not heard_by_bob.done()  # every move at the other table came first
        await asyncio.sleep(SLOW)
        assert not heard_by_bob.done()
        locker.rollback()
    await heard_by_bob
    kept = "".join(OPENING[:3])
    await wait_until(lambda: kept_moves(database, code) == kept, "alice's move kept")
    assert kept_moves(database, other) == "".join(OPENING)


async def test_a_slow_database_holds_up_logins_and_pages_never_the_games_beside_them(
    serve, tmp_path, database
):
    a = await serve(data_dir=tmp_path / "a", database=database, max_per_address=10)
    carol, dave, code = await table_between(a, "carol", a, "dave")
    await play(carol, dave, OPENING[:2], 0)

    # The keys and the ratings locked (as by a long transaction elsewhere): a login's key
    # check and `top` wait for them; carol and dave's moves need neither and go on.
    with psycopg.connect(database) as locker:
        locker.execute("LOCK TABLE account_keys, ratings IN ACCESS EXCLUSIVE MODE")
        login = asyncio.ensure_future(Player.connect(a, "erin"))
        top = asyncio.ensure_future(run(a, "zed", "top"))
        await asyncio.sleep(0.5)  # (both are waiting on the database by now)
        loop = asyncio.get_running_loop()
        waits = []
        for ply, square in enumerate(OPENING[2:], 2):
            mover, other = (carol, dave) if ply % 2 == 0 else (dave, carol)
            said = loop.time()
            mover.say(f"move {ply} {square}")
            await other.hear_until(f"moved {ply} {square}")
            waits.append(loop.time() - said)
        assert not login.done() and not top.done()  # every move came while they waited
        await asyncio.sleep(SLOW)
        assert not login.done() and not top.done()
        locker.rollback()
    erin = await login  # let in once the database answers
    assert (await erin.facts())["env"]["USER"] == "erin"
    status, shown = await top
    assert (status, shown) == (0, "tui-reversi: nobody has played a rated game here yet.\n")
    print(f"moves to the other screen while the database was slow: {waits}")
    await wait_until(lambda: kept_moves(database, code) == "".join(OPENING), "every move kept")
