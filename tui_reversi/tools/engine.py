"""`tui-reversi engine LEVEL`: our engine as an outside engine for other
programs' arenas, speaking the line protocol on stdin/stdout (see docs/engine.md)."""

from __future__ import annotations

import argparse
import sys


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("level", help="easy, medium, hard or expert")
    parser.add_argument("--seed", type=int, default=None, help="seed for the level's choices")


def run(args: argparse.Namespace) -> int:
    from ..players import create_player
    from ..players.external import serve

    create_player(args.level)  # an unknown level fails here, in one line
    players = {}

    def player(variant):
        if variant not in players:
            players[variant] = create_player(args.level, variant=variant, seed=args.seed)
        return players[variant]

    def write(line: str) -> None:
        sys.stdout.write(line + "\n")
        sys.stdout.flush()

    serve(player, sys.stdin, write)
    return 0
