"""The hard and expert engine: alpha-beta search on raw bitboards.

Midgame: negamax with principal-variation search, iterative deepening under
a clock, a transposition table, and move ordering: the table's move first,
then at deep nodes the fewest replies left to the opponent with history
scores (cutoffs so far, by square) as a tie-break, and a static square order
near the leaves. Leaf parents evaluate their children in place.

Endgame: when few squares are empty, the exact solver (endgame.py) plays
the position out to the last disc under the same clock and node counter.

Everything in the hot loops is a closure over local names and plain ints: no
per-node objects beyond the small lists needed to order moves. The search is
deterministic: the same position, limits and variant give the same moves,
scores and node counts; only the clock (a time limit) or a cancel can end it
at a different point.
"""

from __future__ import annotations

import gc
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from ..core.bitboard import CORNERS, flip_table, legal_moves
from .endgame import make_solver
from .evaluation import SCALE, WIN, make_evaluator, make_stable_edge_counter, terminal_score
from .squares import SQUARE_CLASSES

INF = 10 * WIN  # beyond every score

# Nodes between looks at the clock and the cancel flag. At 256 the longest
# gap between looks was 17 ms on a loaded machine; 128 halves it, at a cost
# too small to measure.
CHECK_EVERY = 128
ORDER_DEPTH = 4  # midgame nodes at least this deep order moves by mobility
# Of the budget, when the search stops at the latest: the rest is for the
# last clock check, unwinding and a busy machine's scheduling delays, so that
# a move never takes more than its budget + 10 %.
DEADLINE_SHARE = 0.93
SOLVE_FALLBACK_SHARE = 0.25  # of the budget, for the midgame search before a solve
TT_LIMIT = 400_000  # entries; the table is emptied when it grows past this


class _Stop(Exception):
    """Raised inside the search when time, nodes or a cancel end it."""


@dataclass
class RootMove:
    square: int
    score: int = -INF  # from the last completed iteration (a bound for PVS losers)


@dataclass
class SearchResult:
    """The outcome of one search: the move to play (None = pass) and why."""

    move: int | None
    score: int  # score units (SCALE per disc); the disc margin * SCALE when exact
    depth: int  # deepest completed iteration (empties when exact)
    nodes: int
    exact: bool = False
    scores: dict[int, int] = field(default_factory=dict)  # per root move (analysis)
    completed: bool = True  # False when stopped before a first complete iteration


