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
"""

from __future__ import annotations

from ..core.bitboard import FULL, legal_moves_pair, mirror_horizontal
from .evaluation import Evaluator, terminal_value

PHASE_WIDTH = 5
PHASES = 13  # empties 0..64 // PHASE_WIDTH

FILE_A = 0x0101010101010101
_GATHER = 0x0102040810204080  # (b & FILE_A) * _GATHER >> 56: column a as a byte, a1 = bit 0
DIAG = 0x8040201008040201  # a1-h8; * FILE_A >> 56: bit c = the square in column c
ANTI_DIAG = 0x0102040810204080  # a8-h1, likewise

# Family sizes (configurations) and their offsets in a phase's table.
EDGE_2X_SIZE = 3**10
CORNER_3X3_SIZE = 3**9
LINE_2_SIZE = 3**8
DIAGONAL_SIZE = 3**8
EDGE_2X_AT = 0
CORNER_3X3_AT = EDGE_2X_AT + EDGE_2X_SIZE
LINE_2_AT = CORNER_3X3_AT + CORNER_3X3_SIZE
DIAGONAL_AT = LINE_2_AT + LINE_2_SIZE
MOBILITY_AT = DIAGONAL_AT + DIAGONAL_SIZE  # weight per move of mobility difference
CONSTANT_AT = MOBILITY_AT + 1
PHASE_SIZE = CONSTANT_AT + 1

# The squares of every instance (a1 = 0, h8 = 63), in digit order; the
# evaluator computes the same indices with the tables below.
FAMILIES: dict[str, tuple[tuple[int, ...], ...]] = {
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
FAMILY_AT = {
    "edge_2x": EDGE_2X_AT,
    "corner_3x3": CORNER_3X3_AT,
    "line_2": LINE_2_AT,
    "diagonal": DIAGONAL_AT,
}
FAMILY_SIZE = {
    "edge_2x": EDGE_2X_SIZE,
    "corner_3x3": CORNER_3X3_SIZE,
    "line_2": LINE_2_SIZE,
    "diagonal": DIAGONAL_SIZE,
}
# The digit permutation of the symmetry that maps each instance onto itself.
SELF_SYMMETRY: dict[str, tuple[int, ...]] = {
    "edge_2x": (7, 6, 5, 4, 3, 2, 1, 0, 9, 8),  # reverse the edge, swap the X-squares
    "corner_3x3": (0, 3, 6, 1, 4, 7, 2, 5, 8),  # transpose the block
    "line_2": (7, 6, 5, 4, 3, 2, 1, 0),
    "diagonal": (7, 6, 5, 4, 3, 2, 1, 0),
}

# Base-3 value of each byte (bit i -> 3**i), and twice it (the other side).
TERN: list[int] = [sum(3**i for i in range(8) if byte >> i & 1) for byte in range(256)]
TERN2: list[int] = [2 * t for t in TERN]
# The 3x3 block gathered as 9 bits: row r of the block in bits 3r..3r+2.
TERN9: list[int] = [sum(3**i for i in range(9) if bits >> i & 1) for bits in range(512)]
TERN9_2: list[int] = [2 * t for t in TERN9]


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


def _edge_2x(o: int, p: int, ob: int, pb: int, x0: int, x1: int) -> int:
    """Edge byte configuration plus the X-squares at bits x0 and x1."""
    return (
        TERN[ob]
        + TERN2[pb]
        + 6561 * ((o >> x0 & 1) + 2 * (p >> x0 & 1))
        + 19683 * ((o >> x1 & 1) + 2 * (p >> x1 & 1))
    )


class PatternEvaluator:
    """evaluate(own, opp): the fitted score for the side owning `own`, to
    move, in score units (evaluation.SCALE per disc). `tables[e]` is the
    weight table of the phase of `e` empties, PHASE_SIZE entries."""

    def __init__(
        self,
        tables: list[list[int]],
        anti: bool = False,
        opening: Evaluator | None = None,
        opening_above: int = 64,
    ) -> None:
        self.tables = [tables[phase_of(e)] for e in range(65)]
        self.anti = anti
        # With more than `opening_above` empties, `opening` scores instead.
        self.opening = opening
        self.opening_above = opening_above if opening is not None else 64

    def evaluate(self, own: int, opp: int) -> int:
        empties = 64 - (own | opp).bit_count()
        if empties > self.opening_above and self.opening is not None:
            return self.opening(own, opp)
        mo, mp = legal_moves_pair(own, opp)
        if not mo and not mp:
            return terminal_value(own, opp, self.anti)
        w = self.tables[empties]
        tern = TERN
        tern2 = TERN2
        t9 = TERN9
        t9b = TERN9_2
        mown = mirror_horizontal(own)
        mopp = mirror_horizontal(opp)
        col_ao = (own & FILE_A) * _GATHER >> 56 & 255
        col_ap = (opp & FILE_A) * _GATHER >> 56 & 255
        col_ho = (own >> 7 & FILE_A) * _GATHER >> 56 & 255
        col_hp = (opp >> 7 & FILE_A) * _GATHER >> 56 & 255
        score: int = (
            w[MOBILITY_AT] * (mo.bit_count() - mp.bit_count())
            + w[CONSTANT_AT]
            # edges with their X-squares
            + w[_edge_2x(own, opp, own & 255, opp & 255, 9, 14)]
            + w[_edge_2x(own, opp, own >> 56, opp >> 56, 49, 54)]
            + w[_edge_2x(own, opp, col_ao, col_ap, 9, 49)]
            + w[_edge_2x(own, opp, col_ho, col_hp, 14, 54)]
            # corner blocks: a1 and a8, then h1 and h8 as a1 and a8 mirrored
            + w[
                CORNER_3X3_AT
                + t9[(own & 7) | (own >> 5 & 0x38) | (own >> 10 & 0x1C0)]
                + t9b[(opp & 7) | (opp >> 5 & 0x38) | (opp >> 10 & 0x1C0)]
            ]
            + w[
                CORNER_3X3_AT
                + t9[(own >> 56 & 7) | (own >> 45 & 0x38) | (own >> 34 & 0x1C0)]
                + t9b[(opp >> 56 & 7) | (opp >> 45 & 0x38) | (opp >> 34 & 0x1C0)]
            ]
            + w[
                CORNER_3X3_AT
                + t9[(mown & 7) | (mown >> 5 & 0x38) | (mown >> 10 & 0x1C0)]
                + t9b[(mopp & 7) | (mopp >> 5 & 0x38) | (mopp >> 10 & 0x1C0)]
            ]
            + w[
                CORNER_3X3_AT
                + t9[(mown >> 56 & 7) | (mown >> 45 & 0x38) | (mown >> 34 & 0x1C0)]
                + t9b[(mopp >> 56 & 7) | (mopp >> 45 & 0x38) | (mopp >> 34 & 0x1C0)]
            ]
            # second rows and columns
            + w[LINE_2_AT + tern[own >> 8 & 255] + tern2[opp >> 8 & 255]]
            + w[LINE_2_AT + tern[own >> 48 & 255] + tern2[opp >> 48 & 255]]
            + w[
                LINE_2_AT
                + tern[(own >> 1 & FILE_A) * _GATHER >> 56 & 255]
                + tern2[(opp >> 1 & FILE_A) * _GATHER >> 56 & 255]
            ]
            + w[
                LINE_2_AT
                + tern[(own >> 6 & FILE_A) * _GATHER >> 56 & 255]
                + tern2[(opp >> 6 & FILE_A) * _GATHER >> 56 & 255]
            ]
            # long diagonals
            + w[
                DIAGONAL_AT
                + tern[((own & DIAG) * FILE_A & FULL) >> 56]
                + tern2[((opp & DIAG) * FILE_A & FULL) >> 56]
            ]
            + w[
                DIAGONAL_AT
                + tern[((own & ANTI_DIAG) * FILE_A & FULL) >> 56]
                + tern2[((opp & ANTI_DIAG) * FILE_A & FULL) >> 56]
            ]
        )
        return score
