# mypyc: compiled
"""Transposition-table entries for the exact solver (endgame.py) and the
midgame search (search.py): a key per position, an entry packed in one int,
and the trim that keeps a full midgame table's deepest entries.

Tables hold ints, not tuples: a key is a position's two words as one int and
an entry its fields packed in one int. Against tuples emptied at 400,000
entries, a search peaks at 86 MiB, not 198, and reaches depth 11 in 0.55x the
nodes with the same moves and scores (bench/table.py --baseline).

Both kinds of entry keep the best square + 1 in their low 7 bits (0: none).
A solver entry holds bounds on the final margin (-64..64) of a position
with `empties` empty squares:
(lower + 64) << 22 | (upper + 64) << 14 | empties << 7 | square. A midgame
entry holds one score, exact or a bound, searched `depth` plies deep:
(score + SCORE_BIAS) << 16 | bound << 14 | depth << 7 | square. Both keep
how deep their search went in the same bits (`entry_depth`), so that a full
table of either kind keeps its deepest entries (`deepest`).

A hot module, compiled with mypyc (see endgame.py's header).
"""

from __future__ import annotations

from typing import Final

from mypy_extensions import i64

# Entries a table may hold. Past it, a table keeps its deepest half (`deepest`).
TT_LIMIT: Final = 200_000
# The exact solver's table may hold more: its entries are worth more (each
# stands for a whole subtree to the end) and the solver's null-window tests
# at the root search the same nodes again.
SOLVER_TT_LIMIT: Final = 800_000

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


def entry_depth(entry: int) -> int:
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
