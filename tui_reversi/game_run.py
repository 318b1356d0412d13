"""One game, from its options and its surroundings to its exit status, wherever
it runs: in a process of its own (`tui-reversi`: OwnProcess) or hosted beside
other games in one process (hosted_game.py).

The game reads its environment and working directory from its surroundings
(surroundings.py, made current by whoever runs it), never from the process.
What differs between the two ways is the Venue: where its standard input and
error are, and what it does to the app before and after the app runs (the
terminal it drives, the signals and thread failures that reach it).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import signal
import sys
import threading
from collections.abc import Callable
from functools import partial
from typing import IO, TYPE_CHECKING, Protocol

from .surroundings import current

if TYPE_CHECKING:
    from .app import ReversiApp
    from .match import Match
    from .net.lobby_link import LobbyLink


class Venue(Protocol):
    """Where a game runs."""

    @property
    def stdin(self) -> IO[str] | None:
        """What `--load -` reads."""

    @property
    def stderr(self) -> IO[str]:
        """Where the game's last words go: a bad option, the crash sentence, 'stopped'."""

    @property
    def command(self) -> list[str]:
        """The game's command line, as its crash report quotes it."""

    def prepare(self, app: ReversiApp) -> None:
        """Just before the app runs: its terminal, its signals, its threads' failures."""

    def finish(self) -> None:
        """Once the app has stopped (or could not start): the game is closing down."""


class OwnProcess:
    """A game with its process to itself: the process's standard streams, its
    signals (SIGHUP, SIGTERM, SIGINT, SIGQUIT, SIGUSR1) and its thread
    exception hook are the game's."""

    @property
    def stdin(self) -> IO[str] | None:
        return sys.stdin

    @property
    def stderr(self) -> IO[str]:
        return sys.stderr

    @property
    def command(self) -> list[str]:
        return sys.argv

    def prepare(self, app: ReversiApp) -> None:
        from .crash import stacks_on_signal
        from .terminal_input import tolerate_invalid_utf8

        stacks_on_signal()
        tolerate_invalid_utf8()
        threading.excepthook = partial(_thread_failed, app)
        app.end_on_interrupts()  # a ctrl+c as it closes down cuts short neither that nor the save

    def finish(self) -> None:
        _ignore_interrupts()
        threading.excepthook = threading.__excepthook__


def forget_secrets() -> None:
    """In a game's own process, once its surroundings are read: the server's
    table, lobby and replay variables (a secret each) taken out of the
    process's environment, so that no process the game starts inherits them."""
    from .net.lobby_link import LOBBY_SECRET_VARIABLE, LOBBY_SOCKET_VARIABLE, REPLAY_VARIABLE
    from .net.remote import TABLE_SECRET_VARIABLE, TABLE_SOCKET_VARIABLE

    for name in (
        TABLE_SOCKET_VARIABLE,
        TABLE_SECRET_VARIABLE,
        LOBBY_SOCKET_VARIABLE,
        LOBBY_SECRET_VARIABLE,
        REPLAY_VARIABLE,
    ):
        os.environ.pop(name, None)


def _thread_failed(app: ReversiApp, failed: threading.ExceptHookArgs) -> None:
    if failed.exc_value is not None:
        app.thread_failed(failed.exc_value)


def _ignore_interrupts() -> None:
    """The game is ending: a ctrl+c or ctrl+\\ now (SIGINT, SIGQUIT: the
    terminal is in cooked mode) would cut short the last autosave or the
    goodbye. Ignored, not handled: Python puts back the default for a handled
    signal as it shuts down, and the default ends the process."""
    for signum in (signal.SIGINT, signal.SIGQUIT):
        signal.signal(signum, signal.SIG_IGN)


def outcome(run: Callable[[], int], stderr: IO[str], command: list[str]) -> int:
    """`run()`'s exit status, a command's mistakes said in one line on
    `stderr`: a ReversiError (bad input) 2, an interrupt 130, a bug a crash
    report (`command` quoted in it) and crash.CRASH_STATUS. A reader gone
    (BrokenPipeError) is left to the caller."""
    from .core import ReversiError

    try:
        return run()
    except ReversiError as error:
        print(f"tui-reversi: {error}", file=stderr)
        return 2
    except KeyboardInterrupt:
        print("tui-reversi: interrupted", file=stderr)
        return 130
    except BrokenPipeError:
        raise
    except Exception as error:  # a bug: a report and one sentence, never a traceback
        from .crash import contain

        return contain(error, stderr=stderr, command=command)


def play(args: argparse.Namespace, venue: Venue) -> int:
    """The game the options ask for (options.build_parser's), played to its
    end in `venue`: its exit status, as `outcome` says."""
    return outcome(partial(_play, args, venue), venue.stderr, venue.command)


