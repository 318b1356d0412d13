# mypyc: compiled
"""Pattern evaluation: weights per configuration of a few lines and blocks,
fitted to the engine's own games (tools/selfplay.py, tools/fit.py).

A pattern is an ordered list of squares; its configuration is a base-3
number, digit k = 0 empty, 1 the side to move, 2 the other side, for its k-th
square. Each family is one pattern and its images under the board's
symmetries, all sharing one weight table:

- EDGE_2X (10 squares, 4 instances): an edge and the two X-squares next to
  its corners. Corner, C-, A-, B-square play and X-square danger together:
  the classic strongest single family.
- CORNER_3X3 (9 squares, 4 instances): the block at each corner: who can
  take or has taken the corner, and what is stable around it.
- LINE_2 (8 squares, 4 instances): the second row or column from each edge,
  where discs hand the opponent the edge (or not).
- DIAGONAL (8 squares, 2 instances): the long diagonals, which decide who
  gets the corners through the middle.

A family's images are read from the corner outwards, so a symmetry that
maps one instance to another keeps the reading; the symmetry that maps an
instance onto itself (reversing an edge, transposing a corner block) is
folded at training time (`canonical`), so equal configurations always get
equal weights. Besides the patterns: mobility (moves now, own minus other's)
and a constant per phase (the side to move's edge, parity included).

Phases: by the number of empty squares, one weight set per PHASE_WIDTH
empties. The index of every instance is a few shifts, masks and table
lookups from the two bitboards: no loop over squares at evaluation time.

Compiled with mypyc beside the rest of the engine (setup.py's HOT_MODULES):
`PatternEvaluator` is an `Evaluator`, so the compiled search calls its
`evaluate` as directly as the hand-made one's. Boards are i64 words, handled
as core/bitboard.py's header says; endgame.py's header says what else mypyc
asks of the code.
"""

from __future__ import annotations

from typing import Final

from mypy_extensions import i64

from ..core.bitboard import move_mask, native, popcount
from .evaluation import Evaluator, final_value, make_evaluator

PHASE_WIDTH: Final = 5
PHASES: Final = 13  # empties 0..64 // PHASE_WIDTH

FILE_A: Final[i64] = 0x0101010101010101
_GATHER: Final[i64] = 0x0102040810204080  # (b & FILE_A) * _GATHER >> 56: column a as a byte
DIAG: Final[i64] = native(0x8040201008040201)  # a1-h8; * FILE_A >> 56: bit c = column c's square
ANTI_DIAG: Final[i64] = 0x0102040810204080  # a8-h1, likewise

# Family sizes (configurations) and their offsets in a phase's table.
EDGE_2X_SIZE: Final = 3**10
CORNER_3X3_SIZE: Final = 3**9
LINE_2_SIZE: Final = 3**8
DIAGONAL_SIZE: Final = 3**8
EDGE_2X_AT: Final = 0
CORNER_3X3_AT: Final = EDGE_2X_AT + EDGE_2X_SIZE
LINE_2_AT: Final = CORNER_3X3_AT + CORNER_3X3_SIZE
DIAGONAL_AT: Final = LINE_2_AT + LINE_2_SIZE
MOBILITY_AT: Final = DIAGONAL_AT + DIAGONAL_SIZE  # weight per move of mobility difference
CONSTANT_AT: Final = MOBILITY_AT + 1
PHASE_SIZE: Final = CONSTANT_AT + 1

