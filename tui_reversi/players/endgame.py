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
squares.py): every function and attribute typed, attributes assigned in
`__init__`, module constants marked `Final` (mypyc then inlines them), no
closures or lambdas in the hot paths (methods on a class instead), and
nothing that only exists at run time (exec'd code is called as a slow Python
function). Boards are plain `int`s: exact Python semantics in both builds,
fastest below 2**62, boxed above.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Final

from ..core.bitboard import CORNERS, FULL, flips, legal_moves
from .evaluation import make_stable_edge_counter, terminal_score
from .squares import NEIGHBOURS, QUADRANTS, SQUARE_CLASSES

# Per square, its quadrant's bit in a parity word (a bit per quadrant with an
# odd number of empties); per parity word, the squares of its odd quadrants.
QUADRANT_BIT: Final[list[int]] = [
    next(1 << i for i, quadrant in enumerate(QUADRANTS) if quadrant >> sq & 1) for sq in range(64)
]
ODD_REGIONS: Final[list[int]] = [
    sum(quadrant for i, quadrant in enumerate(QUADRANTS) if parity >> i & 1) for parity in range(16)
]

# Measured with bench/endgame.py: generating and ordering moves costs more than
# it saves below 8 empties; the table pays from 8 up.
SHALLOW_EMPTIES: Final = 8  # the solver walks empty squares below this
SOLVER_TT_EMPTIES: Final = 8  # the solver keeps a transposition table from here up
ETC_EMPTIES: Final = 11  # children are looked up in the table before searching from here up

