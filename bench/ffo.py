"""The FFO endgame test (positions #40-59), this tree against another, in one run.

The standard endgame benchmark of Othello programs: twenty positions from
20 to 26 empties with their known exact scores (Edax's
`problem/fforum-40-59.obf`; the scores agree with every published solver).
Each position is solved exactly with the engine of this tree and, with
`--against TREE`, with the engine of another checkout that has its own
compiled install (its .venv when it has one). The two take turns position by
position (the order swapping each time), so a busy machine slows both
alike: compare the ratios, not the seconds. CPU seconds are printed too:
on a shared machine they vary less than the clock. A wrong score stops the
run.

    git worktree add --detach /tmp/base main   # once: the tree to compare with
    (cd /tmp/base && python3 -m venv .venv && .venv/bin/pip install -e .)
    nice -n 10 python bench/ffo.py --against /tmp/base          # #40-44
    nice -n 10 python bench/ffo.py --positions 45-59 --seconds 60

`--seconds` caps each solve (then "unsolved" is printed, with the nodes it
searched). Prints figures only; never asserts a duration.
"""

import argparse
import math
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# Number: (board a1..h8 then the side to move, exact score, every best move).
FFO = {
    40: ("O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X", 38, "a2"),
    41: ("-OOOOO----OOOOX--OOOOOO-XXXXXOO--XXOOX--OOXOXX----OXXO---OOO--O- X", 0, "h4"),
    42: ("--OOO-------XX-OOOOOOXOO-OOOOXOOX-OOOXXO---OOXOO---OOOXO--OOOO-- X", 6, "g2"),
    43: ("--XXXXX---XXXX---OOOXX---OOXXXX--OOXXXO-OOOOXOO----XOX----XXXXX- O", -12, "g3 c7"),
    44: ("--O-X-O---O-XO-O-OOXXXOOOOOOXXXOOOOOXX--XXOOXO----XXXX-----XXX-- O", -14, "d2 b8"),
    45: ("---XXXX-X-XXXO--XXOXOO--XXXOXO--XXOXXO---OXXXOO-O-OOOO------OO-- X", 6, "b2"),
    46: ("---XXX----OOOX----OOOXX--OOOOXXX--OOOOXX--OXOXXX--XXOO---XXXX-O- X", -8, "b3"),
    47: ("-OOOOO----OOOO---OOOOX--XXXXXX---OXOOX--OOOXOX----OOXX----XXXX-- O", 4, "g2"),
    48: ("-----X--X-XXX---XXXXOO--XOXOOXX-XOOXXX--XOOXX-----OOOX---XXXXXX- O", 28, "f6"),
    49: ("--OX-O----XXOO--OOOOOXX-OOOOOX--OOOXOXX-OOOOXX-----OOX----X-O--- X", 16, "e1"),
    50: ("----X-----XXX----OOOXOOO-OOOXOOO-OXOXOXO-OOXXOOO--OOXO----O--O-- X", 10, "d8"),
    51: ("----O-X------X-----XXXO-OXXXXXOO-XXOOXOOXXOXXXOO--OOOO-O----OO-- O", 6, "e2 a3"),
    52: ("---X-------OX--X--XOOXXXXXXOXXXXXXXOOXXXXXXOOOXX--XO---X-------- O", 0, "a3"),
    53: ("----OO-----OOO---XXXXOOO--XXOOXO-XXXXXOO--OOOXOO--X-OX-O-----X-- X", -2, "d8"),
    54: ("--OOO---XXOO----XXXXOOOOXXXXOX--XXXOXX--XXOOO------OOO-----O---- X", -2, "c7"),
    55: ("--------X-X------XXXXOOOOOXOXX--OOOXXXX-OOXXXX--O-OOOX-----OO--- O", 0, "g6 b7 e2 g4"),
    56: ("--XXXXX---XXXX---OOOXX---OOXOX---OXXXXX-OOOOOXO----OXX---------- O", 2, "h5"),
    57: ("-------------------XXOOO--XXXOOO--XXOXOO-OOOXXXO--OXOO-O-OOOOO-- X", -10, "a6"),
    58: ("--XOOO----OOO----OOOXOO--OOOOXO--OXOXXX-OOXXXX----X-XX---------- X", 4, "g1"),
    59: ("-----------------------O--OOOOO---OOOOOXOOOOXXXX--XXOOXX--XX-O-X X", 64, "h4 g8 e8"),
}

