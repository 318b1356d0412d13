# mypyc: compiled
"""Pattern evaluation: weights per configuration of a few lines and blocks,
fitted to the engine's own games (tools/selfplay.py, tools/fit.py).

A pattern is an ordered list of squares; its configuration is a base-3
number, digit k = 0 empty, 1 the side to move, 2 the other side, for its k-th
square. Each family is one pattern and its images under the board's
symmetries, all sharing one weight table:

- edge_2x (10 squares, 4 instances): an edge and the two X-squares next to
  its corners. Corner, C-, A-, B-square play and X-square danger together:
  the classic strongest single family.
- corner_3x3 (9 squares, 4 instances): the block at each corner: who can
  take or has taken the corner, and what is stable around it.
- corner_2x5 (10 squares, 8 instances): five squares of an edge from a
  corner and the five beside them: how an edge fight and the line behind it
  go together.
- line_3, line_4 (8 squares, 4 instances each): the third and fourth row
  or column from each edge, the middle's balance.
- diagonal (8 squares, 2 instances), diagonal_7 and diagonal_4 (4
  instances each): the diagonals of 8, 7 and 4 squares, which decide who
  gets the corners through the middle.

34 instances in 7 families. Each family was kept for what it is worth
(docs/engine.md): the second rows and columns (covered by the 2x5 blocks and
the edges) and the diagonals of 5 and 6 squares cut the held-out error by
nothing, for a tenth of the evaluation's time each, so they are not here.

A family's images are read from the corner outwards, so a symmetry that
maps one instance to another keeps the reading; the symmetry that maps an
instance onto itself (reversing an edge, transposing a corner block) is
folded at training time (`canonical`), so equal configurations always get
equal weights. Besides the patterns: mobility (moves now, own minus other's),
parity (an odd number of empties: the side to move is due the last move) and
a constant per phase (the side to move's edge).

Phases: by the number of empty squares, one weight set per PHASE_WIDTH
empties. The index of every instance is a few shifts, masks and table
lookups from the two bitboards: no loop over squares at evaluation time.

Compiled with mypyc beside the rest of the engine (its first line):
`PatternEvaluator` is an `Evaluator`, so the compiled search calls its
`evaluate` as directly as the hand-made one's. Boards are i64 words, handled
as core/bitboard.py's header says; endgame.py's header says what else mypyc
asks of the code.
"""

from __future__ import annotations

import sys
from array import array
from typing import Final

from librt.strings import read_i16_le
from mypy_extensions import i64

from ..core.bitboard import move_mask, native, popcount
from .evaluation import Evaluator, final_value

PHASE_WIDTH: Final = 5
PHASES: Final = 13  # empties 0..64 // PHASE_WIDTH

FILE_A: Final[i64] = 0x0101010101010101
_GATHER: Final[i64] = 0x0102040810204080  # (b & FILE_A) * _GATHER >> 56: column a as a byte
DIAG: Final[i64] = native(0x8040201008040201)  # a1-h8; * FILE_A >> 56: bit c = column c's square
ANTI_DIAG: Final[i64] = 0x0102040810204080  # a8-h1, likewise


# The squares of every instance (a1 = 0, h8 = 63), in digit order; the
# evaluator computes the same indices with shifts, masks and the tables below.
def _diagonals(length: int) -> tuple[tuple[int, ...], ...]:
    """The diagonals of `length` squares, each read by ascending column."""
    start = 8 - length
    return (
        tuple(start + 9 * k for k in range(length)),  # from row 1, rising to the h-file
        tuple(8 * start + 9 * k for k in range(length)),  # from the a-file to row 8
        tuple(8 * (length - 1) - 7 * k for k in range(length)),  # from the a-file down to row 1
        tuple(8 * 7 + start - 7 * k for k in range(length)),  # from row 8 down to the h-file
    )


