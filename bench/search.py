"""Engine speed: nodes/s and depth reached in a fixed time on midgame
positions, and exact endgame solve times at 12, 14, 16 and 18 empties.

Prints figures only (never asserts a duration). The positions are fixed board
strings taken from engine games, so runs compare like with like; compare
runs made on the same machine at the same time.

    python bench/search.py                 # everything: about two minutes or more
    python bench/search.py --empties 12 14 # a quicker endgame look
    python bench/search.py --empties       # midgame only, both evaluations

The midgame runs once per evaluation (--evaluation: hand-made, trained or
both), with the time and memory it takes to load the trained weights.
"""

import argparse
import statistics
import sys
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tui_reversi.core import Position
from tui_reversi.players.pattern_weights import WEIGHTS_PATH, load_tables
from tui_reversi.players.search import Engine

MIDGAME = [  # 40 empties, Black to move
    "--XXX------XO-----XOOOO---XXOXO---XOOX-O--OOOX------------------ X",
    "-----------O------OO------OOXX----OOXX----OXOX----XOOX---XXXXX-- X",
    "---------------------OX--OOOOX----OOXXX--OOXXX--O--XXX------XXX- X",
    "-----------------OX------OOXX---OOXOOO---XXOOO----XXO----XXXX--- X",
    "------------X----OXXX-----XXX----XOXX----XOXX----OXOO---O--XOO-- X",
    "----------OX------OOXXX-X-OOOOO--XOOOO---XXXXOO----------------- X",
    "-----------------X-XOO---OXOXO----OXXXO--XOXXOO---OOXO---------- X",
    "O-------OO-X-----OXXX----XOXX---OOOOOX--OOO-OO------O----------- X",
]

ENDGAME = {
    12: [
        "-OOOOOOO--OXXXXOXXXOXOXOXXXXOOXO-OOOOXOOOOXXXXXOOO-X-X-OOO-----O X",
        "-O-X-O--O-OXOO-OOOOOXOXOOOOXXOOOOOXXXOXOOOXXXXOO-XXXXX-O-XXXXX-- X",
        "--XXX-O-O--XXO-OOOXOXOOOOOOXXXOOOOOXXXXOOXXXXXX-O-XXXXX---XXXXXX X",
        "--O------OO-XX--OOOXXX-OOOXOXXXOOXOXXXXOOXXXXXOOOXXOOOOOOOOOOOOO X",
    ],
    14: [
        "--XXXX-O--XXXXOOXXXXXOXOXXXXOOXO-OOOOXOOOOXXXXXOOO-X-X-OOO-----O X",
        "-O-X----O-OXXX-OOOOOXXXOOOOXOXOOOOXOXOXOOOOXXXOO--XXXX-O-XXXXX-- X",
        "--XO--O----OOO-OOXXOXOOOOOOXXXOOOOOXXXXOOXXXXXX-O-XXXXX---XXXXXX X",
        "---------OX-XX--OOOXXX-OOOXOXXXOOXOXOO-OOXXXXXOOOXXOOOOOOOOOOOOO X",
    ],
    16: [
        "--XXXX----XXXX-OXXXXXXOOXXXXXOXO-OOOOXOOOOXXXXXOOO-X-X-OOO-----O X",
        "---X----O-XXX--OOOOOOOXOOOOOOXOOOOXOXOXOOOOXXXOO--XXXX-O-XXXXX-- X",
        "--XO--O----OOO-OOX-OXOOOOOXOXXOOO-OXXXXOOXXXXXX-O-XXXXX---XXXXXX X",
        "---------OX-XX--OOOXXX-OOOXOXXXOOXOXOO-OOXXOOOO-OXXOOOO-OOOOOOOO X",
    ],
    18: [
        "--XXXX----XXXX-OXXXXXXOOXXXXXOXO-OOOOXOOOOXXXXOOOO-X-X--OO------ X",
        "---X----O-XXX--OOOOOOOXOOOOOOXOOOOXOXXOOOOOXXXO---XXXX---XXXXX-- X",
        "------O----OOO-OOX-OOOOOOOXOXOOOO-OXXXXOOXXXXXX-O-XXXXX---XXXXXX X",
        "------------XX--OOOXXX-OOOXXXXXOOXOXOO-OOXXOOOO-OXXOOOO-OOOOOOOO X",
    ],
}


