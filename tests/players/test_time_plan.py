"""The clock's plan: more of it for the midgame, less for the opening and
the solved ending, and never all of it."""

from hypothesis import given
from hypothesis import strategies as st

from tui_reversi.players.time_plan import ENDGAME_EMPTIES, OPENING_EMPTIES, move_time


def planned_game(clock: float, first_empties: int = 60) -> dict[int, float]:
    """The seconds planned for each of one side's moves over a game in which
    every move spends exactly its plan, by the empties it was played at."""
    left = clock
    plan = {}
    for empties in range(first_empties, 0, -2):
        plan[empties] = move_time(left, empties)
        left -= plan[empties]
    return plan


def test_a_midgame_move_is_planned_more_time_than_an_opening_or_an_endgame_move():
    plan = planned_game(300.0)
    midgame = [s for e, s in plan.items() if ENDGAME_EMPTIES <= e <= OPENING_EMPTIES]
    ending = [s for e, s in plan.items() if e < ENDGAME_EMPTIES]
    opening = [s for e, s in plan.items() if e > OPENING_EMPTIES]
    assert min(midgame) > max(ending) and min(midgame) > max(opening)
    assert sum(plan.values()) < 300.0  # the flag never falls


@given(st.floats(0.01, 3600.0), st.integers(1, 60))
def test_a_move_takes_a_part_of_what_is_left_never_all_of_it(left, empties):
    seconds = move_time(left, empties)
    assert 0 < seconds <= left / 4


def test_no_time_left_plans_no_time():
    assert move_time(0.0, 30) == 0.0 and move_time(-5.0, 30) == 0.0
