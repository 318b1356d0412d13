"""A game hosted beside others in one process, each in a thread of its own on a
pty of its own: `HostedGame(argv, env, cwd, tty)`, `run()`, `signal(number)`
(the interface the launcher's host mode uses; docs/hosting.md, "Several
players' games in one process").

A hosted game is the game `python -m tui_reversi ARGV` runs (game_run.py), and
takes nothing another game in its process sees:
- its environment and working directory are its surroundings (surroundings.py),
  current in its thread and its event loop's tasks, never os.environ or the
  process's directory: its HOME, XDG folders, files root, crash report, ssh
  command, NO_COLOR, TERM and COLORTERM are its own;
- its terminal is its pty, through pty_driver.py: no signal handler, the size
  read from the pty and told to rich's console, a resize told by `signal`;
- signals reach it by `signal()`: it installs no handler of its own;
- an exception escaping a thread it started (surroundings.GameThread: its
  computer's search, its autosave, its lines to the server) ends it with a
  crash report, as in a process of its own, and no other game: the first
  hosted game puts a hook in the process's threading.excepthook that tells
  the thread's own game (its driver's threads report to it directly), and
  leaves any other thread's failure to the hook that was there;
- the garbage collector is its process's: its start-up neither freezes nor
  turns on collections (a game in a process of its own does both);
- it never ends the process (no os._exit): a game whose closing down hangs, or
  that is killed, is let go: `run()` returns, its terminal is taken from it, and
  its thread, if stuck, is left as a daemon;
- what it would say on standard error (a bad option, "stopped; the game is
  saved", the crash sentence) goes to its own terminal;
- Textual's App swaps sys.stdout and sys.stderr for a capture of its own while
  it runs (contextlib.redirect_stdout in App._process_messages); apps doing so in
  several threads interleave, and would leave the process's streams on a dead
  app's capture. So the first hosted game puts one stream of its own in their
  place, for the process's life, and makes it every hosted app's capture:
  swapping it for itself changes nothing. What a game writes there is dropped,
  as Textual's capture drops it (while a game runs its screen is its only
  output); what code outside any game writes goes to the process's stream.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import io
import os
import signal as signals
import sys
import threading
import traceback
from collections.abc import Callable, Mapping
from functools import partial
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from .crash import contain, open_stacks_file
from .game_run import play
from .options import build_parser
from .pty_driver import PtyDriver
from .surroundings import Surroundings, hosting, in_a_game

if TYPE_CHECKING:
    from .app import ReversiApp

# The signals that end a game, as its own process's handlers do; of them, those a
# game closing down ignores (a terminal in cooked mode sends them for ctrl+c, ctrl+\).
ENDING = (signals.SIGHUP, signals.SIGTERM, signals.SIGINT, signals.SIGQUIT)
INTERRUPTS = (signals.SIGINT, signals.SIGQUIT)


class HostedGame:
    """One game in a thread of a process that hosts several. `argv`: the
    options `python -m tui_reversi` would get; `env` and `cwd`: its environment
    and working directory; `tty`: its pty's slave descriptor, which it owns
    and closes when it ends."""

    def __init__(self, argv: list[str], env: Mapping[str, str], cwd: str, tty: int) -> None:
        hosting()
        _take_standard_streams()
        _take_thread_failures()
        self._argv = list(argv)
        self._surroundings = Surroundings(env, Path(os.path.abspath(cwd)))
        self._tty = tty
        self._stdin = open(tty, encoding="utf-8", closefd=False)  # noqa: SIM115
        self._stderr = open(  # noqa: SIM115
            tty, "w", 1, encoding="utf-8", errors="backslashreplace", closefd=False
        )
        self._lock = threading.Lock()
        self._over = threading.Event()
        self._status: int | None = None
        self._started = False
        self._terminal_open = True
        self._thread: threading.Thread | None = None
        # While the app runs: it, its loop and the game's context (for calls from other threads).
        self._app: ReversiApp | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._context: contextvars.Context | None = None
        self._driver: PtyDriver | None = None
        self._pending: list[int] = []  # ending signals that came before the app ran
        self._app_stopped = False
        self._failures_told: contextvars.Token[Callable[[BaseException], None]] | None = None

    # -- the interface ---------------------------------------------------------------

    def run(self) -> int:
        """Play the game to its end; its exit status, as its own process's would
        be (0 quit, 2 bad options, 128+N ended by signal N, crash.CRASH_STATUS
        after a bug with the report written, -9 killed). Blocks; call it in a
        thread of its own. Never raises."""
        try:
            with self._lock:
                start = self._status is None and not self._started
                self._started = True
            if start:
                self._thread = threading.Thread(
                    target=self._play, name=f"game on {self._tty}", daemon=True
                )
                self._thread.start()
            self._over.wait()
            if self._thread is None:  # killed before it ran: its terminal is closed here
                self._finish(1)
        except BaseException:  # (nothing above raises but a broken interpreter)
            self._finish(1)
        return self._status if self._status is not None else 1

    def signal(self, number: int) -> None:
        """What `number` does to a game in its own process, told from any
        thread at any time: SIGHUP, SIGTERM, SIGINT and SIGQUIT end it (game
        saved, terminal put back; a second one at once); SIGWINCH: its pty's
        size changed; SIGUSR1: its threads' stacks to the stacks file; SIGKILL:
        it ends now (run() returns -9). Others are ignored."""
        if number == signals.SIGKILL:
            self._end_at_once(-signals.SIGKILL)
        elif number == signals.SIGWINCH:
            driver = self._driver
            if driver is not None:
                driver.resized()
        elif number == getattr(signals, "SIGUSR1", None):
            self._write_stacks()
        elif number in ENDING:
            self._end_on(number)

    # -- what game_run asks of its venue ---------------------------------------------

    @property
    def stdin(self) -> IO[str] | None:
        return self._stdin  # its terminal: `--load -` says it reads no game from there

    @property
    def stderr(self) -> IO[str]:
        return self._stderr

    @property
    def command(self) -> list[str]:
        return ["tui-reversi", *self._argv]

    def prepare(self, app: ReversiApp) -> None:
        from .terminal_input import tolerate_invalid_utf8

        tolerate_invalid_utf8()  # (Textual's driver module, the same for every game)
        app.driver_class = self._driver_for  # type: ignore[assignment]
        # (In the game's thread: every thread the app starts carries it.)
        self._failures_told = _failures.set(app.thread_failed)
        app.take_signals = partial(self._app_running, app)
        app.end_at_once = self._end_at_once
        # Collections are the process's: another game's search may hold them (engine/
        # search.py) as this one starts, and a freeze then would keep every game's
        # objects, this one's too, for the process's life.
        app.start_up_over = _collections_left_alone
        # What the app swaps in for the standard streams: the stream already there.
        app._capture_stdout = sys.stdout  # type: ignore[assignment]
        app._capture_stderr = sys.stderr  # type: ignore[assignment]

    def finish(self) -> None:
        if self._failures_told is not None:
            _failures.reset(self._failures_told)
            self._failures_told = None
        with self._lock:
            self._app_stopped = True
            self._app = self._loop = self._context = None
            self._pending.clear()

    # -- inside ---------------------------------------------------------------------

    def _play(self) -> None:
        status = 1
        try:
            with self._surroundings.entered():
                status = self._play_game()
        except SystemExit as done:
            status = done.code if isinstance(done.code, int) else 1
        except BaseException as error:  # a bug outside the app: a report, one sentence
            with self._surroundings.entered():
                status = contain(error, stderr=self._stderr, command=self.command)
        finally:
            self._finish(status)

    def _play_game(self) -> int:
        if not os.path.isdir(self._surroundings.cwd):
            self._say(f"tui-reversi: the game could not start: no folder {self._surroundings.cwd}")
            return 1
        parser = build_parser(tools=False, output=self._stderr)
        try:
            args = parser.parse_args(self._argv)
        except SystemExit as done:  # --help, --version, a bad option: said on its terminal
            return done.code if isinstance(done.code, int) else 0
        return play(args, self)

    def _say(self, line: str) -> None:
        with contextlib.suppress(OSError, ValueError):
            print(line, file=self._stderr)

    def _driver_for(self, app: ReversiApp, **options: Any) -> PtyDriver:
        driver = PtyDriver(
            app,
            tty=self._tty,
            env=self._surroundings.env,
            on_failure=app.thread_failed,
            **options,
        )
        self._driver = driver
        return driver

    def _app_running(self, app: ReversiApp) -> None:
        """On the app's loop, once it is mounted: signals reach it from now on."""
        loop = asyncio.get_running_loop()
        with self._lock:
            self._app, self._loop = app, loop
            self._context = contextvars.copy_context()
            pending, self._pending = self._pending, []
        for number in pending:
            loop.call_soon(app.signalled, number)

    def _end_on(self, number: int) -> None:
        with self._lock:
            if self._over.is_set():
                return
            app, loop, context = self._app, self._loop, self._context
            if app is None and not self._app_stopped:  # starting: it ends once it runs
                self._pending.append(number)
                return
        if app is not None and loop is not None:
            try:
                loop.call_soon_threadsafe(app.signalled, number, context=context)
                return
            except RuntimeError:  # its loop has just closed: the app has stopped
                pass
        # Closing down after the app: an interrupt is ignored, another signal ends it now.
        if number not in INTERRUPTS:
            self._end_at_once(128 + number)

    def _end_at_once(self, status: int) -> None:
        """The game ends now with `status`, without waiting for its thread: its
        terminal is taken from it (its descriptor then reads and writes nothing)
        and its thread, if it is stuck, is left to itself."""
        driver = self._driver
        if driver is not None:
            driver.let_go()
        with self._lock:
            if self._status is not None:
                return
            self._status = status
            app, loop = self._app, self._loop
            if app is not None and loop is not None:  # (if it is not stuck, it closes down)
                with contextlib.suppress(RuntimeError):
                    loop.call_soon_threadsafe(app.exit, None, status, context=self._context)
            if self._terminal_open:
                with contextlib.suppress(OSError):
                    nothing = os.open(os.devnull, os.O_RDWR)
                    # The descriptor stays the game's (a stuck thread may still use its
                    # number; closed, another file could get it): the pty is let go.
                    os.dup2(nothing, self._tty)
                    os.close(nothing)
            self._over.set()

    def _finish(self, status: int) -> None:
        """The game's thread has ended with `status` (or run() could not start it)."""
        with contextlib.suppress(OSError, ValueError):
            self._stderr.flush()
        with self._lock:
            if self._status is None:
                self._status = status
            self._driver = None  # (nothing more to tell it: the app goes with it)
            if self._terminal_open:
                self._terminal_open = False
                for stream in (self._stdin, self._stderr):
                    with contextlib.suppress(OSError, ValueError):
                        stream.close()
                with contextlib.suppress(OSError):
                    os.close(self._tty)
            self._over.set()

    def _write_stacks(self) -> None:
        """Every thread's stack, this game's marked, then what its app shows, to
        the stacks file its environment names (crash.STACKS_VARIABLE)."""
        with self._surroundings.entered():
            stacks = open_stacks_file()
        if stacks is None:
            return
        game = self._thread
        driver = self._driver
        ours = {game, getattr(driver, "_key_thread", None), getattr(driver, "_writer_thread", None)}
        frames = sys._current_frames()
        with stacks, contextlib.suppress(OSError, ValueError):
            for thread in threading.enumerate():
                frame = frames.get(thread.ident or 0)
                if frame is None:
                    continue
                whose = " (this game's)" if thread in ours else ""
                stacks.write(f"\nThread {thread.name}{whose}:\n")
                stacks.writelines(traceback.format_stack(frame))
        with self._lock:
            app, loop, context = self._app, self._loop, self._context
        if app is not None and loop is not None:
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(self._write_state, app, context=context)

    def _write_state(self, app: ReversiApp) -> None:
        stacks = open_stacks_file()  # (on the app's thread: the game's surroundings)
        if stacks is None:
            return
        with stacks, contextlib.suppress(Exception):  # a diagnostic must never end the game
            stacks.write(f"\nApp state:\n{app.describe_state()}\n")


