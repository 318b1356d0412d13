"""Training positions from the engine's own games, reproducible from a seed.

Each game starts with a few uniformly random moves (so games differ), then
both sides play a fixed-depth search with the hand-made evaluation. From
`--solve` empty squares on, the exact solver plays: every position from
there is labelled with its exact value, and every earlier position with the
final margin of that game (perfect play over its last plies). Labels are
disc margins for the side to move, WOF counting.

Writes one line per position: `OWN OPP MARGIN` (hex bitboards of the side to
move and of the other side, then the margin), into a folder of chunk files
of `--chunk` games each. Game i is a pure function of (seed, i), so any
split over processes gives the same lines, in order; a chunk is written
under a temporary name and renamed when whole, so a stopped run started
again resumes at the first missing chunk.

    nice -n 15 python tools/selfplay.py --games 30000 --seed 1 --jobs 2 --out-dir data/seed-1
"""

from __future__ import annotations

import argparse
import contextlib
import multiprocessing
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tui_reversi.core.bitboard import flip_table, legal_moves
from tui_reversi.engine.search import Engine

START_OWN = 0x0000000810000000  # Black (to move): d5, e4
START_OPP = 0x0000001008000000  # White: d4, e5

_ENGINE: list[Engine] = []


def play_game(seed: int, number: int, depth: int, solve: int, lo: int, hi: int) -> list[str]:
    """The labelled positions of game `number` of run `seed`."""
    rng = random.Random(seed * 1_000_003 + number)
    if not _ENGINE:
        _ENGINE.append(Engine(False))
    engine = _ENGINE[0]
    flips = flip_table()
    own, opp = START_OWN, START_OPP
    black = True  # Black is to move
    random_plies = rng.randint(lo, hi)
    ply = 0
    midgame: list[tuple[int, int, bool]] = []  # labelled once the game is decided
    lines: list[str] = []
    black_margin: int | None = None  # the exact final margin for Black
    while True:
        moves = legal_moves(own, opp)
        if not moves:
            if not legal_moves(opp, own):
                break
            own, opp, black = opp, own, not black
            continue
        empties = 64 - (own | opp).bit_count()
        if empties <= solve:
            result = engine.search(own, opp, exact_empties=64)
            margin = result.score // 100
            lines.append(f"{own:x} {opp:x} {margin}")
            if black_margin is None:
                black_margin = margin if black else -margin
            square = result.move
        else:
            midgame.append((own, opp, black))
            if ply < random_plies:
                square = rng.choice([sq for sq in range(64) if moves >> sq & 1])
            else:
                square = engine.search(own, opp, max_depth=depth, exact_empties=0).move
        assert square is not None
        f = flips[square](own, opp)
        own, opp, black = opp ^ f, own | f | (1 << square), not black
        ply += 1
    if black_margin is None:  # over before the solver took over: count the discs
        lead = own.bit_count() - opp.bit_count()
        empty = 64 - (own | opp).bit_count()
        lead += empty if lead > 0 else -empty if lead < 0 else 0
        black_margin = lead if black else -lead
    out = [f"{o:x} {p:x} {black_margin if b else -black_margin}" for o, p, b in midgame]
    return out + lines


def _task(args: tuple[int, int, int, int, int, int]) -> list[str]:
    return play_game(*args)


def chunk_path(out_dir: Path, first: int, last: int) -> Path:
    """The file of games first..last (inclusive)."""
    return out_dir / f"games-{first:06d}-{last:06d}.txt"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--first", type=int, default=0, help="number of the first game")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--depth", type=int, default=6, help="midgame search depth (plies)")
    parser.add_argument("--solve", type=int, default=16, help="solve from this many empties")
    parser.add_argument("--random-plies", type=int, nargs=2, default=(4, 14), metavar=("LO", "HI"))
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--chunk", type=int, default=1000, help="games per file")
    parser.add_argument("--out-dir", required=True, type=Path, help="folder of the chunk files")
    args = parser.parse_args()
    run(
        args.out_dir,
        args.seed,
        args.first,
        args.games,
        args.chunk,
        args.jobs,
        args.depth,
        args.solve,
        tuple(args.random_plies),
    )


def run(
    out_dir: Path,
    seed: int,
    first: int,
    games: int,
    chunk: int,
    jobs: int,
    depth: int = 6,
    solve: int = 16,
    random_plies: tuple[int, int] = (4, 14),
) -> None:
    """Play games first..first+games-1 into `out_dir`, a file per `chunk`
    games; a chunk already there is kept, so a stopped run resumes."""
    out_dir.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    played = positions = 0
    lo, hi = random_plies
    with contextlib.ExitStack() as stack:
        # One job plays in this process; more in a pool of processes.
        pool = stack.enter_context(multiprocessing.Pool(jobs)) if jobs > 1 else None
        for start in range(first, first + games, chunk):
            last = min(start + chunk, first + games) - 1
            path = chunk_path(out_dir, start, last)
            if path.exists():
                continue
            tasks = [(seed, n, depth, solve, lo, hi) for n in range(start, last + 1)]
            partial = path.with_suffix(".part")
            with open(partial, "w") as out:
                played_lines = pool.imap(_task, tasks, chunksize=4) if pool else map(_task, tasks)
                for lines in played_lines:
                    out.write("\n".join(lines) + "\n")
                    positions += len(lines)
            partial.replace(path)  # whole chunks only: a stop mid-chunk replays it
            played += last - start + 1
            print(
                f"{path.name}: {played} games, {positions} positions, "
                f"{time.perf_counter() - started:.0f} s",
                file=sys.stderr,
                flush=True,
            )
    print(
        f"{played} games played ({games - played} already there), {positions} positions in "
        f"{time.perf_counter() - started:.0f} s with {jobs} processes "
        f"(seed {seed}, depth {depth}, solve {solve})"
    )


if __name__ == "__main__":
    main()
