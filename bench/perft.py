"""Perft speed: the bitboard engine, interpreted and compiled (mypyc), against
a plain list-of-lists program.

All make every leaf position. The tree is split into its subtrees two plies
down and the programs take turns subtree by subtree (the two engines in
worker processes, bench/both_engines.py), so a shared, noisy machine slows
all alike and the ratios stay fair. Prints leaves/s for each and the ratios.

    python bench/perft.py              # perft(9): a few minutes, mostly the plain one
    python bench/perft.py --no-plain   # the two engines only
    python bench/perft.py --depth 7    # quick look
    python bench/perft.py --verify 11  # also check depths 9..11 (this process's engine, counting)
"""

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import plain_reversi
from both_engines import BothEngines

from tui_reversi.core import Color, Position, perft
from tui_reversi.core.perft import OTHELLO_PERFT


def subtrees(position, plies):
    """The positions `plies` moves below `position` (the Othello start has no passes there)."""
    if plies == 0:
        return [position]
    return [p for m in position.legal_moves() for p in subtrees(position.play(m), plies - 1)]


def plain_board(position):
    cells = {Color.BLACK: plain_reversi.BLACK, Color.WHITE: plain_reversi.WHITE, None: 0}
    board = [[cells[position.color_at(r * 8 + c)] for c in range(8)] for r in range(8)]
    player = plain_reversi.BLACK if position.to_move is Color.BLACK else plain_reversi.WHITE
    return board, player


def report(label, leaves, seconds, expected):
    status = "ok" if leaves == expected else f"WRONG, expected {expected}"
    rate = leaves / seconds
    print(
        f"{label:>11}: {leaves:>9} leaves in {seconds:7.2f} s = {rate:>10,.0f} leaves/s ({status})"
    )
    return rate


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--depth", type=int, default=9, choices=range(3, 12))
    parser.add_argument(
        "--verify",
        type=int,
        default=0,
        choices=range(9, 12),
        metavar="MAX",
        help="afterwards check the engine's counts for depths 9..MAX (last ply counted)",
    )
    parser.add_argument("--no-plain", action="store_true", help="the two engines only")
    args = parser.parse_args()
    expected = OTHELLO_PERFT[args.depth]
    python = sys.version.split()[0]
    print(f"perft({args.depth}) from the Othello start, every leaf made, Python {python}")
    totals = {"interpreted": [0, 0.0], "compiled": [0, 0.0], "plain": [0, 0.0]}
    with BothEngines() as engines:
        print(f"interpreted: {engines.interpreted.engine}; compiled: {engines.compiled.engine}")
        for position in subtrees(Position.initial(), 2):
            depth = args.depth - 2
            question = {"kind": "perft", "board": str(position), "depth": depth}
            for key, answer in zip(("interpreted", "compiled"), engines.ask(question), strict=True):
                totals[key][0] += answer["leaves"]
                totals[key][1] += answer["seconds"]
            if args.no_plain:
                continue
            board, player = plain_board(position)
            started = time.perf_counter()
            totals["plain"][0] += plain_reversi.perft(board, player, depth)
            totals["plain"][1] += time.perf_counter() - started
    interpreted = report("interpreted", *totals["interpreted"], expected)
    compiled = report("compiled", *totals["compiled"], expected)
    print(f"      ratio: compiled is {compiled / interpreted:.1f}x interpreted (same run)")
    if not args.no_plain:
        plain = report("plain", *totals["plain"], expected)
        print(
            f"      ratio: the engine is {interpreted / plain:.1f}x (interpreted) and "
            f"{compiled / plain:.1f}x (compiled) the plain program (same run, interleaved)"
        )
    for depth in range(9, args.verify + 1):
        started = time.perf_counter()
        leaves = perft(Position.initial(), depth, make_leaves=False)
        report(f"perft{depth}", leaves, time.perf_counter() - started, OTHELLO_PERFT[depth])


if __name__ == "__main__":
    main()
