"""Quick pairing (`ssh -t host play ...`) over real SSH: two players whose terms
match are seated at one new table; a guest waits for guests unless the other
allows them; esc leaves; alone a minute, the computer is offered. And the
queue's window widening with the wait (hall/pairing.py)."""

from __future__ import annotations

from tui_reversi.core import Variant
from tui_reversi.net.remote import TABLE_SECRET_VARIABLE
from tui_reversi.net.terms import TimeControl
from tui_reversi.server.hall import pairing, queue_wait
from tui_reversi.server.hall.pairing import Seeker, fits, nearest_level

from .conftest import Player, wait_until


def seated_at(arcade, facts) -> str:
    """The code of the table the game was seated at, from its secret."""
    seat = arcade.tables.seat_of(facts["env"][TABLE_SECRET_VARIABLE])
    assert seat is not None
    # What the game asks (chat, takebacks) is charged to its player's address too,
    # as at any table: one address's many names share its limits.
    assert seat.address == "127.0.0.1"
    return seat.table.code


async def test_two_players_with_the_same_terms_are_seated_at_one_new_table(serve):
    arcade = await serve(max_per_address=10)
    alice = await Player.connect(arcade, "alice", command="play clock 5+3 anti")
    await alice.expect("Waiting ")
    bob = await Player.connect(arcade, "bob", command="play anti clock 5+3 ascii")
    bob_facts, alice_facts = await bob.facts(), await alice.facts()
    code = seated_at(arcade, alice_facts)
    assert seated_at(arcade, bob_facts) == code
    table = arcade.tables.tables[code]
    assert str(table.time_control) == "5+3" and table.game.variant == Variant.ANTI
    assert sorted(table.names.values()) == ["alice", "bob"]
    assert f"an opponent is found: table {code}." in alice.output.decode()
    assert "--ascii" in bob_facts["args"] and arcade.pairing.seekers == []


async def test_play_takes_a_clock_on_its_own_and_pairs_only_the_same_clock(serve):
    arcade = await serve(max_per_address=10)
    alice = await Player.connect(arcade, "alice", command="play 3+2")
    await alice.expect("looking for an opponent (othello, clock 3+2, rated 1500?)")
    carol = await Player.connect(arcade, "carol", command="play 5+3")  # another clock: apart
    await carol.expect("Waiting ")
    bob = await Player.connect(arcade, "bob", command="play clock 3+2")  # the same clock
    bob_facts, alice_facts = await bob.facts(), await alice.facts()
    code = seated_at(arcade, alice_facts)
    assert seated_at(arcade, bob_facts) == code
    assert str(arcade.tables.tables[code].time_control) == "3+2"
    assert [seeker.name for seeker in arcade.pairing.seekers] == ["carol"]
    player = await Player.connect(arcade, "dave", command="play 3+x")
    done = await player.finished()
    said = player.output.decode()
    assert done.exit_status == 2 and said.count("\n") == 1
    assert said.startswith("tui-reversi: '3+x' is not a time control: minutes (1-180)")


async def test_different_terms_wait_apart_and_esc_leaves_the_queue(serve):
    arcade = await serve(max_per_address=10)
    alice = await Player.connect(arcade, "alice", command="play clock 5+3")
    await alice.expect("Waiting ")
    bob = await Player.connect(arcade, "bob", command="play")  # no clock: not alice's terms
    await bob.expect("Waiting ")
    assert len(arcade.pairing.seekers) == 2 and not arcade.tables.tables
    alice.send(b"\x1b")
    done = await alice.finished()
    assert done.exit_status == 0
    assert "tui-reversi: you left the queue." in alice.output.decode()
    await wait_until(lambda: len(arcade.pairing.seekers) == 1, "alice out of the queue")
    bob.close()
    await wait_until(lambda: not arcade.pairing.seekers, "bob, gone, out of the queue")


