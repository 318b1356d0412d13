"""Exact endgame solve times, this tree against another revision, in one run.

Solves bench/search.py's fixed endgame positions with this checkout's engine
and, with `--against REV`, with the engine of that git revision too (exported
to a temporary directory). Each tree runs in its own worker process and the
two take turns position by position (the order swapping every round), so a
busy machine slows both alike: compare the ratio, not the seconds.

    python bench/endgame.py --against main            # 14, 16, 18 empties
    python bench/endgame.py --against main --empties 18 --rounds 2
    python bench/endgame.py                           # this tree only

Prints figures only; never asserts a duration.
"""

import argparse
import math
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

from search import ENDGAME  # noqa: E402  (bench/search.py's fixed positions)

# Runs in a worker: solve each board string read from stdin, answer one line.
WORKER = """
import sys, time
sys.path.insert(0, sys.argv[1])
from tui_reversi.core import Position
from tui_reversi.engine.search import Engine
engine = Engine()
warm = Position.from_string(sys.argv[2])  # builds the tables, warms the caches
engine.search(warm.own, warm.opp, exact_empties=64)
for line in sys.stdin:
    position = Position.from_string(line.strip())
    started = time.perf_counter()
    result = engine.search(position.own, position.opp, exact_empties=64)
    elapsed = time.perf_counter() - started
    print(result.score // 100, result.nodes, elapsed, flush=True)
"""


class Worker:
    """A Python process solving positions with the engine of one source tree."""

    def __init__(self, tree: Path):
        self.process = subprocess.Popen(
            [sys.executable, "-c", WORKER, str(tree), ENDGAME[12][0]],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )

    def solve(self, board: str) -> tuple[int, int, float]:
        self.process.stdin.write(board + "\n")
        self.process.stdin.flush()
        line = self.process.stdout.readline()
        if not line:
            raise SystemExit("a solver worker died")
        margin, nodes, seconds = line.split()
        return int(margin), int(nodes), float(seconds)

    def close(self):
        self.process.stdin.close()
        self.process.wait()


def export(revision: str, into: Path) -> Path:
    """The package as it is at `revision`, unpacked under `into`."""
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", revision, "tui_reversi"],
        capture_output=True,
        check=False,
    )
    if archive.returncode:
        raise SystemExit(f"cannot export {revision}: {archive.stderr.decode().strip()}")
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive.stdout, check=True)
    return into


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--against", metavar="REV", help="git revision to compare with")
    parser.add_argument(
        "--empties", type=int, nargs="*", default=[14, 16, 18], choices=sorted(ENDGAME)
    )
    parser.add_argument("--rounds", type=int, default=1, help="times each position is solved")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-endgame-") as scratch:
        workers = {"this": Worker(ROOT)}
        if args.against:
            workers[args.against] = Worker(export(args.against, Path(scratch)))
        names = list(workers)
        try:
            run(workers, names, args)
        finally:
            for worker in workers.values():
                worker.close()


def run(workers, names, args):
    print(f"Python {sys.version.split()[0]}; trees: {', '.join(names)}")
    ratios_all = []
    for count in args.empties:
        times = {name: [] for name in names}
        ratios = []
        for rnd in range(args.rounds):
            for number, board in enumerate(ENDGAME[count], 1):
                order = names if (rnd + number) % 2 else names[::-1]
                seen = {name: workers[name].solve(board) for name in order}
                margins = {margin for margin, _, _ in seen.values()}
                if len(margins) != 1:
                    raise SystemExit(f"the trees disagree on {board}: {seen}")
                parts = []
                for name in names:
                    margin, nodes, seconds = seen[name]
                    times[name].append(seconds)
                    parts.append(f"{name} {nodes:8d} nodes {seconds:6.2f} s")
                line = f"  {count} empties #{number}: margin {margin:+3d}; " + "; ".join(parts)
                if len(names) == 2:
                    ratio = seen[names[0]][2] / seen[names[1]][2]
                    ratios.append(ratio)
                    line += f"; ratio {ratio:.2f}"
                print(line, flush=True)
        summary = "; ".join(
            f"{name} median {statistics.median(times[name]):.2f} s, max {max(times[name]):.2f} s"
            for name in names
        )
        if ratios:
            summary += f"; time ratio {names[0]}/{names[1]}: {geomean(ratios):.2f} (geomean)"
            ratios_all += ratios
        print(f"  {count} empties: {summary}")
    if ratios_all:
        ratio = geomean(ratios_all)
        print(f"all positions: time ratio {names[0]}/{names[1]} {ratio:.2f} (geomean)")


def geomean(values):
    return math.exp(sum(math.log(v) for v in values) / len(values))


if __name__ == "__main__":
    main()
