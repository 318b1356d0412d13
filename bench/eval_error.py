"""The evaluation the engine plays with, measured on held-out positions:
mean squared error in discs per phase against the positions' labels
(tools/selfplay.py's output: the exact margin from 16 empties, the game's
final margin before; or, with --labels search, a depth-10 search's score
above the solver's empties), for this checkout or another one, or for
several weights files, so that evaluations are compared on the same
positions.

    python bench/eval_error.py data/seed-2
    python bench/eval_error.py data/seed-2 --tree ../old-checkout
    python bench/eval_error.py data/deep-12 --weights data/before.bin data/deep.bin --paired 20

Prints figures only. With --tree the other checkout's package is imported
(compiled there when it was installed in place), with its own weights.
With --weights each file is measured in a column of its own. With
--paired E, a position above E empties is measured with the next one of
its game, as fit.py --paired fits it: the error of half the evaluation's
difference between the two against half the labels' difference, so that a
lean of the labels towards the side to move (a search's) cancels; a
position without a next one above E empties is left out.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path


def follows(a: tuple[int, int], b: tuple[int, int]) -> bool:
    """Whether position b is position a one move later (the other side to move)."""
    a_own, a_opp = a
    b_own, b_opp = b
    return (
        (b_own | b_opp).bit_count() == (a_own | a_opp).bit_count() + 1
        and a_own & ~b_opp == 0
        and b_own & ~a_opp == 0
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("holdout", nargs="+", help="files or folders of labelled positions")
    parser.add_argument("--tree", type=Path, help="another checkout to measure")
    parser.add_argument("--weights", nargs="+", type=Path, help="weights files to measure")
    parser.add_argument(
        "--paired", type=int, metavar="E", help="measure positions above E empties in pairs"
    )
    parser.add_argument("--width", type=int, default=5, help="empties per row of the table")
    args = parser.parse_args()
    tree = args.tree.resolve() if args.tree else Path(__file__).resolve().parent.parent
    sys.path.insert(0, str(tree))
    from tui_reversi.core.bitboard import native
    from tui_reversi.engine.evaluation import SCALE
    from tui_reversi.engine.pattern_weights import read_weights, trained_evaluator
    from tui_reversi.engine.patterns import PatternEvaluator

    if args.weights:
        evaluators = [PatternEvaluator(read_weights(path)) for path in args.weights]
        names = [path.name for path in args.weights]
    else:
        evaluator = trained_evaluator(False)
        if evaluator is None:
            sys.exit(f"{tree} has no trained evaluation to measure")
        evaluators, names = [evaluator], ["MSE (discs^2)"]
    files: list[Path] = []
    for name in args.holdout:
        path = Path(name)
        files.extend(sorted(path.glob("*.txt")) if path.is_dir() else [path])
    positions: list[tuple[int, int, int]] = []
    for path in files:
        for line in path.read_text().splitlines():
            own_hex, opp_hex, margin = line.split()
            positions.append((int(own_hex, 16), int(opp_hex, 16), int(margin)))
    started = time.perf_counter()
    scores = [
        [e.evaluate(native(own), native(opp)) / SCALE for own, opp, _ in positions]
        for e in evaluators
    ]
    errors: dict[int, list[list[float]]] = {}
    count = 0
    for i, (own, opp, margin) in enumerate(positions):
        empties = 64 - (own | opp).bit_count()
        row = errors.setdefault(empties // args.width, [[] for _ in evaluators])
        if args.paired is not None and empties > args.paired:
            if i + 1 == len(positions):
                continue
            own2, opp2, margin2 = positions[i + 1]
            if 64 - (own2 | opp2).bit_count() <= args.paired or not follows(
                (own, opp), (own2, opp2)
            ):
                continue
            for k, score in enumerate(scores):
                row[k].append(((score[i] - score[i + 1]) / 2 - (margin - margin2) / 2) ** 2)
        else:
            for k, score in enumerate(scores):
                row[k].append((score[i] - margin) ** 2)
        count += 1
    where = ", ".join(str(p) for p in args.weights) if args.weights else str(tree)
    paired = f", in pairs above {args.paired} empties" if args.paired is not None else ""
    print(f"{where}: {count} positions{paired} in {time.perf_counter() - started:.1f} s")
    print("empties  positions  " + "  ".join(f"{name:>13}" for name in names))
    for bucket in sorted(errors):
        lo = bucket * args.width
        columns = errors[bucket]
        if not columns[0]:
            continue
        cells = "  ".join(f"{statistics.fmean(values):13.1f}" for values in columns)
        print(f"{lo:2d}..{lo + args.width - 1:2d}  {len(columns[0]):9d}  {cells}")


if __name__ == "__main__":
    main()
