# mypyc: compiled
"""Transposition tables: entries packed in one word for the exact solver
(endgame.py) and the midgame search (search.py), the solver's dict and the
trim that keeps its deepest entries when full, and the midgame search's
native table (`MidgameTable`).

The solver's table is a dict of ints, not tuples: a key is a position's two
words as one int and an entry its fields packed in one int. Against tuples
emptied at 400,000 entries, a search peaked at 86 MiB, not 198, and reached
depth 11 in 0.55x the nodes (bench/table.py --baseline). The midgame
search's table is three native arrays (`MidgameTable`): against that dict,
trimmed at 200,000 entries, depth 14 in 0.97x the nodes with hard's cuts,
1.85x the nodes per second with the evaluation's native tables too, and
0.65x the peak memory (docs/engine.md, "Engine speed").

Both kinds of entry keep the best square + 1 in their low 7 bits (0: none).
A solver entry holds bounds on the final margin (-64..64) of a position
with `empties` empty squares:
(lower + 64) << 22 | (upper + 64) << 14 | empties << 7 | square. A midgame
entry holds one score, exact or a bound, searched `depth` plies deep:
(score + SCORE_BIAS) << 16 | bound << 14 | depth << 7 | square. Both keep
how deep their search went in the same bits (`entry_depth`): a full
solver's table keeps its deepest entries (`deepest`), a full midgame bucket
its deeper one.

A hot module, compiled with mypyc (see endgame.py's header).
"""

from __future__ import annotations

from typing import Final, final

from librt.vecs import vec
from mypy_extensions import i64

from ..core.bitboard import LOW63

# Entries the exact solver's table may hold. Past it, it keeps its deepest
# half (`deepest`): its entries are worth keeping (each stands for a whole
# subtree to the end) and its null-window tests at the root search the same
# nodes again.
SOLVER_TT_LIMIT: Final = 800_000
# Slots of the midgame search's table (`MidgameTable`): 2**19, 12 MiB.
MIDGAME_TT_BITS: Final = 19

EXACT: Final = 0  # a midgame score is exact,
LOWER: Final = 1  # a lower bound (the search failed high),
UPPER: Final = 2  # or an upper bound (it failed low)
SCORE_BIAS: Final = 1 << 24  # beyond every midgame score, so that scores pack as non-negative


def tt_key(own: i64, opp: i64) -> int:
    """One int for a position, distinct for distinct (own, opp) whether the
    words are signed (compiled) or not (interpreted)."""
    return (int(own) << 64) + int(opp)


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


def deepest(table: dict[int, int], room: int) -> dict[int, int]:
    """The entries of a full table searched deepest, at most `room` of them:
    they cost most to find. Rather than emptying the table, keeping them
    reaches a midgame depth in half the nodes (bench/table.py) and solves
    FFO #40-44 in fewer nodes (bench/ffo.py)."""
    counts = [0] * 128
    for entry in table.values():
        counts[entry_depth(entry)] += 1
    least = 128  # keep depths from `least` up
    kept = 0
    while least > 1 and kept + counts[least - 1] <= room:
        least -= 1
        kept += counts[least]
    return {key: entry for key, entry in table.items() if entry_depth(entry) >= least}


TAG_SHIFT: Final[i64] = 58  # the key's two h8 bits sit above every entry's fields
ENTRY_BITS: Final[i64] = 0x03FF_FFFF_FFFF_FFFF  # the bits below TAG_SHIFT
LOW32: Final[i64] = 0xFFFF_FFFF
_ZEROS: list[vec[i64]] = []  # one table's worth of zeros, made at the first table


def _zeros(size: i64) -> vec[i64]:
    """A fresh vec of `size` zeros, copied from a template (a copy is a
    memcpy; building one from a list unboxes every item)."""
    if not _ZEROS or len(_ZEROS[0]) != size:
        _ZEROS.clear()
        _ZEROS.append(vec[i64]([0] * size))
    return _ZEROS[0][0:size]


@final  # direct calls in the compiled search, which the C compiler may inline
class MidgameTable:
    """The midgame search's transposition table: 2**bits slots of three
    machine words in native arrays (librt.vecs), so that a probe or a store
    allocates nothing and hashes nothing in Python (a dict of int keys made a
    128-bit key, hashed it and boxed the entry at every node).

    A position has a bucket of two slots. A slot holds the position's two
    words without their h8 bits and its entry (`midgame_entry`) with those
    two bits above it (TAG_SHIFT), so that a key compares exactly, compiled
    (where h8 is the sign) and interpreted alike. A store overwrites the
    position's slot when it has one, or else the shallower of the two: the
    deeper entries, which cost most to find, stay, and a new entry always
    finds room. An empty slot holds entry 0, which no position's entry is,
    and two empty words, which no position with discs has.
    """

    def __init__(self, bits: i64 = MIDGAME_TT_BITS) -> None:
        size = i64(1) << bits
        self.buckets: i64 = (size >> 1) - 1  # a bucket's number, as a mask
        self.own: vec[i64] = _zeros(size)
        self.opp: vec[i64] = _zeros(size)
        self.entries: vec[i64] = _zeros(size)

    def slot(self, own: i64, opp: i64) -> i64:
        """The first slot of the position's bucket (the same compiled and
        interpreted: only masked shifts and products below 2**63)."""
        a = (own ^ (own >> 32)) & LOW32
        b = (opp ^ (opp >> 32)) & LOW32
        mixed = a * 0x2545F491 + b * 0x3C6EF373
        return (mixed >> 24 & self.buckets) << 1

    def get(self, own: i64, opp: i64) -> i64:
        """The position's entry, or 0 when the table has none."""
        i = self.slot(own, opp)
        tag = _tag(own, opp)
        own_low = own & LOW63  # the words without h8, the sign compiled
        opp_low = opp & LOW63
        if self.holds(i, own_low, opp_low, tag):
            return self.entries[i] & ENTRY_BITS
        if self.holds(i + 1, own_low, opp_low, tag):
            return self.entries[i + 1] & ENTRY_BITS
        return 0

    def put(self, own: i64, opp: i64, entry: i64) -> None:
        """Stores the position's entry (non-zero, below 2**TAG_SHIFT)."""
        i = self.slot(own, opp)
        tag = _tag(own, opp)
        own_low = own & LOW63
        opp_low = opp & LOW63
        if not self.holds(i, own_low, opp_low, tag) and (
            self.holds(i + 1, own_low, opp_low, tag)
            or entry_depth(self.entries[i]) > entry_depth(self.entries[i + 1])
        ):
            i += 1  # the second slot is the position's, or neither is and it is the shallower
        self.own[i] = own_low
        self.opp[i] = opp_low
        self.entries[i] = entry | tag << TAG_SHIFT

    def holds(self, i: i64, own_low: i64, opp_low: i64, tag: i64) -> bool:
        """Whether slot `i` holds the position of these words and h8 bits."""
        return (
            self.own[i] == own_low
            and self.opp[i] == opp_low
            and self.entries[i] >> TAG_SHIFT == tag
        )


def _tag(own: i64, opp: i64) -> i64:
    """The h8 bits of the two words, as 0-3."""
    return (own >> 63 & 1) | (opp >> 63 & 1) << 1
