"""The command line's options: the game's (`--black`, `--load`, ...) and its tools'.

Parsing imports no tool: a tool's own options come from its module when it is
asked for. __main__ parses a process's command line; a hosted game
(hosted_game.py) parses its own, with the game's options alone and its
messages written to its own terminal.
"""

from __future__ import annotations

import argparse
import sys
from importlib import import_module
from typing import IO, Any

# name -> (module under tui_reversi.tools, one-line help)
TOOLS = {
    "perft": ("perft", "count the leaves of the move tree (rules check and speed figure)"),
    "arena": ("arena", "play two opponents against each other and report W/D/L and Elo"),
    "engine": ("engine", "run a level as an outside engine on stdin/stdout (see docs/engine.md)"),
    "nboard": ("nboard", "speak NBoard's engine protocol on stdin/stdout, for NBoard's GUI"),
    "serve": ("serve", "host the game over SSH: players type ssh -p 2222 HOST"),
    "web": ("web", "play in a browser page on this machine (127.0.0.1:8000)"),
    "games": ("games", "list, export and import saved games"),
    "analyse": ("analyse", "score every move of a game file: mistakes, best moves, summary"),
}


class _Parser(argparse.ArgumentParser):
    """argparse that reports a bad argument in one line, exit status 2, and
    writes what it says (help, version, errors) to `output` when given one
    instead of the process's standard output and error."""

    def __init__(self, *args, output: IO[str] | None = None, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.output = output

    def error(self, message: str) -> None:  # type: ignore[override]
        self.exit(2, f"{self.prog}: {message} (try --help)\n")

    def _print_message(self, message: str, file: Any = None) -> None:
        super()._print_message(message, self.output or file or sys.stderr)


class _ToolParser(_Parser):
    """A tool's parser. Its arguments come from the tool's module, imported
    only when the tool is asked for: starting the game imports no tool."""

    def __init__(self, *args, tool_module: str | None = None, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._tool_module: str | None = tool_module

    def _add_tool_arguments(self) -> None:
        if self._tool_module is not None:
            import_module(f"tui_reversi.tools.{self._tool_module}").add_arguments(self)
            self._tool_module = None

    def parse_known_args(self, args=None, namespace=None):
        self._add_tool_arguments()
        return super().parse_known_args(args, namespace)

    def format_help(self) -> str:
        self._add_tool_arguments()
        return super().format_help()

    def format_usage(self) -> str:
        self._add_tool_arguments()
        return super().format_usage()


def build_parser(*, tools: bool = True, output: IO[str] | None = None) -> argparse.ArgumentParser:
    """The command's parser; without `tools`, the game's options alone. `output`:
    where its help and errors go (default the process's standard output and error)."""
    parser = _Parser(
        output=output,
        prog="tui-reversi",
        usage=(
            "%(prog)s [--black LEVEL] [--white LEVEL] [--variant NAME] [--ascii] "
            "[--theme NAME]\n"
            "                   [--no-animation] [--no-mouse] [--load FILE|- | --resume | --new]\n"
            f"       %(prog)s TOOL ...   (TOOL: {', '.join(TOOLS)}; %(prog)s TOOL --help)"
        ),
        description="Reversi/Othello in the terminal. With no sub-command, starts the game.",
    )
    parser.add_argument(
        "--version",
        action="version",
        version=version_line(),
        help="the version, and whether the engine runs compiled or interpreted",
    )
    add_app_arguments(parser)
    if not tools:
        return parser
    subparsers = parser.add_subparsers(
        dest="tool", metavar="TOOL", title="tools", parser_class=_ToolParser
    )
    for name, (module, help_text) in TOOLS.items():
        subparsers.add_parser(
            name,
            prog=f"tui-reversi {name}",
            help=help_text,
            description=help_text,
            tool_module=module,
        )
    return parser


def version_line() -> str:
    """'tui-reversi 0.1.0, engine: compiled (mypyc)' or '... interpreted (why)'."""
    from . import __version__
    from .engine.build import engine_build

    return f"tui-reversi {__version__}, engine: {engine_build()}"


def add_app_arguments(parser: argparse.ArgumentParser) -> None:
    """The options for playing; each sets a setting for this run."""
    from .core import Variant
    from .players.kinds import NAMES

    game = parser.add_argument_group("playing")
    game.add_argument(
        "--black",
        metavar="LEVEL",
        choices=NAMES,
        help=f"who plays Black: {', '.join(NAMES)} (default human)",
    )
    game.add_argument(
        "--white", metavar="LEVEL", choices=NAMES, help="who plays White (default easy)"
    )
    variants = [v.value for v in Variant]
    game.add_argument(
        "--variant",
        metavar="NAME",
        choices=variants,
        help=f"{', '.join(variants)} (default othello)",
    )
    game.add_argument(
        "--ascii", action="store_true", default=None, help="draw the board with X, O and . only"
    )
    game.add_argument(
        "--theme",
        metavar="NAME",
        help="colour theme (default: reversi, or reversi-16 on a 16-colour terminal)",
    )
    game.add_argument(
        "--no-animation",
        dest="animation",
        action="store_false",
        default=None,
        help="show flipped discs without animating them (default over SSH)",
    )
    game.add_argument("--no-mouse", action="store_true", help="ignore the mouse")
    start = game.add_mutually_exclusive_group()
    start.add_argument(
        "--load",
        metavar="FILE|-",
        help="play on from a game file (GGF, transcript, board string or saved game); "
        "- reads it from standard input",
    )
    start.add_argument(
        "--resume", action="store_true", help="resume the unfinished game without asking"
    )
    start.add_argument(
        "--new", action="store_true", help="start a new game without offering the unfinished one"
    )


def app_arguments(args: argparse.Namespace) -> dict[str, Any]:
    """The settings the options given set, by name (unset ones are left out)."""
    names = ("black", "white", "variant", "ascii", "theme", "animation")
    return {name: getattr(args, name) for name in names if getattr(args, name) is not None}
