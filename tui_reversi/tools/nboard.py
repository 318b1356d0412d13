"""`tui-reversi nboard`: our engine for NBoard's GUI, speaking NBoard's
engine protocol on stdin/stdout (tui_reversi/nboard; docs/engine.md says
how to add it to NBoard's engine list)."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Iterator

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

    return serve(_stdin_lines(), sys.stdout, sys.stderr, level=args.level)


def _stdin_lines() -> Iterator[str]:
    """NBoard's lines, read as UTF-8 whatever the locale (a stray byte is one
    bad line). Read from the descriptor: a thread still waiting in Python's
    buffered stdin when the engine quits would abort the interpreter's exit."""
    pending = b""
    while chunk := os.read(sys.stdin.fileno(), 65536):
        *complete, pending = (pending + chunk).split(b"\n")
        yield from (raw.decode("utf-8", "replace") for raw in complete)
    if pending:
        yield pending.decode("utf-8", "replace")
