"""Perft speed: the bitboard engine against a plain list-of-lists program.

Both make every leaf position. The tree is split into its subtrees two plies
down and the two programs take turns subtree by subtree, so a shared, noisy
machine slows both alike and the ratio stays fair. Prints leaves/s for each
and the ratio.

    python bench/perft.py              # perft(9): a few minutes, mostly the plain one
    python bench/perft.py --depth 7    # quick look
    python bench/perft.py --verify 11  # also check depths 9..11 (engine only, counting)
"""

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import plain_reversi

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
    print(f"{label:>8}: {leaves:>9} leaves in {seconds:7.2f} s = {rate:>9,.0f} leaves/s ({status})")
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
    args = parser.parse_args()
    expected = OTHELLO_PERFT[args.depth]
    python = sys.version.split()[0]
    print(f"perft({args.depth}) from the Othello start, every leaf made, Python {python}")
    totals = {"engine": [0, 0.0], "plain": [0, 0.0]}
    for position in subtrees(Position.initial(), 2):
        depth = args.depth - 2
        started = time.perf_counter()
        totals["engine"][0] += perft(position, depth)
        totals["engine"][1] += time.perf_counter() - started
        board, player = plain_board(position)
        started = time.perf_counter()
        totals["plain"][0] += plain_reversi.perft(board, player, depth)
        totals["plain"][1] += time.perf_counter() - started
    engine = report("engine", *totals["engine"], expected)
    plain = report("plain", *totals["plain"], expected)
    print(f"   ratio: engine is {engine / plain:.1f}x the plain program (same run, interleaved)")
    for depth in range(9, args.verify + 1):
        started = time.perf_counter()
        leaves = perft(Position.initial(), depth, make_leaves=False)
        report(f"perft{depth}", leaves, time.perf_counter() - started, OTHELLO_PERFT[depth])


if __name__ == "__main__":
    main()
