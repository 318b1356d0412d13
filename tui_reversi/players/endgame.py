"""The exact endgame solver: plays to the last disc and returns the final
margin in discs (WOF counting) for the side to move.

From SHALLOW_EMPTIES up it generates moves and orders them fastest first
(fewest replies for the opponent), with a transposition table and a
stability cutoff. Below that it walks the empty squares instead of
generating moves, odd regions (quadrants) first, then by square class,
skipping squares with no opponent disc next to them; at four empties the
order is fixed once and the squares are passed down by hand to dedicated
three-, two- and one-empty solvers that build no lists at all.

`make_solver` builds the solver as closures over local names and plain ints,
sharing the caller's node counter and clock check, so that the midgame search
and the solver count nodes and stop together.
"""

from __future__ import annotations

from collections.abc import Callable

from ..core.bitboard import CORNERS, FULL, legal_moves
from .evaluation import terminal_score
from .squares import NEIGHBOURS, QUADRANTS, SQUARE_CLASSES

# Per square, its quadrant's bit in a parity word (a bit per quadrant with an
# odd number of empties); per parity word, the squares of its odd quadrants.
QUADRANT_BIT = [
    next(1 << i for i, quadrant in enumerate(QUADRANTS) if quadrant >> sq & 1) for sq in range(64)
]
ODD_REGIONS = [
    sum(quadrant for i, quadrant in enumerate(QUADRANTS) if parity >> i & 1) for parity in range(16)
]

# Measured with bench/endgame.py: generating and ordering moves costs more than
# it saves below 8 empties; the table pays from 8 up.
SHALLOW_EMPTIES = 8  # the solver walks empty squares below this
SOLVER_TT_EMPTIES = 8  # the solver keeps a transposition table from here up
ETC_EMPTIES = 11  # children are looked up in the table before searching from here up

# solve(own, opp, alpha, beta, passed) -> exact margin within (alpha, beta)
Solver = Callable[[int, int, int, int, bool], int]