def midgame(engine, seconds):
    print(f"midgame: iterative deepening, {seconds:g} s on each of {len(MIDGAME)} positions")
    depths, nodes, spent = [], 0, 0.0
    for number, board in enumerate(MIDGAME, 1):
        position = Position.from_string(board)
        started = time.perf_counter()
        result = engine.search(position.own, position.opp, time_limit=seconds)
        elapsed = time.perf_counter() - started
        depths.append(result.depth)
        nodes += result.nodes
        spent += elapsed
        print(
            f"  #{number}: depth {result.depth:2d}, {result.nodes:7d} nodes in {elapsed:.2f} s"
            f" = {result.nodes / elapsed:8,.0f} nodes/s"
        )
    print(
        f"  median depth {statistics.median(depths):g} (min {min(depths)}, max {max(depths)}), "
        f"{nodes / spent:,.0f} nodes/s overall"
    )


def endgame(engine, empties):
    print("endgame: exact solve (final margin for the side to move)")
    for count in empties:
        times = []
        for number, board in enumerate(ENDGAME[count], 1):
            position = Position.from_string(board)
            started = time.perf_counter()
            result = engine.search(position.own, position.opp, exact_empties=64)
            elapsed = time.perf_counter() - started
            times.append(elapsed)
            print(
                f"  {count} empties #{number}: margin {result.score // 100:+3d}, "
                f"{result.nodes:8d} nodes in {elapsed:6.2f} s"
            )
        print(f"  {count} empties: median {statistics.median(times):.2f} s, max {max(times):.2f} s")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=1.0, help="midgame time per position")
    parser.add_argument(
        "--empties", type=int, nargs="*", default=[12, 14, 16, 18], choices=sorted(ENDGAME)
    )
    parser.add_argument("--no-midgame", action="store_true")
    parser.add_argument("--evaluation", choices=("handmade", "trained", "both"), default="both")
    args = parser.parse_args()
    print(f"Python {sys.version.split()[0]}")
    engine = Engine()
    if not args.no_midgame:
        for name in ("handmade", "trained"):
            if args.evaluation in (name, "both"):
                chosen = load_trained() if name == "trained" else engine
                missing = name == "trained" and not chosen.trained
                print(f"evaluation: {name}{' (no weights: hand-made used)' if missing else ''}")
                evaluation_speed(chosen)
                midgame(chosen, args.seconds)
    if args.empties:
        endgame(engine, args.empties)


def load_trained():
    """The engine with the trained evaluation, timing the weights' load."""
    tracemalloc.start()
    started = time.perf_counter()
    tables = load_tables()
    elapsed = time.perf_counter() - started
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    size = WEIGHTS_PATH.stat().st_size if WEIGHTS_PATH.exists() else 0
    if tables is not None:
        print(
            f"weights: {size:,} bytes on disk, loaded in {elapsed * 1000:.0f} ms, "
            f"peak {peak / 1e6:.1f} MB while loading"
        )
    return Engine(trained=True)


def evaluation_speed(engine, repeat=20):
    """Static evaluations per second over the midgame positions (no search)."""
    positions = [Position.from_string(board) for board in MIDGAME]
    pairs = [(p.own, p.opp) for p in positions] + [(p.opp, p.own) for p in positions]
    evaluate = engine.evaluate
    started = time.perf_counter()
    for _ in range(repeat):
        for own, opp in pairs:
            evaluate(own, opp)
    elapsed = time.perf_counter() - started
    print(f"  static evaluation: {repeat * len(pairs) / elapsed:,.0f} calls/s")


if __name__ == "__main__":
    main()
