"""The midgame search's transposition table and move order: nodes needed to
reach a fixed depth, depth reached in a fixed time, and the peak memory
(RSS) of a search, on bench/search.py's eight midgame positions (with
--more, its 18 self-play positions too) with the trained evaluation, and
with --probcut T hard's (1.5) or expert's (2) selective search.

    python bench/table.py                       # depth 11, 5 s a position
    python bench/table.py --depth 12 --seconds 5 --baseline /tmp/main
    python bench/table.py --depth 14 --seconds 1 --probcut 1.5 --more --baseline /tmp/main

Each figure comes from a fresh process, so the peak RSS is the search's own
(plus the interpreter and the weights: "before" in the line). With
--baseline DIR (another checkout with its engine built, e.g. a worktree of
main after `pip install -e .` there), the two trees take turns in the same
run, so their figures compare as ratios. Prints figures only.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent


def peak_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def measure(depth: int, seconds: float, probcut: float | None = None, more: bool = False) -> dict:
    """Runs in the child: the tree under test is first on sys.path."""
    from search import MIDGAME, SELF_PLAY

    from tui_reversi.core import Position
    from tui_reversi.engine.build import engine_build
    from tui_reversi.engine.pattern_weights import trained_evaluator
    from tui_reversi.engine.probcut import load_probcut
    from tui_reversi.engine.search import Engine

    evaluator = trained_evaluator(False)
    cuts = None
    if probcut is not None:
        fit = load_probcut()
        if fit is None:
            raise SystemExit("the ProbCut parameters cannot be read")
        cuts = fit.at(probcut)
    before = peak_mib()
    positions = [Position.from_string(board) for board in MIDGAME + (SELF_PLAY if more else [])]
    nodes = 0
    answers = []
    for position in positions:
        result = Engine(False, evaluator, cuts).search(position.own, position.opp, max_depth=depth)
        nodes += result.nodes
        answers.append((result.move, result.score))
    fixed_depth_peak = peak_mib()
    depths = []
    searched = 0
    started = time.perf_counter()
    for position in positions:
        result = Engine(False, evaluator, cuts).search(
            position.own, position.opp, time_limit=seconds
        )
        depths.append(result.depth)
        searched += result.nodes
    elapsed = time.perf_counter() - started
    return {
        "engine": str(engine_build()),
        "nodes": nodes,
        "answers": answers,
        "before": before,
        "peak": max(fixed_depth_peak, peak_mib()),
        "depths": depths,
        "nodes_per_s": searched / elapsed,
    }


def run(tree: Path, depth: int, seconds: float, probcut: float | None, more: bool) -> dict:
    code = (
        "import json, sys; "
        f"sys.path[:0] = [{str(tree)!r}, {str(HERE)!r}]; "
        "from table import measure; "
        f"print(json.dumps(measure({depth}, {seconds}, {probcut!r}, {more!r})))"
    )
    env = dict(os.environ, PYTHONPATH=str(tree))
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=False
    )
    if done.returncode != 0:
        raise SystemExit(f"bench: the search in {tree} failed:\n{done.stderr}")
    return json.loads(done.stdout.splitlines()[-1])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--depth", type=int, default=11, help="fixed depth (default 11)")
    parser.add_argument("--seconds", type=float, default=5.0, help="time per position (default 5)")
    parser.add_argument("--baseline", type=Path, metavar="DIR", help="another checkout to compare")
    parser.add_argument(
        "--probcut", type=float, metavar="T", help="cut as hard (1.5) or expert (2) do"
    )
    parser.add_argument(
        "--more",
        action="store_true",
        help="bench/search.py's 18 self-play positions (26-50 empties) too",
    )
    args = parser.parse_args()
    trees = {"this tree": ROOT}
    if args.baseline is not None:
        trees["baseline"] = args.baseline.resolve()
    figures = {
        name: run(tree, args.depth, args.seconds, args.probcut, args.more)
        for name, tree in trees.items()
    }
    for name, f in figures.items():
        print(
            f"{name} ({f['engine']}): depth {args.depth} in {f['nodes']:,} nodes; "
            f"at {args.seconds:g} s a position, depths {f['depths']}, "
            f"{f['nodes_per_s']:,.0f} nodes/s; peak RSS {f['peak']:.0f} MiB "
            f"(before searching {f['before']:.0f})"
        )
    if "baseline" in figures:
        this, base = figures["this tree"], figures["baseline"]
        same = "the same" if this["answers"] == base["answers"] else "DIFFERENT"
        print(
            f"this tree / baseline: nodes to depth {args.depth} "
            f"{this['nodes'] / base['nodes']:.2f}x, nodes/s "
            f"{this['nodes_per_s'] / base['nodes_per_s']:.2f}x, peak RSS "
            f"{this['peak'] / base['peak']:.2f}x; moves and scores at depth "
            f"{args.depth}: {same}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
