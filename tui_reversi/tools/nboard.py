"""`tui-reversi nboard`: our engine for NBoard's GUI, speaking NBoard's
engine protocol on stdin/stdout (tui_reversi/nboard; docs/engine.md says
how to add it to NBoard's engine list)."""

from __future__ import annotations

import argparse
import io
import sys

LEVELS = ("hard", "expert")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--level",
        choices=LEVELS,
        default="hard",
        help="whose search, book and endgame play (default hard); NBoard sets the depth",
    )


def run(args: argparse.Namespace) -> int:
    from ..nboard import serve

    # NBoard's lines are read as UTF-8 whatever the locale; a stray byte is one bad line.
    lines = io.TextIOWrapper(sys.stdin.buffer, encoding="utf-8", errors="replace")
    return serve(lines, sys.stdout, sys.stderr, level=args.level)
