# mypyc: compiled
"""Stable discs: a side's discs that no sequence of moves can ever flip.

A lower bound of them, as strong solvers count it: a disc on an edge is
flipped only along its edge, so a table of every edge's 3**8 fillings gives
those exactly; a line with no empty square can never be played on, so a
disc none of whose four lines (row, column, two diagonals) can flip it is
stable. A line cannot flip a disc when it is full, or when the disc has a
stable disc of its own colour next to it on that line (a flip along it
would flip that neighbour too). The stable set is grown from the edges'
and the discs on four full lines until nothing is added.

The exact solver (endgame.py) cuts a node when the opponent's stable discs
alone keep the margin at or below alpha.

A hot module, compiled with mypyc (see endgame.py's header); boards are
i64 words, handled as core/bitboard.py's header says.
"""

from __future__ import annotations

from functools import cache
from typing import Final, final

from mypy_extensions import i64

from .evaluation import _edge_stability

FILE_A: Final[i64] = 0x0101010101010101
ROW_1: Final[i64] = 0xFF
GATHER: Final[i64] = 0x0102040810204080  # (b & FILE_A) * GATHER >> 56: column a as a byte
# Bits 0-6 of a byte onto column a (bit k to row k + 1), each product alone
# in its bits; bit 7, a8, is put back by a shift.
SCATTER: Final[i64] = 0x0000040810204081
# b2..g7: the discs that are not on an edge.
CENTRE: Final[i64] = 0x007E7E7E7E7E7E00
# The squares with no square 1, 2 or 4 steps away up the bit order (UP) or
# down it (DOWN) along a diagonal of step 9 (a1-h8) or 7 (h1-a8): the
# board's border, which the fill of full diagonals reads as full. The
# compiled shifts down copy h8 into the top bits, which these cover. Those
# with h8 are written as the negative words they are compiled (a native()
# word is loaded and checked at every use, and mypyc boxes a literal beyond
# 2**62: the one such border is built where it is used): interpreted, each
# is ANDed with a board before anything reads it, so no negative board
# comes out.
UP9_1: Final[i64] = -0x007F7F7F7F7F7F80  # 0xFF80808080808080
UP9_2: Final[i64] = -0x00003F3F3F3F3F40  # 0xFFFFC0C0C0C0C0C0
UP9_4: Final[i64] = -0x000000000F0F0F10  # 0xFFFFFFFFF0F0F0F0
DOWN9_1: Final[i64] = 0x01010101010101FF
DOWN9_2: Final[i64] = 0x030303030303FFFF
DOWN9_4: Final[i64] = 0x0F0F0F0FFFFFFFFF
UP7_1: Final[i64] = -0x00FEFEFEFEFEFEFF  # 0xFF01010101010101
UP7_2: Final[i64] = -0x0000FCFCFCFCFCFD  # 0xFFFF030303030303
UP7_4: Final[i64] = -0x00000000F0F0F0F1  # 0xFFFFFFFF0F0F0F0F
DOWN7_2: Final[i64] = -0x3F3F3F3F3F3F0001  # 0xC0C0C0C0C0C0FFFF
DOWN7_4: Final[i64] = -0x0F0F0F0F00000001  # 0xF0F0F0F0FFFFFFFF


@final  # direct calls from the solver
class Stability:
    """`discs(own, opp)`: own's discs that are stable (a subset of them
    all: those the rules above find)."""

    def __init__(self) -> None:
        stable = _edge_stability()
        base3 = [sum(3**i for i in range(8) if byte >> i & 1) for byte in range(256)]
        # Per pair of bytes (x, y) of an edge, the other side's discs y, the
        # stable discs of x, at x << 8 | y: bytes, 64 KiB (squares both
        # sides would hold read as nothing).
        self.edges: bytes = bytes(
            stable[base3[x] + 2 * base3[y]] & x if not x & y else 0
            for x in range(256)
            for y in range(256)
        )

    def discs(self, own: i64, opp: i64) -> i64:
        edges = self.edges
        filled = own | opp
        # Full rows: a row's bit 0 becomes the AND of its eight squares (no
        # other row's bit reaches it), then spread back over the row.
        x = filled & (filled >> 1)
        x &= x >> 2
        x &= x >> 4
        full_h = (x & FILE_A) * ROW_1
        # Full columns: row 1 becomes the AND of the eight rows (the compiled
        # shifts copy h8 only into rows masked off), spread back.
        x = filled & (filled >> 32)
        x &= x >> 16
        x &= x >> 8
        full_v = (x & ROW_1) * FILE_A
        # Full diagonals: a square ANDed with those 1, 2 and 4 steps away
        # along its diagonal, each way, the border reading as full.
        x = filled & ((filled >> 9) | UP9_1)
        x &= (x >> 18) | UP9_2
        x &= (x >> 36) | UP9_4
        y = filled & ((filled << 9) | DOWN9_1)
        y &= (y << 18) | DOWN9_2
        y &= (y << 36) | DOWN9_4
        full_d9 = x & y
        x = filled & ((filled >> 7) | UP7_1)
        x &= (x >> 14) | UP7_2
        x &= (x >> 28) | UP7_4
        # Column h or row 1, shifted here: mypyc would fold FILE_A << 7 into a
        # literal beyond 2**62, which it boxes.
        border = FILE_A
        border = border << 7 | ROW_1
        y = filled & ((filled << 7) | border)
        y &= (y << 14) | DOWN7_2
        y &= (y << 28) | DOWN7_4
        full_d7 = x & y
        # The edges' stable discs: rows 1 and 8, then columns a and h as bytes.
        stable = i64(edges[(own & 255) << 8 | (opp & 255)])
        stable |= i64(edges[(own >> 56 & 255) << 8 | (opp >> 56 & 255)]) << 56
        byte = i64(
            edges[
                ((own & FILE_A) * GATHER >> 56 & 255) << 8 | ((opp & FILE_A) * GATHER >> 56 & 255)
            ]
        )
        stable |= ((byte & 127) * SCATTER & FILE_A) | (byte & 128) << 49
        byte = i64(
            edges[
                ((own >> 7 & FILE_A) * GATHER >> 56 & 255) << 8
                | ((opp >> 7 & FILE_A) * GATHER >> 56 & 255)
            ]
        )
        stable |= (((byte & 127) * SCATTER & FILE_A) | (byte & 128) << 49) << 7
        centre = own & CENTRE
        stable |= centre & full_h & full_v & full_d9 & full_d7
        if not stable:
            return 0  # nothing to grow from
        # Grow: a centre disc each of whose lines is full or holds a stable
        # disc next to it (centre discs have all eight neighbours on the
        # board, so no shift wraps a row into them, and the compiled shifts
        # down copy h8 only into squares off the centre).
        while True:
            grown = stable | (
                centre
                & ((stable >> 1) | (stable << 1) | full_h)
                & ((stable >> 8) | (stable << 8) | full_v)
                & ((stable >> 9) | (stable << 9) | full_d9)
                & ((stable >> 7) | (stable << 7) | full_d7)
            )
            if grown == stable:
                return stable
            stable = grown


@cache
def shared_stability() -> Stability:
    """The process's Stability (its table is built once, in a few ms)."""
    return Stability()
