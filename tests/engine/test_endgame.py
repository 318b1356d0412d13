"""The exact solver's special cases for the last few empties (last1, last2,
the three- and four-square solvers, the parity walk) against brute force;
whole exact searches against a plain solve; and FFO endgame positions
with their known scores (where the compiled engine makes them affordable)."""

import random

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from tui_reversi.core import Game, Position, Variant, square_name
from tui_reversi.core.bitboard import (
    FULL,
    flip_mask,
    flips,
    legal_moves,
    native,
    squares_of,
    unsigned,
)
from tui_reversi.engine.build import engine_build
from tui_reversi.engine.endgame import EndgameSolver, corner_word, kept_flips, static_order
from tui_reversi.engine.evaluation import SCALE
from tui_reversi.engine.search import Engine, RootMove, SearchRun
from tui_reversi.engine.squares import CORNER_CLASS, SQUARE_CLASSES, quadrant_bit
from tui_reversi.players.alphabeta_player import engine_for, score_in_discs

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


@given(st.integers(0, FULL), st.integers(0, FULL), st.integers(0, FULL))
def test_a_moves_flips_kept_in_a_vec_word_come_back_whole(own, opp, empty):
    # The solver keeps each move's flips in a vec, whose words are below
    # 2**63 interpreted: h8's bit is moved to the move's square and back.
    opp &= ~own & ~empty
    own &= ~empty
    for square in range(64):
        if empty >> square & 1:
            flipped = flip_mask(native(own), native(opp), square)
            kept = kept_flips(flipped, square)
            assert 0 <= kept < 1 << 63
            assert kept_flips(kept, square) == flipped


def test_the_solvers_folded_square_words_are_squares_pys():
    # static_order, parity_of and order_key spell squares.py's words as
    # literals and shifts (which the C compiler folds): the same squares.
    assert unsigned(corner_word()) == unsigned(CORNER_CLASS)
    classes = [squares_of(unsigned(squares)) for squares in SQUARE_CLASSES]
    solver = EndgameSolver(False)
    for rank, squares in enumerate(classes):
        for square in squares:
            # The square with one of every other class: it comes at its rank.
            others = [found[0] for other, found in enumerate(classes) if other != rank]
            empty = sum(1 << s for s in [*others, square])
            order = static_order(native(empty))
            assert order >> (6 * rank) & 63 == square
    for square in range(64):
        assert solver.parity_of(native(1 << square)) == quadrant_bit(square)


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


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 10**9),
    empties=st.integers(4, 7),
    anti=st.booleans(),
    alpha=st.integers(-65, 64),
    width=st.integers(1, 129),
)
def test_the_walk_of_the_last_empties_gives_the_plain_solve(seed, empties, anti, alpha, width):
    # Below 8 empties the solver walks the empty squares without generating
    # moves (fastest first from 7, odd quadrants first below, the last four
    # by hand): within any window it must agree with a plain alpha-beta
    # solve, and a value outside the window must still be a true bound.
    position = random_end_position(seed, empties)
    own, opp = native(position.own), native(position.opp)
    empty = ~(position.own | position.opp) & ((1 << 64) - 1)
    e = empty.bit_count()
    assume(e >= 4)
    beta = min(alpha + width, 65)
    solver = EndgameSolver(anti, solves=False)  # the walk keeps no table
    value = solver.shallow(
        own,
        opp,
        alpha,
        beta,
        static_order(native(empty)),
        e,
        solver.parity_of(native(empty)),
        False,
    )
    exact = alphabeta(position.own, position.opp, -65, 65, anti)
    if value <= alpha:
        assert exact <= value
    elif value >= beta:
        assert exact >= value
    else:
        assert value == exact


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 10**9), empties=st.integers(9, 11), anti=st.booleans())
def test_the_ordered_solver_with_its_tables_gives_the_plain_solve(seed, empties, anti):
    # From 9 empties up the solver orders moves, keeps a table, looks children
    # up in it: none of it may change a score.
    position = random_end_position(seed, empties)
    own, opp = position.own, position.opp
    assert ENGINES[anti].solve(own, opp) == alphabeta(own, opp, -65, 65, anti)