# The squares of every instance (a1 = 0, h8 = 63), in digit order; the
# evaluator computes the same indices with the tables below.
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
    "line_2": (
        (8, 9, 10, 11, 12, 13, 14, 15),  # row 2
        (48, 49, 50, 51, 52, 53, 54, 55),  # row 7
        (1, 9, 17, 25, 33, 41, 49, 57),  # column b
        (6, 14, 22, 30, 38, 46, 54, 62),  # column g
    ),
    "diagonal": (
        (0, 9, 18, 27, 36, 45, 54, 63),  # a1-h8
        (56, 49, 42, 35, 28, 21, 14, 7),  # a8-h1
    ),
}
FAMILY_AT: Final[dict[str, int]] = {
    "edge_2x": EDGE_2X_AT,
    "corner_3x3": CORNER_3X3_AT,
    "line_2": LINE_2_AT,
    "diagonal": DIAGONAL_AT,
}
FAMILY_SIZE: Final[dict[str, int]] = {
    "edge_2x": EDGE_2X_SIZE,
    "corner_3x3": CORNER_3X3_SIZE,
    "line_2": LINE_2_SIZE,
    "diagonal": DIAGONAL_SIZE,
}
# The digit permutation of the symmetry that maps each instance onto itself.
SELF_SYMMETRY: Final[dict[str, tuple[int, ...]]] = {
    "edge_2x": (7, 6, 5, 4, 3, 2, 1, 0, 9, 8),  # reverse the edge, swap the X-squares
    "corner_3x3": (0, 3, 6, 1, 4, 7, 2, 5, 8),  # transpose the block
    "line_2": (7, 6, 5, 4, 3, 2, 1, 0),
    "diagonal": (7, 6, 5, 4, 3, 2, 1, 0),
}

# Base-3 value of each byte (bit i -> 3**i), and twice it (the other side).
TERN: Final[list[int]] = [sum(3**i for i in range(8) if byte >> i & 1) for byte in range(256)]
TERN2: Final[list[int]] = [2 * t for t in TERN]


def _block(bits: int, mirrored: bool) -> int:
    """Base-3 value of a 3x3 block gathered as 9 bits (row r in bits
    3r..3r+2), each row read from its high bit down when `mirrored`."""
    value = 0
    for k in range(9):
        source = k - k % 3 + 2 - k % 3 if mirrored else k
        if bits >> source & 1:
            value += 3**k
    return value


# Corner blocks gathered as 9 bits: a1 and a8 read each row from bit 0 up
# (TERN9), h1 and h8 from the top down (TERN9_MIRROR); twice: the other side.
TERN9: Final[list[int]] = [_block(bits, False) for bits in range(512)]
TERN9_2: Final[list[int]] = [2 * t for t in TERN9]
TERN9_MIRROR: Final[list[int]] = [_block(bits, True) for bits in range(512)]
TERN9_MIRROR_2: Final[list[int]] = [2 * t for t in TERN9_MIRROR]


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


def feature_indices(own: int, opp: int) -> list[int]:
    """Every instance's slot in a phase's table (offsets included): the
    reference the trainer uses; the evaluator computes the same sum inline."""
    out: list[int] = []
    for family, instances in FAMILIES.items():
        at = FAMILY_AT[family]
        for squares in instances:
            out.append(at + pattern_index(own, opp, squares))
    return out


def _edge_2x(o: i64, p: i64, ob: i64, pb: i64, x0: i64, x1: i64) -> int:
    """Edge byte configuration plus the X-squares at bits x0 and x1."""
    return (
        TERN[ob]
        + TERN2[pb]
        + 6561 * ((o >> x0 & 1) + 2 * (p >> x0 & 1))
        + 19683 * ((o >> x1 & 1) + 2 * (p >> x1 & 1))
    )