# Nodes between looks at the clock and the cancel flag. At 256 the longest
# gap between looks was 17 ms on a loaded machine; 128 halves it, at a cost
# too small to measure.
CHECK_EVERY: Final = 128
TT_LIMIT: Final = 400_000  # entries; a table is emptied when it grows past this
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
        self.solver_tt: dict[int, tuple[int, int, int]] = {}
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

    def parity_of(self, empty: int) -> int:
        parity = 0
        for bit in range(4):
            if (empty & QUADRANTS[bit]).bit_count() & 1:
                parity |= 1 << bit
        return parity

    def solve(self, own: int, opp: int, alpha: int, beta: int, passed: bool) -> int:
        self.pending += 1
        if self.pending >= CHECK_EVERY:
            self.check()
        empty = ~(own | opp) & FULL
        e = empty.bit_count()
        if e < SHALLOW_EMPTIES:
            return self.shallow_entry(own, opp, alpha, beta, empty, e)
        # Stability cutoff: discs that can never change hands cap our margin.
        if self.anti:
            if alpha >= 64 - 2 * own.bit_count() and alpha >= 64 - 2 * self.stable_edges.count(
                own, opp
            ):
                return alpha
        elif alpha >= 64 - 2 * opp.bit_count() and alpha >= 64 - 2 * self.stable_edges.count(
            opp, own
        ):
            return alpha
        moves = legal_moves(own, opp)
        if not moves:
            if passed or not legal_moves(opp, own):
                return terminal_score(own, opp, self.anti)
            return -self.solve(opp, own, -beta, -alpha, True)
        key = -1
        tt_move = -1
        solver_tt = self.solver_tt
        if e >= SOLVER_TT_EMPTIES:
            key = own << 64 | opp
            entry = solver_tt.get(key)
            if entry is not None:
                lower, upper, tt_move = entry
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
        keyed: list[tuple[int, int, int, int]] = []
        m = moves
        while m:
            b = m & -m
            m ^= b
            sq = b.bit_length() - 1
            f = flips(own, opp, sq)
            n_own = opp ^ f
            n_opp = own | f | b
            if sq == tt_move:
                keyed.append((-1, sq, n_own, n_opp))
                continue
            if e >= ETC_EMPTIES:
                # Enhanced transposition cutoff: a child already known to
                # be bad enough for the opponent settles this node at once.
                child = solver_tt.get(n_own << 64 | n_opp)
                if child is not None and -child[1] >= beta:
                    return -child[1]
            replies = legal_moves(n_own, n_opp)
            keyed.append(
                (
                    # Corners count double; taking one is worth half a reply.
                    replies.bit_count() * 4
                    + (replies & CORNERS).bit_count() * 2
                    - (2 if b & CORNERS else 0),
                    sq,
                    n_own,
                    n_opp,
                )
            )
        keyed.sort()
        best = -65
        best_sq = -1
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
                    n_own, n_opp, -beta, -a, empty ^ (1 << sq), e - 1, child_parity, False
                )
                if v > best:
                    best = v
                    best_sq = sq
                    if v > a:
                        a = v
                        if v >= beta:
                            break
        if key >= 0:
            if best <= alpha:
                solver_tt[key] = (-64, best, best_sq)
            elif best >= beta:
                solver_tt[key] = (best, 64, best_sq)
            else:
                solver_tt[key] = (best, best, best_sq)
        return best

    def shallow_entry(self, own: int, opp: int, alpha: int, beta: int, empty: int, e: int) -> int:
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
                x.bit_length() - 1,
                y.bit_length() - 1,
                (empty ^ y).bit_length() - 1,
                False,
            )
        if e == 2:
            x = empty & -empty
            return self.last2(
                own, opp, alpha, beta, x.bit_length() - 1, (empty ^ x).bit_length() - 1, False
            )
        if e == 1:
            return self.last1(own, opp, empty.bit_length() - 1)
        return terminal_score(own, opp, self.anti)

    def shallow(
        self,
        own: int,
        opp: int,
        alpha: int,
        beta: int,
        empty: int,
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
            squares: list[int] = []
            for region in (odd, empty ^ odd):
                for cls in SQUARE_CLASSES:
                    m = region & cls
                    while m:
                        b = m & -m
                        squares.append(b.bit_length() - 1)
                        m ^= b
            w, x, y, z = squares
            for sq, r, s, t in ((w, x, y, z), (x, w, y, z), (y, w, x, z), (z, w, x, y)):
                if not opp & NEIGHBOURS[sq]:
                    continue  # no opponent disc next to it: nothing to flip
                f = flips(own, opp, sq)
                if not f:
                    continue
                v = -self.solve3(opp ^ f, own | f | (1 << sq), -beta, -alpha, r, s, t, False)
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
                        sq = b.bit_length() - 1
                        if not opp & NEIGHBOURS[sq]:
                            continue
                        f = flips(own, opp, sq)
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
                return terminal_score(own, opp, self.anti)
            return -self.shallow(opp, own, -beta, -alpha, empty, e, parity, True)
        return best

    def solve3(
        self, own: int, opp: int, alpha: int, beta: int, x: int, y: int, z: int, passed: bool
    ) -> int:
        # Three empties x, y, z: each move hands the last two to last2.
        self.pending += 1
        best = -65
        f = flips(own, opp, x)
        if f:
            best = -self.last2(opp ^ f, own | f | (1 << x), -beta, -alpha, y, z, False)
            if best >= beta:
                return best
            if best > alpha:
                alpha = best
        f = flips(own, opp, y)
        if f:
            v = -self.last2(opp ^ f, own | f | (1 << y), -beta, -alpha, x, z, False)
            if v > best:
                if v >= beta:
                    return v
                best = v
                if v > alpha:
                    alpha = v
        f = flips(own, opp, z)
        if f:
            v = -self.last2(opp ^ f, own | f | (1 << z), -beta, -alpha, x, y, False)
            if v > best:
                best = v
        if best > -65:
            return best
        if passed:
            return terminal_score(own, opp, self.anti)
        return -self.solve3(opp, own, -beta, -alpha, x, y, z, True)

    def last1(self, own: int, opp: int, sq: int) -> int:
        # One empty square: whoever can play it does; the board is then full.
        f = flips(own, opp, sq)
        if f:
            return self.sign * (2 * (own.bit_count() + f.bit_count()) - 62)
        f = flips(opp, own, sq)
        if f:
            return self.sign * (62 - 2 * (opp.bit_count() + f.bit_count()))
        return terminal_score(own, opp, self.anti)

    def last2(self, own: int, opp: int, alpha: int, beta: int, x: int, y: int, passed: bool) -> int:
        best = -65
        f = flips(own, opp, x)
        if f:
            best = -self.last1(opp ^ f, own | f | (1 << x), y)
            if best >= beta:
                return best
        f = flips(own, opp, y)
        if f:
            v = -self.last1(opp ^ f, own | f | (1 << y), x)
            if v > best:
                best = v
        if best > -65:
            return best
        if passed:
            return terminal_score(own, opp, self.anti)
        return -self.last2(opp, own, -beta, -alpha, x, y, True)
