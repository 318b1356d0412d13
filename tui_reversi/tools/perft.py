"""`tui-reversi perft DEPTH`: count move-generation leaves and time it."""

from __future__ import annotations

import argparse
import time

from ..core import Position, ReversiError, perft


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("depth", type=int, help="plies to search (0-14)")
    parser.add_argument(
        "--position",
        metavar="BOARD",
        help="start from this board string (64 squares then X or O) instead of the Othello start",
    )
    parser.add_argument(
        "--count-only",
        action="store_true",
        help="count the last ply instead of making every leaf (faster, less of a benchmark)",
    )


def run(args: argparse.Namespace) -> int:
    from ..engine.build import engine_build

    if not 0 <= args.depth <= 14:
        raise ReversiError(f"depth must be between 0 and 14, not {args.depth}")
    position = Position.from_string(args.position) if args.position else Position.initial()
    started = time.perf_counter()
    leaves = perft(position, args.depth, make_leaves=not args.count_only)
    seconds = time.perf_counter() - started
    rate = leaves / seconds if seconds > 0 else float("inf")
    print(f"perft({args.depth}) = {leaves}")
    print(f"{seconds:.3f} s, {rate:,.0f} leaves/s (engine: {engine_build()})")
    return 0
