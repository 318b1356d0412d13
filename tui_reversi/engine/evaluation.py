# mypyc: compiled
"""How good a position is for the side to move, without searching.

Scores are in hundredths of a disc of final margin (SCALE = 100 per disc),
from the view of the side to move. The features, each weighted by game phase
(the number of empty squares), are those strong programs and the seed
articles agree on:

- mobility: legal moves now, and access to the corners;
- potential mobility: frontier discs (next to an empty square) hand the
  opponent moves;
- edges: one table lookup per edge scores the corners, the C-, A- and
  B-squares and, exactly, the edge discs that can never be flipped;
- X-squares next to an empty corner;
- parity: who is due to make the last move;
- discs, which matter more and more towards the end.

Anti (fewest discs wins) is not the same evaluation with the sign flipped:
mobility is still good (a side without choices is forced to take discs),
but stable discs and corners are liabilities that can never be given away,
an X- or C-square is no longer a gift to the opponent, making the last move
(parity) takes discs, and the disc count itself counts the other way.

Compiled with mypyc where a C compiler exists (endgame.py's header says what
mypyc asks of the code); boards are i64 words, handled as core/bitboard.py's
header says so that compiled and interpreted scores are identical.
"""

from __future__ import annotations

from functools import cache
from typing import Final

from mypy_extensions import i64

from ..core.bitboard import ALL, BELOW_56, CORNER_SQUARES, move_mask, native, popcount
from .squares import X_SQUARES

SCALE: Final = 100  # score units per disc
# A finished game outranks every heuristic score: final margin * SCALE + WIN.
WIN: Final = 1_000_000

# Boards here are i64 words (see core/bitboard.py for what that asks).
NOT_A: Final[i64] = native(0xFEFEFEFEFEFEFEFE)  # every column but a
NOT_H: Final[i64] = native(0x7F7F7F7F7F7F7F7F)  # every column but h
FILE_A: Final[i64] = 0x0101010101010101
_GATHER: Final[i64] = 0x0102040810204080  # (b & FILE_A) * _GATHER >> 56: column a as a byte


def terminal_score(own: int, opp: int, anti: bool) -> int:
    """The final margin in discs for the side owning `own` when the game is
    over, counted the WOF way (empties to the winner); in anti, having fewer
    discs is the positive margin."""
    return final_margin(native(own), native(opp), anti)


def final_margin(own: i64, opp: i64, anti: bool) -> int:
    """terminal_score on words."""
    lead = popcount(own) - popcount(opp)
    if anti:
        lead = -lead
    if lead > 0:
        return lead + 64 - popcount(own | opp)
    if lead < 0:
        return lead - 64 + popcount(own | opp)
    return 0


def final_value(own: i64, opp: i64, anti: bool) -> int:
    """final_margin in score units, beyond every heuristic score."""
    margin = final_margin(own, opp, anti)
    return margin * SCALE + (WIN if margin > 0 else -WIN if margin < 0 else 0)


def _phase_weights(points: dict[int, int]) -> list[int]:
    """A weight per number of empties 0..64, interpolated between anchors."""
    anchors = sorted(points.items())
    table = []
    for empties in range(65):
        lo = max((a for a in anchors if a[0] <= empties), default=anchors[0])
        hi = min((a for a in anchors if a[0] >= empties), default=anchors[-1])
        if hi[0] == lo[0]:
            table.append(round(lo[1]))
        else:
            t = (empties - lo[0]) / (hi[0] - lo[0])
            table.append(round(lo[1] + t * (hi[1] - lo[1])))
    return table


# Weights at a few numbers of empties (60 = opening, 0 = last move), in score
# units. Hand-set from the seed articles' advice; not yet fitted to game data.
OTHELLO_WEIGHTS: dict[str, dict[int, int]] = {
    "mobility": {60: 30, 40: 35, 20: 30, 0: 15},
    "corner_access": {60: 120, 20: 120, 0: 60},
    "frontier": {60: 15, 30: 12, 10: 4, 0: 0},
    "stable": {60: 60, 20: 80, 0: 100},
    "corner": {60: 250, 20: 200, 0: 100},  # per edge: a corner lies on two
    "c_square": {60: -100, 20: -60, 0: -20},  # next to an empty corner
    "a_square": {60: 15, 0: 5},
    "b_square": {60: 10, 0: 5},
    "x_square": {60: -300, 20: -150, 0: -50},  # next to an empty corner
    "parity": {60: 0, 20: 30, 0: 60},  # side to move is due the last move
    "discs": {60: -8, 40: -4, 20: 10, 0: 100},
}

