"""Training positions from the engine's own games, reproducible from a seed.

Each game starts with a few uniformly random moves (so games differ), then
both sides play a fixed-depth search with the hand-made evaluation. From
`--solve` empty squares on, the exact solver plays: every position from
there is labelled with its exact value, and every earlier position with the
final margin of that game (perfect play over its last plies). Labels are
disc margins for the side to move, WOF counting.

Writes one line per position: `OWN OPP MARGIN` (hex bitboards of the side to
move and of the other side, then the margin). Game i is a pure function of
(seed, i), so any split over processes gives the same lines, in order.

    nice -n 15 python tools/selfplay.py --games 2000 --seed 1 --jobs 2 --out data/sp-1-0.txt
"""

from __future__ import annotations

import argparse
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--first", type=int, default=0, help="number of the first game")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--depth", type=int, default=6, help="midgame search depth (plies)")
    parser.add_argument("--solve", type=int, default=16, help="solve from this many empties")
    parser.add_argument("--random-plies", type=int, nargs=2, default=(4, 14), metavar=("LO", "HI"))
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    lo, hi = args.random_plies
    tasks = [
        (args.seed, n, args.depth, args.solve, lo, hi)
        for n in range(args.first, args.first + args.games)
    ]
    started = time.perf_counter()
    count = 0
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    with open(args.out, "w") as out, multiprocessing.Pool(args.jobs) as pool:
        for done, lines in enumerate(pool.imap(_task, tasks, chunksize=1), 1):
            out.write("\n".join(lines) + "\n")
            count += len(lines)
            if done % 20 == 0:
                out.flush()
                print(
                    f"{done} games, {count} positions, {time.perf_counter() - started:.0f} s",
                    file=sys.stderr,
                    flush=True,
                )
    elapsed = time.perf_counter() - started
    print(
        f"{args.games} games, {count} positions in {elapsed:.0f} s with {args.jobs} processes "
        f"(seed {args.seed}, depth {args.depth}, solve {args.solve})"
    )


if __name__ == "__main__":
    main()
