"""Game analysis speed and how far its losses can be trusted.

For a few seeded games (hard against medium, to the end) it prints the time
to analyse each game at the given budget, the time per position (midgame and
exact apart), and when the first result arrived. With --noise it analyses
the midgame positions again with four times the budget and prints how much
each move's disc loss changed: the engine's own uncertainty, which the
label thresholds in the README are set above.

Prints figures only (never asserts a duration); compare runs made on the same
machine at the same time.

    python bench/analysis.py                # 3 games at the default budget
    python bench/analysis.py --games 2 --noise
"""

import argparse
import math
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tui_reversi.core import PASS, Game
from tui_reversi.players import create_player
from tui_reversi.players.analysis import DEFAULT_TIME, analyse_game, analyse_move


def play_game(seed: int) -> Game:
    """Hard (fixed depth) against medium, a repeatable game for each seed."""
    hard = create_player("hard", time_limit=math.inf, max_depth=4)
    medium = create_player("medium", seed=seed, max_depth=2)
    easy = create_player("easy", seed=seed)
    game = Game()
    while not game.is_over:
        ply = game.length
        # A few random moves early make each seed's game its own.
        player = easy if ply in (2, 5) else hard if ply % 2 == seed % 2 else medium
        game.play(player.choose_move(game.position))
    return game


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--time", type=float, default=DEFAULT_TIME, help="seconds per position")
    parser.add_argument("--noise", action="store_true", help="re-analyse with 4x the budget")
    args = parser.parse_args()

    midgame: list[float] = []
    exact: list[float] = []
    changes: list[float] = []
    for seed in range(args.games):
        game = play_game(seed)
        started = time.perf_counter()
        first = None
        last = started
        results = []
        for scored in analyse_game(game, time_limit=args.time):
            now = time.perf_counter()
            first = first if first is not None else now - started
            (exact if scored.exact else midgame).append(now - last)
            last = now
            results.append(scored)
        total = time.perf_counter() - started
        moves = sum(1 for m in game.moves if m != PASS)
        print(
            f"game {seed}: {moves} moves analysed in {total:.1f} s, "
            f"first result after {first:.2f} s; {game.result}"
        )
        if args.noise:
            for scored in results:
                if scored.exact or scored.loss is None:
                    continue
                longer = analyse_move(
                    game.positions[scored.ply - 1],
                    game.moves[scored.ply - 1],
                    scored.ply,
                    time_limit=4 * args.time,
                )
                if longer.loss is not None:
                    changes.append(abs(longer.loss - scored.loss))
    for name, times in (("midgame", midgame), ("exact", exact)):
        if times:
            print(
                f"{name}: {len(times)} positions, mean {statistics.mean(times):.2f} s, "
                f"longest {max(times):.2f} s"
            )
    if changes:
        changes.sort()
        tenth = changes[int(0.9 * (len(changes) - 1))]
        print(
            f"loss change at 4x the budget over {len(changes)} midgame moves: median "
            f"{statistics.median(changes):.1f}, 90th percentile {tenth:.1f}, "
            f"largest {changes[-1]:.1f} discs"
        )


if __name__ == "__main__":
    main()