async def test_a_guest_waits_for_guests_unless_the_other_allows_them(serve):
    arcade = await serve(max_per_address=10)
    guest = await Player.connect(arcade, "zed", command="play", guest=True)
    await guest.expect("a guest)")
    alice = await Player.connect(arcade, "alice", command="play")
    await alice.expect("Waiting ")
    assert len(arcade.pairing.seekers) == 2
    bob = await Player.connect(arcade, "bob", command="play guests")
    bob_facts, guest_facts = await bob.facts(), await guest.facts()
    assert seated_at(arcade, bob_facts) == seated_at(arcade, guest_facts)
    assert [seeker.name for seeker in arcade.pairing.seekers] == ["alice"]


async def test_alone_in_the_queue_the_computer_nearest_the_rating_is_offered(serve, monkeypatch):
    monkeypatch.setattr(queue_wait, "ALONE_AFTER", 0.5)
    arcade = await serve()
    alice = await Player.connect(arcade, "alice", command="play")
    said = await alice.expect("medium, the level nearest your rating; or wait on.")
    offer = said.replace("\r\n", "\n").split("Nobody yet", 1)[1]
    # Each line whole within 60 columns (the terminal cut the one sentence at 80).
    assert offer.split("\n")[:2] == [
        ": c plays the computer instead,",
        "medium, the level nearest your rating; or wait on.",
    ]
    alice.send(b"c")
    facts = await alice.facts()
    assert facts["args"][-2:] == ["--white", "medium"]
    assert arcade.pairing.seekers == []


async def test_play_refuses_a_colour_and_needs_a_terminal(serve):
    arcade = await serve(max_per_address=10)
    player = await Player.connect(arcade, "alice", command="play white")
    await player.finished()
    assert "play draws the colours: play [5+3]" in player.output.decode()
    player = await Player.connect(arcade, "alice", command="play clock 999+0")
    await player.finished()
    assert "is not a time control" in player.output.decode()
    assert "play [5+3] [variant othello|reversi|anti] [guests]" in player.output.decode()
    player = await Player.connect(arcade, "alice", command="play", term=None)
    done = await player.finished()
    assert done.exit_status == 1 and not arcade.pairing.seekers


def seeker(name: str, rating: float, *, guest: bool = False, deviation: float = 60.0) -> Seeker:
    """A seeker; settled (deviation 60) unless said."""
    clock = TimeControl.parse("5+3")
    return Seeker(name, rating, Variant.OTHELLO, clock, guest, False, deviation)


def test_an_unsure_rating_is_paired_as_far_as_its_deviation_at_once():
    new, settled = seeker("alice", 1500.0, deviation=350.0), seeker("bob", 1800.0)
    far = seeker("carol", 1900.0)
    for one in (new, settled, far):
        one.since = 0.0
    assert fits(new, settled, 0.0) and fits(settled, new, 0.0)  # 300 apart: within 350
    assert not fits(new, far, 0.0)  # 400 apart
    assert not fits(seeker("dave", 1500.0), seeker("erin", 1650.0), 0.0)  # settled: 100


def test_the_rating_window_widens_with_the_longer_wait():
    now = [0.0]
    strong, weak = seeker("alice", 1900.0), seeker("bob", 1500.0)
    strong.since = weak.since = 0.0
    assert not fits(strong, weak, now[0])  # 400 apart, the window 100
    now[0] = (400 - pairing.WINDOW) / pairing.WIDENING
    assert fits(strong, weak, now[0]) and fits(weak, strong, now[0])
    now[0] = 10_000.0
    far = seeker("carol", 1500.0 + pairing.WIDEST + 1)
    far.since = 0.0
    assert not fits(strong, seeker("dave", 700.0), now[0])  # never wider than WIDEST
    assert not fits(weak, far, now[0])
    assert nearest_level(1480.0) == "medium" and nearest_level(2400.0) == "expert"


def test_the_computer_s_offer_fits_60_columns_for_every_level():
    for level in ("easy", "medium", "hard", "expert"):
        lines = queue_wait.offer_lines(level)
        assert all(len(line) < 60 for line in lines), lines
        assert not any(line.startswith((";", ",")) for line in lines), lines