# Runs in a worker: solve each "board;seconds" line read from stdin, answer
# "score move nodes seconds cpu-seconds exact" (score and move only
# meaningful when exact). The engine is hard's: the trained evaluation
# orders the root (and, where the solver uses one, its moves near the root).
WORKER = """
import sys, time
sys.path.insert(0, sys.argv[1])
from tui_reversi.core import Position, Variant, square_name
from tui_reversi.engine.build import engine_build
from tui_reversi.players.alphabeta_player import engine_for
engine = engine_for(Variant.OTHELLO, "trained")
print(engine_build(), flush=True)
for line in sys.stdin:
    board, seconds = line.rsplit(";", 1)
    position = Position.from_string(board)
    started = time.perf_counter()
    cpu = time.process_time()
    deadline = started + float(seconds)
    result = engine.search(
        position.own, position.opp, exact_empties=64,
        cancelled=lambda: time.perf_counter() >= deadline,
    )
    elapsed = time.perf_counter() - started
    cpu = time.process_time() - cpu
    move = square_name(result.move) if result.move is not None else "pass"
    print(result.score // 100, move, result.nodes, elapsed, cpu, int(result.exact), flush=True)
"""


class Worker:
    """A Python process solving positions with the engine of one source tree."""

    def __init__(self, tree: Path):
        venv_python = tree / ".venv" / "bin" / "python"
        python = str(venv_python) if venv_python.exists() else sys.executable
        self.process = subprocess.Popen(
            [python, "-c", WORKER, str(tree)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        self.build = self.process.stdout.readline().strip()

    def solve(self, board: str, seconds: float) -> tuple[int, str, int, float, float, bool]:
        self.process.stdin.write(f"{board};{seconds}\n")
        self.process.stdin.flush()
        line = self.process.stdout.readline()
        if not line:
            raise SystemExit("a solver worker died")
        score, move, nodes, elapsed, cpu, exact = line.split()
        return int(score), move, int(nodes), float(elapsed), float(cpu), exact == "1"

    def close(self):
        self.process.stdin.close()
        self.process.wait()


def numbers(text: str) -> list[int]:
    first, _, last = text.partition("-")
    chosen = list(range(int(first), int(last or first) + 1))
    if not chosen or not set(chosen) <= set(FFO):
        raise SystemExit(f"positions are numbered 40 to 59, not {text}")
    return chosen


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--against", metavar="TREE", type=Path, help="another checkout to compare with"
    )
    parser.add_argument(
        "--positions", type=numbers, default=numbers("40-44"), help="e.g. 40-44 or 45-59"
    )
    parser.add_argument("--seconds", type=float, default=math.inf, help="cap on each solve")
    args = parser.parse_args()
    workers = {"this": Worker(ROOT)}
    if args.against:
        workers[str(args.against)] = Worker(args.against.resolve())
    try:
        run(workers, args)
    finally:
        for worker in workers.values():
            worker.close()


def run(workers, args):
    names = list(workers)
    print(
        f"Python {sys.version.split()[0]}; "
        + "; ".join(f"{n}: {w.build}" for n, w in workers.items())
    )
    totals = {name: [0, 0.0, 0.0] for name in names}
    solved_by_all = True
    for index, number in enumerate(args.positions):
        board, known, best_moves = FFO[number]
        order = names if index % 2 == 0 else names[::-1]
        seen = {name: workers[name].solve(board, args.seconds) for name in order}
        empties = board.count("-")
        parts = []
        for name in names:
            score, move, nodes, seconds, cpu, exact = seen[name]
            if exact and score != known:
                raise SystemExit(
                    f"#{number}: {name} scores {score:+d}, the known score is {known:+d}"
                )
            totals[name][0] += nodes
            totals[name][1] += seconds
            totals[name][2] += cpu
            solved_by_all &= exact
            verdict = f"{score:+3d} {move}" + ("" if move in best_moves.split() else "?")
            parts.append(
                f"{name} {verdict if exact else 'unsolved':9s} {nodes:11,d} nodes"
                f" {seconds:7.2f} s ({cpu:.2f} CPU)"
            )
        line = f"#{number} ({empties} empties, {known:+d}): " + "; ".join(parts)
        if len(names) == 2 and all(seen[name][5] for name in names):
            ratio = seen[names[1]][3] / seen[names[0]][3]
            cpu_ratio = seen[names[1]][4] / seen[names[0]][4]
            line += f"; {names[1]}/this time {ratio:.2f}x, CPU {cpu_ratio:.2f}x"
        print(line, flush=True)
    summary = "; ".join(
        f"{n} {totals[n][0]:,d} nodes {totals[n][1]:.1f} s ({totals[n][2]:.1f} CPU)" for n in names
    )
    if len(names) == 2 and solved_by_all:
        other, this = totals[names[1]], totals[names[0]]
        summary += (
            f"; {names[1]}/this: time {other[1] / this[1]:.2f}x, CPU {other[2] / this[2]:.2f}x,"
            f" nodes {other[0] / this[0]:.2f}x"
        )
    print(f"total: {summary}")


if __name__ == "__main__":
    main()
