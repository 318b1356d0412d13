"""Fit Multi-ProbCut's parameters (tui_reversi/engine/probcut.py) on our own
search's shallow and deep scores.

A seeded sample of positions from a positions file (lines `OWN OPP MARGIN`,
hex bitboards of the side to move and the other side: tools/selfplay.py's
output), spread evenly over `--empties`, is searched by hard's engine (the
trained evaluation, as hard gets it, ProbCut off) by iterative deepening to
`--depth` plies; each iteration's score is that depth's score. Per bucket of
empties and node depth d, deep = a * shallow + b is fitted by least squares
on the pairs (score at SHALLOW[d], score at d), sigma being the residuals'
deviation. Depths beyond `--depth` take a and b of the deepest measured
pair with the same shallow depth and d's parity, and a sigma extrapolated
by a per-bucket linear fit of sigma in d and d' (never below the measured
pair's). Prints the table, with sigma for the other shallow depths that
could have been chosen, and writes the parameters file.

    nice -n 10 python tools/probcut.py data/seed-2/*.txt --jobs 2

It searches with the weights the engine plays with ($TUI_REVERSI_WEIGHTS,
else the shipped ones) and writes the digest of those into the file.

The defaults (2,000 positions, depth 10, seed 1) make the shipped file:
about 9 minutes of CPU, under 5 on two cores. Deterministic: the same
arguments and weights give the same file. Needs numpy (`pip install -e '.[train]'`).
"""

from __future__ import annotations

import argparse
import multiprocessing
import random
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tui_reversi.engine.evaluation import SCALE, WIN
from tui_reversi.engine.pattern_weights import trained_evaluator, weights_path
from tui_reversi.engine.probcut import (
    PROBCUT_PATH,
    Pair,
    ProbCutFit,
    weights_digest,
    write_probcut,
)
from tui_reversi.engine.search import (
    PROBCUT_MAX_DEPTH,
    PROBCUT_MIN_DEPTH,
    Engine,
    SearchResult,
)

