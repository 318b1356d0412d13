"""How far a position's value can be trusted: the odd/even swing and the images.

    python bench/value_swing.py [--positions 200] [--depth 8] [--images 40] [--tree DIR]

Positions from seeded random games with 20 to 40 discs, searched by the
engine values come from (hard's trained evaluation at the analysis's
ProbCut selectivity), printing:

- swing: the mean absolute change of the value from depth d to d+1, for the
  raw iteration values and for the values as they are shown (the mean of
  the last two depths, players/values.py), at each d up to --depth;
- images: over --images positions, the largest and the mean difference
  between the values of a position's eight symmetric images at --depth.

Only `Engine.search` is used, so the script measures an older checkout as
well (`--tree DIR`, its compiled modules built): the figures before and
after a change come from one machine in one sitting.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

# The tree measured: this one, or the one after --tree (read before the imports).
TREE = Path(sys.argv[sys.argv.index("--tree") + 1]) if "--tree" in sys.argv[:-1] else None
sys.path.insert(0, str(TREE or Path(__file__).resolve().parents[1]))

from tui_reversi.core import Game, Position, Variant  # noqa: E402
from tui_reversi.core.bitboard import symmetries  # noqa: E402
from tui_reversi.engine.evaluation import SCALE, WIN  # noqa: E402
from tui_reversi.engine.search import SearchResult  # noqa: E402
from tui_reversi.players.alphabeta_player import ANALYSIS_SELECTIVITY, engine_for  # noqa: E402


def positions(count: int, seed: int) -> list[Position]:
    """`count` positions with 20 to 40 discs and a move to make."""
    rng = random.Random(seed)
    found: list[Position] = []
    while len(found) < count:
        game = Game(Variant.OTHELLO)
        stop = rng.randint(20, 40)
        while not game.is_over and 64 - game.position.empty_count < stop:
            game.play(rng.choice(game.position.legal_moves()))
        if not game.is_over and game.position.legal_moves():
            found.append(game.position)
    return found


def by_depth(own: int, opp: int, depth: int, selectivity: float) -> dict[int, float]:
    """The value in discs after each depth of one search to `depth` (proven ends left out)."""
    seen: dict[int, float] = {}

    def told(result: SearchResult) -> None:
        if abs(result.score) < WIN and not result.exact:
            seen[result.depth] = result.score / SCALE

    engine = engine_for(Variant.OTHELLO, "trained", selectivity)
    engine.search(own, opp, max_depth=depth, exact_empties=0, on_iteration=told)
    return seen


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=200)
    parser.add_argument("--depth", type=int, default=8)
    parser.add_argument("--images", type=int, default=40)
    parser.add_argument("--seed", type=int, default=61)
    parser.add_argument(
        "--selectivity",
        type=float,
        default=ANALYSIS_SELECTIVITY,
        help=f"ProbCut's (default {ANALYSIS_SELECTIVITY}, the values'; hard plays at 1.5)",
    )
    parser.add_argument("--tree", help="measure the checkout in this directory instead")
    args = parser.parse_args()
    started = time.perf_counter()
    raw: dict[int, list[float]] = {}
    shown: dict[int, list[float]] = {}
    for position in positions(args.positions, args.seed):
        values = by_depth(position.own, position.opp, args.depth + 1, args.selectivity)
        settled = {d: (values[d] + values[d - 1]) / 2 for d in values if d - 1 in values}
        for d in range(2, args.depth + 1):
            if d in values and d + 1 in values:
                raw.setdefault(d, []).append(abs(values[d + 1] - values[d]))
            if d in settled and d + 1 in settled:
                shown.setdefault(d, []).append(abs(settled[d + 1] - settled[d]))
    import tui_reversi

    tree = Path(tui_reversi.__file__).parent.parent
    print(f"{tree}: {args.positions} positions, 20-40 discs, selectivity {args.selectivity}")
    print("depth d -> d+1   raw swing (discs)   shown swing (mean of last two)")
    row = "{:>2} -> {:<2}        {:6.2f}              {:6.2f}"
    for d in sorted(raw):
        shown_mean = statistics.mean(shown[d]) if d in shown else float("nan")
        print(row.format(d, d + 1, statistics.mean(raw[d]), shown_mean))
    all_raw = [x for d in raw for x in raw[d]]
    all_shown = [x for d in shown for x in shown[d]]
    if all_raw and all_shown:
        print(
            f"all depths      {statistics.mean(all_raw):6.2f}   {statistics.mean(all_shown):17.2f}"
        )
    spreads = []
    for position in positions(args.images, args.seed + 1):
        images = zip(symmetries(position.own), symmetries(position.opp), strict=True)
        values = [
            by_depth(own, opp, args.depth, args.selectivity).get(args.depth) for own, opp in images
        ]
        known = [v for v in values if v is not None]
        if len(known) == 8:
            spreads.append(max(known) - min(known))
    if spreads:
        print(
            f"images at depth {args.depth}: {len(spreads)} positions, largest spread "
            f"{max(spreads):.2f} discs, mean {statistics.mean(spreads):.2f}, "
            f"{sum(1 for s in spreads if s > 0)} with images disagreeing"
        )
    print(f"({time.perf_counter() - started:.0f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
