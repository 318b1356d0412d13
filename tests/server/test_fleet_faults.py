"""A fleet that survives its faults, on a real PostgreSQL with real SSH: the
database stopped a while and started again (the nodes keep their games, lose
no move and rejoin by themselves, even both at once), and a slow database
slowing only what needs it (a table's writes; a login's key check, `top`),
never the games beside it; one node cut off from the database alone a while,
its game taken over by another meanwhile, yielding it when it is back. A node
killed outright: test_fleet.py."""

from __future__ import annotations

import asyncio

import asyncssh
import psycopg
import pytest

from tui_reversi.server.hall.standings_pages import NOBODY_SETTLED
from tui_reversi.server.ledger.node_link import CLAIM_ROW, NodeLink

from .conftest import PATIENCE, Player, wait_until
from .db_cut import DatabaseCut
from .test_accounts import Listener, run
from .test_fleet import archived, lobby_shows, nodes_one_cut_off, shown_on, two_nodes
from .test_tables import Game, seat

# An opening with no pass: its moves, in order, for either side to play.
OPENING = ["d3", "c3", "b3", "b2", "b1", "a1", "c4", "c1"]
OUTAGE = 10.0  # seconds the database is away
SLOW = 5.0  # seconds a table's row stays locked
CUT = 6.0  # seconds one node is cut off from the database (another may take over after 5)


def kept_moves(database: str, code: str) -> str:
    return kept(database, code)[0]


def kept(database: str, code: str) -> tuple[str, str]:
    """Table `code`'s game not over as the database keeps it: its moves and its node."""
    with psycopg.connect(database) as conn:
        row = conn.execute("SELECT moves, node FROM unfinished WHERE code = %s", (code,)).fetchone()
    return (row[0], row[1]) if row else ("", "")


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
    seen = [""]  # what the last look saw, for a failure to say

    async def both_back() -> bool:
        both = {a.store.node, b.store.node}
        if a.fleet.down or b.fleet.down:
            seen[0] = f"down: A {a.fleet.down}, B {b.fleet.down}"
            return False
        live = await a.store.live_nodes(), await b.store.live_nodes()
        seen[0] = f"live nodes seen from A {sorted(live[0])}, from B {sorted(live[1])}"
        return live[0] == live[1] == both

    # The nodes rejoin with a backoff (2 s at most), each with a fresh pool: a loaded
    # machine needs longer.
    await wait_until(
        both_back, "both nodes back in the fleet", timeout=3 * PATIENCE, seen=lambda: seen[0]
    )
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


async def test_two_nodes_joining_at_once_are_both_in_the_fleet(database):
    # As when both come back after an outage on the same backoff: B's join is in
    # flight (its row renamed to its new listening connection, not yet committed)
    # while A joins and sweeps the rows of nodes gone.
    with psycopg.connect(database, autocommit=True) as before:
        before.execute(CLAIM_ROW, ("B",))  # B's row from before the outage: its connection gone
    b = await psycopg.AsyncConnection.connect(database)
    await b.execute(CLAIM_ROW, ("B",))
    a = NodeLink(database, "test", "A", (), lambda payload: None)
    joining = asyncio.create_task(a.listen(lambda message: None))
    try:
        with psycopg.connect(database, autocommit=True) as look:

            def a_waits_for_b() -> bool:
                waiting = (
                    "SELECT count(*) FROM pg_stat_activity "
                    "WHERE wait_event_type = 'Lock' AND datname = current_database()"
                )
                return look.execute(waiting).fetchone() == (1,)

            await wait_until(a_waits_for_b, "A's join to wait for B's")
            await b.commit()
            await joining
            live = look.execute("SELECT id FROM live_nodes ORDER BY id").fetchall()
        assert live == [("A",), ("B",)]
    finally:
        await b.close()
        await a.stop_listening()


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
    assert (status, shown) == (0, f"{NOBODY_SETTLED}\n")
    print(f"moves to the other screen while the database was slow: {waits}")
    await wait_until(lambda: kept_moves(database, code) == "".join(OPENING), "every move kept")


