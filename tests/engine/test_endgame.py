"""The exact solver's special cases for the last few empties (last1, last2,
the three- and four-square solvers, the parity walk) against brute force."""

import random

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from tui_reversi.core import Game, Variant
from tui_reversi.core.bitboard import flips, legal_moves
from tui_reversi.engine.search import Engine
from tui_reversi.players.alphabeta_player import score_in_discs

from .test_search import minimax

ENGINES = {False: Engine(False), True: Engine(True)}


def random_end_position(seed: int, empties: int):
    """Random moves from the start until at most `empties` squares are empty,
    whoever is to move: some of these positions make a side pass, or are over."""
    rng = random.Random(seed)
    game = Game(Variant.OTHELLO)
    while not game.is_over and game.position.empty_count > empties:
        game.play(rng.choice(game.position.legal_moves()))
    return game.position


@given(
    seed=st.integers(0, 10**9),
    empties=st.integers(0, 8),
    anti=st.booleans(),
    offset=st.integers(-3, 3),
)
def test_every_last_n_solver_gives_the_brute_force_score(seed, empties, anti, offset):
    position = random_end_position(seed, empties)
    own, opp = position.own, position.opp
    exact = minimax(own, opp, anti)
    engine = ENGINES[anti]
    assert engine.solve(own, opp) == exact
    # A null window around any bound says on which side the score lies.
    bound = exact + offset
    value = engine.solve(own, opp, bound, bound + 1)
    assert (value > bound) == (exact > bound)
    # Fail-soft: a bound from outside the window is still a true bound.
    if value > bound:
        assert exact >= value
    else:
        assert exact <= value


def test_a_side_that_must_pass_is_solved_from_the_other_side():
    found = 0
    for seed in range(2000):
        position = random_end_position(seed, 2 + seed % 6)
        own, opp = position.opp, position.own  # the other side to move ...
        if legal_moves(own, opp) or not legal_moves(opp, own):
            continue  # ... and it must pass
        for anti, engine in ENGINES.items():
            assert engine.solve(own, opp) == minimax(own, opp, anti) == -minimax(opp, own, anti)
        found += 1
        if found == 20:
            return
    raise AssertionError(f"only {found} positions where the mover must pass")


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**9), empties=st.integers(9, 12), anti=st.booleans())
def test_a_win_draw_loss_solve_plays_a_move_with_the_best_outcome(seed, empties, anti):
    position = random_end_position(seed, empties)
    own, opp = position.own, position.opp
    moves = position.legal_moves()
    assume(moves)
    engine = ENGINES[anti]
    result = engine.search(own, opp, exact_empties=0, wdl_empties=64)
    exact = {sq: -engine.solve(*child(own, opp, sq)) for sq in moves}
    best = max(exact.values())
    sign = (best > 0) - (best < 0)
    # The move played wins, draws or loses exactly like the best move ...
    played = exact[result.move]
    assert (played > 0) - (played < 0) == sign
    # ... and the score is a proven result on the right side, a true bound on the margin.
    discs, proven = score_in_discs(result.score)
    if sign > 0:
        assert proven and 0 < discs <= played
    elif sign < 0:
        assert proven and 0 > discs >= best
    else:
        assert discs == 0


def child(own: int, opp: int, sq: int) -> tuple[int, int]:
    f = flips(own, opp, sq)
    return opp ^ f, own | f | 1 << sq


def alphabeta(own, opp, alpha, beta, anti):
    """A plain alpha-beta solve: no ordering, no table, no cutoff beyond the window."""
    moves = legal_moves(own, opp)
    if not moves:
        if not legal_moves(opp, own):
            return minimax(own, opp, anti)
        return -alphabeta(opp, own, -beta, -alpha, anti)
    best = -65
    for sq in range(64):
        if moves >> sq & 1:
            f = flips(own, opp, sq)
            best = max(best, -alphabeta(opp ^ f, own | f | 1 << sq, -beta, -max(alpha, best), anti))
            if best >= beta:
                break
    return best


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 10**9), empties=st.integers(9, 11), anti=st.booleans())
def test_the_ordered_solver_with_its_tables_gives_the_plain_solve(seed, empties, anti):
    # From 9 empties up the solver orders moves, keeps a table, looks children
    # up in it: none of it may change a score.
    position = random_end_position(seed, empties)
    own, opp = position.own, position.opp
    assert ENGINES[anti].solve(own, opp) == alphabeta(own, opp, -65, 65, anti)
