"""The game launcher: imports the game once, then forks one child per game.

`tui-reversi serve` starts this as a fresh Python (`python -m
tui_reversi.launcher FD`, its `ServeConfig.launcher_command`; `FD --unshared`
without fork_sharing.py's work) with a bare environment, before any
player arrives. It imports Textual, the app, its screens, themes and the
engine, freezes what it made for the garbage collector (so children share
those pages copy-on-write), and then runs no thread and no event loop: a
plain `select` loop on one socket. It never reads the host key, and holds
only that socket, a wake-up pipe and /dev/null.

For each game the server sends one request (JSON: argv, env, cwd) with the
game's pty slave attached (SCM_RIGHTS). The forked child becomes the
leader of a new session on that pty exactly as a freshly started process
would (see server/hall/pty_process.py): descriptors 0-2 on the pty and no other open,
default signal dispositions, an empty signal mask, the request's
environment and directory. It then leaves the loop and runs the game as
`python argv...` would, and the interpreter exits normally.

A request may ask for a game host instead (JSON: id, host: the hosted game
class, "MODULE:NAME"), with the host's own control socket attached: the
child then runs game_host.py's host, several games in threads, and speaks
to the server over that socket only (`serve --games-per-process K`).

Messages back to the server, one JSON object each:

    {"ready": SECONDS}                 preloaded, waiting for requests
    {"id": N, "pid": PID}              request N's game (or host) runs as PID
    {"id": N, "error": SENTENCE}       request N could not be started
    {"exited": PID, "status": S}       as subprocess: -N for signal N

When the server's end of the socket closes, this process exits; games still
running then get SIGHUP from their own pty as the server's side closes.
"""

from __future__ import annotations

import contextlib
import gc
import importlib
import json
import os
import pkgutil
import runpy
import select
import signal
import socket
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass

from . import fork_sharing, game_host
from .game_host import GameClass, GameRequest, open_max, receive, send
from .server.hall.pty_process import become_session_terminal

# Loaded by a running game but not by importing the app (the terminal driver and
# what it pulls in at run time): imported here so no child pays for them.
RUN_TIME_MODULES = (
    "termios",
    "tty",
    "textual.drivers.linux_driver",
    "textual._xterm_parser",
    "textual.layouts.factory",
    "textual.layouts.horizontal",
    "textual.layouts.stream",
    "textual.scrollbar",
    "textual.pilot",
)
# Parts of the package a game never runs: the tools, the server and this launcher.
NOT_PRELOADED = ("tui_reversi.tools", "tui_reversi.server", "tui_reversi.launcher")


@dataclass(frozen=True)
class HostRequest:
    """Fork a game host that runs games of this class (game_host.py)."""

    game_class: GameClass

    @classmethod
    def from_fields(cls, fields: dict[str, object]) -> HostRequest:
        spec = fields["host"]
        if not isinstance(spec, str):
            raise ValueError("a host request names its game class")
        return cls(game_host.load_game_class(spec))


def preload() -> None:
    """Import everything a game imports, so a forked child starts with it in place."""
    import tui_reversi

    for module in pkgutil.walk_packages(tui_reversi.__path__, "tui_reversi."):
        # `python -m tui_reversi` runs __main__ afresh: imported here, runpy would warn.
        if not module.name.startswith(NOT_PRELOADED) and not module.name.endswith(".__main__"):
            importlib.import_module(module.name)
    for name in RUN_TIME_MODULES:
        importlib.import_module(name)
    # rich loads its table of character widths on first use.
    from rich.cells import cell_len

    cell_len("●")
    _preload_width_table()
    preload_engine()


def _preload_width_table() -> None:
    """rich 14 and later import the newest Unicode's width table at the first
    wide character a game draws: imported here (the table, not the cache that
    reads UNICODE_VERSION, so a game's own environment still chooses)."""
    with contextlib.suppress(ImportError):
        from rich._unicode_data._versions import VERSIONS

        importlib.import_module("rich._unicode_data.unicode" + VERSIONS[-1].replace(".", "-"))


def preload_engine() -> None:
    """Build what a computer player builds at its first move, once for every game:
    the engines of each variant and level (their evaluation's weights, 1.7 MB, and
    ProbCut's fit), the opening book, and the 4 MB of zeros each array of a
    transposition table is copied from. Games have the same files and
    no variable that would choose others, so what is built here is what they
    would build."""
    from .core import Variant
    from .engine.book import load_book
    from .engine.transposition import TT_BITS, TranspositionTable
    from .players import alphabeta_player as levels

    for variant in Variant:
        for selectivity in (
            levels.HARD_SELECTIVITY,
            levels.EXPERT_SELECTIVITY,
            levels.ANALYSIS_SELECTIVITY,
        ):
            levels.engine_for(variant, levels.chosen_evaluation(), selectivity)
    load_book()
    TranspositionTable(TT_BITS)  # let go at once; the zeros it was copied from stay


def _return_freed_memory() -> None:
    """Give the C heap's freed pages back to the system (glibc's malloc_trim):
    what preloading built and let go of (a transposition table, 12 MB)
    would otherwise stay in the parent for as long as it runs."""
    with contextlib.suppress(OSError, AttributeError):
        import ctypes

        ctypes.CDLL(None).malloc_trim(0)