FAMILIES: Final[dict[str, tuple[tuple[int, ...], ...]]] = {
    "edge_2x": (
        (0, 1, 2, 3, 4, 5, 6, 7, 9, 14),  # row 1, X-squares b2 g2
        (56, 57, 58, 59, 60, 61, 62, 63, 49, 54),  # row 8, b7 g7
        (0, 8, 16, 24, 32, 40, 48, 56, 9, 49),  # column a, b2 b7
        (7, 15, 23, 31, 39, 47, 55, 63, 14, 54),  # column h, g2 g7
    ),
    "corner_3x3": (
        (0, 1, 2, 8, 9, 10, 16, 17, 18),  # a1
        (56, 57, 58, 48, 49, 50, 40, 41, 42),  # a8
        (7, 6, 5, 15, 14, 13, 23, 22, 21),  # h1
        (63, 62, 61, 55, 54, 53, 47, 46, 45),  # h8
    ),
    "corner_2x5": (
        (0, 1, 2, 3, 4, 8, 9, 10, 11, 12),  # a1 along row 1, then row 2
        (7, 6, 5, 4, 3, 15, 14, 13, 12, 11),  # h1 along row 1
        (56, 57, 58, 59, 60, 48, 49, 50, 51, 52),  # a8 along row 8
        (63, 62, 61, 60, 59, 55, 54, 53, 52, 51),  # h8 along row 8
        (0, 8, 16, 24, 32, 1, 9, 17, 25, 33),  # a1 down column a, then column b
        (56, 48, 40, 32, 24, 57, 49, 41, 33, 25),  # a8 up column a
        (7, 15, 23, 31, 39, 6, 14, 22, 30, 38),  # h1 down column h, then column g
        (63, 55, 47, 39, 31, 62, 54, 46, 38, 30),  # h8 up column h
    ),
    "line_3": (
        tuple(range(16, 24)),  # row 3
        tuple(range(40, 48)),  # row 6
        tuple(range(2, 64, 8)),  # column c
        tuple(range(5, 64, 8)),  # column f
    ),
    "line_4": (
        tuple(range(24, 32)),  # row 4
        tuple(range(32, 40)),  # row 5
        tuple(range(3, 64, 8)),  # column d
        tuple(range(4, 64, 8)),  # column e
    ),
    "diagonal": (
        (0, 9, 18, 27, 36, 45, 54, 63),  # a1-h8
        (56, 49, 42, 35, 28, 21, 14, 7),  # a8-h1
    ),
    "diagonal_7": _diagonals(7),
    "diagonal_4": _diagonals(4),
}
FAMILY_SIZE: Final[dict[str, int]] = {
    family: 3 ** len(instances[0]) for family, instances in FAMILIES.items()
}
FAMILY_AT: Final[dict[str, int]] = {}
_at = 0
for _family, _size in FAMILY_SIZE.items():
    FAMILY_AT[_family] = _at
    _at += _size

# Offsets in a phase's table, in FAMILIES order, then the three scalar terms.
EDGE_2X_AT: Final = 0
CORNER_3X3_AT: Final = EDGE_2X_AT + 3**10
CORNER_2X5_AT: Final = CORNER_3X3_AT + 3**9
LINE_3_AT: Final = CORNER_2X5_AT + 3**10
LINE_4_AT: Final = LINE_3_AT + 3**8
DIAGONAL_AT: Final = LINE_4_AT + 3**8
DIAGONAL_7_AT: Final = DIAGONAL_AT + 3**8
DIAGONAL_4_AT: Final = DIAGONAL_7_AT + 3**7
MOBILITY_AT: Final = DIAGONAL_4_AT + 3**4  # weight per move of mobility difference
PARITY_AT: Final = MOBILITY_AT + 1  # weight when the number of empties is odd
CONSTANT_AT: Final = PARITY_AT + 1
PHASE_SIZE: Final = CONSTANT_AT + 1

# The digit permutation of the symmetry that maps each instance onto itself
# (the 2x5 blocks have none: their eight instances are all the images).
_REVERSED8: Final = (7, 6, 5, 4, 3, 2, 1, 0)
SELF_SYMMETRY: Final[dict[str, tuple[int, ...]]] = {
    "edge_2x": (7, 6, 5, 4, 3, 2, 1, 0, 9, 8),  # reverse the edge, swap the X-squares
    "corner_3x3": (0, 3, 6, 1, 4, 7, 2, 5, 8),  # transpose the block
    "corner_2x5": tuple(range(10)),
    "line_3": _REVERSED8,
    "line_4": _REVERSED8,
    "diagonal": _REVERSED8,
    "diagonal_7": tuple(range(6, -1, -1)),
    "diagonal_4": tuple(range(3, -1, -1)),
}

