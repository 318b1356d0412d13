"""The pairing queue as the store keeps it (ledger/seekers.py), the same tests on
both stores: the archive's SQLite (the queue in memory) and a real PostgreSQL
(every node's seekers in one table). Then what only a fleet has: a node gone
takes its seekers with it, and two nodes claiming pairs at once never take
one seeker twice. And the one pairing rule (hall/pairing.py's pairs())."""

from __future__ import annotations

import asyncio
import functools
import random

from hypothesis import given
from hypothesis import strategies as st

from tui_reversi.core import Variant
from tui_reversi.net.terms import TimeControl
from tui_reversi.server.hall.pairing import fits, pairs
from tui_reversi.server.ledger.fleet_messages import Heard, QueueJoined
from tui_reversi.server.ledger.seekers import Seeker, SeekersHere
from tui_reversi.server.ledger.store import Store

from .conftest import wait_until
from .test_store import open_store as open_store  # (the fixture: both stores)
from .test_store import opened


def seeker(name: str, rating: float = 1500.0, clock: str | None = "5+3", **given) -> Seeker:
    time_control = TimeControl.parse(clock) if clock else None
    return Seeker(name, rating, Variant.OTHELLO, time_control, False, False, **given)


async def test_a_seeker_waits_until_they_leave_or_are_claimed_with_another(open_store):
    store = await open_store()
    await store.listen(lambda message: None)  # (in a fleet: this node is up)
    try:
        now = 1000.0
        alice = seeker("alice", 1612.5, since=now - 30, node=store.node)
        bob = seeker("bob", clock=None, since=now - 10, node=store.node)
        carol = seeker("carol", since=now - 20, node=store.node)
        await store.seek([bob, alice], now)
        await store.seek([carol], now)
        found = await store.seekers(now)
        assert [s.name for s in found] == ["alice", "carol", "bob"]  # the longest waiting first
        back = found[0]
        assert (back.id, back.rating, back.variant, back.clock, back.node) == (
            alice.id, 1612.5, Variant.OTHELLO, TimeControl.parse("5+3"), store.node
        )  # fmt: skip
        assert abs(back.since - alice.since) < 1.0  # (the wait, on the caller's clock)
        assert found[2].clock is None

        assert await store.unseek(bob.id) and not await store.unseek(bob.id)
        assert await store.claim_pairs([(alice.id, bob.id)]) == []  # bob left: alice stays
        assert [s.name for s in await store.seekers(now)] == ["alice", "carol"]
        # Of two pairs with one seeker, the first is taken, the second not.
        both = [(alice.id, carol.id), (carol.id, alice.id)]
        assert await store.claim_pairs(both) == [(alice.id, carol.id)]
        assert await store.seekers(now) == []
        assert await store.claim_pairs([(alice.id, carol.id)]) == []  # (taken once)
        assert not await store.unseek(carol.id)  # claimed: not in the queue to leave
    finally:
        await store.leave()


async def test_a_nodes_seekers_go_with_the_node_and_the_others_see_every_seeker(database, tmp_path):
    a, b = [await opened(database, tmp_path) for _ in range(2)]
    heard: list[Heard] = []
    try:
        await a.listen(lambda message: None)
        await b.listen(heard.append)
        await a.seek([seeker("alice", since=0.0, node=a.node)], 0.0)
        await wait_until(lambda: (a.node, QueueJoined()) in heard, "news of the join")
        await b.seek([seeker("bob", since=0.0, node=b.node)], 0.0)
        assert {(s.name, s.node) for s in await a.seekers(0.0)} == {
            ("alice", a.node),
            ("bob", b.node),
        }
        # As kill -9 leaves it: A's listening connection cut, nothing said, its rows left.
        assert a._link._hearing is not None and a._link._listener is not None
        a._link._hearing.cancel()
        a._link._listener.pgconn.finish()

        async def dropped_out() -> bool:
            return await b.live_nodes() == {b.node}

        await wait_until(dropped_out, "node A to drop out")
        assert [s.name for s in await b.seekers(0.0)] == ["bob"]  # a gone node's: nobody's to pair
    finally:
        await b.close()
        await a.close()


async def claim(store: Store, batches: list[list[tuple[str, str]]]) -> list[tuple[str, str]]:
    """Claim each batch of pairs in turn (as a node's passes would)."""
    return [pair for batch in batches for pair in await store.claim_pairs(batch)]


async def test_two_nodes_claiming_at_once_never_take_one_seeker_twice(database, tmp_path):
    nodes = [await opened(database, tmp_path) for _ in range(2)]
    chooser = random.Random(39)
    try:
        for store in nodes:
            await store.listen(lambda message: None)
        for _ in range(15):
            everyone = [seeker(f"p{n}", node=nodes[n % 2].node) for n in range(24)]
            await nodes[0].seek(everyone, 0.0)
            ids = [waiting.id for waiting in everyone]
            # Each node's plan: pairs drawn from the same seekers, overlapping the other's
            # (and its own), claimed in six batches of any size, the two nodes at once.
            plans = []
            for _ in nodes:
                drawn = [(one, other) for one, other in (chooser.sample(ids, 2) for _ in range(30))]
                cuts = sorted(chooser.sample(range(1, 30), 5))
                plans.append([drawn[i:j] for i, j in zip([0, *cuts], [*cuts, 30], strict=True)])
            done = await asyncio.gather(*map(claim, nodes, plans))
            seated = [seeker_id for claimed in done for pair in claimed for seeker_id in pair]
            assert len(seated) == len(set(seated)), "a seeker was claimed twice"
            left = {s.id for s in await nodes[1].seekers(0.0)}
            assert left | set(seated) == set(ids) and not left & set(seated)
            for seeker_id in left:
                await nodes[0].unseek(seeker_id)
    finally:
        for store in nodes:
            await store.leave()
            await store.close()


ratings = st.floats(min_value=800, max_value=2400, allow_nan=False)


@given(
    st.lists(
        st.tuples(ratings, st.floats(0, 100), st.sampled_from(["5+3", "", "1+0"]), st.booleans()),
        max_size=30,
    ),
    st.booleans(),
)
def test_the_pairing_rule_seats_each_seeker_once_and_only_with_one_that_fits(waiting, alone):
    seekers = [
        Seeker(f"p{n}", rating, Variant.OTHELLO, TimeControl.parse(clock) if clock else None,
               guest, False, since=since)
        for n, (rating, since, clock, guest) in enumerate(waiting)
    ]  # fmt: skip
    fit = functools.partial(fits, now=100.0)
    found = pairs(seekers, fit)
    seated = [s.id for pair in found for s in pair]
    assert len(seated) == len(set(seated))
    assert all(fit(one, other) and one.since <= other.since for one, other in found)
    unseated = [s for s in seekers if s.id not in seated]
    assert not any(fit(one, other) for one in unseated for other in unseated)
    if alone:  # the memory queue claims exactly the pairs it holds
        book = SeekersHere()
        asked = [(one.id, other.id) for one, other in found]

        async def claimed() -> tuple[list[tuple[str, str]], set[str]]:
            await book.seek(seekers, 100.0)
            taken = await book.claim_pairs(asked)
            return taken, {s.id for s in await book.seekers(100.0)}

        assert asyncio.run(claimed()) == (asked, {s.id for s in unseated})
