# mypyc: compiled
"""The exact endgame solver: plays to the last disc and returns the final
margin in discs (WOF counting) for the side to move.

From SHALLOW_EMPTIES up it generates moves and orders them: the table's
move first, then fastest first (fewest replies for the opponent, corners
counting double, then the fewest empty squares next to our discs, a move
into a quadrant with an odd number of empties a little earlier), and
from EVAL_ORDER_EMPTIES up the engine's evaluation of the child too (a
one-ply look from SEARCH_ORDER_EMPTIES up), with principal-variation
search, a native transposition table whose full buckets keep the entry
with more empties (transposition.py), enhanced transposition cutoffs and
a stability cutoff (the opponent's stable discs, stability.py, which the
walk below tests too from STABILITY_EMPTIES up). Below that it walks the
empty squares instead of
generating moves, packed six bits each in one word by square class
(`static_order`): at SORTED_EMPTIES fastest first (fewest replies, with
keys packed in a word too), below that odd regions (quadrants) first; at
four empties the order is fixed once and the squares are passed down by
hand to dedicated three-, two- and one-empty solvers that build no lists
at all; the last one counts its flips from one side's discs by table
(last_flip.py) rather than finding them.

The hot paths allocate nothing and unbox nothing: no tuples or lists read
in the walk below SHALLOW_EMPTIES, and every board constant a machine word
(bitboard.py). Against the first version, the same nodes take about a third
of the time (bench/ffo.py).

`EndgameSolver` also keeps the node counter and the limits (clock, node
budget, cancel flag) of a whole search: the midgame search (search.py) is a
subclass, so that both count nodes and stop together.

Compiled with mypyc where a C compiler exists (see setup.py), and run as
plain Python otherwise, with identical results. What mypyc needs, here and
in the other hot modules (core/bitboard.py, search.py, evaluation.py,
squares.py, patterns.py, transposition.py, last_flip.py, stability.py): every function
and attribute typed, attributes assigned in `__init__`, module constants
marked `Final` (mypyc inlines those that are small literals; one built at
run time, such as ONE or any native() word, is loaded and checked at every
use, so the hottest code keeps such words in locals: `square_bit`), no
closures or lambdas in the hot paths (methods on a class instead), and
nothing that only exists at run time (exec'd code is called as a slow
Python function). Boards are i64 words, machine words when compiled:
bitboard.py's header says how they are handled so that both builds give
the same results.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Final

from librt.vecs import vec
from mypy_extensions import i64

from ..core.bitboard import (
    BELOW_56,
    flip_mask,
    full_board,
    lowest_square,
    move_mask,
    native,
    popcount,
    square_bit,
)
from .evaluation import (
    Evaluator,
    final_margin,
    make_evaluator,
)
from .last_flip import LastFlips
from .squares import (
    NORTH_EAST,
    NORTH_WEST,
    SOUTH_WEST,
    quadrant_bit,
)
from .stability import shared_stability
from .transposition import (
    TT_BITS,
    TranspositionTable,
    entry_move,
    solver_entry,
    solver_lower,
    solver_upper,
)

# Measured on FFO #40-41 (bench/ffo.py, CPU seconds): ordering moves from 7,
# 8 or 9 empties costs the same (28.8, 32.4, 39.6 M nodes in 6.2, 5.6,
# 5.5 s); the table from 10 rather than 8: 36.3 M nodes in 5.2 s. On
# #40-44 with the trained evaluation, from 12 (a one-ply look from 16)
# rather than 14 (18): 122.9 M nodes, not 127.6 M, in the same CPU time;
# the parity bonus then 119.5 M (8) or 129.2 M (20). Ordering from 7 or 9
# again: 99.6 M or 130.1 M nodes, neither in less CPU time than from 8.
SHALLOW_EMPTIES: Final = 8  # the solver walks empty squares below this
SORTED_EMPTIES: Final = 7  # and from here up it orders them fastest first
# The stability cutoff (stability.py) from here up, in the walk too: FFO #42
# in 9.04 M nodes, not 11.89 M, and 0.91x the instructions (callgrind);
# from 6 empties, 10.47 M nodes and 0.95x.
STABILITY_EMPTIES: Final = 4
# The shallow walk's key of a move not to search: a word, not a C int literal
# (mypyc emits a literal as a 32-bit int, which a shift of 48 overflows).
NO_KEY: Final[i64] = native(255)
# The solver keeps a transposition table from here up (every node it
# orders), and children are looked up in it before searching from
# ETC_EMPTIES up. Once a probe read one bucket of words (transposition.py)
# and with the full stability cutoff: FFO #42 in 10.84 G instructions from
# 8 (8.10 M nodes), not 11.34 G from 9 or 11.66 G from 10 (9.04 M nodes);
# then children looked up from 10 rather than 14: 7.70 M nodes and 10.55 G
# (from 12: 10.63 G; from 9: 10.55 G). Before, a probe cost more than it
# saved below 10 and 14 (FFO #40-44 from 14 rather than 11: 82.6 M nodes,
# not 78.7 M, but 14.7 s of CPU, not 16.4 s).
SOLVER_TT_EMPTIES: Final = 8
ETC_EMPTIES: Final = 10
# The one-ply look from 18: with the table from 8 and the stability cutoff,
# the look costs more than its order saves below that: FFO #42 in 9.78 G
# instructions and #44 in 22.71 G, against 9.85 G and 23.46 G from 16 and
# 10.55 G and 25.52 G from 14 (#44 in 16.8 M nodes, not 15.8 M). Before
# those, from 14 rather than 16: 72.9 M nodes, not 74.5 M, and 0.80x and
# 0.88x the CPU of the engine branch in two runs (0.91x from 16).
# The evaluation of the child from 14 rather than 12, once flip_mask and
# the keys were cheaper (an evaluation is about 2,700 instructions, 13 %
# of #44's): FFO #40-44 in 68.8 G instructions, not 72.6 G (from 13:
# 70.2 G; from 15: 69.1 G), in 58.9 M nodes, not 56.8 M.
EVAL_ORDER_EMPTIES: Final = 14  # from here up the evaluation helps order the moves,
SEARCH_ORDER_EMPTIES: Final = 18  # and from here up a one-ply search

# Move order keys (lower first): per reply left to the opponent, per empty
# square next to our discs (where it may later play), for taking a corner,
# and the evaluation units (hundredths of a disc) per key unit.
MOBILITY_WEIGHT: Final = 16
POTENTIAL_WEIGHT: Final = 2
CORNER_BONUS: Final = 8
PARITY_BONUS: Final = 8  # for a move into a quadrant with an odd number of empties
EVAL_PER_UNIT: Final = 25
INFINITE_EVAL: Final = 1 << 40
# A node's keyed moves: a slice of this many words per number of empties
# (a position has at most 33 moves; a pass keeps its empties, but the
# passing node has keyed nothing yet).
MAX_MOVES: Final = 40


# Nodes between looks at the clock and the cancel flag. At 256 the longest
# gap between looks was 17 ms on a loaded machine; 128 halves it, at a cost
# too small to measure.
CHECK_EVERY: Final = 128
NO_NODE_CAP: Final = 1 << 62


def adjacent(discs: i64) -> i64:
    """The squares next to `discs` (and the discs themselves)."""
    # The masks as locals, not NOT_A, NOT_H and ALL: compiled, a module's
    # native() word is loaded and checked at every use (and a literal
    # beyond 2**62 boxed), while these fold into constants.
    not_h: i64 = 0x3F3F3F3F3F3F3F3F
    not_h = not_h << 1 | 0x0101010101010101
    row = discs | ((discs << 1) & (not_h << 1)) | ((discs >> 1) & not_h)
    return row | ((row << 8) & full_board()) | ((row >> 8) & BELOW_56)


def corner_word() -> i64:
    """The four corners, as CORNER_SQUARES, but folded by the C compiler
    into a constant rather than loaded and checked at every use."""
    return square_bit(0) | square_bit(7) | square_bit(56) | square_bit(63)


def static_order(empty: i64) -> i64:
    """The squares of `empty` (at most ten) packed six bits each, lowest
    first: corners, then edges, centre, C- and X-squares, each class
    ascending."""
    order: i64 = 0
    shift: i64 = 0
    rank: i64 = 0
    # squares.py's classes as words the C compiler folds in (its native()
    # words are loaded and checked at every use, and C_CLASS's literal is
    # beyond 2**62, which mypyc boxes): tests/engine/test_endgame.py
    # checks them against squares.py.
    c_class: i64 = 0x21408000000040A1
    c_class <<= 1
    while rank < 5:
        # class_of_rank's choice written out: the call was not inlined.
        if rank == 0:
            m = empty & corner_word()
        elif rank == 1:
            m = empty & 0x3C0081818181003C  # EDGE_CLASS
        elif rank == 2:
            m = empty & 0x003C7E7E7E7E3C00  # CENTRE_CLASS
        elif rank == 3:
            m = empty & c_class
        else:
            m = empty & 0x0042000000004200  # X_CLASS
        rank += 1
        while m:
            b = m & -m
            m ^= b
            order |= popcount(b - 1) << shift  # square_of(b), which is not inlined
            shift += 6
    return order


def kept_flips(flips: i64, square: i64) -> i64:
    """The flips of the move to `square` with their h8 bit moved to the
    square, or back: the word kept is below 2**63, as an interpreted vec
    needs."""
    # No move flips its own square, so at most one of the two bits is
    # set, and the product swaps both at once (`>> 63` of a compiled word
    # copies the sign: only its lowest bit is read).
    return flips ^ ((flips >> 63 | flips >> square) & 1) * (square_bit(square) | square_bit(63))


def without_slot(order: i64, slot: i64) -> i64:
    """A static_order word with the square in `slot` taken out (the squares
    above it move down one slot)."""
    below = square_bit(6 * slot) - 1
    return (order & below) | (order >> 6 & ~below)


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
        evaluator: Evaluator | None = None,
        solves: bool = True,
    ) -> None:
        self.anti = anti
        # Orders moves far from the end (the hand-made one unless another is given).
        self.evaluator = evaluator if evaluator is not None else make_evaluator(anti)
        self.sign: i64 = -1 if anti else 1  # anti counts the margin the other way
        self.nodes = 0  # counted at the last check
        self.pending: i64 = 0  # nodes since the last check
        self.node_cap = max_nodes if max_nodes is not None else NO_NODE_CAP
        self.deadline = deadline
        self.cancelled = cancelled
        # A search that never solves (most midgame searches) keeps the
        # smallest table rather than clearing 12 MiB for nothing.
        self.solver_tt = TranspositionTable(TT_BITS if solves else 1)
        self.stability = shared_stability()
        self.last_flips = LastFlips(anti)
        # The keyed moves of the nodes on the current line (`solve`), one
        # slice per number of empties: the line has one node of each.
        self.order: vec[i64] = vec[i64]([0] * (61 * MAX_MOVES))
        # Their flips by square, a slice of 64 words per number of empties.
        self.flips: vec[i64] = vec[i64]([0] * (61 * 64))

    def total_nodes(self) -> int:
        return self.nodes + self.pending

    def check(self) -> None:
        """The clock, the node budget, the cancel flag."""
        self.nodes += self.pending
        self.pending = 0
        if self.nodes >= self.node_cap:
            raise SearchStopped
        if self.deadline is not None and time.perf_counter() >= self.deadline:
            raise SearchStopped
        if self.cancelled is not None and self.cancelled():
            raise SearchStopped

    def parity_of(self, empty: i64) -> i64:
        south_east = NORTH_EAST  # SOUTH_EAST, which is loaded and checked
        south_east <<= 32
        return (
            (popcount(empty & NORTH_WEST) & 1)
            | (popcount(empty & NORTH_EAST) & 1) << 1
            | (popcount(empty & SOUTH_WEST) & 1) << 2
            | (popcount(empty & south_east) & 1) << 3
        )

    def solve(self, own: i64, opp: i64, alpha: i64, beta: i64, passed: bool) -> i64:
        self.pending += 1
        if self.pending >= CHECK_EVERY:
            self.check()
        empty = ~(own | opp) & full_board()
        e = popcount(empty)
        if e < SHALLOW_EMPTIES:
            return self.shallow_entry(own, opp, alpha, beta, empty, e)
        if self.stable_cut(own, opp, alpha):
            return alpha
        moves = move_mask(own, opp)
        if not moves:
            if passed or not move_mask(opp, own):
                return final_margin(own, opp, self.anti)
            return -self.solve(opp, own, -beta, -alpha, True)
        tt_move: i64 = -1
        solver_tt = self.solver_tt
        if e >= SOLVER_TT_EMPTIES:
            entry = solver_tt.get(own, opp)
            if entry:
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
        best: i64 = -65
        best_sq: i64 = -1
        a = alpha
        first = True
        # Each move's flips, found once (by the transposition cutoffs or
        # the keys) and read again when it is searched: this node's slice
        # of a vec, by square, each kept without its h8 bit (as a vec word
        # must be, interpreted) with that bit on the move's own square,
        # which no move flips (a swap both ways: `kept_flips`).
        flips = self.flips
        at: i64 = e * 64
        if e >= ETC_EMPTIES:
            # Enhanced transposition cutoff: a child already known to be bad
            # enough for the opponent settles this node at once.
            m = moves
            while m:
                b = m & -m
                m ^= b
                sq = popcount(b - 1)  # square_of(b), which is not inlined
                if sq != tt_move:
                    f = flip_mask(own, opp, sq)
                    flips[at + sq] = kept_flips(f, sq)
                    child = solver_tt.get(opp ^ f, own | f | b)
                    if child:
                        settled = -solver_upper(child)
                        if settled >= beta:
                            return settled
        if tt_move >= 0:
            # The table's move first, before the others are keyed: most nodes
            # cut on it, and then their keys (an evaluation each from
            # EVAL_ORDER_EMPTIES up) would be thrown away.
            b = square_bit(tt_move)
            f = flip_mask(own, opp, tt_move)
            best = -self.solve(opp ^ f, own | f | b, -beta, -a, False)
            best_sq = tt_move
            first = False
            moves ^= b
            if best > a:
                a = best
        if best < beta and moves:
            # The other moves in order, best first (lowest key): fastest
            # first (fewest replies for the opponent), and from
            # EVAL_ORDER_EMPTIES up what the evaluation thinks of the child.
            # Sorted by insertion into this node's slice of a flat vec of
            # words, each a move's key * 64 + its square (nothing allocated
            # or boxed; ties keep the square order).
            order = self.order
            start: i64 = e * MAX_MOVES
            end: i64 = start
            m = moves
            while m:
                b = m & -m
                m ^= b
                sq = popcount(b - 1)  # square_of(b), which is not inlined
                if e >= ETC_EMPTIES:
                    f = kept_flips(flips[at + sq], sq)
                else:
                    f = flip_mask(own, opp, sq)
                    flips[at + sq] = kept_flips(f, sq)
                keyed = self.order_key(opp ^ f, own | f | b, b, e) * 64 + sq
                i: i64 = end
                end += 1
                while i > start and order[i - 1] > keyed:
                    order[i] = order[i - 1]
                    i -= 1
                order[i] = keyed
            j: i64 = start
            if e > SHALLOW_EMPTIES:
                while j < end:
                    sq = order[j] & 63
                    j += 1
                    b = square_bit(sq)
                    f = kept_flips(flips[at + sq], sq)
                    n_own = opp ^ f
                    n_opp = own | f | b
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
                while j < end:
                    sq = order[j] & 63
                    j += 1
                    b = square_bit(sq)
                    f = kept_flips(flips[at + sq], sq)
                    v = -self.shallow(
                        opp ^ f,
                        own | f | b,
                        -beta,
                        -a,
                        static_order(empty ^ b),
                        e - 1,
                        parity ^ quadrant_bit(sq),
                        False,
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
                solver_tt.put(own, opp, solver_entry(-64, best, e, best_sq))
            elif best >= beta:
                solver_tt.put(own, opp, solver_entry(best, 64, e, best_sq))
            else:
                solver_tt.put(own, opp, solver_entry(best, best, e, best_sq))
        return best

    def stable_cut(self, own: i64, opp: i64, alpha: i64) -> bool:
        """Whether discs that can never change hands keep the margin at or
        below alpha: the opponent's stable discs (anti: our own), counted
        only when all its discs could be enough."""
        held = opp
        other = own
        if self.anti:
            held = own
            other = opp
        return alpha >= 64 - 2 * popcount(held) and alpha >= 64 - 2 * popcount(
            self.stability.discs(held, other)
        )

    def order_key(self, n_own: i64, n_opp: i64, b: i64, e: i64) -> i64:
        """How late to search the move to `b` that leaves (n_own, n_opp), the
        opponent to move, at a node with `e` empties: the opponent's replies
        (corners count double), then the squares it may later reach, and
        from EVAL_ORDER_EMPTIES up the evaluation from its side."""
        replies = move_mask(n_own, n_opp)
        # Only ever ANDed with a board: no mask to 64 bits needed.
        child_empty = ~(n_own | n_opp)
        corners = corner_word()
        # (Plain ifs, no conditional expressions: mypyc boxes those.)
        value: i64 = (popcount(replies) + popcount(replies & corners)) * MOBILITY_WEIGHT
        value += popcount(adjacent(n_opp) & child_empty) * POTENTIAL_WEIGHT
        if b & corners:
            value -= CORNER_BONUS
        # A move into a quadrant with an odd number of empties (even after it).
        if b & NORTH_WEST:
            quadrant = NORTH_WEST
        elif b & NORTH_EAST:
            quadrant = NORTH_EAST
        elif b & SOUTH_WEST:
            quadrant = SOUTH_WEST
        else:
            quadrant = NORTH_EAST
            quadrant <<= 32  # SOUTH_EAST, which is loaded and checked
        if not popcount(child_empty & quadrant) & 1:
            value -= PARITY_BONUS
        if e >= EVAL_ORDER_EMPTIES:
            if e >= SEARCH_ORDER_EMPTIES and replies:
                # A one-ply look: the opponent's best reply, by the evaluation.
                best_reply: i64 = -INFINITE_EVAL
                evaluator = self.evaluator
                r = replies
                while r:
                    rb = r & -r
                    r ^= rb
                    f = flip_mask(n_own, n_opp, popcount(rb - 1))
                    v: i64 = -evaluator.evaluate(n_opp ^ f, n_own | f | rb)
                    if v > best_reply:
                        best_reply = v
                value += best_reply // EVAL_PER_UNIT
            else:
                child_value: i64 = self.evaluator.evaluate(n_own, n_opp)
                value += child_value // EVAL_PER_UNIT
        return value

    def shallow_entry(self, own: i64, opp: i64, alpha: i64, beta: i64, empty: i64, e: i64) -> i64:
        # A search that starts with few empties (the deeper ones never do).
        if e >= 4:
            return self.shallow(
                own, opp, alpha, beta, static_order(empty), e, self.parity_of(empty), False
            )
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
        alpha: i64,
        beta: i64,
        order: i64,
        e: i64,
        parity: i64,
        passed: bool,
    ) -> i64:
        # From 4 empties up: try each empty square, those in odd quadrants
        # first, each group in the static order. `order`: the e empty squares
        # packed six bits each by static_order; `parity`: a bit per odd quadrant.
        self.pending += 1
        if self.pending >= CHECK_EVERY:
            self.check()
        # The stability cutoff (stable_cut) written out, as this is the most
        # frequent node: the call cost more than the test (anti's solves, far
        # rarer, keep it from SHALLOW_EMPTIES up).
        if (
            e >= STABILITY_EMPTIES
            and not self.anti
            and alpha >= 64 - 2 * popcount(opp)
            and alpha >= 64 - 2 * popcount(self.stability.discs(opp, own))
        ):
            return alpha
        best: i64 = -65
        # Counters as words too: an unannotated 0 is a Python int, whose
        # arithmetic and conversions mypyc checks at every step.
        i: i64 = 0
        n: i64 = 0
        if e == 4:
            # The last four keep this order down to the last disc.
            w: i64 = -1
            x: i64 = -1
            y: i64 = -1
            z: i64 = -1
            odd_pass: i64 = 1
            while odd_pass >= 0:
                rest = order
                i = 0
                while i < 4:
                    sq = rest & 63
                    rest >>= 6
                    i += 1
                    if (parity >> ((sq >> 5 & 1) * 2 + (sq >> 2 & 1)) & 1) != odd_pass:
                        continue
                    if n == 0:
                        w = sq
                    elif n == 1:
                        x = sq
                    elif n == 2:
                        y = sq
                    else:
                        z = sq
                    n += 1
                odd_pass -= 1
            turn: i64 = -1
            while turn < 3:
                turn += 1
                # Each square in turn, the other three passed down in order
                # (plain ifs: mypyc boxes an i64 conditional expression).
                if turn == 0:
                    sq, r, s, t = w, x, y, z
                elif turn == 1:
                    sq, r, s, t = x, w, y, z
                elif turn == 2:
                    sq, r, s, t = y, w, x, z
                else:
                    sq, r, s, t = z, w, x, y
                f = flip_mask(own, opp, sq)
                if not f:
                    continue
                v = -self.solve3(opp ^ f, own | f | square_bit(sq), -beta, -alpha, r, s, t, False)
                if v > best:
                    best = v
                    if v > alpha:
                        alpha = v
                        if v >= beta:
                            return v
        elif e >= SORTED_EMPTIES:
            # Fastest first without lists: a key per slot of `order`, eight
            # bits each (the opponent's replies, corners double, then odd
            # quadrants first; NO_KEY: illegal or already searched), the
            # lowest searched next. A move's flips are found again when it is
            # searched: most nodes here cut on their first move.
            keys: i64 = 0
            no_key = NO_KEY  # loaded and checked once, not at every use
            i = 0
            while i < e:
                sq = order >> (6 * i) & 63
                f = flip_mask(own, opp, sq)
                if f:
                    replies = move_mask(opp ^ f, own | f | square_bit(sq))
                    q = (sq >> 5 & 1) * 2 + (sq >> 2 & 1)
                    key = (popcount(replies) + popcount(replies & corner_word())) * 2 + (
                        1 - (parity >> q & 1)
                    )
                else:
                    key = no_key
                keys |= key << (8 * i)
                i += 1
            while True:
                lowest: i64 = no_key
                slot: i64 = -1
                i = 0
                while i < e:
                    key = keys >> (8 * i) & no_key
                    if key < lowest:
                        lowest = key
                        slot = i
                    i += 1
                if slot < 0:
                    break
                keys |= no_key << (8 * slot)
                sq = order >> (6 * slot) & 63
                f = flip_mask(own, opp, sq)
                v = -self.shallow(
                    opp ^ f,
                    own | f | square_bit(sq),
                    -beta,
                    -alpha,
                    without_slot(order, slot),
                    e - 1,
                    parity ^ quadrant_bit(sq),
                    False,
                )
                if v > best:
                    best = v
                    if v > alpha:
                        alpha = v
                        if v >= beta:
                            return v
        else:
            odd_pass = 1
            while odd_pass >= 0:
                i = 0
                while i < e:
                    sq = order >> (6 * i) & 63
                    q = (sq >> 5 & 1) * 2 + (sq >> 2 & 1)
                    i += 1
                    if (parity >> q & 1) != odd_pass:
                        continue
                    f = flip_mask(own, opp, sq)
                    if not f:
                        continue
                    v = -self.shallow(
                        opp ^ f,
                        own | f | square_bit(sq),
                        -beta,
                        -alpha,
                        without_slot(order, i - 1),
                        e - 1,
                        parity ^ square_bit(q),
                        False,
                    )
                    if v > best:
                        best = v
                        if v > alpha:
                            alpha = v
                            if v >= beta:
                                return v
                odd_pass -= 1
        if best == -65:
            if passed:
                return final_margin(own, opp, self.anti)
            return -self.shallow(opp, own, -beta, -alpha, order, e, parity, True)
        return best

    def solve3(
        self, own: i64, opp: i64, alpha: i64, beta: i64, x: i64, y: i64, z: i64, passed: bool
    ) -> i64:
        # Three empties x, y, z: each move hands the last two to last2.
        self.pending += 1
        best: i64 = -65
        f = flip_mask(own, opp, x)
        if f:
            best = -self.last2(opp ^ f, own | f | square_bit(x), -beta, -alpha, y, z, False)
            if best >= beta:
                return best
            if best > alpha:
                alpha = best
        f = flip_mask(own, opp, y)
        if f:
            v = -self.last2(opp ^ f, own | f | square_bit(y), -beta, -alpha, x, z, False)
            if v > best:
                if v >= beta:
                    return v
                best = v
                if v > alpha:
                    alpha = v
        f = flip_mask(own, opp, z)
        if f:
            v = -self.last2(opp ^ f, own | f | square_bit(z), -beta, -alpha, x, y, False)
            if v > best:
                best = v
        if best > -65:
            return best
        if passed:
            return final_margin(own, opp, self.anti)
        return -self.solve3(opp, own, -beta, -alpha, x, y, z, True)

    def last1(self, own: i64, opp: i64, sq: i64) -> i64:
        # One empty square: whoever can play it does (last_flip.py).
        return self.last_flips.margin(own, opp, sq)

    def last2(self, own: i64, opp: i64, alpha: i64, beta: i64, x: i64, y: i64, passed: bool) -> i64:
        # The last square's margin straight from last_flip.py, not through
        # last1: the most frequent call of the solve.
        last_flips = self.last_flips
        best: i64 = -65
        f = flip_mask(own, opp, x)
        if f:
            best = -last_flips.margin(opp ^ f, own | f | square_bit(x), y)
            if best >= beta:
                return best
        f = flip_mask(own, opp, y)
        if f:
            v = -last_flips.margin(opp ^ f, own | f | square_bit(y), x)
            if v > best:
                best = v
        if best > -65:
            return best
        if passed:
            return final_margin(own, opp, self.anti)
        return -self.last2(opp, own, -beta, -alpha, x, y, True)
