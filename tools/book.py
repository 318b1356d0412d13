"""Build the opening book (tui_reversi/engine/book.py) by searching the
first plies of likely lines deeply.

From the Othello start, ply by ply: every position of the frontier is
searched to `--depth` plies with every move scored (full windows); the moves
within `--keep` discs of the best (at most `--width` of them) go into the
book, and their children form the next frontier. Positions are stored once
per symmetry class. Deterministic: the same arguments give the same book.

    nice -n 10 python tools/book.py --out tui_reversi/engine/data/book.txt

The defaults make the shipped book (8 plies, each position searched 12
deep with the trained evaluation, within 1.5 discs, two moves at most):
16 minutes on one shared core.
"""

from __future__ import annotations

import argparse
import multiprocessing
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tui_reversi.core.bitboard import flip_table, legal_moves
from tui_reversi.engine.book import HEADER, canonical_image
from tui_reversi.engine.evaluation import SCALE
from tui_reversi.engine.pattern_weights import trained_evaluator
from tui_reversi.engine.search import Engine

START_OWN = 0x0000000810000000
START_OPP = 0x0000001008000000

_ENGINE: list[Engine] = []


def score_moves(task: tuple[int, int, int, bool]) -> tuple[int, int, dict[int, int]]:
    own, opp, depth, trained = task
    if not _ENGINE:
        _ENGINE.append(Engine(False, trained_evaluator(False) if trained else None))
    result = _ENGINE[0].search(own, opp, max_depth=depth, analyse=True)
    return own, opp, result.scores


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--plies", type=int, default=8, help="book depth in plies")
    parser.add_argument("--depth", type=int, default=12, help="search depth at each position")
    parser.add_argument("--keep", type=float, default=1.5, help="discs behind the best kept")
    parser.add_argument("--width", type=int, default=2, help="most moves kept per position")
    parser.add_argument("--handmade", action="store_true", help="search with the hand-made eval")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    flips = flip_table()
    started = time.perf_counter()
    c_own, c_opp, _ = canonical_image(START_OWN, START_OPP)
    frontier = [(c_own, c_opp)]
    book: dict[tuple[int, int], list[tuple[int, int]]] = {}
    with multiprocessing.Pool(args.jobs) as pool:
        for ply in range(args.plies):
            tasks = [(o, p, args.depth, not args.handmade) for o, p in frontier]
            following: dict[tuple[int, int], None] = {}
            for own, opp, scores in pool.imap(score_moves, tasks):
                best = max(scores.values())
                kept = sorted(scores.items(), key=lambda item: -item[1])[: args.width]
                kept = [(sq, s) for sq, s in kept if s >= best - args.keep * SCALE]
                book[own, opp] = kept
                for sq, _ in kept:
                    f = flips[sq](own, opp)
                    child_own, child_opp = opp ^ f, own | f | (1 << sq)
                    if not legal_moves(child_own, child_opp):
                        continue
                    key = canonical_image(child_own, child_opp)[:2]
                    if key not in book:
                        following[key] = None
            frontier = list(following)
            # Written after every ply, so a run cut short leaves a whole book.
            write_book(Path(args.out), book)
            print(
                f"ply {ply + 1}: {len(book)} positions, {time.perf_counter() - started:.0f} s",
                flush=True,
            )
    print(
        f"{len(book)} positions to ply {args.plies} at depth {args.depth} in "
        f"{time.perf_counter() - started:.0f} s; wrote {args.out}"
    )


def write_book(path: Path, book: dict[tuple[int, int], list[tuple[int, int]]]) -> None:
    lines = [HEADER]
    for (own, opp), moves in book.items():
        lines.append(f"{own:x} {opp:x} " + " ".join(f"{sq}:{score}" for sq, score in moves))
    path.write_text("\n".join(lines) + "\n", encoding="ascii")


if __name__ == "__main__":
    main()
