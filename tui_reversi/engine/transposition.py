# mypyc: compiled
"""Transposition tables: entries packed in one word for the exact solver
(endgame.py) and the midgame search (search.py), and the native table both
keep them in (`TranspositionTable`).

A table is one native array of words: a probe or a store allocates nothing and
hashes nothing in Python. Against the dicts of int keys they replaced
(trimmed to their deepest half when full), the midgame search reached
depth 14 in 0.97x the nodes with hard's cuts, 1.85x the nodes per second
with the evaluation's native tables too, and 0.65x the peak memory; the
solver FFO #40-44 in the same nodes, 1.04-1.06x as fast, and #43-44 at
0.46x the peak memory (docs/engine.md, "Engine speed").

Both kinds of entry keep the best square + 1 in their low 7 bits (0: none).
A solver entry holds bounds on the final margin (-64..64) of a position
with `empties` empty squares:
(lower + 64) << 22 | (upper + 64) << 14 | empties << 7 | square. A midgame
entry holds one score, exact or a bound, searched `depth` plies deep:
(score + SCORE_BIAS) << 16 | bound << 14 | depth << 7 | square. Both keep
how deep their search went in the same bits (`entry_depth`): a full
bucket keeps its deeper entry, which cost most to find. No entry is 0.

A hot module, compiled with mypyc (see endgame.py's header).
"""

from __future__ import annotations

from typing import Final, final

from librt.vecs import vec
from mypy_extensions import i64

from ..core.bitboard import square_bit

# Slots of a table: 2**19, 12 MiB. The midgame search to depth 14 took
# 1.19x the nodes with 2**18 and 0.98x, in more time, with 2**20; the
# solver FFO #40-44 in the same nodes and time with 2**20.
TT_BITS: Final = 19

EXACT: Final = 0  # a midgame score is exact,
LOWER: Final = 1  # a lower bound (the search failed high),
UPPER: Final = 2  # or an upper bound (it failed low)
SCORE_BIAS: Final = 1 << 24  # beyond every midgame score, so that scores pack as non-negative


def entry_move(entry: i64) -> i64:
    """The best square of either kind of entry, or -1."""
    return i64(entry & 127) - 1


def solver_entry(lower: i64, upper: i64, empties: i64, best_sq: i64) -> i64:
    return (lower + 64) << 22 | (upper + 64) << 14 | empties << 7 | (best_sq + 1)


def solver_lower(entry: i64) -> i64:
    return (entry >> 22) - 64


def solver_upper(entry: i64) -> i64:
    return (entry >> 14 & 255) - 64


def midgame_entry(score: int, bound: int, depth: int, best_sq: i64) -> int:
    return (score + SCORE_BIAS) << 16 | bound << 14 | depth << 7 | int(best_sq + 1)


def entry_score(entry: int) -> int:
    return (entry >> 16) - SCORE_BIAS


def entry_bound(entry: int) -> int:
    return entry >> 14 & 3


def entry_depth(entry: i64) -> i64:
    return entry >> 7 & 127


TAG_SHIFT: Final[i64] = 58  # the key's two h8 bits sit above every entry's fields
ENTRY_BITS: Final[i64] = 0x03FF_FFFF_FFFF_FFFF  # the bits below TAG_SHIFT
LOW32: Final[i64] = 0xFFFF_FFFF
SLOT_WORDS: Final[i64] = 3  # a slot's words: the two sides' discs, then the entry
_ZEROS: dict[i64, vec[i64]] = {}  # a table's worth of zeros per size, made at its first table


def _zeros(size: i64) -> vec[i64]:
    """A fresh vec of `size` zeros, copied from a template (a copy is a
    memcpy; building one from a list unboxes every item)."""
    template = _ZEROS.get(size)
    if template is None:
        template = vec[i64]([0] * size)
        _ZEROS[size] = template
    return template[0:size]


@final  # direct calls in the compiled search, which the C compiler may inline
class TranspositionTable:
    """A transposition table of the solver's or the midgame search's
    entries: 2**bits slots of three machine words in one native array
    (librt.vecs), so that a probe or a store allocates nothing and hashes
    nothing in Python (a dict of int keys made a 128-bit key, hashed it and
    boxed the entry at every node).

    A position has a bucket of two slots, six words side by side, so that
    a probe reads one or two cache lines (three arrays of words, one per
    field, cost a line each). A slot holds the position's two words
    without their h8 bits and its entry with those two bits above it
    (TAG_SHIFT), so that a key compares exactly, compiled (where h8 is the
    sign) and interpreted alike. A store overwrites the position's slot
    when it has one, or else the shallower of the two: the deeper entries,
    which cost most to find, stay, and a new entry always finds room. An
    empty slot holds entry 0, which no position's entry is, and two empty
    words, which no position with discs has.
    """

    def __init__(self, bits: i64) -> None:
        size = i64(1) << bits
        self.buckets: i64 = (size >> 1) - 1  # a bucket's number, as a mask
        self.words: vec[i64] = _zeros(SLOT_WORDS * size)

    def bucket(self, own: i64, opp: i64) -> i64:
        """The first word of the position's bucket (the same compiled and
        interpreted: only masked shifts and products below 2**63)."""
        a = (own ^ (own >> 32)) & LOW32
        b = (opp ^ (opp >> 32)) & LOW32
        mixed = a * 0x2545F491 + b * 0x3C6EF373
        return (mixed >> 24 & self.buckets) * (2 * SLOT_WORDS)

    def get(self, own: i64, opp: i64) -> i64:
        """The position's entry, or 0 when the table has none."""
        i = self.bucket(own, opp)
        words = self.words
        tag = _tag(own, opp)
        # The words without h8, the sign compiled (LOW63, a literal beyond
        # 2**62, would be a boxed constant converted at every use).
        own_low = own & ~square_bit(63)
        opp_low = opp & ~square_bit(63)
        if _holds(words, i, own_low, opp_low, tag):
            return words[i + 2] & ENTRY_BITS
        if _holds(words, i + SLOT_WORDS, own_low, opp_low, tag):
            return words[i + SLOT_WORDS + 2] & ENTRY_BITS
        return 0

    def put(self, own: i64, opp: i64, entry: i64) -> None:
        """Stores the position's entry (non-zero, below 2**TAG_SHIFT)."""
        i = self.bucket(own, opp)
        words = self.words
        tag = _tag(own, opp)
        own_low = own & ~square_bit(63)
        opp_low = opp & ~square_bit(63)
        second = i + SLOT_WORDS
        if not _holds(words, i, own_low, opp_low, tag) and (
            _holds(words, second, own_low, opp_low, tag)
            or entry_depth(words[i + 2]) > entry_depth(words[second + 2])
        ):
            i = second  # the position's slot, or neither is and it is the shallower
        words[i] = own_low
        words[i + 1] = opp_low
        words[i + 2] = entry | tag << TAG_SHIFT


def _holds(words: vec[i64], i: i64, own_low: i64, opp_low: i64, tag: i64) -> bool:
    """Whether the slot at word `i` holds the position of these words and h8 bits."""
    return words[i] == own_low and words[i + 1] == opp_low and words[i + 2] >> TAG_SHIFT == tag


def _tag(own: i64, opp: i64) -> i64:
    """The h8 bits of the two words, as 0-3."""
    return (own >> 63 & 1) | (opp >> 63 & 1) << 1
