"""The transposition table of the solver and the midgame search: a position
finds its own entry and never another's, h8 included (the sign bit of a
compiled word), and a full bucket keeps its deeper entry."""

from hypothesis import given
from hypothesis import strategies as st

from tui_reversi.core.bitboard import native
from tui_reversi.engine.transposition import (
    EXACT,
    LOWER,
    TT_BITS,
    TranspositionTable,
    entry_depth,
    entry_score,
    midgame_entry,
    solver_entry,
    solver_lower,
    solver_upper,
)

H8 = 1 << 63
boards = st.integers(0, (1 << 64) - 1)


def put(table: TranspositionTable, own: int, opp: int, entry: int) -> None:
    table.put(native(own), native(opp), entry)


def get(table: TranspositionTable, own: int, opp: int) -> int:
    return table.get(native(own), native(opp))


def test_a_stored_entry_is_found_again_and_an_empty_table_has_none():
    table = TranspositionTable(TT_BITS)
    entry = midgame_entry(-250, LOWER, 9, 27)
    assert get(table, 0x0000000810000000, 0x0000001008000000) == 0
    put(table, 0x0000000810000000, 0x0000001008000000, entry)
    assert get(table, 0x0000000810000000, 0x0000001008000000) == entry
    assert entry_score(get(table, 0x0000000810000000, 0x0000001008000000)) == -250


def test_positions_that_differ_only_at_h8_are_told_apart():
    table = TranspositionTable(1)  # one bucket: every position meets every other
    low = 0x0000000810000000
    first = midgame_entry(100, EXACT, 5, 1)
    second = midgame_entry(-100, EXACT, 5, 2)
    put(table, low | H8, 0x0000001008000000, first)
    put(table, low, 0x0000001008000000 | H8, second)
    assert get(table, low | H8, 0x0000001008000000) == first
    assert get(table, low, 0x0000001008000000 | H8) == second
    assert get(table, low, 0x0000001008000000) == 0
    assert get(table, low | H8, 0x0000001008000000 | H8) == 0


def test_a_full_bucket_keeps_its_deeper_entry_and_takes_the_new_one():
    table = TranspositionTable(1)
    deep = midgame_entry(10, EXACT, 12, 3)
    put(table, 1, 2, deep)
    put(table, 4, 8, midgame_entry(20, EXACT, 3, 4))
    put(table, 16, 32, midgame_entry(30, EXACT, 5, 5))  # the depth-3 entry goes
    assert get(table, 1, 2) == deep
    assert get(table, 4, 8) == 0
    assert entry_depth(get(table, 16, 32)) == 5
    put(table, 1, 2, midgame_entry(11, EXACT, 2, 6))  # its own slot, even shallower
    assert entry_score(get(table, 1, 2)) == 11
    assert entry_depth(get(table, 16, 32)) == 5


@given(
    st.lists(
        st.tuples(st.integers(0, 7), st.integers(1, 60), st.integers(-5000, 5000)),
        max_size=60,
    ),
    st.lists(
        st.tuples(boards, boards).filter(lambda words: words != (0, 0)),  # discs on the board
        min_size=8,
        max_size=8,
        unique=True,
    ),
)
def test_a_position_finds_its_last_entry_or_none_never_another(stores, positions):
    table = TranspositionTable(2)  # two buckets of two
    last: dict[int, int] = {}
    for which, depth, score in stores:
        own, opp = positions[which]
        entry = midgame_entry(score, EXACT, depth, which)
        put(table, own, opp, entry)
        last[which] = entry
        assert get(table, own, opp) == entry  # the newest entry always finds room
    for which, (own, opp) in enumerate(positions):
        assert get(table, own, opp) in (0, last.get(which, 0))


def test_a_solver_entry_is_never_the_empty_slot_and_keeps_its_bounds():
    table = TranspositionTable(1)
    for lower, upper, empties, square in ((-64, -64, 10, -1), (-64, 12, 20, 0), (64, 64, 60, 63)):
        entry = solver_entry(lower, upper, empties, square)
        assert entry != 0
        put(table, 1 << empties, 2, entry)
        found = get(table, 1 << empties, 2)
        assert (solver_lower(found), solver_upper(found), entry_depth(found)) == (
            lower,
            upper,
            empties,
        )