async def test_a_node_cut_off_alone_yields_the_game_taken_over_meanwhile(
    serve, tmp_path, postgres, database
):
    cut = DatabaseCut(postgres.port)  # node A reaches the database through it; B directly
    try:
        a, b = await nodes_one_cut_off(serve, tmp_path, database, cut)
        alice, bob, code = await table_between(a, "alice", b, "bob")
        await play(alice, bob, OPENING[:2], 0)
        await wait_until(lambda: kept(database, code) == ("d3c3", a.store.node), "moves kept")

        cut.cut()
        started = asyncio.get_running_loop().time()
        await wait_until(lambda: a.fleet.down, "node A to miss the database")
        await alice.hear_until(
            "adjourned bob cannot be heard (the server lost its database): the game is "
            "adjourned until bob is back."
        )
        # Node B, in the fleet all along, takes the game over; bob sits down there.
        await bob.hear_until("adjourned Adjourned: the game goes on when alice is back too.")
        assert not b.fleet.down and kept(database, code) == ("d3c3", b.store.node)
        await asyncio.sleep(max(0.0, CUT - (asyncio.get_running_loop().time() - started)))
        cut.restore()

        # Node A is back: it yields the game, and alice sits down at it on B, told why.
        told = await alice.hear_until("resumed You are both back: the game goes on.")
        assert told[0] == (
            f"news This node of the server lost its database a while, and table {code}'s "
            "game was resumed on another node meanwhile: you sit down at it there."
        )
        assert any(said.startswith(f"seated {code} ") for said in told)
        assert "moved 0 d3" in told and "moved 1 c3" in told
        await bob.hear_until("resumed You are both back: the game goes on.")
        await play(alice, bob, OPENING[2:4], 2)
        # One owner, node B, with every move; node A keeps no such table nor writes it.
        kept_now = ("".join(OPENING[:4]), b.store.node)
        await wait_until(lambda: kept(database, code) == kept_now, "the game kept by node B")
        assert code not in a.tables.tables and not a.fleet.down
        assert any(f"table {code}: taken over by node" in line for line in a.log_lines)
    finally:
        cut.close()


async def test_moves_played_on_a_node_cut_off_reach_the_node_that_took_its_game_over(
    serve, tmp_path, postgres, database
):
    cut = DatabaseCut(postgres.port)
    try:
        a, b = await nodes_one_cut_off(serve, tmp_path, database, cut)
        alice, carol, code = await table_between(a, "alice", a, "carol")
        await play(alice, carol, OPENING[:2], 0)
        await wait_until(lambda: kept(database, code) == ("d3c3", a.store.node), "moves kept")

        cut.cut()
        await wait_until(lambda: a.fleet.down, "node A to miss the database")
        await play(alice, carol, OPENING[2:4], 2)  # on node A alone: kept in its memory
        carol.writer.close()  # carol's game there goes, and she resumes through node B
        await alice.hear_until(
            "adjourned carol's game stopped unexpectedly: the game is adjourned until carol "
            "is back."
        )

        async def a_out() -> bool:
            return a.store.node not in await b.store.live_nodes()

        await wait_until(a_out, "A out")
        carol = await Game.connect(await seat(b, "carol", f"resume {code}"))
        await carol.hear_until("adjourned Adjourned: the game goes on when alice is back too.")
        assert kept(database, code) == ("d3c3", b.store.node)  # (node B's copy lacks two)
        cut.restore()

        # Node A yields the game and sends the moves played there: none is lost.
        told = await carol.hear_until(f"moved 3 {OPENING[3]}")
        assert f"moved 2 {OPENING[2]}" in told
        heard = await alice.hear_until("resumed You are both back: the game goes on.")
        assert f"moved 3 {OPENING[3]}" in heard
        await carol.hear_until("resumed You are both back: the game goes on.")
        await play(alice, carol, OPENING[4:6], 4)
        kept_now = ("".join(OPENING[:6]), b.store.node)
        await wait_until(lambda: kept(database, code) == kept_now, "every move kept by node B")
        assert code not in a.tables.tables
    finally:
        cut.close()