# Masks of the shorter diagonals, gathered by `* FILE_A >> 56`: bit c of the
# top byte is the diagonal's square in column c.
D7_B1: Final[i64] = native(sum(1 << sq for sq in FAMILIES["diagonal_7"][0]))
D7_A2: Final[i64] = native(sum(1 << sq for sq in FAMILIES["diagonal_7"][1]))
D7_A7: Final[i64] = native(sum(1 << sq for sq in FAMILIES["diagonal_7"][2]))
D7_B8: Final[i64] = native(sum(1 << sq for sq in FAMILIES["diagonal_7"][3]))
D4_E1: Final[i64] = native(sum(1 << sq for sq in FAMILIES["diagonal_4"][0]))
D4_A5: Final[i64] = native(sum(1 << sq for sq in FAMILIES["diagonal_4"][1]))
D4_A4: Final[i64] = native(sum(1 << sq for sq in FAMILIES["diagonal_4"][2]))
D4_E8: Final[i64] = native(sum(1 << sq for sq in FAMILIES["diagonal_4"][3]))


def _i16_table(values: list[int]) -> bytes:
    """`values` (each below 2**15) as little-endian int16, read back by
    `_pair`: a table the compiled evaluator reads as native words (a list of
    ints costs a bounds check, an unboxing and two reference counts a read)."""
    packed = array("h", values)
    if sys.byteorder != "little":
        packed.byteswap()
    return packed.tobytes()


def _block(bits: int, width: int, size: int, mirrored: bool) -> int:
    """Base-3 value of a block of `size` squares gathered as bits, `width`
    to a line (line r in bits width*r ..), each line read from its high bit
    down when `mirrored` (a block read from the h-file or row 8)."""
    value = 0
    for k in range(size):
        source = k - k % width + width - 1 - k % width if mirrored else k
        if bits >> source & 1:
            value += 3**k
    return value


# Base-3 value of each byte (bit i -> 3**i); the other side's is twice it.
TERN: Final = _i16_table([_block(byte, 8, 8, False) for byte in range(256)])
# Corner blocks gathered as 9 bits: a1 and a8 read each row from bit 0 up
# (TERN9), h1 and h8 from the top down (TERN9_MIRROR).
TERN9: Final = _i16_table([_block(bits, 3, 9, False) for bits in range(512)])
TERN9_MIRROR: Final = _i16_table([_block(bits, 3, 9, True) for bits in range(512)])
# 2x5 blocks gathered as 10 bits (the edge's five in bits 0-4, the next
# line's in 5-9), likewise.
TERN10: Final = _i16_table([_block(bits, 5, 10, False) for bits in range(1024)])
TERN10_MIRROR: Final = _i16_table([_block(bits, 5, 10, True) for bits in range(1024)])


def pattern_index(own: int, opp: int, squares: tuple[int, ...]) -> int:
    """The configuration of `squares` (reference version, for tests and tools)."""
    index = 0
    for k, sq in enumerate(squares):
        if own >> sq & 1:
            index += 3**k
        elif opp >> sq & 1:
            index += 2 * 3**k
    return index


def canonical(family: str, index: int) -> int:
    """The smaller of `index` and its image under the family's self-symmetry:
    the weight both share."""
    order = SELF_SYMMETRY[family]
    image = 0
    for k, source in enumerate(order):
        image += index // 3**source % 3 * 3**k
    return min(index, image)


def phase_of(empties: int) -> int:
    return empties // PHASE_WIDTH


def pack(table: list[int]) -> bytes:
    """A phase's weights as the evaluator reads them: little-endian int16."""
    values = array("h", table)
    if sys.byteorder != "little":
        values.byteswap()
    return values.tobytes()