def make_solver(
    anti: bool,
    flip_fns: list,
    stable_edges: Callable[[int, int], int],
    counter: list[int],
    check: Callable[[], None],
    check_every: int,
) -> tuple[Solver, dict[int, tuple]]:
    """The solver and its transposition table (for the caller to empty).

    `counter[0]` is incremented per node; `check()` is called (and may raise
    to stop the search) whenever it reaches `check_every`.
    """
    FL = flip_fns
    lm = legal_moves
    shallow_below = SHALLOW_EMPTIES
    tt_from = SOLVER_TT_EMPTIES
    etc_from = ETC_EMPTIES
    around = NEIGHBOURS
    quadrant_bit = QUADRANT_BIT
    odd_regions = ODD_REGIONS
    classes = SQUARE_CLASSES
    solver_tt: dict[int, tuple] = {}

    def parity_of(empty):
        parity = 0
        for bit, quadrant in enumerate(QUADRANTS):
            if (empty & quadrant).bit_count() & 1:
                parity |= 1 << bit
        return parity

    def solver(own, opp, alpha, beta, passed):
        counter[0] += 1
        if counter[0] >= check_every:
            check()
        empty = ~(own | opp) & FULL
        e = empty.bit_count()
        if e < shallow_below:
            return shallow_entry(own, opp, alpha, beta, empty, e)
        # Stability cutoff: discs that can never change hands cap our margin.
        if anti:
            if alpha >= 64 - 2 * own.bit_count() and alpha >= 64 - 2 * stable_edges(own, opp):
                return alpha
        elif alpha >= 64 - 2 * opp.bit_count() and alpha >= 64 - 2 * stable_edges(opp, own):
            return alpha
        moves = lm(own, opp)
        if not moves:
            if passed or not lm(opp, own):
                return terminal_score(own, opp, anti)
            return -solver(opp, own, -beta, -alpha, True)
        key = tt_move = -1
        if e >= tt_from:
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
        keyed = []
        m = moves
        while m:
            b = m & -m
            m ^= b
            sq = b.bit_length() - 1
            f = FL[sq](own, opp)
            n_own = opp ^ f
            n_opp = own | f | b
            if sq == tt_move:
                keyed.append((-1, sq, n_own, n_opp))
                continue
            if e >= etc_from:
                # Enhanced transposition cutoff: a child already known to
                # be bad enough for the opponent settles this node at once.
                child = solver_tt.get(n_own << 64 | n_opp)
                if child is not None and -child[1] >= beta:
                    return -child[1]
            replies = lm(n_own, n_opp)
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
        if e > shallow_below:
            for _, sq, n_own, n_opp in keyed:
                if first:
                    v = -solver(n_own, n_opp, -beta, -a, False)
                    first = False
                else:
                    v = -solver(n_own, n_opp, -a - 1, -a, False)
                    if a < v < beta:
                        v = -solver(n_own, n_opp, -beta, -v, False)
                if v > best:
                    best = v
                    best_sq = sq
                    if v > a:
                        a = v
                        if v >= beta:
                            break
        else:
            # The children are shallow: no null windows, straight alpha-beta.
            parity = parity_of(empty)
            for _, sq, n_own, n_opp in keyed:
                child_parity = parity ^ quadrant_bit[sq]
                v = -shallow(n_own, n_opp, -beta, -a, empty ^ (1 << sq), e - 1, child_parity, False)
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

    def shallow_entry(own, opp, alpha, beta, empty, e):
        # A search that starts with few empties (the deeper ones never do).
        if e >= 4:
            return shallow(own, opp, alpha, beta, empty, e, parity_of(empty), False)
        if e == 3:
            x = empty & -empty
            empty ^= x
            y = empty & -empty
            return solve3(
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
            return last2(
                own, opp, alpha, beta, x.bit_length() - 1, (empty ^ x).bit_length() - 1, False
            )
        if e == 1:
            return last1(own, opp, empty.bit_length() - 1)
        return terminal_score(own, opp, anti)

    def shallow(own, opp, alpha, beta, empty, e, parity, passed):
        # From 4 empties up: try each empty square, odd regions first, each
        # region's squares by class. `parity`: a bit per odd quadrant.
        counter[0] += 1
        if counter[0] >= check_every:
            check()
        odd = odd_regions[parity] & empty
        best = -65
        if e == 4:
            # The last four keep this order down to the last disc.
            squares = []
            for region in (odd, empty ^ odd):
                for cls in classes:
                    m = region & cls
                    while m:
                        b = m & -m
                        squares.append(b.bit_length() - 1)
                        m ^= b
            w, x, y, z = squares
            for sq, r, s, t in ((w, x, y, z), (x, w, y, z), (y, w, x, z), (z, w, x, y)):
                if not opp & around[sq]:
                    continue  # no opponent disc next to it: nothing to flip
                f = FL[sq](own, opp)
                if not f:
                    continue
                v = -solve3(opp ^ f, own | f | (1 << sq), -beta, -alpha, r, s, t, False)
                if v > best:
                    best = v
                    if v > alpha:
                        alpha = v
                        if v >= beta:
                            return v
        else:
            for region in (odd, empty ^ odd):
                for cls in classes:
                    m = region & cls
                    while m:
                        b = m & -m
                        m ^= b
                        sq = b.bit_length() - 1
                        if not opp & around[sq]:
                            continue
                        f = FL[sq](own, opp)
                        if not f:
                            continue
                        v = -shallow(
                            opp ^ f,
                            own | f | b,
                            -beta,
                            -alpha,
                            empty ^ b,
                            e - 1,
                            parity ^ quadrant_bit[sq],
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
                return terminal_score(own, opp, anti)
            return -shallow(opp, own, -beta, -alpha, empty, e, parity, True)
        return best

    def solve3(own, opp, alpha, beta, x, y, z, passed):
        # Three empties x, y, z: each move hands the last two to last2.
        counter[0] += 1
        best = -65
        f = FL[x](own, opp)
        if f:
            best = -last2(opp ^ f, own | f | (1 << x), -beta, -alpha, y, z, False)
            if best >= beta:
                return best
            if best > alpha:
                alpha = best
        f = FL[y](own, opp)
        if f:
            v = -last2(opp ^ f, own | f | (1 << y), -beta, -alpha, x, z, False)
            if v > best:
                if v >= beta:
                    return v
                best = v
                if v > alpha:
                    alpha = v
        f = FL[z](own, opp)
        if f:
            v = -last2(opp ^ f, own | f | (1 << z), -beta, -alpha, x, y, False)
            if v > best:
                best = v
        if best > -65:
            return best
        if passed:
            return terminal_score(own, opp, anti)
        return -solve3(opp, own, -beta, -alpha, x, y, z, True)

    sg = -1 if anti else 1  # anti counts the margin the other way

    def last1(own, opp, sq):
        # One empty square: whoever can play it does; the board is then full.
        f = FL[sq](own, opp)
        if f:
            return sg * (2 * (own.bit_count() + f.bit_count()) - 62)
        f = FL[sq](opp, own)
        if f:
            return sg * (62 - 2 * (opp.bit_count() + f.bit_count()))
        return terminal_score(own, opp, anti)

    def last2(own, opp, alpha, beta, x, y, passed):
        best = -65
        f = FL[x](own, opp)
        if f:
            best = -last1(opp ^ f, own | f | (1 << x), y)
            if best >= beta:
                return best
        f = FL[y](own, opp)
        if f:
            v = -last1(opp ^ f, own | f | (1 << y), x)
            if v > best:
                best = v
        if best > -65:
            return best
        if passed:
            return terminal_score(own, opp, anti)
        return -last2(opp, own, -beta, -alpha, x, y, True)

    return solver, solver_tt
