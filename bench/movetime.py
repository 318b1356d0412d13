"""Time per move over full games, per level: the figures behind "hard never
takes more than its budget plus 10 %".

Each level plays itself from the arena's seeded balanced openings, to the end
of the game; every move is timed around `choose_move`, as the app and the
arena see it. Each game runs in a fresh process, as the app's first game
does, so the engine's one-off set-up on the first move counts too.
Prints the average and the maximum per level, how many moves went over the
level's budget + 10 %, and the number of empties at the slowest moves.

    nice python bench/movetime.py                      # easy, medium, hard: 2 games each
    nice python bench/movetime.py --games 4 -j 2 --levels hard expert

Prints figures only; never asserts a duration. Run it under `nice`: the
machine is shared, and a loaded machine is part of what it measures.
"""

import argparse
import multiprocessing
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tui_reversi.core import Game, Variant
from tui_reversi.players import create_player
from tui_reversi.players.kinds import player_kind
from tui_reversi.tools.arena import make_openings

BUDGETS = {level: player_kind(level).limit.time for level in ("hard", "expert")}


def play(task: tuple[str, str, int]) -> list[tuple[float, int]]:
    """(seconds, empties before the move) for every move of one self-play game."""
    level, opening, seed = task
    game = Game.from_transcript(opening, Variant.OTHELLO)
    players = [create_player(level, seed=seed), create_player(level, seed=seed + 1)]
    timed = []
    while not game.is_over:
        player = players[game.length % 2]
        empties = game.position.empty_count
        started = time.perf_counter()
        move = player.choose_move(game.position, player_kind(level).limit)
        timed.append((time.perf_counter() - started, empties))
        game.play(move)
    return timed


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--levels", nargs="+", default=["easy", "medium", "hard"])
    parser.add_argument("--games", type=int, default=2, help="games per level")
    parser.add_argument("-j", "--jobs", type=int, default=1, choices=[1, 2])
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    openings = make_openings(args.games, 6, args.seed, Variant.OTHELLO)
    print(f"Python {sys.version.split()[0]}; {args.games} self-play games per level")
    with multiprocessing.get_context("spawn").Pool(args.jobs, maxtasksperchild=1) as pool:
        for level in args.levels:
            tasks = [(level, opening, args.seed + 2 * i) for i, opening in enumerate(openings)]
            timed = [m for game in pool.map(play, tasks, chunksize=1) for m in game]
            report(level, timed)


def report(level: str, timed: list[tuple[float, int]]) -> None:
    seconds = [s for s, _ in timed]
    line = (
        f"  {level:7s} {len(timed):4d} moves: average {statistics.mean(seconds):6.3f} s, "
        f"max {max(seconds):6.3f} s"
    )
    budget = BUDGETS.get(level)
    if budget is not None:
        over = sum(s > budget * 1.1 for s in seconds)
        line += f", {over} over {budget * 1.1:.2f} s"
    slowest = sorted(timed, reverse=True)[:3]
    line += "; slowest at " + ", ".join(f"{s:.3f} s ({e} empties)" for s, e in slowest)
    print(line, flush=True)


if __name__ == "__main__":
    main()
