"""How deep hard sees in its second a move, this tree against another, in one run.

Hard (its level as each tree defines it, trained evaluation, no book) is
asked for a move in the positions of a few repeatable games, every second
ply from 40 empties down; the two trees take turns position by position.
Prints the median depth hard completed in the midgame, and per empties
count from 14 up whether the move came from an exact solve: the largest
count it solved every time is where "exact from" stands at that budget.

    git worktree add --detach /tmp/base main   # once: the tree to compare with
    (cd /tmp/base && python3 -m venv .venv && .venv/bin/pip install -e .)
    nice -n 10 python bench/reach.py --against /tmp/base
    nice -n 10 python bench/reach.py --seconds 5 --level expert
    nice -n 10 python bench/reach.py --without-probcut   # the level's ProbCut on and off

Prints figures only; never asserts a duration.
"""

import argparse
import statistics
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tui_reversi.core import Game  # noqa: E402

# Runs in a worker: for each board string read from stdin, hard's search at
# the budget; answers "depth exact".
WORKER = """
import sys
sys.path.insert(0, sys.argv[1])
from tui_reversi.core import Position, Variant
from tui_reversi.players.alphabeta_player import EXPERT, HARD, engine_for
level = {"hard": HARD, "expert": EXPERT}[sys.argv[2]]
seconds = float(sys.argv[3])
# With the level's ProbCut where the tree has it (trees before it take two arguments).
selectivity = getattr(level, "selectivity", None)
if selectivity is None or sys.argv[4] == "off":
    engine = engine_for(Variant.OTHELLO, "trained")
else:
    engine = engine_for(Variant.OTHELLO, "trained", selectivity)
warm = Position.initial()
engine.search(warm.own, warm.opp, max_depth=2)
print("ready", flush=True)
for line in sys.stdin:
    position = Position.from_string(line.strip())
    result = engine.search(
        position.own, position.opp, time_limit=seconds,
        exact_empties=level.exact_empties, wdl_empties=level.wdl_empties,
    )
    print(result.depth, int(result.exact), flush=True)
"""


def seeded_games(games: int) -> Iterator[Game]:
    """`games` repeatable games: hard at depth 4 against medium, with two
    random moves early (bench/endgame_choice.py takes its positions from
    them too)."""
    from tui_reversi.players import create_player
    from tui_reversi.players.base import Limit

    for seed in range(games):
        hard = create_player("hard", seed=seed)
        medium = create_player("medium", seed=seed)
        easy = create_player("easy", seed=seed)
        game = Game()
        while not game.is_over:
            ply = game.length
            player = easy if ply in (2, 5) else hard if ply % 2 == seed % 2 else medium
            depth = 4 if player is hard else 2
            game.play(player.choose_move(game.position, Limit(depth=depth)))
        yield game


def positions(games: int) -> list[str]:
    """Every second position from 40 empties down of `games` seeded games."""
    found = []
    for game in seeded_games(games):
        for position in game.positions:
            empties = position.empty_count
            if 4 <= empties <= 40 and empties % 2 == 0 and position.legal_mask():
                found.append(str(position))
    return found


class Worker:
    def __init__(self, tree: Path, level: str, seconds: float, probcut: str = "on"):
        venv_python = tree / ".venv" / "bin" / "python"
        python = str(venv_python) if venv_python.exists() else sys.executable
        self.process = subprocess.Popen(
            [python, "-c", WORKER, str(tree), level, str(seconds), probcut],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        self.process.stdout.readline()

    def ask(self, board: str) -> tuple[int, bool]:
        self.process.stdin.write(board + "\n")
        self.process.stdin.flush()
        depth, exact = self.process.stdout.readline().split()
        return int(depth), exact == "1"

    def close(self):
        self.process.stdin.close()
        self.process.wait()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--against", metavar="TREE", type=Path, help="another checkout")
    parser.add_argument("--level", choices=("hard", "expert"), default="hard")
    parser.add_argument("--seconds", type=float, default=1.0)
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument(
        "--without-probcut", action="store_true", help="also this tree with ProbCut off"
    )
    args = parser.parse_args()
    trees = {"this": (ROOT, "on")}
    if args.without_probcut:
        trees["this, ProbCut off"] = (ROOT, "off")
    if args.against:
        trees[str(args.against)] = (args.against.resolve(), "on")
    workers = {
        name: Worker(tree, args.level, args.seconds, probcut)
        for name, (tree, probcut) in trees.items()
    }
    boards = positions(args.games)
    names = list(workers)
    seen = {name: [] for name in names}
    try:
        for index, board in enumerate(boards):
            empties = board[:64].count("-")
            for name in names if index % 2 == 0 else names[::-1]:
                seen[name].append((empties, *workers[name].ask(board)))
    finally:
        for worker in workers.values():
            worker.close()
    print(f"{args.level} at {args.seconds:g} s a move, {len(boards)} positions")
    for name in names:
        midgame = [depth for empties, depth, exact in seen[name] if empties >= 24 and not exact]
        solved = {}
        for empties, _, exact in seen[name]:
            solved.setdefault(empties, []).append(exact)
        always = [e for e, answers in solved.items() if all(answers)]
        exact_from = max(always, default=0)
        rows = ", ".join(
            f"{e}: {sum(solved[e])}/{len(solved[e])}" for e in sorted(solved) if 14 <= e <= 26
        )
        print(
            f"  {name}: median midgame depth {statistics.median(midgame):g} (24-40 empties);"
            f" exact every time from {exact_from} empties down; exact by empties: {rows}"
        )


if __name__ == "__main__":
    main()