def main(argv: list[str]) -> int:
    """Preload, serve requests; returns only at the end (in the parent) or, in a
    forked child, with the game's exit status once the game is over."""
    control = socket.socket(fileno=int(argv[0]))
    started = time.monotonic()
    gc.disable()  # nothing here needs collecting; children turn it back on
    preload()
    if fork_sharing.wanted(argv[1:]):
        fork_sharing.make_immortal()  # (3.12 and later: counts never written again)
    _return_freed_memory()
    gc.freeze()  # shared with every child: never scanned again, so never copied
    if threading.active_count() != 1:
        send(control, {"error": "preloading started a thread; cannot fork safely"})
        return 1
    send(control, {"ready": round(time.monotonic() - started, 3)})
    child = _serve(control)
    if child is None:
        return 0
    request, attached = child
    if isinstance(request, HostRequest):
        game_host.run_host(socket.socket(fileno=attached), request.game_class)
    return _run_game(request, attached)


def _serve(control: socket.socket) -> tuple[GameRequest | HostRequest, int] | None:
    """The loop: fork a child per request, report exits. Returns in a child only."""
    wake_read, wake_write = os.pipe()
    os.set_blocking(wake_read, False)
    os.set_blocking(wake_write, False)
    signal.signal(signal.SIGCHLD, lambda number, frame: None)
    signal.set_wakeup_fd(wake_write)
    # Ctrl+C on the operator's terminal is for the server, which stops us by closing the socket.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    while True:
        readable, _, _ = select.select([control.fileno(), wake_read], [], [])
        if wake_read in readable:
            with contextlib.suppress(BlockingIOError):
                os.read(wake_read, 4096)
        for pid, status in _reap():
            send(control, {"exited": pid, "status": status})
        if control.fileno() not in readable:
            continue
        try:
            data, fds = receive(control)
        except OSError:
            return None
        if not data:
            return None  # the server has gone
        request_id = None
        try:
            fields = json.loads(data)
            if not isinstance(fields, dict):
                raise ValueError("a request is a JSON object")
            request_id = fields.get("id")
            request: GameRequest | HostRequest
            if "host" in fields:
                request = HostRequest.from_fields(fields)
            else:
                request = GameRequest.from_fields(fields)
            if len(fds) != 1:
                raise ValueError("a request needs exactly one terminal or socket")
            pid = os.fork()
        except (ValueError, KeyError, OSError) as error:
            for fd in fds:
                os.close(fd)
            send(control, {"id": request_id, "error": str(error)})
            continue
        if pid == 0:
            signal.set_wakeup_fd(-1)
            for fd in (control.detach(), wake_read, wake_write):
                os.close(fd)
            return request, fds[0]
        os.close(fds[0])
        send(control, {"id": request_id, "pid": pid})


def _reap() -> Iterator[tuple[int, int]]:
    while True:
        try:
            pid, status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return
        yield pid, os.waitstatus_to_exitcode(status)  # as subprocess: -N for signal N


def _run_game(request: GameRequest, slave: int) -> int:
    """In the child: become a fresh game process on `slave`, then run the game."""
    try:
        os.setsid()
        for target in (0, 1, 2):
            os.dup2(slave, target)
        # Nothing of the parent's stays open: not the socket, not another player's pty.
        os.closerange(3, open_max())
        become_session_terminal()
        # What a fresh interpreter sets up at start, on top of the defaults.
        signal.signal(signal.SIGINT, signal.default_int_handler)
        for number in (signal.SIGPIPE, signal.SIGXFSZ):
            signal.signal(number, signal.SIG_IGN)
        os.environ.clear()
        os.environ.update(request.env)
        os.chdir(request.cwd)
        _reopen_standard_streams()
    except OSError as error:
        with contextlib.suppress(OSError):
            os.write(2, f"tui-reversi: the game could not start: {error}\r\n".encode())
        return 1
    gc.enable()
    argv = request.argv
    try:
        if argv[0] == "-m":
            sys.argv = [argv[1], *argv[2:]]
            runpy.run_module(argv[1], run_name="__main__", alter_sys=True)
        else:
            sys.argv = list(argv)
            runpy.run_path(argv[0], run_name="__main__")
    except SystemExit as done:
        return _exit_code(done.code)
    return 0


def _exit_code(code: object) -> int:
    if code is None:
        return 0
    if isinstance(code, int):
        return code
    print(code, file=sys.stderr)
    return 1


def _reopen_standard_streams() -> None:
    """Text streams on the new terminal, set up as Python sets them up for a tty."""
    # The parent's were made for /dev/null: block-buffered, which a terminal is not.
    stdin = open(0, encoding="utf-8", closefd=False)  # noqa: SIM115
    stdout = open(1, "w", 1, encoding="utf-8", closefd=False)  # noqa: SIM115
    stderr = open(2, "w", 1, encoding="utf-8", errors="backslashreplace", closefd=False)  # noqa: SIM115
    sys.stdin = sys.__stdin__ = stdin  # type: ignore[misc]
    sys.stdout = sys.__stdout__ = stdout  # type: ignore[misc]
    sys.stderr = sys.__stderr__ = stderr  # type: ignore[misc]


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
