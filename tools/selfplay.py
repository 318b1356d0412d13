"""Training positions from the engine's own games, reproducible from a seed.

Each game starts with a few uniformly random moves (so games differ), then
both sides play a fixed-depth search with the hand-made evaluation. From
`--solve` empty squares on, the exact solver plays: every position from
there is labelled with its exact value, and every earlier position with the
final margin of that game (perfect play over its last plies). Labels are
disc margins for the side to move, WOF counting.

Options for deeper labels (issue 42): `--openings book` starts each game
from a position of the opening book drawn uniformly (every stored
position, not only the best lines), the random plies counted from there;
`--evaluation trained` searches with the shipped (or $TUI_REVERSI_WEIGHTS)
pattern weights, `--selectivity T` with ProbCut at t = T; `--labels search`
labels every position before the solver's with the score of the
`--depth`-ply search that chooses its move (rounded to discs) rather than
the game's final margin.

    nice -n 5 python tools/selfplay.py --games 400 --seed 11 --jobs 1 --openings book \
        --random-plies 0 2 --evaluation trained --selectivity 2 --labels search \
        --depth 10 --solve 20 --out-dir data/deep-11

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
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tui_reversi.core.bitboard import flip_table, legal_moves
from tui_reversi.engine.book import read_book, shipped_path
from tui_reversi.engine.evaluation import SCALE, WIN
from tui_reversi.engine.pattern_weights import trained_evaluator
from tui_reversi.engine.probcut import load_probcut
from tui_reversi.engine.search import Engine

START_OWN = 0x0000000810000000  # Black (to move): d5, e4
START_OPP = 0x0000001008000000  # White: d4, e5


@dataclass(frozen=True)
class Settings:
    """How the games of a run are played and labelled (the same in every process)."""

    depth: int = 6
    solve: int = 16
    lo: int = 4  # random plies, at least
    hi: int = 14  # and at most
    openings: str = "start"  # or "book": a book position drawn at random
    evaluation: str = "handmade"  # or "trained"
    selectivity: float | None = None  # ProbCut's t (trained only); None: no cuts
    labels: str = "outcome"  # or "search": the --depth search's score


_ENGINE: dict[Settings, Engine] = {}
_OPENINGS: list[tuple[int, int]] = []


def engine_for(settings: Settings) -> Engine:
    """This process's engine for `settings`, made once."""
    if settings not in _ENGINE:
        evaluator = probcut = None
        if settings.evaluation == "trained":
            evaluator = trained_evaluator(False)
            if evaluator is None:
                raise SystemExit("the trained evaluation cannot be read")
            if settings.selectivity is not None:
                fit = load_probcut()
                if fit is None:
                    raise SystemExit("the ProbCut parameters cannot be read for these weights")
                probcut = fit.at(settings.selectivity)
        _ENGINE[settings] = Engine(False, evaluator, probcut)
    return _ENGINE[settings]


def book_openings() -> list[tuple[int, int]]:
    """Every position of the opening book (side to move first), in a fixed order."""
    if not _OPENINGS:
        _OPENINGS.extend(sorted(read_book(shipped_path())))
    return _OPENINGS


def discs(score: int) -> int:
    """A search score in discs, a proven end's as its margin."""
    if score >= WIN:
        score -= WIN
    elif score <= -WIN:
        score += WIN
    return round(score / SCALE)


def play_game(seed: int, number: int, settings: Settings) -> list[str]:
    """The labelled positions of game `number` of run `seed`."""
    rng = random.Random(seed * 1_000_003 + number)
    engine = engine_for(settings)
    depth, solve, lo, hi = settings.depth, settings.solve, settings.lo, settings.hi
    flips = flip_table()
    own, opp = START_OWN, START_OPP
    if settings.openings == "book":
        own, opp = rng.choice(book_openings())
    black = True  # Black is to move (with a book opening: the side to move, whichever it is)
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
        elif settings.labels == "search":
            result = engine.search(own, opp, max_depth=depth, exact_empties=0)
            lines.append(f"{own:x} {opp:x} {discs(result.score)}")
            if ply < random_plies:
                square = rng.choice([sq for sq in range(64) if moves >> sq & 1])
            else:
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


def _task(args: tuple[int, int, Settings]) -> list[str]:
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
    parser.add_argument(
        "--openings",
        choices=("start", "book"),
        default="start",
        help="start every game from the start, or from a book position drawn at random",
    )
    parser.add_argument("--evaluation", choices=("handmade", "trained"), default="handmade")
    parser.add_argument(
        "--selectivity", type=float, help="ProbCut's t for the searches (trained only)"
    )
    parser.add_argument(
        "--labels",
        choices=("outcome", "search"),
        default="outcome",
        help="label positions before the solver's by the game's margin or by their search's score",
    )
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--chunk", type=int, default=1000, help="games per file")
    parser.add_argument("--out-dir", required=True, type=Path, help="folder of the chunk files")
    args = parser.parse_args()
    if args.selectivity is not None and args.evaluation != "trained":
        parser.error("--selectivity needs --evaluation trained (ProbCut is fitted for it)")
    lo, hi = args.random_plies
    settings = Settings(
        args.depth,
        args.solve,
        lo,
        hi,
        args.openings,
        args.evaluation,
        args.selectivity,
        args.labels,
    )
    run(args.out_dir, args.seed, args.first, args.games, args.chunk, args.jobs, settings)


def run(
    out_dir: Path,
    seed: int,
    first: int,
    games: int,
    chunk: int,
    jobs: int,
    settings: Settings | None = None,
) -> None:
    """Play games first..first+games-1 into `out_dir`, a file per `chunk`
    games; a chunk already there is kept, so a stopped run resumes."""
    out_dir.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    played = positions = 0
    if settings is None:
        settings = Settings()
    with contextlib.ExitStack() as stack:
        # One job plays in this process; more in a pool of processes.
        pool = stack.enter_context(multiprocessing.Pool(jobs)) if jobs > 1 else None
        for start in range(first, first + games, chunk):
            last = min(start + chunk, first + games) - 1
            path = chunk_path(out_dir, start, last)
            if path.exists():
                continue
            tasks = [(seed, n, settings) for n in range(start, last + 1)]
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
        f"(seed {seed}, {settings})"
    )


if __name__ == "__main__":
    main()