class PatternEvaluator(Evaluator):
    """evaluate(own, opp): the fitted score for the side owning `own`, to
    move, in score units (evaluation.SCALE per disc). `tables[p]` is the
    weight table of phase p, PHASE_SIZE little-endian int16 weights (`pack`):
    two bytes a weight keep the tables small enough to stay in the caches,
    where a list of ints would cost two memory reads a weight. Othello
    scoring only.

    It sets none of the hand-made Evaluator's tables (it overrides evaluate
    and inherits only the interface).
    """

    def __init__(self, tables: list[bytes]) -> None:
        self.anti = False
        self.tables: list[bytes] = [tables[phase_of(e)] for e in range(65)]

    def evaluate(self, own: i64, opp: i64) -> int:
        empties = 64 - popcount(own | opp)
        mo = move_mask(own, opp)
        mp = move_mask(opp, own)
        if not mo and not mp:
            return final_value(own, opp, False)
        w = self.tables[empties]
        # Rows and columns as bytes (a column's bit k is its square in row k+1).
        o0 = own & 255
        p0 = opp & 255
        o1 = own >> 8 & 255
        p1 = opp >> 8 & 255
        o6 = own >> 48 & 255
        p6 = opp >> 48 & 255
        o7 = own >> 56 & 255
        p7 = opp >> 56 & 255
        oa = _column(own, 0)
        pa = _column(opp, 0)
        ob = _column(own, 1)
        pb = _column(opp, 1)
        og = _column(own, 6)
        pg = _column(opp, 6)
        oh = _column(own, 7)
        ph = _column(opp, 7)
        x_b2 = (own >> 9 & 1) + 2 * (opp >> 9 & 1)
        x_g2 = (own >> 14 & 1) + 2 * (opp >> 14 & 1)
        x_b7 = (own >> 49 & 1) + 2 * (opp >> 49 & 1)
        x_g7 = (own >> 54 & 1) + 2 * (opp >> 54 & 1)
        score: i64 = (
            _weight(w, MOBILITY_AT) * (popcount(mo) - popcount(mp))
            + _weight(w, PARITY_AT) * (empties & 1)
            + _weight(w, CONSTANT_AT)
            # edges with their X-squares
            + _weight(w, _pair(TERN, o0, p0) + 6561 * x_b2 + 19683 * x_g2)
            + _weight(w, _pair(TERN, o7, p7) + 6561 * x_b7 + 19683 * x_g7)
            + _weight(w, _pair(TERN, oa, pa) + 6561 * x_b2 + 19683 * x_b7)
            + _weight(w, _pair(TERN, oh, ph) + 6561 * x_g2 + 19683 * x_g7)
            # corner blocks: a1, a8, then h1 and h8 with their rows read mirrored
            + _weight(
                w,
                CORNER_3X3_AT
                + _pair(
                    TERN9,
                    (own & 7) | (own >> 5 & 0x38) | (own >> 10 & 0x1C0),
                    (opp & 7) | (opp >> 5 & 0x38) | (opp >> 10 & 0x1C0),
                ),
            )
            + _weight(
                w,
                CORNER_3X3_AT
                + _pair(
                    TERN9,
                    (own >> 56 & 7) | (own >> 45 & 0x38) | (own >> 34 & 0x1C0),
                    (opp >> 56 & 7) | (opp >> 45 & 0x38) | (opp >> 34 & 0x1C0),
                ),
            )
            + _weight(
                w,
                CORNER_3X3_AT
                + _pair(
                    TERN9_MIRROR,
                    (own >> 5 & 7) | (own >> 10 & 0x38) | (own >> 15 & 0x1C0),
                    (opp >> 5 & 7) | (opp >> 10 & 0x38) | (opp >> 15 & 0x1C0),
                ),
            )
            + _weight(
                w,
                CORNER_3X3_AT
                + _pair(
                    TERN9_MIRROR,
                    (own >> 61 & 7) | (own >> 50 & 0x38) | (own >> 39 & 0x1C0),
                    (opp >> 61 & 7) | (opp >> 50 & 0x38) | (opp >> 39 & 0x1C0),
                ),
            )
            # 2x5 corner blocks: along the rows, then down the columns
            + _weight(w, _from_low(o0, p0, o1, p1))
            + _weight(w, _from_high(o0, p0, o1, p1))
            + _weight(w, _from_low(o7, p7, o6, p6))
            + _weight(w, _from_high(o7, p7, o6, p6))
            + _weight(w, _from_low(oa, pa, ob, pb))
            + _weight(w, _from_high(oa, pa, ob, pb))
            + _weight(w, _from_low(oh, ph, og, pg))
            + _weight(w, _from_high(oh, ph, og, pg))
            # third and fourth rows and columns
            + _weight(w, LINE_3_AT + _pair(TERN, own >> 16 & 255, opp >> 16 & 255))
            + _weight(w, LINE_3_AT + _pair(TERN, own >> 40 & 255, opp >> 40 & 255))
            + _weight(w, LINE_3_AT + _pair(TERN, _column(own, 2), _column(opp, 2)))
            + _weight(w, LINE_3_AT + _pair(TERN, _column(own, 5), _column(opp, 5)))
            + _weight(w, LINE_4_AT + _pair(TERN, own >> 24 & 255, opp >> 24 & 255))
            + _weight(w, LINE_4_AT + _pair(TERN, own >> 32 & 255, opp >> 32 & 255))
            + _weight(w, LINE_4_AT + _pair(TERN, _column(own, 3), _column(opp, 3)))
            + _weight(w, LINE_4_AT + _pair(TERN, _column(own, 4), _column(opp, 4)))
            # diagonals, each read by ascending column
            + _weight(w, DIAGONAL_AT + _diagonal(own, opp, DIAG, 56, 255))
            + _weight(w, DIAGONAL_AT + _diagonal(own, opp, ANTI_DIAG, 56, 255))
            + _weight(w, DIAGONAL_7_AT + _diagonal(own, opp, D7_B1, 57, 127))
            + _weight(w, DIAGONAL_7_AT + _diagonal(own, opp, D7_A2, 56, 127))
            + _weight(w, DIAGONAL_7_AT + _diagonal(own, opp, D7_A7, 56, 127))
            + _weight(w, DIAGONAL_7_AT + _diagonal(own, opp, D7_B8, 57, 127))
            + _weight(w, DIAGONAL_4_AT + _diagonal(own, opp, D4_E1, 60, 15))
            + _weight(w, DIAGONAL_4_AT + _diagonal(own, opp, D4_A5, 56, 15))
            + _weight(w, DIAGONAL_4_AT + _diagonal(own, opp, D4_A4, 56, 15))
            + _weight(w, DIAGONAL_4_AT + _diagonal(own, opp, D4_E8, 60, 15))
        )
        return int(score)