class Engine:
    """Searches positions of one variant. One engine may run many searches
    (one at a time); each search starts from an empty transposition table."""

    def __init__(self, anti: bool = False, trained: bool = False):
        self.anti = anti
        # The fitted pattern evaluation when asked for and available, else the hand-made one.
        fitted = None
        if trained:
            # Imported here: the weights are read on first use, off the start-up path.
            from .pattern_weights import trained_evaluator

            fitted = trained_evaluator(anti)
        self.trained = fitted is not None
        self.evaluate = fitted or make_evaluator(anti)
        self.flips = flip_table()
        self.stable_edges = make_stable_edge_counter()

    # -- public entry points -----------------------------------------------------

    def search(
        self,
        own: int,
        opp: int,
        *,
        time_limit: float | None = None,
        max_depth: int = 60,
        max_nodes: int | None = None,
        exact_empties: int = 0,
        wdl_empties: int = 0,
        cancelled: Callable[[], bool] | None = None,
        on_iteration: Callable[[SearchResult], None] | None = None,
        analyse: bool = False,
        started: float | None = None,
    ) -> SearchResult:
        """Best move for the side owning `own`.

        Iterative deepening until `max_depth`, `max_nodes`, `time_limit`
        seconds or `cancelled()`; when at most `exact_empties` squares are
        empty, the exact solver then plays it out to the end. With more
        empties but at most `wdl_empties`, the solver only decides win, draw
        or loss (far cheaper) and the first winning move is played. `analyse`
        scores every root move in a full window (slower, for hints).
        The clock runs from `started` (a time.perf_counter() reading) when
        given, so that a caller's own set-up counts against the budget.
        """
        if started is None:
            started = time.perf_counter()
        # The hard stop leaves a little of the budget for unwinding and answering.
        deadline = started + time_limit * DEADLINE_SHARE if time_limit is not None else None
        # The search makes no reference cycles, only many small tuples: the
        # cyclic collector would just pause it (tens of ms on a big table).
        collecting = gc.isenabled()
        gc.disable()
        try:
            return self._search(
                own,
                opp,
                started,
                deadline,
                time_limit,
                max_depth,
                max_nodes,
                exact_empties,
                wdl_empties,
                cancelled,
                on_iteration,
                analyse,
            )
        finally:
            if collecting:
                gc.enable()

    def _search(
        self,
        own,
        opp,
        started,
        deadline,
        time_limit,
        max_depth,
        max_nodes,
        exact_empties,
        wdl_empties,
        cancelled,
        on_iteration,
        analyse,
    ) -> SearchResult:
        runner = _Run(self, own, opp, deadline, max_nodes, cancelled)
        empties = 64 - (own | opp).bit_count()
        moves = legal_moves(own, opp)
        if not moves:
            return SearchResult(None, 0, 0, 0)
        root = [RootMove(sq) for sq in runner.order_root(moves)]
        best = SearchResult(root[0].square, 0, 0, 0, completed=False)
        solve_now = empties <= exact_empties
        # Win, draw or loss only (never when analysing: hints show margins).
        wdl_now = not solve_now and not analyse and empties <= wdl_empties
        # Before an exact solve that may not finish in time, a midgame search
        # with a quarter of the budget gives a fallback move and a root order.
        midgame_depth = max_depth
        midgame_deadline = deadline
        if solve_now or wdl_now:
            if empties <= 10:
                midgame_depth = 0
            elif deadline is None:
                midgame_depth = min(max_depth, 4)
            else:
                midgame_deadline = started + time_limit * SOLVE_FALLBACK_SHARE
        try:
            for depth in range(1, min(midgame_depth, empties) + 1):
                iteration_started = time.perf_counter()
                score = runner.root(root, depth, analyse)
                best = SearchResult(
                    root[0].square,
                    score,
                    depth,
                    runner.total_nodes(),
                    scores={m.square: m.score for m in root} if analyse else {},
                )
                if on_iteration:
                    on_iteration(best)
                if abs(score) >= WIN:
                    break  # a forced end was found: deeper search changes nothing
                if midgame_deadline is not None:
                    now = time.perf_counter()
                    spent = now - iteration_started
                    # Each depth costs a few times the last: do not start one
                    # that would mostly be thrown away.
                    if now + 2.0 * spent > midgame_deadline:
                        break
            if solve_now:
                score = runner.solve_root(root, analyse)
                best = SearchResult(
                    root[0].square,
                    score * SCALE,
                    empties,
                    runner.total_nodes(),
                    exact=True,
                    scores={m.square: m.score * SCALE for m in root} if analyse else {},
                )
                if on_iteration:
                    on_iteration(best)
            elif wdl_now:
                move, bound = runner.wdl_root(root)
                # A proven result; the margin is at least `bound` for a win, at most for a loss.
                if bound > 0:
                    score = WIN + bound * SCALE
                elif bound < 0:
                    score = -WIN + bound * SCALE
                else:
                    score = 0
                best = SearchResult(move, score, empties, runner.total_nodes())
                if on_iteration:
                    on_iteration(best)
        except _Stop:
            partial = runner.partial_best
            if partial is not None and not best.exact:
                best = SearchResult(
                    partial,
                    best.score,
                    best.depth,
                    runner.total_nodes(),
                    scores=best.scores,
                    completed=best.completed,
                )
        best.nodes = runner.total_nodes()
        return best

    def solve(self, own: int, opp: int, alpha: int = -64, beta: int = 64) -> int:
        """Exact final margin in discs (WOF counting) for the side to move
        within (alpha, beta); no clock. For tests and benchmarks."""
        runner = _Run(self, own, opp, None, None, None)
        return runner.solver(own, opp, alpha, beta, False)


