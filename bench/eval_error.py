"""The evaluation the engine plays with, measured on held-out positions:
mean squared error in discs per phase against the positions' labels
(tools/selfplay.py's output: the exact margin from 16 empties, the game's
final margin before), for this checkout or another one, so that two
evaluations are compared on the same positions.

    python bench/eval_error.py data/seed-2
    python bench/eval_error.py data/seed-2 --tree ../old-checkout

Prints figures only. With --tree the other checkout's package is imported
(compiled there when it was installed in place), with its own weights.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("holdout", nargs="+", help="files or folders of labelled positions")
    parser.add_argument("--tree", type=Path, help="another checkout to measure")
    parser.add_argument("--width", type=int, default=5, help="empties per row of the table")
    args = parser.parse_args()
    tree = args.tree.resolve() if args.tree else Path(__file__).resolve().parent.parent
    sys.path.insert(0, str(tree))
    from tui_reversi.core.bitboard import native
    from tui_reversi.engine.evaluation import SCALE
    from tui_reversi.engine.pattern_weights import trained_evaluator

    evaluator = trained_evaluator(False)
    if evaluator is None:
        sys.exit(f"{tree} has no trained evaluation to measure")
    files: list[Path] = []
    for name in args.holdout:
        path = Path(name)
        files.extend(sorted(path.glob("*.txt")) if path.is_dir() else [path])
    errors: dict[int, list[float]] = {}
    count = 0
    started = time.perf_counter()
    for path in files:
        for line in path.read_text().splitlines():
            own_hex, opp_hex, margin = line.split()
            own, opp = int(own_hex, 16), int(opp_hex, 16)
            empties = 64 - (own | opp).bit_count()
            score = evaluator.evaluate(native(own), native(opp)) / SCALE
            errors.setdefault(empties // args.width, []).append((score - int(margin)) ** 2)
            count += 1
    print(f"{tree}: {count} positions in {time.perf_counter() - started:.1f} s")
    print("empties  positions  MSE (discs^2)")
    for bucket in sorted(errors):
        lo = bucket * args.width
        values = errors[bucket]
        mse = statistics.fmean(values)
        print(f"{lo:2d}..{lo + args.width - 1:2d}  {len(values):9d}  {mse:8.1f}")


if __name__ == "__main__":
    main()
