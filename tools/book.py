"""Build the opening book (tui_reversi/engine/book.py): a negamax book over
the lines real games take.

Which positions: every position of the first `--all-plies` plies; every
position on the named openings' lines (tui_reversi/core/openings.py); and
the engine's own lines, best first: a position's moves within `--keep`
discs of its best (at most `--width` of them) lead on, and the positions
whose lines have given away the fewest discs so far (summed along the way)
are searched first, to `--plies` plies, until the book has `--positions`
(or `--minutes` have passed: then the book depends on the machine's
speed, and says so as it ends).

How they are scored: each position is searched `--depth` plies deep with
the trained evaluation and expert's ProbCut, every move scored (full
windows). Then, from the deepest ply up, every move leading to a position
of the book takes that position's negamax value, so a stored score says
what the book's whole subtree below it found, as in Edax's and Zebra's
books. Positions with no book position below them (the frontier) serve
only their parents' values and are not written. A position is written once
per symmetry class with its moves within `--store` discs of its best.
Deterministic: the same arguments give the same book.

    nice -n 10 python tools/book.py --out tui_reversi/engine/data/book.txt

One process (one core). The defaults make the shipped book; see
docs/engine.md for its size and how long it took.
"""

from __future__ import annotations

import argparse
import heapq
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tui_reversi.core.bitboard import flip_table, legal_moves
from tui_reversi.core.openings import OPENINGS
from tui_reversi.core.squares import parse_square
from tui_reversi.core.variants import Variant
from tui_reversi.engine.book import canonical_image, write_book
from tui_reversi.engine.evaluation import SCALE
from tui_reversi.players.alphabeta_player import EXPERT_SELECTIVITY, engine_for

START_OWN = 0x0000000810000000
START_OPP = 0x0000001008000000

Key = tuple[int, int]  # (own, opp) of the canonical image, side to move first
flips = flip_table()


def child(own: int, opp: int, sq: int) -> Key:
    """The canonical key of the position after the side to move plays `sq`."""
    f = flips[sq](own, opp)
    return canonical_image(opp ^ f, own | f | (1 << sq))[:2]


def named_positions() -> set[Key]:
    """Every position (canonical) on the named openings' lines."""
    keys: set[Key] = set()
    for line, _ in OPENINGS:
        own, opp = START_OWN, START_OPP
        for i in range(0, len(line), 2):
            sq = parse_square(line[i : i + 2])
            f = flips[sq](own, opp)
            own, opp = opp ^ f, own | f | (1 << sq)
            keys.add(canonical_image(own, opp)[:2])
    return keys


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=3000, help="positions searched")
    parser.add_argument("--plies", type=int, default=20, help="deepest ply searched")
    parser.add_argument("--all-plies", type=int, default=5, help="plies with every move")
    parser.add_argument("--depth", type=int, default=10, help="search depth at each position")
    parser.add_argument("--keep", type=float, default=2.0, help="discs behind the best followed")
    parser.add_argument("--width", type=int, default=3, help="most moves followed per position")
    parser.add_argument("--ply-cost", type=float, default=0.25, help="discs a ply costs a line")
    parser.add_argument("--store", type=float, default=4.0, help="discs behind the best written")
    parser.add_argument(
        "--minutes", type=float, default=None, help="stop searching after this long (wall clock)"
    )
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    engine = engine_for(Variant.parse("othello"), "trained", EXPERT_SELECTIVITY)
    named = named_positions()
    started = time.perf_counter()
    scores: dict[Key, dict[int, int]] = {}
    ply_of: dict[Key, int] = {}
    # (discs given away on the way, ply, key): the best-first frontier.
    start = canonical_image(START_OWN, START_OPP)[:2]
    frontier: list[tuple[float, int, Key]] = [(0.0, 0, start)]
    queued = {start}
    deadline = None if args.minutes is None else started + 60 * args.minutes
    while frontier and len(scores) < args.positions:
        if deadline is not None and time.perf_counter() > deadline:
            print(f"stopped at {args.minutes:g} minutes", flush=True)
            break
        loss, ply, key = heapq.heappop(frontier)
        own, opp = key
        result = engine.search(own, opp, max_depth=args.depth, analyse=True)
        scores[key] = dict(result.scores)
        ply_of[key] = ply
        if ply + 1 > args.plies:
            continue
        best = max(result.scores.values())
        ranked = sorted(result.scores.items(), key=lambda item: -item[1])
        for rank, (sq, score) in enumerate(ranked):
            after = child(own, opp, sq)
            behind = (best - score) / SCALE
            forced = ply < args.all_plies or after in named
            chosen = rank < args.width and behind <= args.keep
            if (forced or chosen) and after not in queued and legal_moves(*after):
                queued.add(after)
                # Forced positions come first; a line costs its discs given away and its length.
                cost = -1.0 if forced else max(loss, 0.0) + behind + args.ply_cost
                heapq.heappush(frontier, (cost, ply + 1, after))
        if len(scores) % 250 == 0:
            print(
                f"{len(scores)} positions, ply {ply}, {time.perf_counter() - started:.0f} s",
                flush=True,
            )
    searched = time.perf_counter() - started
    written = negamax(scores, ply_of)
    write_book(Path(args.out), stored(scores, written, args.store))
    print(
        f"{len(scores)} positions searched {args.depth} deep to ply {max(ply_of.values())} in "
        f"{searched:.0f} s; {len(written)} written to {args.out}"
    )


def negamax(scores: dict[Key, dict[int, int]], ply_of: dict[Key, int]) -> set[Key]:
    """Give every move leading into the book its child's negamax value,
    deepest plies first; the positions with a book position below them."""
    inner: set[Key] = set()
    for key in sorted(scores, key=lambda k: -ply_of[k]):
        own, opp = key
        for sq in scores[key]:
            below = scores.get(child(own, opp, sq))
            if below:
                scores[key][sq] = -max(below.values())
                inner.add(key)
    return inner


def stored(
    scores: dict[Key, dict[int, int]], written: set[Key], store: float
) -> dict[Key, list[tuple[int, int]]]:
    """The entries written: each position of `written` with its moves within
    `store` discs of its best, best first."""
    entries = {}
    for key, moves in scores.items():  # in the order they were searched
        if key not in written:
            continue
        best = max(moves.values())
        kept = [(sq, s) for sq, s in moves.items() if s >= best - store * SCALE]
        entries[key] = sorted(kept, key=lambda item: -item[1])
    return entries


if __name__ == "__main__":
    main()
