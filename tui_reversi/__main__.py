"""The `tui-reversi` command: starts the game, or runs a tool sub-command."""

from __future__ import annotations

import argparse
import contextlib
import gc
import os
import signal
import sys
from functools import partial
from importlib import import_module

from .options import TOOLS, app_arguments, build_parser

__all__ = ["app_arguments", "build_parser", "main"]


def main(argv: list[str] | None = None) -> int:
    """The command: its exit status. Its output's reader going away (`| head`)
    ends any command quietly, as it ends a Unix tool: status 141 (SIGPIPE)."""
    try:
        try:
            return _command(argv)
        finally:
            sys.stdout.flush()  # the last of the output: a reader gone shows here too
    except BrokenPipeError:
        # Nothing more reaches the reader; Python's own flush at exit must not say so.
        with contextlib.suppress(OSError):
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 128 + signal.SIGPIPE


def _command(argv: list[str] | None) -> int:
    args = build_parser().parse_args(argv)
    from .game_run import outcome

    if args.tool:
        module = import_module(f"tui_reversi.tools.{TOOLS[args.tool][0]}")
        return outcome(partial(module.run, args), sys.stderr, sys.argv)
    return run_app(args)


def run_app(args: argparse.Namespace) -> int:
    """The game, in this process of its own (game_run.py), in the environment
    and directory the process was started with, read once."""
    from .game_run import OwnProcess, forget_secrets, play
    from .surroundings import Surroundings

    surroundings = Surroundings.of_process()
    forget_secrets()
    # Start-up allocates much and frees little: no garbage collections until
    # the first frame is drawn (the app turns them back on then).
    gc.disable()
    try:
        with surroundings.entered():
            return play(args, OwnProcess())
    finally:
        gc.enable()


if __name__ == "__main__":
    sys.exit(main())