@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 10**9), empties=st.integers(12, 14), anti=st.booleans())
def test_a_solver_whose_table_holds_one_bucket_solves_alike(seed, empties, anti):
    # Every position then meets every other in the table: entries are
    # overwritten all the time, and a probe must never find another's.
    position = random_end_position(seed, empties)
    own, opp = native(position.own), native(position.opp)
    full = EndgameSolver(anti).solve(own, opp, -65, 65, False)
    assert EndgameSolver(anti, solves=False).solve(own, opp, -65, 65, False) == full


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 10**9), empties=st.integers(9, 10), anti=st.booleans())
def test_an_exact_search_scores_the_plain_solve_and_plays_a_best_move(seed, empties, anti):
    # The root is ordered by the solver's own keys: the score and the move
    # played must not depend on it.
    position = random_end_position(seed, empties)
    own, opp = position.own, position.opp
    assume(position.legal_moves())
    result = ENGINES[anti].search(own, opp, exact_empties=64)
    exact = alphabeta(own, opp, -65, 65, anti)
    assert result.exact and result.score == exact * SCALE
    assert -alphabeta(*child(own, opp, result.move), -65, 65, anti) == exact


@settings(max_examples=5, deadline=None)
@given(seed=st.integers(0, 10**9), empties=st.integers(12, 14))
def test_the_solved_score_does_not_depend_on_the_evaluation_ordering_the_moves(seed, empties):
    # From 12 empties up an evaluation orders the solver's moves (from 16 a
    # one-ply look): the trained and the hand-made one order differently.
    position = random_end_position(seed, empties)
    trained = engine_for(Variant.OTHELLO, "trained")
    assert trained.solve(position.own, position.opp) == ENGINES[False].solve(
        position.own, position.opp
    )


@pytest.mark.parametrize("anti", [False, True])
@pytest.mark.parametrize("seed", range(4))
def test_the_roots_null_window_tests_find_the_score_from_any_first_guess(seed, anti):
    # An exact search converges on the score by null-window tests at the
    # root from a guess: a guess far too high or far too low (or right, or
    # odd) must still end on the full-window score, a best move first.
    # (14-16 empties compiled; interpreted, 11-13 keep it within seconds.)
    fewest = 14 if engine_build().compiled else 11
    position = random_end_position(seed, fewest + seed % 3)
    while not position.legal_moves():
        seed += 100
        position = random_end_position(seed, fewest + seed % 3)
    own, opp = position.own, position.opp
    engine = ENGINES[anti]
    exact = engine.solve(own, opp)
    for first_test in sorted({-64, -40, exact - 7, exact, exact + 1, exact + 6, 40, 64}):
        run = SearchRun(engine, own, opp, None, None, None, solves=True)
        moves = [RootMove(sq) for sq in run.order_root(native(legal_moves(own, opp)))]
        assert run.converge_root(moves, first_test) == exact, first_test
        assert moves[0].score == exact
        assert -engine.solve(*child(own, opp, moves[0].square)) == exact


# Two of the FFO endgame test positions (bench/ffo.py has all twenty): the
# board, the exact score for the side to move and its best moves.
FFO = {
    40: ("O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X", 38, {"a2"}),
    42: ("--OOO-------XX-OOOOOOXOO-OOOOXOOX-OOOXXO---OOXOO---OOOXO--OOOO-- X", 6, {"g2"}),
}


@pytest.mark.skipif(
    not engine_build().compiled, reason="20 and 22 empties take minutes interpreted"
)
@pytest.mark.parametrize("number", sorted(FFO))
def test_ffo_positions_get_their_known_score_and_a_best_move(number):
    board, score, best_moves = FFO[number]
    position = Position.from_string(board)
    result = engine_for(Variant.OTHELLO, "trained").search(
        position.own, position.opp, exact_empties=64
    )
    assert result.exact
    assert result.score == score * SCALE
    assert square_name(result.move) in best_moves