def _collections_left_alone() -> None:
    """A hosted game has drawn its first frame: nothing to do."""


class _SharedStream(io.TextIOBase):
    """The process's standard output or error while it hosts games: a game's
    writes are dropped, anyone else's reach the process's stream."""

    def __init__(self, stream: IO[str] | None) -> None:
        # (None where the process has no such stream: what it writes is dropped)
        self._stream = stream if stream is not None else open(os.devnull, "w")  # noqa: SIM115

    def write(self, text: str) -> int:
        if in_a_game():
            return len(text)
        return self._stream.write(text)

    def flush(self) -> None:
        if not in_a_game():
            self._stream.flush()

    def fileno(self) -> int:
        return self._stream.fileno()

    def isatty(self) -> bool:
        return False

    @property
    def encoding(self) -> str:  # type: ignore[override]
        return getattr(self._stream, "encoding", "utf-8")


_streams_lock = threading.Lock()


def _take_standard_streams() -> None:
    with _streams_lock:
        if not isinstance(sys.stdout, _SharedStream):
            sys.stdout = _SharedStream(sys.stdout)
        if not isinstance(sys.stderr, _SharedStream):
            sys.stderr = _SharedStream(sys.stderr)


# Whom a failure in one of the running game's threads is told (its app), in its context.
_failures: contextvars.ContextVar[Callable[[BaseException], None]] = contextvars.ContextVar(
    "tui_reversi_thread_failures"
)
_hooks_lock = threading.Lock()
_process_hook = threading.excepthook  # the hook there before the first hosted game


def _thread_failed(failed: threading.ExceptHookArgs) -> None:
    """threading.excepthook while the process hosts games: a game's thread's
    failure to that game, anyone else's to the hook that was there."""
    context = getattr(failed.thread, "context", None)  # a GameThread's
    tell = context.get(_failures, None) if isinstance(context, contextvars.Context) else None
    if tell is None or failed.exc_value is None:
        _process_hook(failed)
        return
    tell(failed.exc_value)


def _take_thread_failures() -> None:
    global _process_hook
    with _hooks_lock:
        if threading.excepthook is not _thread_failed:
            _process_hook = threading.excepthook
            threading.excepthook = _thread_failed
