# mypyc: compiled
"""How many discs the move onto the last empty square flips, from the
mover's discs alone.

With one empty square every other square is either the mover's or the
opponent's, so a line's flips depend only on where the mover's discs are
on it: a table of eight positions by 256 lines gives the count, and the
four lines through the square are gathered as bytes by shifts and one
product each (as patterns.py gathers its columns). That is a handful of
operations and four table reads, where `flip_mask` grows a run in each of
eight directions and the flips must then be counted; the solver's last
ply (endgame.py's `last1`, and `margin` here) is its most frequent node.

A hot module, compiled with mypyc (see endgame.py's header).
"""

from __future__ import annotations

from typing import Final, final

from librt.vecs import vec
from mypy_extensions import i64

from ..core.bitboard import LOW63, popcount
from .evaluation import final_margin

FILE_A: Final[i64] = 0x0101010101010101
# (b & FILE_A) * GATHER >> 56: column a as a byte, bit k its square in row k + 1.
GATHER: Final[i64] = 0x0102040810204080
# A diagonal has one square per column: (b & diagonal) * FILE_A >> 56 is it
# as a byte, bit c its square in column c (no two products overlap).


def line_flips(position: int, mine: int) -> int:
    """Discs flipped along one line of eight squares by a disc placed at
    `position`, every square of the line that is not the mover's (`mine`,
    a byte) being the opponent's."""
    flipped = 0
    for step in (-1, 1):
        run = 0
        k = position + step
        while 0 <= k < 8 and not mine >> k & 1:
            run += 1
            k += step
        if 0 <= k < 8 and run:
            flipped += run
    return flipped


def _diagonal(square: int, column_step: int) -> int:
    """The squares on the line through `square` that moves one row down and
    `column_step` columns across per step, `square` included."""
    row, col = divmod(square, 8)
    line = 0
    for direction in (-1, 1):
        r, c = row, col
        while 0 <= r < 8 and 0 <= c < 8:
            line |= 1 << (r * 8 + c)
            r += direction
            c += direction * column_step
    return line


# Where the diagonals' masks start in the table, after the eight positions'
# 256 counts; the other diagonals' follow.
DIAGONALS_AT: Final[i64] = 8 * 256
ANTI_DIAGONALS_AT: Final[i64] = DIAGONALS_AT + 64


@final  # direct calls from the solver, which the C compiler may inline
class LastFlips:
    """`count(own, square)`: the discs flipped by the side owning `own` on
    `square`, the board's only empty square (0: it may not play there);
    `margin(own, opp, square)`: the final margin for the side owning `own`,
    to move (`anti`: counted the other way)."""

    def __init__(self, anti: bool = False) -> None:
        self.anti = anti
        self.sign: i64 = 1
        if anti:
            self.sign = -1
        # One vec for the counts and the masks: each vec read from an
        # attribute is reference counted, once per call as a local.
        # Diagonals shorter than eight read as the opponent's beyond their
        # ends, where a run never meets a disc of ours. The masks leave h8
        # out (a vec word, interpreted, is below 2**63): only the a1-h8
        # diagonal has it, and only that one a1, so `count` puts h8 back
        # where a1 is.
        self.table: vec[i64] = vec[i64](
            [line_flips(position, mine) for position in range(8) for mine in range(256)]
            + [_diagonal(square, 1) & LOW63 for square in range(64)]
            + [_diagonal(square, -1) & LOW63 for square in range(64)]
        )

    def count(self, own: i64, square: i64) -> i64:
        table = self.table
        column = square & 7
        at_column = column << 8
        n = table[at_column | (own >> (square & 56) & 255)]
        n += table[(square >> 3) << 8 | ((own >> column & FILE_A) * GATHER >> 56 & 255)]
        diagonal = table[DIAGONALS_AT + square]
        diagonal = own & (diagonal | diagonal << 63)  # a1's bit shifted to h8's
        n += table[at_column | (diagonal * FILE_A >> 56 & 255)]
        diagonal = own & table[ANTI_DIAGONALS_AT + square]
        return n + table[at_column | (diagonal * FILE_A >> 56 & 255)]

    def margin(self, own: i64, opp: i64, square: i64) -> i64:
        # Whoever can play the last square does, and the board is then full:
        # the margin is twice the mover's discs less 64.
        n = self.count(own, square)
        if n:
            return self.sign * (2 * (popcount(own) + n) - 62)
        n = self.count(opp, square)
        if n:
            return self.sign * (62 - 2 * (popcount(opp) + n))
        return final_margin(own, opp, self.anti)
