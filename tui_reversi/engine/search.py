# mypyc: compiled
"""The hard and expert engine: alpha-beta search on raw bitboards.

Midgame: negamax with principal-variation search, iterative deepening under
a clock, a transposition table, and move ordering: the table's move first,
then at deep nodes the fewest replies left to the opponent and the fewest
empty squares next to our discs, with history scores (cutoffs so far, by
square) as a tie-break, and a static square order near the leaves. Leaf
parents evaluate their children in place. With an engine's ProbCut
thresholds (probcut.py), null-window nodes 3 to 14 plies deep are first
searched shallowly and cut when that search says, with the confidence
asked for, that the deep one would fail high or low (Multi-ProbCut).

Endgame: when few squares are empty, the exact solver (endgame.py) plays
the position out to the last disc under the same clock and node counter;
its root converges on the score by null-window tests from the midgame
search's guess (`converge_root`), or, for the analysis, solves every move
in a full window.

A search's state is one `SearchRun` (a subclass of the endgame solver, so
they share the node counter and the limits); the hot loops work on plain
ints, with no per-node objects beyond the small lists needed to order moves.
The search is deterministic: the same position, limits and variant give the
same moves, scores and node counts, compiled or interpreted; only the clock
(a time limit) or a cancel can end it at a different point.

Compiled with mypyc where a C compiler exists: endgame.py's header says
what that asks of the code.
"""

from __future__ import annotations

import gc
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Final

from mypy_extensions import i64

from ..core.bitboard import (
    ALL,
    CORNER_SQUARES,
    ONE,
    SQUARE_FROM_IMAGE,
    canonical_image,
    flip_mask,
    lowest_square,
    move_mask,
    native,
    popcount,
    unsigned,
)
from .endgame import CHECK_EVERY, EndgameSolver, SearchStopped, adjacent
from .evaluation import SCALE, WIN, Evaluator, final_margin, make_evaluator
from .squares import SQUARE_CLASSES
from .transposition import (
    EXACT,
    LOWER,
    TT_BITS,
    UPPER,
    TranspositionTable,
    entry_bound,
    entry_depth,
    entry_move,
    entry_score,
    midgame_entry,
)

__all__ = ["CHECK_EVERY", "Engine", "ProbCut", "RootMove", "SearchResult"]

INF: Final = 10 * WIN  # beyond every score (and within transposition.SCORE_BIAS)
SOLVE: Final = -1  # a child "depth" at the root: solve it exactly
ORDER_DEPTH: Final = 4  # midgame nodes at least this deep order moves by mobility
# Their order keys (lower first): per reply left to the opponent, and per
# empty square next to our discs after the move, a quarter of a reply. The
# latter took 0.95x the nodes to depth 11 (bench/probcut.py's positions);
# parity (odd quadrants first) and stable edge discs saved less than they cost.
REPLY_KEY: Final = 4096
POTENTIAL_KEY: Final = 1024
# Of the budget, when the search stops at the latest: the rest is for the
# last clock check, unwinding and a busy machine's scheduling delays, so that
# a move never takes more than its budget + 10 %.
DEADLINE_SHARE: Final = 0.93
SOLVE_FALLBACK_SHARE: Final = 0.25  # of the budget, for the midgame search before a solve
# A midgame score at least this many discs either way: its best move leads an exact solve.
DECIDED_MARGIN: Final = 32
# The exact solve's first null-window test at the root: is the margin at
# least this many discs below the midgame search's score? Most often it is
# (a cheap proof: one move that reaches it), and the tests step up from there.
GUESS_BELOW: Final = 2
# Multi-ProbCut (probcut.py) at nodes this deep: shallower ones cost less to
# search than to guess, and deeper ones than the tables' bound are not cut.
PROBCUT_MIN_DEPTH: Final = 3
PROBCUT_MAX_DEPTH: Final = 14
PROBCUT_A_SCALE: Final = 1024  # the slope a as an integer fraction: cut tests are exact


@dataclass
class RootMove:
    """A legal move at the root and its score in the last iteration."""

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


@dataclass(frozen=True)
class ProbCut:
    """Multi-ProbCut's thresholds at one selectivity t (probcut.py makes
    them from the fitted parameters), indexed by
    empties * (PROBCUT_MAX_DEPTH + 1) + depth: the shallow depth (0: no cut),
    the slope a * PROBCUT_A_SCALE, and t sigma - b (`above`) and
    -t sigma - b (`below`) in score units. A node cuts at beta when its
    shallow score is at least (beta + above) / a, at alpha when it is at
    most (alpha + below) / a."""

    t: float
    shallow: tuple[int, ...]
    slope: tuple[int, ...]
    above: tuple[int, ...]
    below: tuple[int, ...]