def _weight(table: bytes, slot: i64) -> i64:
    """The little-endian int16 weight at `slot`."""
    return i64(read_i16_le(table, slot + slot))


def _pair(table: bytes, own: i64, opp: i64) -> i64:
    """The base-3 value of a pattern whose squares are bits `own` and `opp`
    of the two sides (`table` holds one side's digits; the other's are 2)."""
    return i64(read_i16_le(table, own + own)) + 2 * i64(read_i16_le(table, opp + opp))


def _column(board: i64, column: i64) -> i64:
    """A column as a byte, bit k its square in row k + 1."""
    return (board >> column & FILE_A) * _GATHER >> 56 & 255


def _from_low(o_edge: i64, p_edge: i64, o_next: i64, p_next: i64) -> i64:
    """The slot of the 2x5 block on the low five bits of an edge's byte and
    of the next line's (from the a-file, or from row 1)."""
    return CORNER_2X5_AT + _pair(
        TERN10, (o_edge & 31) | (o_next & 31) << 5, (p_edge & 31) | (p_next & 31) << 5
    )


def _from_high(o_edge: i64, p_edge: i64, o_next: i64, p_next: i64) -> i64:
    """The slot of the 2x5 block on the high five bits, read from the top
    bit down (from the h-file, or from row 8)."""
    return CORNER_2X5_AT + _pair(
        TERN10_MIRROR, (o_edge >> 3) | (o_next >> 3) << 5, (p_edge >> 3) | (p_next >> 3) << 5
    )


def _diagonal(own: i64, opp: i64, mask: i64, shift: i64, bits: i64) -> i64:
    """A diagonal's configuration: its squares (at most one per column)
    gathered into the top byte by column, shifted down by `shift` (56 + its
    first column) and cut to its length by `bits`."""
    return _pair(TERN, (own & mask) * FILE_A >> shift & bits, (opp & mask) * FILE_A >> shift & bits)
