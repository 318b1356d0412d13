"""A table's phase and a seat's state change only as their transitions allow
(ledger/table_phase.py, hall/table.py): the whole life of each goes through,
and every change not allowed raises, leaving things as they were."""

import itertools

import pytest

from tui_reversi.core import Color, Ending, Variant
from tui_reversi.net.terms import TimeControl
from tui_reversi.server.hall.table import SEAT_NEXT, Relay, Seat, SeatState, Table
from tui_reversi.server.ledger.fleet_messages import Sit, SitAt
from tui_reversi.server.ledger.table_phase import NEXT, IllegalTransition, Phase

ILLEGAL_PHASES = [
    (before, after)
    for before, after in itertools.product(Phase, Phase)
    if after not in NEXT[before]
]
ILLEGAL_SEAT_STATES = [
    (before, after)
    for before, after in itertools.product(SeatState, SeatState)
    if after not in SEAT_NEXT[before]
]


def a_table(phase: Phase = Phase.OPEN) -> Table:
    names = (
        {Color.BLACK: "alice"}
        if phase is Phase.OPEN
        else {Color.BLACK: "alice", Color.WHITE: "bob"}
    )
    return Table("K7QP2", Variant.OTHELLO, names, opens_as=phase)


def test_a_table_lives_open_playing_held_adjourned_and_ended_and_plays_a_rematch():
    table = a_table()
    assert table.phase is Phase.OPEN
    table.sit_down(Color.WHITE, "bob")
    assert table.phase is Phase.PLAYING
    table.hold(Color.WHITE, 10.0)
    table.hold(Color.BLACK, 12.0)  # (both dropped: still held)
    assert table.phase is Phase.HELD
    assert table.release(Color.WHITE) == 10.0 and table.phase is Phase.HELD
    assert table.release(Color.BLACK) == 12.0 and table.phase is Phase.PLAYING
    assert table.release(Color.BLACK) is None
    table.move_to(Phase.ADJOURNED)
    assert table.adjourned
    table.move_to(Phase.PLAYING)
    table.end(Ending("resigned", Color.BLACK, "bob resigned."))
    assert table.phase is Phase.ENDED and table.ended == "bob resigned."
    table.begin_again()
    assert table.phase is Phase.PLAYING and table.ended is None and table.ending is None


def test_a_table_nobody_joined_ends_and_a_held_one_adjourns_or_ends():
    unjoined = a_table()
    unjoined.end(Ending("left", None, "The table closed before anyone joined."))
    assert unjoined.phase is Phase.ENDED
    for after in (Phase.ADJOURNED, Phase.ENDED):
        held = a_table(Phase.PLAYING)
        held.hold(Color.BLACK, 5.0)
        held.move_to(after)
        assert held.phase is after


def test_the_illegal_changes_of_phase_are_the_ones_a_table_never_makes():
    assert {(before.value, after.value) for before, after in ILLEGAL_PHASES} == {
        ("open", "open"), ("open", "held"), ("open", "adjourned"),
        ("playing", "open"), ("playing", "playing"),
        ("held", "open"), ("held", "held"),
        ("adjourned", "open"), ("adjourned", "held"), ("adjourned", "adjourned"),
        ("ended", "open"), ("ended", "held"), ("ended", "adjourned"), ("ended", "ended"),
    }  # fmt: skip


def a_seat(state: SeatState) -> Seat:
    seat = Seat(a_table(Phase.PLAYING), "bob")
    if state is not SeatState.GIVEN:
        seat.move_to(state)
    return seat


def test_a_seat_is_given_dropped_leaving_given_again_and_handed_over():
    seat = a_seat(SeatState.GIVEN)
    assert seat.color is Color.WHITE and seat.line is None and seat.relay is None
    seat.move_to(SeatState.DROPPED)
    seat.move_to(SeatState.LEAVING)
    seat.move_to(SeatState.GIVEN)  # (its game's line ended; its session holds it still)
    seat.move_to(SeatState.HANDED)
    assert seat.state is SeatState.HANDED


@pytest.mark.parametrize(
    ("before", "after"), [*ILLEGAL_PHASES, *ILLEGAL_SEAT_STATES], ids=lambda state: state.value
)
def test_a_table_or_a_seat_refuses_a_change_its_transitions_do_not_allow(before, after):
    thing = a_table(before) if isinstance(before, Phase) else a_seat(before)
    with pytest.raises(IllegalTransition, match=f"from {before.value} to {after.value}"):
        thing.move_to(after)
    assert (thing.phase if isinstance(thing, Table) else thing.state) is before


def test_a_seats_colour_follows_its_player_through_a_rematch_and_a_watcher_has_none():
    table = a_table(Phase.PLAYING)
    player, watcher = Seat(table, "alice"), Seat(table, "bob", watching=True)
    table.names = {color.other: name for color, name in table.names.items()}
    assert player.color is Color.WHITE and watcher.color is None


def test_a_table_on_another_node_is_built_from_its_view_as_it_was_seen():
    table = Table(
        "K7QP2", Variant.ANTI, {Color.WHITE: "bob"}, time_control=TimeControl.parse("5+3")
    )
    table.sit_down(Color.BLACK, "alice")
    table.hold(Color.BLACK, 3.0)
    view = table.view("node-a")
    assert view.phase is Phase.PLAYING and view.waiting_for == ("alice",)  # (held: listed playing)
    there = Table.from_view(view)
    assert (there.code, there.variant, there.names, there.node) == (
        "K7QP2", Variant.ANTI, {Color.BLACK: "alice", Color.WHITE: "bob"}, "node-a"
    )  # fmt: skip
    assert str(there.time_control) == "5+3" and there.phase is Phase.PLAYING
    assert Table.from_view(view, "node-b").node == "node-b"


def test_a_relayed_seat_asks_its_tables_node_by_name_or_by_the_seat_given_there():
    by_code = Relay("join").sitting("L1", "K7QP2", "bob", "192.0.2.7")
    assert by_code == SitAt("L1", "join", "K7QP2", "bob", "192.0.2.7")
    given = Relay("given", "s3cr3t").sitting("L1", "K7QP2", "bob", "192.0.2.7")
    assert given == Sit("L1", "s3cr3t", "192.0.2.7")