class PatternEvaluator(Evaluator):
    """evaluate(own, opp): the fitted score for the side owning `own`, to
    move, in score units (evaluation.SCALE per disc). `tables[p]` is the
    weight table of phase p, PHASE_SIZE entries. Othello scoring only.

    With more than `opening_above` empties the hand-made evaluation scores
    instead. It is the shared hand-made Evaluator, called rather than
    inherited from, so that its tables are not built a second time: this
    class sets none of Evaluator's own attributes and overrides evaluate.
    """

    def __init__(self, tables: list[list[int]], opening_above: int = 64) -> None:
        self.anti = False
        self.tables: list[list[int]] = [tables[phase_of(e)] for e in range(65)]
        self.opening: Evaluator = make_evaluator(False)
        self.opening_above: int = opening_above

    def evaluate(self, own: i64, opp: i64) -> int:
        empties = 64 - popcount(own | opp)
        if empties > self.opening_above:
            return self.opening.evaluate(own, opp)
        mo = move_mask(own, opp)
        mp = move_mask(opp, own)
        if not mo and not mp:
            return final_value(own, opp, False)
        w = self.tables[empties]
        col_ao = (own & FILE_A) * _GATHER >> 56 & 255
        col_ap = (opp & FILE_A) * _GATHER >> 56 & 255
        col_ho = (own >> 7 & FILE_A) * _GATHER >> 56 & 255
        col_hp = (opp >> 7 & FILE_A) * _GATHER >> 56 & 255
        score: int = (
            w[MOBILITY_AT] * (popcount(mo) - popcount(mp))
            + w[CONSTANT_AT]
            # edges with their X-squares
            + w[_edge_2x(own, opp, own & 255, opp & 255, 9, 14)]
            + w[_edge_2x(own, opp, own >> 56 & 255, opp >> 56 & 255, 49, 54)]
            + w[_edge_2x(own, opp, col_ao, col_ap, 9, 49)]
            + w[_edge_2x(own, opp, col_ho, col_hp, 14, 54)]
            # corner blocks: a1, a8, then h1 and h8 with their rows read mirrored
            + w[
                CORNER_3X3_AT
                + TERN9[(own & 7) | (own >> 5 & 0x38) | (own >> 10 & 0x1C0)]
                + TERN9_2[(opp & 7) | (opp >> 5 & 0x38) | (opp >> 10 & 0x1C0)]
            ]
            + w[
                CORNER_3X3_AT
                + TERN9[(own >> 56 & 7) | (own >> 45 & 0x38) | (own >> 34 & 0x1C0)]
                + TERN9_2[(opp >> 56 & 7) | (opp >> 45 & 0x38) | (opp >> 34 & 0x1C0)]
            ]
            + w[
                CORNER_3X3_AT
                + TERN9_MIRROR[(own >> 5 & 7) | (own >> 10 & 0x38) | (own >> 15 & 0x1C0)]
                + TERN9_MIRROR_2[(opp >> 5 & 7) | (opp >> 10 & 0x38) | (opp >> 15 & 0x1C0)]
            ]
            + w[
                CORNER_3X3_AT
                + TERN9_MIRROR[(own >> 61 & 7) | (own >> 50 & 0x38) | (own >> 39 & 0x1C0)]
                + TERN9_MIRROR_2[(opp >> 61 & 7) | (opp >> 50 & 0x38) | (opp >> 39 & 0x1C0)]
            ]
            # second rows and columns
            + w[LINE_2_AT + TERN[own >> 8 & 255] + TERN2[opp >> 8 & 255]]
            + w[LINE_2_AT + TERN[own >> 48 & 255] + TERN2[opp >> 48 & 255]]
            + w[
                LINE_2_AT
                + TERN[(own >> 1 & FILE_A) * _GATHER >> 56 & 255]
                + TERN2[(opp >> 1 & FILE_A) * _GATHER >> 56 & 255]
            ]
            + w[
                LINE_2_AT
                + TERN[(own >> 6 & FILE_A) * _GATHER >> 56 & 255]
                + TERN2[(opp >> 6 & FILE_A) * _GATHER >> 56 & 255]
            ]
            # long diagonals
            + w[
                DIAGONAL_AT
                + TERN[(own & DIAG) * FILE_A >> 56 & 255]
                + TERN2[(opp & DIAG) * FILE_A >> 56 & 255]
            ]
            + w[
                DIAGONAL_AT
                + TERN[(own & ANTI_DIAG) * FILE_A >> 56 & 255]
                + TERN2[(opp & ANTI_DIAG) * FILE_A >> 56 & 255]
            ]
        )
        return score
