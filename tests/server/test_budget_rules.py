"""The rules under the budgets, the door and the seats, on a clock of the
test's own: what a token bucket lets through, how a flooding connection is
held and at last ended, MaxStartups' random early drop, the guests' share."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from tui_reversi.server.bucket import BURST_QUIET, Limit, Limiter, Rate, TokenBucket, per_minute
from tui_reversi.server.config import ServeConfig
from tui_reversi.server.edge.budgets import HOLD_AT_MOST, HOLDS_AT_MOST, PACKETS, Budgets
from tui_reversi.server.edge.door import Door
from tui_reversi.server.edge.event_log import EventLog
from tui_reversi.server.edge.places import Places


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


@given(
    st.lists(st.tuples(st.floats(0, 2), st.floats(0.5, 20)), max_size=200),
    st.floats(1, 50),
    st.floats(0.1, 20),
)
def test_a_bucket_never_lets_through_more_than_its_burst_and_its_rate(steps, burst, rate):
    clock = Clock()
    bucket = TokenBucket(Rate(burst, rate), clock)
    taken = 0.0
    for gap, cost in steps:
        clock.now += gap
        if bucket.take(cost):
            taken += cost
    assert taken <= burst + rate * clock.now + 1e-6


def test_a_flooding_connection_is_held_longer_each_time_and_at_last_ended():
    clock, lines, holds, ended = Clock(), [], [], []
    budgets = Budgets(EventLog(lines.append), now=clock)
    budget = budgets.for_connection(
        ("192.0.2.9", "192.0.2.9:4000"), lambda: "mallory", holds.append, lambda: ended.append(1)
    )
    while not ended and clock.now < 600:
        for _ in range(5000):  # what one read brings: all of it past the budget once held
            budget.packet()
        clock.now += holds[-1] if holds else 0.0
    assert holds[:4] == sorted(holds[:4]) and max(holds) <= HOLD_AT_MOST * 2
    assert len(holds) == HOLDS_AT_MOST and ended == [1]
    assert [line.split()[2] for line in lines] == ["requests-dropped"]
    assert "what=packets" in lines[0] and "user=mallory" in lines[0]


def test_a_person_typing_is_never_held():
    clock, holds = Clock(), []
    budget = Budgets(EventLog(lambda line: None), now=clock).for_connection(
        ("192.0.2.1", "192.0.2.1:1"), lambda: "alice", holds.append, lambda: None
    )
    for _ in range(10 * 60 * 30):  # ten minutes of 30 packets a second (mouse and keys)
        assert budget.packet()
        clock.now += 1 / 30
    assert not holds and PACKETS.per_connection.per_second > 30


def test_an_address_allowed_more_connections_has_budgets_for_as_many_people(tmp_path: Path):
    def window_changes_through(max_per_address: int) -> int:
        config = ServeConfig(data_dir=tmp_path, max_per_address=max_per_address)
        budgets = Budgets(EventLog(lambda line: None), config.people_per_address(), Clock())
        connections = [
            budgets.for_connection(("192.0.2.1", f"192.0.2.1:{n}"), lambda: None, print, print)
            for n in range(max_per_address)
        ]
        return sum(c.window_change() for c in connections for _ in range(10))

    assert window_changes_through(5) == 20  # the address's burst, shared by its five
    assert window_changes_through(50) == 200  # behind a NAT or a balancer: ten times


def test_the_door_drops_at_random_between_start_and_full_and_always_at_full(tmp_path: Path):
    config = ServeConfig(data_dir=tmp_path, max_startups=(4, 50, 8))
    lucky, unlucky = Door(config, chance=lambda: 0.99), Door(config, chance=lambda: 0.0)
    addresses = [f"192.0.2.{n}" for n in range(20)]
    assert [lucky.arrive(a) for a in addresses] == [True] * 8 + [False] * 12  # at FULL
    assert [unlucky.arrive(a) for a in addresses] == [True] * 4 + [False] * 16  # from START
    one = Door(config, chance=lambda: 0.0)
    assert [one.arrive("192.0.2.1") for _ in range(5)] == [True] * 2 + [False] * 3  # 2:30:3


def test_an_address_that_outstays_the_door_finds_it_shut_longer_each_time(tmp_path: Path):
    door = Door(ServeConfig(data_dir=tmp_path))
    waits = [door.timed_out("192.0.2.7") for _ in range(3)]
    assert waits == sorted(waits) and waits[0] < waits[-1]
    assert not door.arrive("192.0.2.7") and door.arrive("192.0.2.8")


def test_guests_hold_their_share_and_a_key_the_rest(tmp_path: Path):
    places = Places(ServeConfig(data_dir=tmp_path, max_sessions=20, max_per_address=8))
    given_to_guests = [places.take(f"192.0.2.{n % 4}", guest=True) is None for n in range(24)]
    assert sum(given_to_guests) == 15
    assert all(places.take("192.0.2.50", guest=False) is None for _ in range(5))
    assert places.take("192.0.2.51", guest=False) is not None  # all 20 now
    alone = Places(ServeConfig(data_dir=tmp_path, max_per_address=4))
    assert [alone.take("192.0.2.1", guest=True) is None for _ in range(4)] == [True] * 3 + [False]


# -- the hall's limits: per name and per address ----------------------------------------


def limiter(clock: Clock, people: int = 1) -> tuple[Limiter, list[tuple[str, str]]]:
    notes: list[tuple[str, str]] = []
    limit = Limit(per_minute(3), per_minute(3), "chat lines", "wait a moment")
    return Limiter(
        limit, lambda text, address: notes.append((text, address)), people=people, now=clock
    ), notes


def test_a_limit_holds_for_each_name_and_for_the_names_of_one_address_together():
    clock = Clock()
    chat, _ = limiter(clock)
    assert [chat.take("guest-1", "10.0.0.1") for _ in range(2)] == [True, True]
    assert chat.take("guest-2", "10.0.0.1")  # the address's third
    assert not chat.take("guest-2", "10.0.0.1")  # the name has more, its address none
    assert chat.take("guest-3", "10.0.0.2")  # another address is not charged
    assert [chat.take("alice", "") for _ in range(4)] == [True] * 3 + [False]  # a name alone
    clock.now += 20  # a minute's third: one more for the address
    assert chat.take("guest-4", "10.0.0.1")
    assert not chat.take("guest-5", "10.0.0.1")


def test_an_address_standing_for_more_people_has_as_many_more():
    clock = Clock()
    chat, _ = limiter(clock, people=2)
    took = [chat.take(f"guest-{n}", "10.0.0.1") for n in range(8)]
    assert took == [True] * 6 + [False] * 2


def test_a_burst_of_drops_is_noted_once_charged_to_its_address_and_a_later_one_again():
    clock = Clock()
    chat, notes = limiter(clock)
    for _ in range(10):
        chat.take("guest-1", "10.0.0.1")
        clock.now += 1
    assert len(notes) == 1
    text, address = notes[0]
    assert address == "10.0.0.1"
    assert text == "chat lines dropped past their limit (3+3/min a name): guest-1 from 10.0.0.1"
    clock.now += BURST_QUIET + 60  # quiet, then a new burst
    for _ in range(5):
        chat.take("guest-1", "10.0.0.1")
    assert len(notes) == 2


def test_a_limits_refusal_is_one_sentence_naming_it():
    limit = Limit(per_minute(2), per_minute(2), "invitations", "try again shortly")
    assert limit.refusal == "Too fast: at most 2 invitations a minute; try again shortly."


def test_the_page_port_holds_as_many_connections_an_address_as_its_people():
    """A school behind one NAT (--max-per-address 50) had every browser past the
    tenth connection from its address reset, while SSH let them all in."""
    import dataclasses

    from tui_reversi.server.config import ServeConfig
    from tui_reversi.server.edge.public_page import page_sockets

    alone = ServeConfig(data_dir=Path("/nonexistent"))
    school = dataclasses.replace(alone, max_per_address=10 * alone.max_per_address)
    assert page_sockets(alone, forwarded=False, descriptors=4096).per_address == 10
    assert page_sockets(school, forwarded=False, descriptors=4096).per_address == 100
    assert page_sockets(school, forwarded=False, descriptors=256).per_address == 64  # (all)
    assert page_sockets(alone, forwarded=True, descriptors=4096).per_address == 1024
