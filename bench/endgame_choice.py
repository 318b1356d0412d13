"""Where hard should start solving: its moves near the end, judged by the solver.

Hard (trained evaluation, its ProbCut) is asked for a move in the positions
of a few repeatable games at 20-23 empties (by default), once for each pair
of thresholds EXACT/WDL asked for (solve exactly from EXACT empties down,
win/draw/loss from WDL), at a budget a move. Each chosen move is then solved
exactly, as is the position, and the script prints per pair how many discs a
move gave away on average against the best move, how many moves gave away
any, and how many turned the game's outcome (a win into a draw or loss, a
draw into a loss): the last is what a match's score feels.

    nice -n 10 python bench/endgame_choice.py                      # 18/20 against 20/22
    nice -n 10 python bench/endgame_choice.py --pairs 18/20 18/22 --games 40 --jobs 2

The positions come from bench/reach.py's seeded games (hard at depth 4
against medium, two random moves early), one at each empties count asked
for a game. Each pair's search starts with an empty transposition table,
where in a game hard's keeps what its last move's search found. Prints
figures only; never asserts a duration.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from multiprocessing import Pool
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from reach import seeded_games  # noqa: E402  (bench/reach.py's games)

from tui_reversi.core import Position  # noqa: E402
from tui_reversi.engine.pattern_weights import trained_evaluator  # noqa: E402
from tui_reversi.engine.probcut import load_probcut  # noqa: E402
from tui_reversi.engine.search import Engine  # noqa: E402
from tui_reversi.players.alphabeta_player import HARD  # noqa: E402


def positions(games: int, empties: set[int]) -> list[str]:
    """A position at each of `empties` (with two moves or more) of `games`
    seeded games."""
    return [
        str(position)
        for game in seeded_games(games)
        for position in game.positions
        if position.empty_count in empties and len(position.legal_moves()) > 1
    ]


def judge(job: tuple[str, list[tuple[int, int]], float]) -> list[tuple[int, int, int]]:
    """For each threshold pair: (empties, discs given away, 1 if the outcome
    turned) of hard's move in the position."""
    board, pairs, seconds = job
    position = Position.from_string(board)
    evaluator = trained_evaluator(False)
    fit = load_probcut()
    assert evaluator is not None and fit is not None and HARD.selectivity is not None
    solver = Engine(False, evaluator)
    best = solver.solve(position.own, position.opp)
    sign = (best > 0) - (best < 0)
    answers = []
    for exact, wdl in pairs:
        engine = Engine(False, evaluator, fit.at(HARD.selectivity))
        move = engine.search(
            position.own, position.opp, time_limit=seconds, exact_empties=exact, wdl_empties=wdl
        ).move
        assert move is not None
        after = position.play(move)
        value = -solver.solve(after.own, after.opp)
        answers.append((position.empty_count, best - value, int((value > 0) - (value < 0) < sign)))
    return answers


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", nargs="+", default=["18/20", "20/22"], help="EXACT/WDL")
    parser.add_argument("--empties", type=int, nargs="+", default=[20, 21, 22, 23])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=1.0, help="hard's budget a move")
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args()
    try:
        pairs = [(int(a), int(b)) for a, b in (p.split("/") for p in args.pairs)]
    except ValueError:
        parser.error("a pair is two numbers of empties, EXACT/WDL: 18/20")
    boards = positions(args.games, set(args.empties))
    if not boards:
        raise SystemExit("No position of these games has those empties and two moves or more.")
    jobs = [(board, pairs, args.seconds) for board in boards]
    with Pool(args.jobs) as pool:
        judged = pool.map(judge, jobs, chunksize=1)
    print(f"hard at {args.seconds:g} s a move, {len(boards)} positions, judged by the solver")
    for k, name in enumerate(args.pairs):
        rows = [answers[k] for answers in judged]
        by_empties = ", ".join(
            f"{e}: {statistics.mean(r[1] for r in rows if r[0] == e):.2f}"
            for e in sorted({r[0] for r in rows})
        )
        print(
            f"  {name}: {statistics.mean(r[1] for r in rows):.2f} discs given away a move"
            f" ({by_empties}); {sum(r[1] > 0 for r in rows)} moves gave some away,"
            f" {sum(r[2] for r in rows)} turned the outcome"
        )


if __name__ == "__main__":
    main()
