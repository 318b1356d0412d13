"""Textual's Linux driver bound to a game's own terminal, taking nothing of its process.

Textual 8.2's LinuxDriver drives the process's terminal: it reads standard input,
writes standard error, measures the process's standard output, and takes the
process's SIGWINCH, SIGTSTP, SIGCONT, SIGTTOU and SIGTTIN. Several games hosted
in one process (hosted_game.py) each have a pty of their own, which is no
process's controlling terminal: this driver reads and writes that pty's
descriptor, measures it, installs no signal handler, and is told of a resize by
`resized()` (the host passes on the server's word). A failure of its input or
output thread (the pty gone: EIO) goes to `on_failure`, never to the process's
thread exception hook. On exit it puts the terminal back as LinuxDriver does.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import termios
import threading
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from textual import constants, events
from textual._xterm_parser import XTermParser
from textual.driver import Driver
from textual.drivers._writer_thread import WriterThread
from textual.drivers.linux_driver import LinuxDriver
from textual.geometry import Size

if TYPE_CHECKING:
    from textual.app import App

# The Kitty keyboard protocol's flags LinuxDriver asks for (textual/drivers/linux_driver.py).
_KITTY_FLAGS = 1 | 8 | 16  # disambiguate escapes, report all keys, report associated text


class _PtyWriter(WriterThread):
    """Textual's output thread, which on a failed write (the pty gone) reports
    it once and then drops what comes, so the app's writes never block on a
    full queue (Textual's own thread would end, and the app wait for ever)."""

    def __init__(self, file: Any, on_failure: Callable[[BaseException], None]) -> None:
        super().__init__(file)
        self._on_failure = on_failure

    def run(self) -> None:
        failed = False
        while (text := self._queue.get()) is not None:
            if failed:
                continue
            try:
                self._file.write(text)
                if self._queue.qsize() == 0:
                    self._file.flush()
            except Exception as error:  # the pty gone (EIO), or a bug: told once
                failed = True
                self._on_failure(error)
        with contextlib.suppress(OSError, ValueError):
            self._file.flush()


class PtyDriver(LinuxDriver):
    """The app's terminal is the pty `tty` (a descriptor the caller keeps open
    and closes); `env` is the game's environment (TERM_PROGRAM)."""

    def __init__(
        self,
        app: App[Any],
        *,
        debug: bool = False,
        mouse: bool = True,
        size: tuple[int, int] | None = None,
        tty: int,
        env: Mapping[str, str],
        on_failure: Callable[[BaseException], None],
    ) -> None:
        # Not LinuxDriver.__init__: it takes the process's streams and SIGTSTP/SIGCONT.
        Driver.__init__(self, app, debug=debug, mouse=mouse, size=size)
        # As the standard error LinuxDriver writes to: what UTF-8 cannot say is escaped.
        self._pty = open(  # noqa: SIM115
            tty, "w", encoding="utf-8", errors="backslashreplace", closefd=False
        )
        self._file = self._pty
        self.fileno = tty
        self.input_tty = True
        self.attrs_before: list[Any] | None = None
        self.exit_event = threading.Event()
        self._key_thread: threading.Thread | None = None
        self._writer_thread: WriterThread | None = None
        self._must_signal_resume = False
        self._in_band_window_resize = False
        self._mouse_pixels = False
        self._env = env
        self._on_failure = on_failure
        # The app's loop while it runs (Driver's own _loop is set at construction).
        self._running: asyncio.AbstractEventLoop | None = None

    @property
    def can_suspend(self) -> bool:
        return False  # ctrl+z would stop the whole process, every game in it

    def _get_terminal_size(self) -> tuple[int, int]:
        try:
            size = os.get_terminal_size(self.fileno)
        except OSError:
            return 80, 24
        return size.columns or 80, size.lines or 24

    def resized(self) -> None:
        """The pty's size changed (the host was told): the app lays itself out
        again at the new size. Thread-safe; nothing once the app has stopped."""
        loop = self._running
        if loop is None or self._in_band_window_resize:  # (the terminal says so itself)
            return
        width, height = self._get_terminal_size()
        # rich's console would measure the process's standard output: told the pty's size.
        self._app.console.size = (width, height)
        resize = events.Resize(Size(width, height), Size(width, height))
        with contextlib.suppress(RuntimeError):  # (the app's loop has closed)
            asyncio.run_coroutine_threadsafe(self._app._post_message(resize), loop=loop)

    def start_application_mode(self) -> None:
        """As LinuxDriver's, on the pty and without the process's signals."""
        self._running = asyncio.get_running_loop()
        self._writer_thread = _PtyWriter(self._pty, self._on_failure)
        self._writer_thread.start()
        self.resized()
        self.write("\x1b[?1049h")  # the alternate screen
        self._enable_mouse_support()
        try:
            self.attrs_before = termios.tcgetattr(self.fileno)
            raw = termios.tcgetattr(self.fileno)
        except termios.error:
            self.attrs_before = None
        else:
            # ISIG off whatever the environment says: no process is this pty's to signal.
            raw[3] &= ~(termios.ECHO | termios.ICANON | termios.IEXTEN | termios.ISIG)
            raw[0] = self._patch_iflag(raw[0])
            raw[6][termios.VMIN] = 1
            with contextlib.suppress(termios.error):
                termios.tcsetattr(self.fileno, termios.TCSANOW, raw)
        self.write("\x1b[?25l")  # hide the cursor
        self.write("\x1b[?1004h")  # focus in and out
        if not constants.DISABLE_KITTY_KEY:
            self.write(f"\x1b[>{_KITTY_FLAGS}u")
        self.flush()
        self._key_thread = threading.Thread(target=self._read_keys, name="game-input")
        self._key_thread.start()
        self._request_terminal_sync_mode_support()
        self._query_in_band_window_resize()
        self._enable_bracketed_paste()
        self._disable_line_wrap()
        self._enable_mouse_support()

    def _request_terminal_sync_mode_support(self) -> None:
        # (LinuxDriver's reads TERM_PROGRAM from the process: the game's is in env.)
        if self._env.get("TERM_PROGRAM", "") != "Apple_Terminal":
            self.write("\033[?2026$p")
            self.flush()

    def _read_keys(self) -> None:
        try:
            self.run_input_thread()
        except BaseException as error:  # the pty gone (EIO) is a hang-up; else a bug
            self._on_failure(error)

    def disable_input(self) -> None:
        """As LinuxDriver's, without putting back a SIGWINCH handler."""
        if self.exit_event.is_set():
            return
        self._disable_mouse_support()
        self.exit_event.set()
        if self._key_thread is not None and self._key_thread is not threading.current_thread():
            self._key_thread.join()
        self.exit_event.clear()
        with contextlib.suppress(termios.error):
            termios.tcflush(self.fileno, termios.TCIFLUSH)

    def stop_application_mode(self) -> None:
        super().stop_application_mode()
        self._running = None

    def close(self) -> None:
        super().close()
        # Closed here (not its descriptor: the game's), so that a write the pty refused
        # is not tried again when the file is collected, in whatever thread.
        with contextlib.suppress(OSError, ValueError):
            self._pty.close()
        _forget_key_parsers()

    def let_go(self) -> None:
        """The host has ended the game without it (SIGKILL, or a shutdown that
        hung): the input thread stops reading. Thread-safe."""
        self._running = None
        self.exit_event.set()


def _forget_key_parsers() -> None:
    """Textual 8.2 caches XTermParser._parse_extended_key (every key typed) with
    functools.lru_cache on the method, keyed by the parser itself, as it does
    StylesCache's (styles_cache.py): each ended game's key parser, with its
    generator, would stay in the process for up to 1,024 keys typed after it.
    Emptied as a game closes its terminal: the games still playing parse their
    next keys again. (Not keyed by the key alone: the cached Key events would
    then be one game's and another's at once.)"""
    cached = getattr(XTermParser._parse_extended_key, "cache_clear", None)
    if cached is not None:
        cached()
