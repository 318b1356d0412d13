"""Perft speed: the bitboard engine against a plain list-of-lists program.

Both make every leaf position, in the same run, so the ratio is fair on a
noisy machine. Prints leaves/s for each and the ratio.

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

from tui_reversi.core import Position, perft
from tui_reversi.core.perft import OTHELLO_PERFT


def timed(label, count_leaves, expected):
    started = time.perf_counter()
    leaves = count_leaves()
    seconds = time.perf_counter() - started
    status = "ok" if leaves == expected else f"WRONG, expected {expected}"
    rate = leaves / seconds
    print(f"{label:>8}: {leaves:>9} leaves in {seconds:7.2f} s = {rate:>9,.0f} leaves/s ({status})")
    return rate


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--depth", type=int, default=9, choices=range(1, 12))
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
    engine = timed("engine", lambda: perft(Position.initial(), args.depth), expected)
    plain = timed(
        "plain",
        lambda: plain_reversi.perft(plain_reversi.new_board(), plain_reversi.BLACK, args.depth),
        expected,
    )
    print(f"   ratio: engine is {engine / plain:.1f}x the plain program")
    for depth in range(9, args.verify + 1):
        timed(
            f"perft{depth}",
            lambda d=depth: perft(Position.initial(), d, make_leaves=False),
            OTHELLO_PERFT[depth],
        )


if __name__ == "__main__":
    main()
