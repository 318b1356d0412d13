"""Multi-ProbCut's worth: the midgame search with and without it, in one run.

On fixed positions (bench/search.py's eight at 40 empties and eighteen of
self-play at 26-50 empties), hard's engine (the trained evaluation) searches
without ProbCut and with it at each selectivity t asked for, taking turns
position by position: the nodes and CPU time to a fixed depth, how often the
move is the one the full-width search chose and how far its score is from
that search's (and where only one of them saw a forced end), then the depth
reached in a fixed time (median) and the nodes.

    nice -n 10 python bench/probcut.py                     # depth 10, 1 s; t 1.5 2 2.5
    nice -n 10 python bench/probcut.py --depth 12 --seconds 5 --t 2

Prints figures only; never asserts a duration.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

from search import MIDGAME, SELF_PLAY  # noqa: E402

from tui_reversi.core import Position  # noqa: E402
from tui_reversi.engine.evaluation import SCALE, WIN  # noqa: E402
from tui_reversi.engine.pattern_weights import trained_evaluator  # noqa: E402
from tui_reversi.engine.probcut import load_probcut  # noqa: E402
from tui_reversi.engine.search import Engine  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--depth", type=int, default=10, help="fixed depth (plies)")
    parser.add_argument("--seconds", type=float, default=1.0, help="budget per position")
    parser.add_argument("--t", type=float, nargs="+", default=[1.5, 2.0, 2.5])
    args = parser.parse_args()
    evaluator = trained_evaluator(False)
    fit = load_probcut()
    if evaluator is None or fit is None:
        raise SystemExit("the trained evaluation or the ProbCut parameters cannot be read")
    engines = {"off": Engine(False, evaluator)}
    for t in args.t:
        engines[f"t={t:g}"] = Engine(False, evaluator, fit.at(t))
    names = list(engines)
    positions = [Position.from_string(board) for board in MIDGAME + SELF_PLAY]
    fixed: dict[str, list[tuple[int, float, int | None, int]]] = {name: [] for name in names}
    timed: dict[str, list[tuple[int, int]]] = {name: [] for name in names}
    for index, position in enumerate(positions):
        turn = names[index % len(names) :] + names[: index % len(names)]
        for name in turn:
            started = time.process_time()
            result = engines[name].search(position.own, position.opp, max_depth=args.depth)
            cpu = time.process_time() - started
            fixed[name].append((result.nodes, cpu, result.move, result.score))
        for name in turn:
            result = engines[name].search(position.own, position.opp, time_limit=args.seconds)
            timed[name].append((result.depth, result.nodes))
    print(f"{len(positions)} positions, hard's engine (trained evaluation)")
    base_nodes = sum(n for n, _, _, _ in fixed["off"])
    base_cpu = sum(c for _, c, _, _ in fixed["off"])
    for name in names:
        rows = fixed[name]
        nodes = sum(n for n, _, _, _ in rows)
        cpu = sum(c for _, c, _, _ in rows)
        pairs = list(zip(rows, fixed["off"], strict=True))
        same = sum(r[2] == o[2] for r, o in pairs)
        # Scores compared where neither search proved a result (a forced
        # end that one search sees and the other does not is counted apart).
        drift = statistics.mean(
            abs(r[3] - o[3]) for r, o in pairs if abs(r[3]) < WIN and abs(o[3]) < WIN
        )
        proven = sum((abs(r[3]) >= WIN) != (abs(o[3]) >= WIN) for r, o in pairs)
        depths = [d for d, _ in timed[name]]
        print(
            f"  {name:6s} depth {args.depth}: {nodes:>12,} nodes ({nodes / base_nodes:.2f}x),"
            f" {cpu:6.1f} s CPU ({cpu / base_cpu:.2f}x), {nodes / cpu / 1e6:.2f} M nodes/s;"
            f" same move {same}/{len(rows)}, score off by {drift / SCALE:.2f} discs on average"
            f" ({proven} proven by one search only)"
        )
        print(
            f"         at {args.seconds:g} s: median depth {statistics.median(depths):g}"
            f" (min {min(depths)}, max {max(depths)}),"
            f" {sum(n for _, n in timed[name]) / len(depths):,.0f} nodes a position"
        )


if __name__ == "__main__":
    main()