# The shallow search for a node of depth d: about half as deep and of the
# same parity (a search that ends on the side to move's turn scores it
# higher), as Edax does; the printed table shows what deeper or shallower
# probes would have cost in sigma.
SHALLOW = {d: 2 * (d // 4) + (d & 1) for d in range(PROBCUT_MIN_DEPTH, PROBCUT_MAX_DEPTH + 1)}

_ENGINE: list[Engine] = []


def depth_scores(task: tuple[int, int, int]) -> list[int | None]:
    """The score of every depth 1..depth of one position (None: a proven
    end, or none searched)."""
    own, opp, depth = task
    if not _ENGINE:
        evaluator = trained_evaluator(False)
        if evaluator is None:
            raise SystemExit("the trained evaluation cannot be read: nothing to fit")
        _ENGINE.append(Engine(False, evaluator))
    scores: list[int | None] = [None] * (depth + 1)

    def seen(iteration: SearchResult) -> None:
        if not iteration.exact and abs(iteration.score) < WIN:
            scores[iteration.depth] = iteration.score

    _ENGINE[0].search(own, opp, max_depth=depth, on_iteration=seen)
    return scores


def sample(paths: list[str], count: int, lo: int, hi: int, seed: int) -> list[tuple[int, int]]:
    """`count` positions spread evenly over lo..hi empties, drawn with `seed`."""
    by_empties: dict[int, list[tuple[int, int]]] = {e: [] for e in range(lo, hi + 1)}
    for path in paths:
        with open(path) as lines:
            for line in lines:
                fields = line.split()
                if len(fields) < 2:
                    continue
                own, opp = int(fields[0], 16), int(fields[1], 16)
                empties = 64 - (own | opp).bit_count()
                if lo <= empties <= hi:
                    by_empties[empties].append((own, opp))
    rng = random.Random(seed)
    each = -(-count // (hi - lo + 1))
    chosen = []
    for empties in range(lo, hi + 1):
        found = sorted(set(by_empties[empties]))
        chosen.extend(rng.sample(found, min(each, len(found))))
    return chosen


def buckets(width: int) -> list[tuple[int, int]]:
    """Buckets of `width` empties; the first reaches down to 0 and the last
    up to 64, so that every node has one."""
    edges = list(range(20, 60, width))
    return [(0, edges[0] - 1)] + [(a, a + width - 1) for a in edges[:-1]] + [(edges[-1], 64)]


def regression(xs: np.ndarray, ys: np.ndarray) -> tuple[float, float, float]:
    """a, b, sigma of ys ~ a * xs + b by least squares."""
    design = np.vstack([xs, np.ones_like(xs)]).T
    (a, b), *_ = np.linalg.lstsq(design, ys, rcond=None)
    residuals = ys - (a * xs + b)
    return float(a), float(b), float(np.sqrt(np.mean(residuals**2)))


def fit(
    rows: list[tuple[int, list[int | None]]], depth: int, bucket_list: list[tuple[int, int]]
) -> tuple[list[Pair], list[str]]:
    """The pairs for every bucket and node depth, and the printed table."""
    pairs: list[Pair] = []
    report: list[str] = []
    for lo, hi in bucket_list:
        measured: dict[tuple[int, int], tuple[float, float, float, int]] = {}
        for d in range(2, depth + 1):
            for s in range(d % 2 or 2, d, 2):
                xs, ys = [], []
                for empties, scores in rows:
                    if lo <= empties <= hi and d < empties:
                        shallow, deep = scores[s], scores[d]
                        if shallow is not None and deep is not None:
                            xs.append(shallow)
                            ys.append(deep)
                if len(xs) >= 30:
                    a, b, sigma = regression(np.array(xs, float), np.array(ys, float))
                    measured[s, d] = (a, b, sigma, len(xs))
        if not measured:
            continue
        # sigma ~ c0 + c1 d' + c2 d over the measured pairs, for deeper ones.
        keys = sorted(measured)
        design = np.array([[1.0, s, d] for s, d in keys])
        coef, *_ = np.linalg.lstsq(design, np.array([measured[k][2] for k in keys]), rcond=None)
        report.append(f"empties {lo}-{hi}:")
        report.append("   d  d'  pairs      a      b  sigma (discs)   sigma at other d'")
        for d in range(PROBCUT_MIN_DEPTH, PROBCUT_MAX_DEPTH + 1):
            s = SHALLOW[d]
            if (s, d) in measured:
                a, b, sigma, n = measured[s, d]
                how = f"{n:6d}"
            else:
                same = [k for k in keys if k[0] == s and k[1] % 2 == d % 2]
                if not same:
                    continue
                a, b, measured_sigma, _ = measured[max(same, key=lambda k: k[1])]
                sigma = max(measured_sigma, float(coef @ np.array([1.0, s, d])))
                how = " extr."
            pairs.append(Pair(lo, hi, d, s, a, b, sigma))
            others = "  ".join(
                f"{o}:{measured[o, d][2] / SCALE:.2f}"
                for o in range(d % 2 or 2, d, 2)
                if o != s and (o, d) in measured
            )
            report.append(
                f"  {d:2d}  {s:2d}  {how}  {a:5.3f}  {b / SCALE:5.2f}  {sigma / SCALE:5.2f}"
                f"           {others}"
            )
    return pairs, report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("positions", nargs="+", help="positions files (OWN OPP MARGIN lines)")
    parser.add_argument("--positions", type=int, default=2000, dest="count")
    parser.add_argument("--empties", type=int, nargs=2, default=(12, 58), metavar=("LO", "HI"))
    parser.add_argument("--depth", type=int, default=10, help="deepest search (plies)")
    parser.add_argument("--bucket", type=int, default=8, help="empties per phase bucket")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--out", type=Path, default=PROBCUT_PATH)
    args = parser.parse_args()
    started = time.perf_counter()
    chosen = sample(args.positions, args.count, args.empties[0], args.empties[1], args.seed)
    tasks = [(own, opp, args.depth) for own, opp in chosen]
    with multiprocessing.Pool(args.jobs) as pool:
        scores = pool.map(depth_scores, tasks, chunksize=8)
    rows = [(64 - (own | opp).bit_count(), s) for (own, opp), s in zip(chosen, scores, strict=True)]
    pairs, report = fit(rows, args.depth, buckets(args.bucket))
    print("\n".join(report))
    write_probcut(args.out, ProbCutFit(tuple(pairs)), weights_digest(weights_path()))
    print(
        f"{len(chosen)} positions searched {args.depth} deep, {len(pairs)} pairs "
        f"written to {args.out} in {time.perf_counter() - started:.0f} s"
    )


if __name__ == "__main__":
    main()
