"""The `tui-reversi` command: starts the app, or runs a tool sub-command."""

from __future__ import annotations

import argparse
import contextlib
import gc
import os
import signal
import sys
import threading
from functools import partial
from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .app import ReversiApp
    from .match import Match
    from .net.lobby_link import LobbyLink

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
    """argparse that reports a bad argument in one line, exit status 2."""

    def error(self, message: str) -> None:  # type: ignore[override]
        self.exit(2, f"{self.prog}: {message} (try --help)\n")


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


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
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
    tools = parser.add_subparsers(
        dest="tool", metavar="TOOL", title="tools", parser_class=_ToolParser
    )
    for name, (module, help_text) in TOOLS.items():
        tools.add_parser(
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


def run_app(args: argparse.Namespace) -> int:
    """The app with the player's settings, autosave and saved games; the
    command line's options override the settings for this run only."""
    # Start-up allocates much and frees little: no garbage collections until
    # the first frame is drawn (the app turns them back on then).
    gc.disable()
    try:
        return _run_app(args)
    finally:
        gc.enable()


def _run_app(args: argparse.Namespace) -> int:
    from .net.lobby_link import REPLAY_VARIABLE
    from .net.remote import TABLE_SECRET_VARIABLE, TABLE_SOCKET_VARIABLE

    table_socket = os.environ.pop(TABLE_SOCKET_VARIABLE, None)
    table_secret = os.environ.pop(TABLE_SECRET_VARIABLE, None)
    if table_socket and table_secret:
        return _run_at_table(args, table_socket, table_secret)
    replay = os.environ.pop(REPLAY_VARIABLE, None)
    if replay:
        return _run_replay(args, replay)
    lobby = _reach_lobby()
    from .app import create_app
    from .core import ReversiError
    from .crash import contain, stacks_on_signal
    from .session import Session
    from .terminal_input import tolerate_invalid_utf8
    from .widgets.themes import theme_names

    stacks_on_signal()
    if args.theme is not None and args.theme not in theme_names():
        # Before the session touches any file: a bad flag changes nothing.
        names = ", ".join(sorted(theme_names()))
        raise ReversiError(f"unknown theme {args.theme!r}: choose one of {names}")
    session = Session.start(
        load=args.load,
        resume=args.resume,
        new=args.new,
        variant=args.variant,
        themes=theme_names(),
    )
    try:
        options = app_arguments(args)
        match = session.start_match(black=options.get("black"), white=options.get("white"))
        app = create_app(
            settings=session.settings_for(options), match=match, session=session, lobby=lobby
        )
        tolerate_invalid_utf8()
        threading.excepthook = partial(_thread_failed, app)
        app.end_on_interrupts()  # a ctrl+c as it closes down cuts short neither that nor the save
        app.run(mouse=not args.no_mouse)
    finally:
        _ignore_interrupts()
        threading.excepthook = threading.__excepthook__
        saved = session.close()
        if lobby is not None:
            lobby.close()
    if app.crash is not None:
        transcript = app.match.game.transcript(app.match.game.length)
        return contain(app.crash, transcript=transcript, saved=saved)
    code = app.return_code or 0
    if code > 128 and saved:  # ended by SIGHUP or SIGTERM (the terminal may be gone)
        with contextlib.suppress(OSError):
            print(
                "tui-reversi: stopped; the game is saved and the next start offers it",
                file=sys.stderr,
            )
    return code


def _reach_lobby() -> LobbyLink | None:
    """The line to the server's lobby, when `tui-reversi serve` gave this game one
    (net/lobby_link.py); without it (or if it cannot be reached) the game is played
    on its own, and the lobby key says the lobby is not here."""
    from .core import ReversiError
    from .net.lobby_link import LOBBY_SECRET_VARIABLE, LOBBY_SOCKET_VARIABLE, LobbyLink

    path = os.environ.pop(LOBBY_SOCKET_VARIABLE, None)
    secret = os.environ.pop(LOBBY_SECRET_VARIABLE, None)
    if not (path and secret):
        return None
    try:
        return LobbyLink.connect(path, secret)
    except ReversiError:
        return None


def _run_at_table(args: argparse.Namespace, path: str, secret: str) -> int:
    """A game at a server's table (`tui-reversi serve` starts it so): this player
    against a person at another terminal, the server the referee. Nothing of the
    player's own games is touched."""
    from dataclasses import replace

    from .app import create_app
    from .crash import contain
    from .match import Match, table_seats
    from .net.remote import TableLink
    from .storage.settings import load_settings
    from .terminal_input import tolerate_invalid_utf8
    from .widgets.themes import theme_names

    link = TableLink.connect(path, secret)
    try:
        state = link.state
        black, white = table_seats(state.colour)
        match = Match(black, white, link.start_game(), names=state.names, ending=state.ending)
        settings, _ = load_settings(themes=theme_names())
        options = app_arguments(args)
        options.pop("variant", None)  # the table's variant
        settings = replace(settings, **options)
        app = create_app(settings=settings, match=match, table_link=link)
        tolerate_invalid_utf8()
        threading.excepthook = partial(_thread_failed, app)
        app.end_on_interrupts()
        app.run(mouse=not args.no_mouse)
        if not app.return_code and app.crash is None:  # quit, not hung up: no seat to hold
            link.leave()
    finally:
        _ignore_interrupts()
        threading.excepthook = threading.__excepthook__
        link.close()
    if app.crash is not None:  # the server holds the seat: reconnecting sits you back down
        return contain(app.crash, transcript=app.match.game.transcript(app.match.game.length))
    return app.return_code or 0


def _run_replay(args: argparse.Namespace, ggf: str) -> int:
    """A server's archived game (`ssh -t host replay ID`), given as GGF: opened as a
    finished game is at home, to review and analyse. Nothing of the player's own
    games is touched (no autosave)."""
    from dataclasses import replace

    from .app import create_app
    from .storage.settings import load_settings
    from .terminal_input import tolerate_invalid_utf8
    from .widgets.themes import theme_names

    match = replay_match(ggf)
    settings, _ = load_settings(themes=theme_names())
    options = app_arguments(args)
    options.pop("variant", None)  # the archived game's variant
    app = create_app(settings=replace(settings, **options), match=match)
    tolerate_invalid_utf8()
    app.run(mouse=not args.no_mouse)
    return app.return_code or 0


def replay_match(ggf: str) -> Match:
    """The finished game a server's replay gives as GGF, both its people played at
    this keyboard (their names and how it ended kept). Raises ReversiError."""
    from .match import Match
    from .players.kinds import HUMAN
    from .storage.ggf import parse_ggf

    record = parse_ggf(ggf)
    names = record.names or ("", "")
    return Match(HUMAN, HUMAN, record.to_game(), names=names, ending=record.ending)


def _ignore_interrupts() -> None:
    """The game is ending: a ctrl+c or ctrl+\\ now (SIGINT, SIGQUIT: the
    terminal is in cooked mode) would cut short the last autosave or the
    goodbye. Ignored, not handled: Python puts back the default for a handled
    signal as it shuts down, and the default ends the process."""
    for signum in (signal.SIGINT, signal.SIGQUIT):
        signal.signal(signum, signal.SIG_IGN)


def _thread_failed(app: ReversiApp, failed: threading.ExceptHookArgs) -> None:
    if failed.exc_value is not None:
        app.thread_failed(failed.exc_value)


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
    parser = build_parser()
    args = parser.parse_args(argv)
    from .core import ReversiError

    try:
        if args.tool:
            module = import_module(f"tui_reversi.tools.{TOOLS[args.tool][0]}")
            return module.run(args)
        return run_app(args)
    except ReversiError as error:
        print(f"tui-reversi: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("tui-reversi: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        raise  # the reader went away: see main
    except Exception as error:  # a bug: a report and one sentence, never a traceback
        from .crash import contain

        return contain(error)


if __name__ == "__main__":
    sys.exit(main())