ANTI_WEIGHTS: dict[str, dict[int, int]] = {
    "mobility": {60: 30, 40: 35, 20: 30, 0: 15},
    "corner_access": {60: 0, 0: 0},
    "frontier": {60: 15, 30: 12, 10: 4, 0: 0},
    "stable": {60: -60, 20: -80, 0: -100},  # stable discs stay yours: bad
    "corner": {60: -150, 20: -120, 0: -60},
    "c_square": {60: 0, 0: 0},
    "a_square": {60: -5, 0: -5},
    "b_square": {60: -5, 0: -5},
    "x_square": {60: 0, 0: 0},
    "parity": {60: 0, 20: -30, 0: -60},  # the last move takes discs
    "discs": {60: -10, 40: -15, 20: -30, 0: -100},
}


# -- the edge table ------------------------------------------------------------

# An edge line is 8 cells; a configuration is a base-3 number with digit
# 0 = empty, 1 = the side to move, 2 = the opponent, cell 0 = least significant.
_POW3: Final = [3**i for i in range(8)]
TERNARY: Final[list[int]] = [
    sum(_POW3[i] for i in range(8) if byte >> i & 1) for byte in range(256)
]
TERNARY2: Final[list[int]] = [2 * t for t in TERNARY]


def _cells(config: int) -> list[int]:
    return [config // _POW3[i] % 3 for i in range(8)]


@cache
def _edge_stability() -> list[int]:
    """Per configuration, a mask of the cells whose disc can never change
    colour, whatever is played later (any empty cell may be filled by either
    side: the move may be legal through another line). Exact for edge discs,
    which can only be outflanked along the edge."""
    unstable = [0] * 3**8
    # Fill configurations with more discs first: successors are always fuller.
    by_fullness = sorted(range(3**8), key=lambda c: -sum(1 for x in _cells(c) if x))
    for config in by_fullness:
        cells = _cells(config)
        occupied = sum(1 << i for i in range(8) if cells[i])
        mask = 0
        for i in range(8):
            if cells[i]:
                continue
            for colour in (1, 2):
                after = config + colour * _POW3[i]
                for step in (1, -1):
                    j = i + step
                    run = 0
                    while 0 <= j < 8 and cells[j] == 3 - colour:
                        run |= 1 << j
                        j += step
                    if run and 0 <= j < 8 and cells[j] == colour:
                        mask |= run
                        for k in range(8):
                            if run >> k & 1:
                                after += (colour - cells[k]) * _POW3[k]
                mask |= unstable[after] & occupied
        unstable[config] = mask
    return [_occupied(c) & ~unstable[c] for c in range(3**8)]


def _occupied(config: int) -> int:
    return sum(1 << i for i, cell in enumerate(_cells(config)) if cell)


_EDGE_FEATURES = ("stable", "corner", "c_square", "a_square", "b_square")


@cache
def _edge_features() -> list[tuple[int, ...]]:
    """Per edge configuration, own minus opponent counts of each feature in
    _EDGE_FEATURES (C-squares only next to an empty corner)."""
    stable_masks = _edge_stability()
    features = []
    for config in range(3**8):
        cells = _cells(config)
        counts = [0] * 5
        for i, cell in enumerate(cells):
            if not cell:
                continue
            sign = 1 if cell == 1 else -1
            if stable_masks[config] >> i & 1:
                counts[0] += sign
            if i in (0, 7):
                counts[1] += sign
            elif i in (1, 6):
                if not cells[0 if i == 1 else 7]:
                    counts[2] += sign
            elif i in (2, 5):
                counts[3] += sign
            else:
                counts[4] += sign
        features.append(tuple(counts))
    return features


class StableEdges:
    """`count(x, y)`: how many of x's discs on the edges can never be flipped
    (y being the other side). A lower bound of x's stable discs, cheap
    enough for the endgame solver's cutoff test."""

    def __init__(self) -> None:
        stable_masks = _edge_stability()
        # Stable cells of the digit-1 side, corners left out (counted once in count).
        self.inner: list[int] = [
            sum(1 for i in range(1, 7) if stable_masks[c] >> i & 1 and _cells(c)[i] == 1)
            for c in range(3**8)
        ]

    def count(self, x: i64, y: i64) -> int:
        inner = self.inner
        return (
            popcount(x & CORNER_SQUARES)
            + inner[TERNARY[x & 255] + TERNARY2[y & 255]]
            + inner[TERNARY[x >> 56 & 255] + TERNARY2[y >> 56 & 255]]
            + inner[
                TERNARY[(x & FILE_A) * _GATHER >> 56 & 255]
                + TERNARY2[(y & FILE_A) * _GATHER >> 56 & 255]
            ]
            + inner[
                TERNARY[(x >> 7 & FILE_A) * _GATHER >> 56 & 255]
                + TERNARY2[(y >> 7 & FILE_A) * _GATHER >> 56 & 255]
            ]
        )

    def __call__(self, x: int, y: int) -> int:
        return self.count(native(x), native(y))


@cache
def make_stable_edge_counter() -> StableEdges:
    """The shared StableEdges (its table is built once per process)."""
    return StableEdges()


class Evaluator:
    """The static evaluation for Othello/Reversi or, with `anti`, for anti.

    `evaluate(own, opp)` (or calling the evaluator) scores the position for
    the side owning `own`, which is to move.
    """

    def __init__(self, anti: bool) -> None:
        self.anti = anti
        spec = ANTI_WEIGHTS if anti else OTHELLO_WEIGHTS
        weights = {name: _phase_weights(points) for name, points in spec.items()}
        # Edge tables per empties count, shared between counts with equal weights.
        features = _edge_features()
        tables: dict[tuple[int, ...], list[int]] = {}
        self.edge_tables: list[list[int]] = []
        for empties in range(65):
            key = tuple(weights[name][empties] for name in _EDGE_FEATURES)
            if key not in tables:
                ws, wc, wcs, wa, wb = key
                tables[key] = [
                    ws * s + wc * c + wcs * cs + wa * a + wb * b for s, c, cs, a, b in features
                ]
            self.edge_tables.append(tables[key])
        self.w_mob: list[int] = weights["mobility"]
        self.w_cacc: list[int] = weights["corner_access"]
        self.w_front: list[int] = weights["frontier"]
        self.w_x: list[int] = weights["x_square"]
        self.w_par: list[int] = weights["parity"]
        self.w_disc: list[int] = weights["discs"]

    def evaluate(self, own: i64, opp: i64) -> int:
        """The score of the position for the side owning `own` (to move)."""
        mo = move_mask(own, opp)
        mp = move_mask(opp, own)
        if not mo and not mp:
            return final_value(own, opp, self.anti)
        empty = ~(own | opp) & ALL
        e = popcount(empty)
        table = self.edge_tables[e]
        score = (
            self.w_mob[e] * (popcount(mo) - popcount(mp))
            + self.w_cacc[e] * (popcount(mo & CORNER_SQUARES) - popcount(mp & CORNER_SQUARES))
            + self.w_disc[e] * (popcount(own) - popcount(opp))
            + table[TERNARY[own & 255] + TERNARY2[opp & 255]]
            + table[TERNARY[own >> 56 & 255] + TERNARY2[opp >> 56 & 255]]
            + table[
                TERNARY[(own & FILE_A) * _GATHER >> 56 & 255]
                + TERNARY2[(opp & FILE_A) * _GATHER >> 56 & 255]
            ]
            + table[
                TERNARY[(own >> 7 & FILE_A) * _GATHER >> 56 & 255]
                + TERNARY2[(opp >> 7 & FILE_A) * _GATHER >> 56 & 255]
            ]
        )
        # Frontier: discs next to an empty square (3x3 dilation of the empties).
        h = empty | (empty << 1 & NOT_A) | (empty >> 1 & NOT_H)
        near_empty = h | h << 8 | (h >> 8 & BELOW_56)
        score += self.w_front[e] * (popcount(opp & near_empty) - popcount(own & near_empty))
        # X-squares next to an empty corner: each corner's is 9 or 7 squares away.
        ec = empty & CORNER_SQUARES
        xs = (ec << 9 | ec << 7 | ec >> 7 | ec >> 9) & X_SQUARES
        if xs:
            score += self.w_x[e] * (popcount(own & xs) - popcount(opp & xs))
        if e & 1:
            score += self.w_par[e]
        return score

    def __call__(self, own: int, opp: int) -> int:
        return self.evaluate(native(own), native(opp))


@cache
def make_evaluator(anti: bool = False) -> Evaluator:
    """The shared Evaluator for Othello/Reversi or, with `anti`, for anti.
    Built once per process (a fraction of a second)."""
    return Evaluator(anti)