class Engine:
    """Searches positions of one variant. One engine may run many searches
    (one at a time); each search starts from an empty transposition table."""

    def __init__(
        self,
        anti: bool = False,
        evaluator: Evaluator | None = None,
        probcut: ProbCut | None = None,
    ) -> None:
        self.anti = anti
        # The hand-made evaluation unless another is given (the trained one:
        # engine/pattern_weights.py).
        self.evaluator = evaluator if evaluator is not None else make_evaluator(anti)
        # Multi-ProbCut's thresholds (probcut.py), only for the evaluation they
        # were fitted with; None: every node is searched to its full depth.
        self.probcut = probcut

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
        # The search makes no reference cycles, only many small objects: the
        # cyclic collector would just pause it (tens of ms on a big table).
        collecting = gc.isenabled()
        gc.disable()
        # The search runs on the position's canonical image, so that all eight
        # images of a position get the same values, moves and node counts at
        # every depth: move ordering and ProbCut's cuts depend on the order
        # squares are tried in, and would otherwise tell the images apart.
        own, opp, image = canonical_image(own, opp)
        told = on_iteration
        if told is not None and image:
            on_iteration = lambda found: told(_from_image(found, image))  # noqa: E731
        try:
            found = self._search(
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
        return _from_image(found, image) if image else found

    def _search(
        self,
        own: int,
        opp: int,
        started: float,
        deadline: float | None,
        time_limit: float | None,
        max_depth: int,
        max_nodes: int | None,
        exact_empties: int,
        wdl_empties: int,
        cancelled: Callable[[], bool] | None,
        on_iteration: Callable[[SearchResult], None] | None,
        analyse: bool,
    ) -> SearchResult:
        empties = 64 - (own | opp).bit_count()
        solve_now = empties <= exact_empties
        # Win, draw or loss only (never when analysing: hints show margins).
        wdl_now = not solve_now and not analyse and empties <= wdl_empties
        runner = SearchRun(
            self, own, opp, deadline, max_nodes, cancelled, solves=solve_now or wdl_now
        )
        moves = move_mask(runner.own, runner.opp)
        if not moves:
            return SearchResult(None, 0, 0, 0)
        root = [RootMove(sq) for sq in runner.order_root(moves)]
        best = SearchResult(root[0].square, 0, 0, 0, completed=False)
        # Before an exact solve that may not finish in time, a midgame search
        # with a quarter of the budget gives a fallback move and a root order.
        midgame_depth = max_depth
        midgame_deadline = deadline
        decided = False  # the midgame search proved a result or expects a lopsided one
        if solve_now or wdl_now:
            if empties <= 10:
                midgame_depth = 0
            elif deadline is None or time_limit is None:
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
                decided = abs(score) >= DECIDED_MARGIN * SCALE
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
                # Without a clock the midgame went 4 plies at most: the
                # solver's own keys order the root better (FFO #42: 17 M
                # nodes against 53 M), but in a lopsided position its best
                # move, the quickest win, stays first (FFO #59: 780 nodes,
                # not over 90 M). With a clock, its deeper order stays.
                if deadline is None or empties <= 10:
                    runner.order_by_solver(root, 1 if decided else 0)
                if analyse:
                    score = runner.solve_root(root, True)
                else:
                    guess = _in_discs(best.score) if best.depth > 0 else runner.static_guess()
                    score = runner.converge_root(root, guess - GUESS_BELOW)
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
        except SearchStopped:
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
        own, opp, _ = canonical_image(own, opp)  # as search does: one value for all images
        runner = SearchRun(self, own, opp, None, None, None, solves=True)
        return runner.solve(runner.own, runner.opp, alpha, beta, False)


class SearchRun(EndgameSolver):
    """One search: the midgame negamax and its roots on top of the exact
    solver, sharing its node counter and limits; its transposition table and
    history scores live as long as the search."""

    def __init__(
        self,
        engine: Engine,
        own: int,
        opp: int,
        deadline: float | None,
        max_nodes: int | None,
        cancelled: Callable[[], bool] | None,
        solves: bool,
    ) -> None:
        super().__init__(engine.anti, deadline, max_nodes, cancelled, engine.evaluator, solves)
        self.own = native(own)  # the root position, as words
        self.opp = native(opp)
        self.partial_best: int | None = None
        self.tt = TranspositionTable(TT_BITS)
        self.history = [0] * 64
        cuts = engine.probcut
        self.cuts = cuts is not None
        self.cut_shallow: list[int] = list(cuts.shallow) if cuts is not None else []
        self.cut_slope: list[int] = list(cuts.slope) if cuts is not None else []
        self.cut_above: list[int] = list(cuts.above) if cuts is not None else []
        self.cut_below: list[int] = list(cuts.below) if cuts is not None else []
        self.probing = 0  # > 0 inside a ProbCut's shallow search: no cut within it

    # -- midgame -----------------------------------------------------------------

    def negamax(self, own: i64, opp: i64, depth: int, alpha: int, beta: int) -> int:
        self.pending += 1
        if self.pending >= CHECK_EVERY:
            self.check()
        if depth <= 0:
            return self.evaluator.evaluate(own, opp)
        moves = move_mask(own, opp)
        if not moves:
            if not move_mask(opp, own):
                return _terminal(own, opp, self.anti)
            return -self.negamax(opp, own, depth, -beta, -alpha)
        entry = self.tt.get(own, opp)
        tt_move: i64 = -1
        if entry != 0:
            tt_move = entry_move(entry)
            if entry_depth(entry) >= depth:
                score = entry_score(entry)
                bound = entry_bound(entry)
                if bound == EXACT:
                    return score
                if bound == LOWER:
                    if score >= beta:
                        return score
                elif score <= alpha:
                    return score
        if (
            self.cuts
            and PROBCUT_MIN_DEPTH <= depth <= PROBCUT_MAX_DEPTH
            and beta == alpha + 1
            and self.probing == 0
            and alpha > -WIN
            and beta < WIN
        ):
            # Multi-ProbCut, at null-window nodes that a search to the end
            # would not settle: a shallow search that proves the deep score
            # beyond the window with the level's confidence ends the node.
            empties = 64 - popcount(own | opp)
            if depth < empties:
                i = empties * (PROBCUT_MAX_DEPTH + 1) + depth
                cut = self.probe(own, opp, i, alpha, beta)
                if cut != 0:
                    score = beta if cut > 0 else alpha
                    self.store(own, opp, depth, score, alpha, beta, tt_move)
                    return score
        if depth == 1:
            return self.leaf_parent(own, opp, moves, tt_move, alpha, beta)
        if depth >= ORDER_DEPTH:
            order = self.mobility_order(own, opp, moves, tt_move)
        else:
            order = _static_order(moves, tt_move)
        best = -INF
        best_sq = order[0]
        a = alpha
        first = True
        for sq in order:
            f = flip_mask(own, opp, sq)
            n_own = opp ^ f
            n_opp = own | f | (ONE << sq)
            if first:
                v = -self.negamax(n_own, n_opp, depth - 1, -beta, -a)
                first = False
            else:
                v = -self.negamax(n_own, n_opp, depth - 1, -a - 1, -a)
                if a < v < beta:
                    v = -self.negamax(n_own, n_opp, depth - 1, -beta, -v)
            if v > best:
                best = v
                best_sq = sq
                if v > a:
                    a = v
                    if v >= beta:
                        self.history[sq] += depth * depth
                        break
        self.store(own, opp, depth, best, alpha, beta, best_sq)
        return best

    def leaf_parent(
        self, own: i64, opp: i64, moves: i64, tt_move: i64, alpha: int, beta: int
    ) -> int:
        """A node one ply deep: its children evaluated in place, in
        `_static_order`'s order (the table's move, then by square class)
        without making the list, as most nodes are these."""
        evaluator = self.evaluator
        best = -INF
        best_sq: i64 = -1
        if tt_move >= 0 and moves >> tt_move & 1:
            b = ONE << tt_move
            f = flip_mask(own, opp, tt_move)
            self.pending += 1
            best = -evaluator.evaluate(opp ^ f, own | f | b)
            best_sq = tt_move
            if best >= beta:
                self.store(own, opp, 1, best, alpha, beta, best_sq)
                return best
            moves ^= b
        for cls in SQUARE_CLASSES:
            m = moves & cls
            while m:
                b = m & -m
                m ^= b
                sq = lowest_square(b)
                f = flip_mask(own, opp, sq)
                self.pending += 1
                v = -evaluator.evaluate(opp ^ f, own | f | b)
                if v > best:
                    best = v
                    best_sq = sq
                    if v >= beta:
                        self.store(own, opp, 1, best, alpha, beta, best_sq)
                        return best
        self.store(own, opp, 1, best, alpha, beta, best_sq)
        return best

    def probe(self, own: i64, opp: i64, i: int, alpha: int, beta: int) -> int:
        """ProbCut at the node `own`, `opp` (its thresholds at index `i`):
        1 when the shallow search says the deep score is at least `beta`,
        -1 when at most `alpha`, 0 when it cannot tell (or has no pair)."""
        shallow = self.cut_shallow[i]
        if shallow == 0:
            return 0
        slope = self.cut_slope[i]
        self.probing += 1
        cut = 0
        # deep >= beta + t sigma  <=>  shallow >= (beta + t sigma - b) / a, rounded up.
        bound = -((-(beta + self.cut_above[i]) * PROBCUT_A_SCALE) // slope)
        if self.negamax(own, opp, shallow, bound - 1, bound) >= bound:
            cut = 1
        else:
            # deep <= alpha - t sigma  <=>  shallow <= (alpha - t sigma - b) / a, rounded down.
            bound = (alpha + self.cut_below[i]) * PROBCUT_A_SCALE // slope
            if self.negamax(own, opp, shallow, bound, bound + 1) <= bound:
                cut = -1
        self.probing -= 1
        return cut

    def store(
        self, own: i64, opp: i64, depth: int, best: int, alpha: int, beta: int, best_sq: i64
    ) -> None:
        bound = UPPER if best <= alpha else LOWER if best >= beta else EXACT
        self.tt.put(own, opp, midgame_entry(best, bound, depth, best_sq))

    def mobility_order(self, own: i64, opp: i64, moves: i64, tt_move: i64) -> list[i64]:
        # Fewest replies first (corners count double), then fewest empty
        # squares next to our discs (where the opponent may later play);
        # history breaks ties.
        history = self.history
        empty = ~(own | opp) & ALL
        keyed: list[tuple[int, i64]] = []
        m = moves
        while m:
            b = m & -m
            m ^= b
            sq = lowest_square(b)
            if sq == tt_move:
                continue
            f = flip_mask(own, opp, sq)
            mine = own | f | b
            replies = move_mask(opp ^ f, mine)
            keyed.append(
                (
                    (popcount(replies) + popcount(replies & CORNER_SQUARES)) * REPLY_KEY
                    + popcount(adjacent(mine) & empty & ~b) * POTENTIAL_KEY
                    - history[sq]
                    - (REPLY_KEY if b & CORNER_SQUARES else 0),
                    sq,
                )
            )
        keyed.sort()
        order = [sq for _, sq in keyed]
        if tt_move >= 0 and moves >> tt_move & 1:
            order.insert(0, tt_move)
        return order

    # -- roots -------------------------------------------------------------------

    def root(self, moves: list[RootMove], depth: int, analyse: bool) -> int:
        """One iteration at the root: PVS (or full windows to score every
        move when analysing); reorders `moves` best first."""
        return self.search_root(moves, depth - 1, analyse, -INF)

    def solve_root(self, moves: list[RootMove], analyse: bool) -> int:
        """The exact margin, each root move solved (-1 plies: the solver)."""
        return self.search_root(moves, SOLVE, analyse, -65)

    def converge_root(self, moves: list[RootMove], first_test: int) -> int:
        """The exact margin by null-window tests at the root, the first
        asking whether it is at least `first_test` (rounded down to even),
        each next one just beyond the bound the last proved, until the
        bounds meet. Puts a
        best move first in `moves` with the margin as its score; the others
        keep their last scores, bounds only. Only the best move's value is
        known: the analysis, which needs every move's, uses solve_root."""
        self.partial_best = None
        # The margin is at least lower and at most upper. Margins are even
        # (the empties go to the winner), so are the bounds and the tests.
        lower = -64
        upper = 64
        test = min(max(first_test - (first_test & 1), lower + 2), upper)
        while lower < upper:
            value, index = self.root_test(moves, test)
            if value >= test:
                lower = value + (value & 1)
                moves.insert(0, moves.pop(index))
                self.partial_best = moves[0].square
                test = lower + 2
            else:
                upper = value - (value & 1)
                test = upper
        moves[0].score = lower
        return lower

    def root_test(self, moves: list[RootMove], test: int) -> tuple[int, int]:
        """Is the root's margin at least `test`? A null-window search of its
        moves in order: the value and index of the first move proven to
        reach it, else the best upper bound found (fail-soft) and -1."""
        own, opp = self.own, self.opp
        best = -64
        for i, rm in enumerate(moves):
            sq = rm.square
            f = flip_mask(own, opp, sq)
            v = -self.solve(opp ^ f, own | f | (ONE << sq), -test, 1 - test, False)
            rm.score = v
            if v >= test:
                return v, i
            if v > best:
                best = v
        return best, -1

    def static_guess(self) -> int:
        """The evaluation's margin in discs, for a solve without a midgame search."""
        return _in_discs(self.evaluator.evaluate(self.own, self.opp))

    def order_by_solver(self, moves: list[RootMove], kept: int) -> None:
        """Reorders `moves` after the first `kept` as the solver orders a
        node's moves (a stable sort by its order key)."""
        own, opp = self.own, self.opp
        empties = 64 - int(popcount(own | opp))
        keyed: list[tuple[int, int]] = []
        for i in range(kept, len(moves)):
            sq = moves[i].square
            b = ONE << sq
            f = flip_mask(own, opp, sq)
            keyed.append((self.order_key(opp ^ f, own | f | b, b, empties), i))
        keyed.sort()
        moves[kept:] = [moves[i] for _, i in keyed]

    def child(self, own: i64, opp: i64, depth: int, alpha: int, beta: int) -> int:
        if depth == SOLVE:
            return self.solve(own, opp, alpha, beta, False)
        return self.negamax(own, opp, depth, alpha, beta)

    def search_root(self, moves: list[RootMove], depth: int, analyse: bool, worst: int) -> int:
        self.partial_best = None
        own, opp = self.own, self.opp
        best = worst
        # Analysing, moves to symmetric images of one position (the four first
        # moves, say) are one move: searched once, so that they show one value.
        seen: dict[tuple[int, int], int] = {}
        for i, rm in enumerate(moves):
            sq = rm.square
            f = flip_mask(own, opp, sq)
            n_own = opp ^ f
            n_opp = own | f | (ONE << sq)
            if analyse:
                c_own, c_opp, _ = canonical_image(unsigned(n_own), unsigned(n_opp))
                known = seen.get((c_own, c_opp))
                if known is None:
                    v = -self.child(n_own, n_opp, depth, -INF, INF)
                    seen[c_own, c_opp] = v
                else:
                    v = known
            elif i == 0:
                v = -self.child(n_own, n_opp, depth, -INF, INF)
            else:
                # Null window: is this move better than the best so far?
                v = -self.child(n_own, n_opp, depth, -best - 1, -best)
                if v > best:
                    v = -self.child(n_own, n_opp, depth, -INF, -best)
            rm.score = v
            if v > best:
                best = v
                self.partial_best = sq
        # Stable sort: best first, ties keep the previous order.
        moves.sort(key=_by_score)
        return best

    def wdl_root(self, moves: list[RootMove]) -> tuple[int, int]:
        """Win, draw or loss: the first move (in `moves` order) with the
        best outcome, and a bound on the margin: at least it for a win,
        at most it for a loss."""
        self.partial_best = None
        own, opp = self.own, self.opp
        best_sq = moves[0].square
        best = -65  # any value <= -1 is a loss (an upper bound), >= 1 a win
        for rm in moves:
            sq = rm.square
            f = flip_mask(own, opp, sq)
            # Window (-1, 1) until a draw is found, then (0, 1).
            alpha = -1 if best < 0 else 0
            v = -self.solve(opp ^ f, own | f | (ONE << sq), -1, -alpha, False)
            if v > best:
                if v >= 0 or best == -65:
                    # A better outcome; among losses the first is kept.
                    best_sq = sq
                    self.partial_best = sq
                best = v
                if v >= 1:
                    break  # a win: no need to look further
        return best_sq, best

    def order_root(self, moves: i64) -> list[i64]:
        return self.mobility_order(self.own, self.opp, moves, -1)


def _from_image(found: SearchResult, image: int) -> SearchResult:
    """A search of the symmetric image number `image`, on the real board."""
    back = SQUARE_FROM_IMAGE[image]
    return SearchResult(
        back[found.move] if found.move is not None else None,
        found.score,
        found.depth,
        found.nodes,
        found.exact,
        {back[square]: score for square, score in found.scores.items()},
        found.completed,
    )


def _in_discs(score: int) -> int:
    """A midgame score as a margin in discs (a proven end: its margin)."""
    if score >= WIN:
        score -= WIN
    elif score <= -WIN:
        score += WIN
    return max(-64, min(64, score // SCALE))


def _by_score(rm: RootMove) -> int:
    return -rm.score


def _terminal(own: i64, opp: i64, anti: bool) -> int:
    margin = final_margin(own, opp, anti)
    return margin * SCALE + (WIN if margin > 0 else -WIN if margin < 0 else 0)


def _static_order(moves: i64, tt_move: i64) -> list[i64]:
    order: list[i64] = []
    if tt_move >= 0 and moves >> tt_move & 1:
        order.append(tt_move)
        moves ^= ONE << tt_move
    for cls in SQUARE_CLASSES:
        m = moves & cls
        while m:
            b = m & -m
            order.append(lowest_square(b))
            m ^= b
    return order
