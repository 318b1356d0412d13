"""The `tui-reversi` command: starts the app, or runs a tool sub-command."""

from __future__ import annotations

import argparse
import sys
from importlib import import_module

# name -> (module under tui_reversi.tools, one-line help)
TOOLS = {
    "perft": ("perft", "count the leaves of the move tree (rules check and speed figure)"),
    "arena": ("arena", "play two opponents against each other and report W/D/L and Elo"),
    "engine": ("engine", "run a level as an outside engine on stdin/stdout (see README)"),
}


class _Parser(argparse.ArgumentParser):
    """argparse that reports a bad argument in one line, exit status 2."""

    def error(self, message: str) -> None:  # type: ignore[override]
        self.exit(2, f"{self.prog}: {message} (try --help)\n")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="tui-reversi",
        description="Reversi/Othello in the terminal. With no sub-command, starts the game.",
    )
    tools = parser.add_subparsers(dest="tool", metavar="TOOL", title="tools", parser_class=_Parser)
    for name, (module, help_text) in TOOLS.items():
        sub = tools.add_parser(name, help=help_text, description=help_text)
        import_module(f"tui_reversi.tools.{module}").add_arguments(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    from .core import ReversiError

    try:
        if args.tool:
            module = import_module(f"tui_reversi.tools.{TOOLS[args.tool][0]}")
            return module.run(args)
        print(
            "tui-reversi: the game app is not there yet; try `tui-reversi perft 6`.",
            file=sys.stderr,
        )
        return 1
    except ReversiError as error:
        print(f"tui-reversi: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("tui-reversi: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