class _Run:
    """One search: its counters, limits and transposition tables."""

    def __init__(self, engine, own, opp, deadline, max_nodes, cancelled):
        self.nodes = 0
        self.partial_best: int | None = None
        self.tt: dict[int, tuple] = {}
        self.history = [0] * 64
        anti = engine.anti
        evaluate = engine.evaluate
        stable_edges = engine.stable_edges
        FL = engine.flips
        tt = self.tt
        history = self.history
        lm = legal_moves
        classes = SQUARE_CLASSES
        node_cap = max_nodes if max_nodes is not None else 1 << 62
        counter = self.counter = [0]  # nodes since the last check, in a cell for speed

        def check():
            # Every CHECK_EVERY nodes: the clock, the node budget, the cancel flag.
            self.nodes += counter[0]
            counter[0] = 0
            if self.nodes >= node_cap:
                raise _Stop
            if deadline is not None and time.perf_counter() >= deadline:
                raise _Stop
            if cancelled is not None and cancelled():
                raise _Stop
            if len(tt) > TT_LIMIT:
                tt.clear()
            if len(solver_tt) > TT_LIMIT:
                solver_tt.clear()

        solver, solver_tt = make_solver(anti, FL, stable_edges, counter, check, CHECK_EVERY)

        # -- midgame -----------------------------------------------------------

        def negamax(own, opp, depth, alpha, beta):
            counter[0] += 1
            if counter[0] >= CHECK_EVERY:
                check()
            if depth <= 0:
                return evaluate(own, opp)
            moves = lm(own, opp)
            if not moves:
                if not lm(opp, own):
                    return _terminal(own, opp, anti)
                return -negamax(opp, own, depth, -beta, -alpha)
            key = own << 64 | opp
            entry = tt.get(key)
            tt_move = -1
            if entry is not None:
                e_depth, lower, upper, tt_move = entry
                if e_depth >= depth:
                    if lower >= beta:
                        return lower
                    if upper <= alpha:
                        return upper
                    if lower == upper:
                        return lower
            if depth == 1:
                # Leaf parents: evaluate the children in place.
                best = -INF
                for sq in _static_order(moves, tt_move, classes):
                    f = FL[sq](own, opp)
                    counter[0] += 1
                    v = -evaluate(opp ^ f, own | f | (1 << sq))
                    if v > best:
                        best = v
                        best_sq = sq
                        if v >= beta:
                            break
                _store(key, 1, best, alpha, beta, best_sq)
                return best
            if depth >= ORDER_DEPTH:
                order = _mobility_order(own, opp, moves, tt_move)
            else:
                order = _static_order(moves, tt_move, classes)
            best = -INF
            best_sq = order[0]
            a = alpha
            first = True
            for sq in order:
                f = FL[sq](own, opp)
                n_own = opp ^ f
                n_opp = own | f | (1 << sq)
                if first:
                    v = -negamax(n_own, n_opp, depth - 1, -beta, -a)
                    first = False
                else:
                    v = -negamax(n_own, n_opp, depth - 1, -a - 1, -a)
                    if a < v < beta:
                        v = -negamax(n_own, n_opp, depth - 1, -beta, -v)
                if v > best:
                    best = v
                    best_sq = sq
                    if v > a:
                        a = v
                        if v >= beta:
                            history[sq] += depth * depth
                            break
            _store(key, depth, best, alpha, beta, best_sq)
            return best

        def _store(key, depth, best, alpha, beta, best_sq):
            if best <= alpha:
                tt[key] = (depth, -INF, best, best_sq)
            elif best >= beta:
                tt[key] = (depth, best, INF, best_sq)
            else:
                tt[key] = (depth, best, best, best_sq)

        def _mobility_order(own, opp, moves, tt_move):
            # Fewest replies first (corners count double), history breaks ties.
            keyed = []
            m = moves
            while m:
                b = m & -m
                m ^= b
                sq = b.bit_length() - 1
                if sq == tt_move:
                    continue
                f = FL[sq](own, opp)
                replies = lm(opp ^ f, own | f | b)
                keyed.append(
                    (
                        (replies.bit_count() + (replies & CORNERS).bit_count()) * 4096
                        - history[sq]
                        - (4096 if b & CORNERS else 0),
                        sq,
                    )
                )
            keyed.sort()
            order = [sq for _, sq in keyed]
            if tt_move >= 0 and moves >> tt_move & 1:
                order.insert(0, tt_move)
            return order

        # -- roots ---------------------------------------------------------------

        def root(moves: list[RootMove], depth: int, analyse: bool) -> int:
            """One iteration at the root: PVS (or full windows to score every
            move when analysing); reorders `moves` best first."""
            return _root(moves, lambda o, p, a, b: negamax(o, p, depth - 1, a, b), analyse, -INF)

        def solve_root(moves: list[RootMove], analyse: bool) -> int:
            return _root(moves, lambda o, p, a, b: solver(o, p, a, b, False), analyse, -65)

        def _root(moves, child, analyse, worst):
            self.partial_best = None
            best = worst
            for i, rm in enumerate(moves):
                sq = rm.square
                f = FL[sq](own, opp)
                n_own = opp ^ f
                n_opp = own | f | (1 << sq)
                if i == 0 or analyse:
                    v = -child(n_own, n_opp, -INF, INF)
                else:
                    # Null window: is this move better than the best so far?
                    v = -child(n_own, n_opp, -best - 1, -best)
                    if v > best:
                        v = -child(n_own, n_opp, -INF, -best)
                rm.score = v
                if v > best:
                    best = v
                    self.partial_best = sq
            # Stable sort: best first, ties keep the previous order.
            moves.sort(key=lambda rm: -rm.score)
            return best

        def wdl_root(moves: list[RootMove]) -> tuple[int, int]:
            """Win, draw or loss: the first move (in `moves` order) with the
            best outcome, and a bound on the margin: at least it for a win,
            at most it for a loss."""
            self.partial_best = None
            best_sq = moves[0].square
            best = -65  # any value <= -1 is a loss (an upper bound), >= 1 a win
            for rm in moves:
                sq = rm.square
                f = FL[sq](own, opp)
                # Window (-1, 1) until a draw is found, then (0, 1).
                alpha = -1 if best < 0 else 0
                v = -solver(opp ^ f, own | f | (1 << sq), -1, -alpha, False)
                if v > best:
                    if v >= 0 or best == -65:
                        # A better outcome; among losses the first is kept.
                        best_sq = sq
                        self.partial_best = sq
                    best = v
                    if v >= 1:
                        break  # a win: no need to look further
            return best_sq, best

        def order_root(moves: int) -> list[int]:
            return _mobility_order(own, opp, moves, -1)

        self.total_nodes = lambda: self.nodes + counter[0]
        self.root = root
        self.solve_root = solve_root
        self.wdl_root = wdl_root
        self.order_root = order_root
        self.solver = solver
        self.negamax = negamax


def _terminal(own: int, opp: int, anti: bool) -> int:
    margin = terminal_score(own, opp, anti)
    return margin * SCALE + (WIN if margin > 0 else -WIN if margin < 0 else 0)


def _static_order(moves: int, tt_move: int, classes: tuple[int, ...]) -> list[int]:
    order = []
    if tt_move >= 0 and moves >> tt_move & 1:
        order.append(tt_move)
        moves ^= 1 << tt_move
    for cls in classes:
        m = moves & cls
        while m:
            b = m & -m
            order.append(b.bit_length() - 1)
            m ^= b
    return order