def _play(args: argparse.Namespace, venue: Venue) -> int:
    from .net.lobby_link import REPLAY_VARIABLE
    from .net.remote import TABLE_SECRET_VARIABLE, TABLE_SOCKET_VARIABLE

    surroundings = current()
    table_socket = surroundings.get(TABLE_SOCKET_VARIABLE)
    table_secret = surroundings.get(TABLE_SECRET_VARIABLE)
    if table_socket and table_secret:
        return _play_at_table(args, venue, table_socket, table_secret)
    replay = surroundings.get(REPLAY_VARIABLE)
    if replay:
        return _play_replay(args, venue, replay)
    return _play_at_home(args, venue)


def _play_at_home(args: argparse.Namespace, venue: Venue) -> int:
    """The app with the player's settings, autosave and saved games; the
    command line's options override the settings for this run only."""
    from .app import create_app
    from .core import ReversiError
    from .crash import contain
    from .options import app_arguments
    from .session import Session
    from .widgets.themes import theme_names

    lobby = _reach_lobby()
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
        stdin=venue.stdin,
    )
    try:
        options = app_arguments(args)
        match = session.start_match(black=options.get("black"), white=options.get("white"))
        app = create_app(
            settings=session.settings_for(options), match=match, session=session, lobby=lobby
        )
        venue.prepare(app)
        app.run(mouse=not args.no_mouse)
    finally:
        venue.finish()
        saved = session.close()
        if lobby is not None:
            lobby.close()
    if app.crash is not None:
        transcript = app.match.game.transcript(app.match.game.length)
        return contain(
            app.crash,
            transcript=transcript,
            saved=saved,
            stderr=venue.stderr,
            command=venue.command,
        )
    code = app.return_code or 0
    if code > 128 and saved:  # ended by SIGHUP or SIGTERM (the terminal may be gone)
        with contextlib.suppress(OSError, ValueError):
            print(
                "tui-reversi: stopped; the game is saved and the next start offers it",
                file=venue.stderr,
            )
    return code


def _reach_lobby() -> LobbyLink | None:
    """The line to the server's lobby, when `tui-reversi serve` gave this game one
    (net/lobby_link.py); without it (or if it cannot be reached) the game is played
    on its own, and the lobby key says the lobby is not here."""
    from .core import ReversiError
    from .net.lobby_link import LOBBY_SECRET_VARIABLE, LOBBY_SOCKET_VARIABLE, LobbyLink

    surroundings = current()
    path = surroundings.get(LOBBY_SOCKET_VARIABLE)
    secret = surroundings.get(LOBBY_SECRET_VARIABLE)
    if not (path and secret):
        return None
    try:
        return LobbyLink.connect(str(surroundings.absolute(path)), secret)
    except (ReversiError, RuntimeError):
        return None


def _play_at_table(args: argparse.Namespace, venue: Venue, path: str, secret: str) -> int:
    """A game at a server's table (`tui-reversi serve` starts it so): this player
    against a person at another terminal, the server the referee. Nothing of the
    player's own games is touched."""
    from dataclasses import replace

    from .app import create_app
    from .crash import contain
    from .match import Match, table_seats
    from .net.remote import TableLink
    from .options import app_arguments
    from .storage.settings import load_settings
    from .widgets.themes import theme_names

    link = TableLink.connect(str(current().absolute(path)), secret)
    try:
        state = link.state
        black, white = table_seats(state.colour)
        match = Match(black, white, link.start_game(), names=state.names, ending=state.ending)
        settings, _ = load_settings(themes=theme_names())
        options = app_arguments(args)
        options.pop("variant", None)  # the table's variant
        settings = replace(settings, **options)
        app = create_app(settings=settings, match=match, table_link=link)
        venue.prepare(app)
        app.run(mouse=not args.no_mouse)
        if not app.return_code and app.crash is None:  # quit, not hung up: no seat to hold
            link.leave()
    finally:
        venue.finish()
        link.close()
    if app.crash is not None:  # the server holds the seat: reconnecting sits you back down
        transcript = app.match.game.transcript(app.match.game.length)
        return contain(app.crash, transcript=transcript, stderr=venue.stderr, command=venue.command)
    return app.return_code or 0


def _play_replay(args: argparse.Namespace, venue: Venue, ggf: str) -> int:
    """A server's archived game (`ssh -t host replay ID`), given as GGF: opened as a
    finished game is at home, to review and analyse. Nothing of the player's own
    games is touched (no autosave)."""
    from dataclasses import replace

    from .app import create_app
    from .options import app_arguments
    from .storage.settings import load_settings
    from .widgets.themes import theme_names

    match = replay_match(ggf)
    settings, _ = load_settings(themes=theme_names())
    options = app_arguments(args)
    options.pop("variant", None)  # the archived game's variant
    app = create_app(settings=replace(settings, **options), match=match)
    try:
        venue.prepare(app)
        app.run(mouse=not args.no_mouse)
    finally:
        venue.finish()
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
