# mypyc: compiled
"""The exact endgame solver: plays to the last disc and returns the final
margin in discs (WOF counting) for the side to move.

From SHALLOW_EMPTIES up it generates moves and orders them fastest first
(fewest replies for the opponent), with a transposition table and a
stability cutoff. Below that it walks the empty squares instead of
generating moves, odd regions (quadrants) first, then by square class,
skipping squares with no opponent disc next to them; at four empties the
order is fixed once and the squares are passed down by hand to dedicated
three-, two- and one-empty solvers that build no lists at all.

`EndgameSolver` also keeps the node counter and the limits (clock, node
budget, cancel flag) of a whole search: the midgame search (search.py) is a
subclass, so that both count nodes and stop together.

Compiled with mypyc where a C compiler exists (see setup.py), and run as
plain Python otherwise, with identical results. What mypyc needs, here and
in the other hot modules (core/bitboard.py, search.py, evaluation.py,
squares.py, patterns.py, transposition.py): every function and attribute
typed, attributes assigned in `__init__`, module constants marked `Final`
(mypyc then inlines them), no closures or lambdas in the hot paths (methods
on a class instead), and nothing that only exists at run time (exec'd code
is called as a slow Python function). Boards are i64 words, machine words
when compiled: bitboard.py's header says how they are handled so that both
builds give the same results.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Final

from mypy_extensions import i64

from ..core.bitboard import ALL, CORNER_SQUARES, ONE, flip_mask, lowest_square, move_mask, popcount
from .evaluation import final_margin, make_stable_edge_counter
from .squares import NEIGHBOURS, QUADRANTS, SQUARE_CLASSES
from .transposition import (
    TT_LIMIT,
    entry_move,
    solver_entry,
    solver_lower,
    solver_upper,
    tt_key,
)

# Per square, its quadrant's bit in a parity word (a bit per quadrant with an
# odd number of empties); per parity word, the squares of its odd quadrants.
QUADRANT_BIT: Final[list[int]] = [
    next(1 << i for i, quadrant in enumerate(QUADRANTS) if quadrant >> sq & 1) for sq in range(64)
]
ODD_REGIONS: Final[list[i64]] = [0] * 16
for _parity in range(16):
    for _i in range(4):
        if _parity >> _i & 1:
            ODD_REGIONS[_parity] |= QUADRANTS[_i]

# Measured with bench/endgame.py: generating and ordering moves costs more than
# it saves below 8 empties; the table pays from 8 up.
SHALLOW_EMPTIES: Final = 8  # the solver walks empty squares below this
SOLVER_TT_EMPTIES: Final = 8  # the solver keeps a transposition table from here up
ETC_EMPTIES: Final = 11  # children are looked up in the table before searching from here up

# Nodes between looks at the clock and the cancel flag. At 256 the longest
# gap between looks was 17 ms on a loaded machine; 128 halves it, at a cost
# too small to measure.
CHECK_EVERY: Final = 128
NO_NODE_CAP: Final = 1 << 62


class SearchStopped(Exception):
    """Raised inside a search when time, nodes or a cancel end it."""


class EndgameSolver:
    """One search's node counter and limits, and the exact solver.

    `solve(own, opp, alpha, beta, passed)` is the exact margin within
    (alpha, beta). Every node adds to `pending`; every CHECK_EVERY nodes
    `check()` looks at the limits and raises SearchStopped when one is hit.
    """

    def __init__(
        self,
        anti: bool,
        deadline: float | None = None,
        max_nodes: int | None = None,
        cancelled: Callable[[], bool] | None = None,
    ) -> None:
        self.anti = anti
        self.sign = -1 if anti else 1  # anti counts the margin the other way
        self.nodes = 0  # counted at the last check
        self.pending = 0  # nodes since the last check
        self.node_cap = max_nodes if max_nodes is not None else NO_NODE_CAP
        self.deadline = deadline
        self.cancelled = cancelled
        self.solver_tt: dict[int, int] = {}
        self.stable_edges = make_stable_edge_counter()

    def total_nodes(self) -> int:
        return self.nodes + self.pending

    def check(self) -> None:
        """The clock, the node budget, the cancel flag; keeps tables bounded."""
        self.nodes += self.pending
        self.pending = 0
        if self.nodes >= self.node_cap:
            raise SearchStopped
        if self.deadline is not None and time.perf_counter() >= self.deadline:
            raise SearchStopped
        if self.cancelled is not None and self.cancelled():
            raise SearchStopped
        self.trim_tables()

    def trim_tables(self) -> None:
        if len(self.solver_tt) > TT_LIMIT:
            self.solver_tt.clear()

    def parity_of(self, empty: i64) -> int:
        parity = 0
        for bit in range(4):
            if popcount(empty & QUADRANTS[bit]) & 1:
                parity |= 1 << bit
        return parity

    def solve(self, own: i64, opp: i64, alpha: int, beta: int, passed: bool) -> int:
        self.pending += 1
        if self.pending >= CHECK_EVERY:
            self.check()
        empty = ~(own | opp) & ALL
        e = popcount(empty)
        if e < SHALLOW_EMPTIES:
            return self.shallow_entry(own, opp, alpha, beta, empty, e)
        # Stability cutoff: discs that can never change hands cap our margin.
        if self.anti:
            if alpha >= 64 - 2 * popcount(own) and alpha >= 64 - 2 * self.stable_edges.count(
                own, opp
            ):
                return alpha
        elif alpha >= 64 - 2 * popcount(opp) and alpha >= 64 - 2 * self.stable_edges.count(
            opp, own
        ):
            return alpha
        moves = move_mask(own, opp)
        if not moves:
            if passed or not move_mask(opp, own):
                return final_margin(own, opp, self.anti)
            return -self.solve(opp, own, -beta, -alpha, True)
        key = tt_key(own, opp)
        tt_move: i64 = -1
        solver_tt = self.solver_tt
        if e >= SOLVER_TT_EMPTIES:
            entry = solver_tt.get(key)
            if entry is not None:
                lower = solver_lower(entry)
                upper = solver_upper(entry)
                tt_move = entry_move(entry)
                if lower >= beta:
                    return lower
                if upper <= alpha:
                    return upper
                if lower == upper:
                    return lower
                if lower > alpha:
                    alpha = lower
                if upper < beta:
                    beta = upper
        # Fastest first: the move leaving the opponent fewest replies.
        keyed: list[tuple[int, i64, i64, i64]] = []
        m = moves
        while m:
            b = m & -m
            m ^= b
            sq = lowest_square(b)
            f = flip_mask(own, opp, sq)
            n_own = opp ^ f
            n_opp = own | f | b
            if sq == tt_move:
                keyed.append((-1, sq, n_own, n_opp))
                continue
            if e >= ETC_EMPTIES:
                # Enhanced transposition cutoff: a child already known to
                # be bad enough for the opponent settles this node at once.
                child = solver_tt.get(tt_key(n_own, n_opp))
                if child is not None:
                    settled = -solver_upper(child)
                    if settled >= beta:
                        return settled
            replies = move_mask(n_own, n_opp)
            keyed.append(
                (
                    # Corners count double; taking one is worth half a reply.
                    popcount(replies) * 4
                    + popcount(replies & CORNER_SQUARES) * 2
                    - (2 if b & CORNER_SQUARES else 0),
                    sq,
                    n_own,
                    n_opp,
                )
            )
        keyed.sort()
        best = -65
        best_sq: i64 = -1
        a = alpha
        first = True
        if e > SHALLOW_EMPTIES:
            for _, sq, n_own, n_opp in keyed:
                if first:
                    v = -self.solve(n_own, n_opp, -beta, -a, False)
                    first = False
                else:
                    v = -self.solve(n_own, n_opp, -a - 1, -a, False)
                    if a < v < beta:
                        v = -self.solve(n_own, n_opp, -beta, -v, False)
                if v > best:
                    best = v
                    best_sq = sq
                    if v > a:
                        a = v
                        if v >= beta:
                            break
        else:
            # The children are shallow: no null windows, straight alpha-beta.
            parity = self.parity_of(empty)
            for _, sq, n_own, n_opp in keyed:
                child_parity = parity ^ QUADRANT_BIT[sq]
                v = -self.shallow(
                    n_own, n_opp, -beta, -a, empty ^ (ONE << sq), e - 1, child_parity, False
                )
                if v > best:
                    best = v
                    best_sq = sq
                    if v > a:
                        a = v
                        if v >= beta:
                            break
        if e >= SOLVER_TT_EMPTIES:
            if best <= alpha:
                solver_tt[key] = solver_entry(-64, best, best_sq)
            elif best >= beta:
                solver_tt[key] = solver_entry(best, 64, best_sq)
            else:
                solver_tt[key] = solver_entry(best, best, best_sq)
        return best

    def shallow_entry(self, own: i64, opp: i64, alpha: int, beta: int, empty: i64, e: int) -> int:
        # A search that starts with few empties (the deeper ones never do).
        if e >= 4:
            return self.shallow(own, opp, alpha, beta, empty, e, self.parity_of(empty), False)
        if e == 3:
            x = empty & -empty
            empty ^= x
            y = empty & -empty
            return self.solve3(
                own,
                opp,
                alpha,
                beta,
                lowest_square(x),
                lowest_square(y),
                lowest_square(empty ^ y),
                False,
            )
        if e == 2:
            x = empty & -empty
            return self.last2(
                own, opp, alpha, beta, lowest_square(x), lowest_square(empty ^ x), False
            )
        if e == 1:
            return self.last1(own, opp, lowest_square(empty))
        return final_margin(own, opp, self.anti)

    def shallow(
        self,
        own: i64,
        opp: i64,
        alpha: int,
        beta: int,
        empty: i64,
        e: int,
        parity: int,
        passed: bool,
    ) -> int:
        # From 4 empties up: try each empty square, odd regions first, each
        # region's squares by class. `parity`: a bit per odd quadrant.
        self.pending += 1
        if self.pending >= CHECK_EVERY:
            self.check()
        odd = ODD_REGIONS[parity] & empty
        best = -65
        if e == 4:
            # The last four keep this order down to the last disc.
            squares: list[i64] = []
            for region in (odd, empty ^ odd):
                for cls in SQUARE_CLASSES:
                    m = region & cls
                    while m:
                        b = m & -m
                        squares.append(lowest_square(b))
                        m ^= b
            w, x, y, z = squares
            for sq, r, s, t in ((w, x, y, z), (x, w, y, z), (y, w, x, z), (z, w, x, y)):
                if not opp & NEIGHBOURS[sq]:
                    continue  # no opponent disc next to it: nothing to flip
                f = flip_mask(own, opp, sq)
                if not f:
                    continue
                v = -self.solve3(opp ^ f, own | f | (ONE << sq), -beta, -alpha, r, s, t, False)
                if v > best:
                    best = v
                    if v > alpha:
                        alpha = v
                        if v >= beta:
                            return v
        else:
            for region in (odd, empty ^ odd):
                for cls in SQUARE_CLASSES:
                    m = region & cls
                    while m:
                        b = m & -m
                        m ^= b
                        sq = lowest_square(b)
                        if not opp & NEIGHBOURS[sq]:
                            continue
                        f = flip_mask(own, opp, sq)
                        if not f:
                            continue
                        v = -self.shallow(
                            opp ^ f,
                            own | f | b,
                            -beta,
                            -alpha,
                            empty ^ b,
                            e - 1,
                            parity ^ QUADRANT_BIT[sq],
                            False,
                        )
                        if v > best:
                            best = v
                            if v > alpha:
                                alpha = v
                                if v >= beta:
                                    return v
        if best == -65:
            if passed:
                return final_margin(own, opp, self.anti)
            return -self.shallow(opp, own, -beta, -alpha, empty, e, parity, True)
        return best

    def solve3(
        self, own: i64, opp: i64, alpha: int, beta: int, x: i64, y: i64, z: i64, passed: bool
    ) -> int:
        # Three empties x, y, z: each move hands the last two to last2.
        self.pending += 1
        best = -65
        f = flip_mask(own, opp, x)
        if f:
            best = -self.last2(opp ^ f, own | f | (ONE << x), -beta, -alpha, y, z, False)
            if best >= beta:
                return best
            if best > alpha:
                alpha = best
        f = flip_mask(own, opp, y)
        if f:
            v = -self.last2(opp ^ f, own | f | (ONE << y), -beta, -alpha, x, z, False)
            if v > best:
                if v >= beta:
                    return v
                best = v
                if v > alpha:
                    alpha = v
        f = flip_mask(own, opp, z)
        if f:
            v = -self.last2(opp ^ f, own | f | (ONE << z), -beta, -alpha, x, y, False)
            if v > best:
                best = v
        if best > -65:
            return best
        if passed:
            return final_margin(own, opp, self.anti)
        return -self.solve3(opp, own, -beta, -alpha, x, y, z, True)

    def last1(self, own: i64, opp: i64, sq: i64) -> int:
        # One empty square: whoever can play it does; the board is then full.
        f = flip_mask(own, opp, sq)
        if f:
            return self.sign * (2 * (popcount(own) + popcount(f)) - 62)
        f = flip_mask(opp, own, sq)
        if f:
            return self.sign * (62 - 2 * (popcount(opp) + popcount(f)))
        return final_margin(own, opp, self.anti)

    def last2(self, own: int, opp: int, alpha: int, beta: int, x: int, y: int, passed: bool) -> int:
        best = -65
        f = flip_mask(own, opp, x)
        if f:
            best = -self.last1(opp ^ f, own | f | (ONE << x), y)
            if best >= beta:
                return best
        f = flip_mask(own, opp, y)
        if f:
            v = -self.last1(opp ^ f, own | f | (ONE << y), x)
            if v > best:
                best = v
        if best > -65:
            return best
        if passed:
            return final_margin(own, opp, self.anti)
        return -self.last2(opp, own, -beta, -alpha, x, y, True)
