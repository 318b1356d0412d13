"""Rebuild the trained evaluation from nothing, in one command: self-play
training games, held-out games from another seed, the fit, the weights
file the engine ships, and the search's ProbCut parameters fitted with them
(tools/probcut.py). Every step is resumable (self-play keeps its whole
chunks; run the command again after a stop) and reproducible from the seeds.

    nice -n 15 python tools/train.py --games 30000 --jobs 2

Needs numpy for the fit (`pip install -e '.[train]'`). Prints each step's
time; the data stays out of git (data/ is ignored).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WEIGHTS = ROOT / "tui_reversi" / "engine" / "data" / "patterns.bin"


def step(name: str, command: list[str]) -> None:
    started = time.perf_counter()
    print(f"== {name}: {' '.join(command)}", flush=True)
    subprocess.run([sys.executable, *command], cwd=ROOT, check=True)
    print(f"== {name}: {time.perf_counter() - started:.0f} s", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=30000, help="training games")
    parser.add_argument("--holdout-games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1, help="seed of the training games")
    parser.add_argument("--holdout-seed", type=int, default=2)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--data", type=Path, default=ROOT / "data", help="folder for the games")
    parser.add_argument("--out", type=Path, default=WEIGHTS, help="weights file to write")
    args = parser.parse_args()
    train = args.data / f"seed-{args.seed}"
    held = args.data / f"seed-{args.holdout_seed}"
    for folder, seed, games in (
        (train, args.seed, args.games),
        (held, args.holdout_seed, args.holdout_games),
    ):
        step(
            f"self-play, seed {seed}",
            [
                "tools/selfplay.py",
                "--games",
                str(games),
                "--seed",
                str(seed),
                "--jobs",
                str(args.jobs),
                "--out-dir",
                str(folder),
            ],
        )
    step("fit", ["tools/fit.py", str(train), "--holdout", str(held), "--out", str(args.out)])
    if args.out == WEIGHTS:
        # The search's ProbCut parameters belong to the weights they were fitted with.
        held_files = [str(path) for path in sorted(held.glob("*.txt"))]
        step("ProbCut", ["tools/probcut.py", *held_files, "--jobs", str(args.jobs)])


if __name__ == "__main__":
    main()
