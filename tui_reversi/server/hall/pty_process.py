"""A program running on its own pseudo-terminal, as the leader of a new session.

The pty is the child's controlling terminal, so the kernel delivers SIGWINCH
on a resize and SIGHUP on a hang-up exactly as it would under sshd; the child
starts with default signal dispositions and an empty signal mask whatever the
server inherited (nohup, a service manager). A game hosted with others in one
process (game_hosts.py) has a pty that is no process's controlling terminal:
its GameProcess is told of signals and resizes by message instead.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import fcntl
import os
import signal
import struct
import termios
from collections.abc import Awaitable, Callable, Mapping, Sequence
from pathlib import Path
from typing import Protocol

READ_SIZE = 65536
# Past this much unread input, the caller should stop reading from the client.
INPUT_HIGH_WATER = 256 * 1024
# After the child exits, how long its pty may keep bytes coming before it is closed.
DRAIN_AFTER_EXIT = 1.0
# Keys typed before the child has switched its terminal out of line mode wait this
# long at most: in line mode they would be echoed, ctrl+c would kill the child, and
# a switch with TCSAFLUSH would throw them away.
HOLD_INPUT_AT_MOST = 5.0
HOLD_POLL = 0.02

_DEFAULT_SIGNALS = tuple(
    getattr(signal, name)
    for name in [
        "SIGHUP",
        "SIGINT",
        "SIGQUIT",
        "SIGTERM",
        "SIGPIPE",
        "SIGXFSZ",
        "SIGCHLD",
        "SIGTSTP",
        "SIGTTIN",
        "SIGTTOU",
        "SIGWINCH",
        "SIGUSR1",
        "SIGUSR2",
        "SIGALRM",
    ]
    if hasattr(signal, name)
)


class GameProcess(Protocol):
    """A started game as PtyProcess needs it."""

    @property
    def pid(self) -> int: ...

    @property
    def returncode(self) -> int | None: ...

    async def wait(self) -> int: ...

    def signal_game(self, number: int) -> None:
        """Deliver signal `number` to the game (and only to it), if it still runs."""

    def window_changed(self) -> None:
        """The pty's size has just been set: see that the game hears of it."""


class SessionLeader:
    """A game that leads its own session on its pty (a process of its own): a
    signal goes to its whole process group (helpers it started included), and
    the kernel tells it of a resize."""

    pid: int

    def signal_game(self, number: int) -> None:
        # setsid() made the game its own process group leader: pgid == pid.
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.pid, number)

    def window_changed(self) -> None:
        pass  # SIGWINCH from the kernel: the pty is the game's controlling terminal


class OwnProcess(SessionLeader):
    """A game started as a new process (fork and exec) by asyncio."""

    def __init__(self, process: asyncio.subprocess.Process) -> None:
        self._process = process
        self.pid = process.pid

    @property
    def returncode(self) -> int | None:
        return self._process.returncode

    async def wait(self) -> int:
        return await self._process.wait()


# Starts argv (environment, directory) on the given pty slave: another way than exec.
Spawn = Callable[[Sequence[str], Mapping[str, str], Path, int], Awaitable[GameProcess]]


def become_session_terminal() -> None:
    """Runs in the child after setsid(), with the pty as descriptor 0: take the pty
    as the controlling terminal, reset signal dispositions, unblock every signal."""
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)
    for number in _DEFAULT_SIGNALS:
        signal.signal(number, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_SETMASK, ())


def clamp_size(columns: int, rows: int) -> tuple[int, int]:
    """A usable window size from whatever a client claims (0 means unknown in SSH)."""
    columns = columns if 0 < columns <= 1000 else 80
    rows = rows if 0 < rows <= 1000 else 24
    return columns, rows


def _winsize(columns: int, rows: int, xpixels: int = 0, ypixels: int = 0) -> bytes:
    columns, rows = clamp_size(columns, rows)
    xpixels = xpixels if 0 <= xpixels <= 65535 else 0
    ypixels = ypixels if 0 <= ypixels <= 65535 else 0
    return struct.pack("HHHH", rows, columns, xpixels, ypixels)


class PtyProcess:
    """One child on one pty: output goes to `on_output`, input comes in with `write`.

    Create with `await PtyProcess.start(...)`; `await wait()` returns the exit
    status (negative for a signal, as in subprocess) once the child is reaped
    and its pty drained and closed.
    """

    def __init__(
        self,
        process: GameProcess,
        master: int,
        on_output: Callable[[bytes], None],
        on_input_drained: Callable[[], None],
    ) -> None:
        self._process = process
        self._master = master
        self._on_output = on_output
        self._on_input_drained = on_input_drained
        self._loop = asyncio.get_running_loop()
        self._input = bytearray()
        self._reading = True
        self._pty_open = True
        self._pty_closed = asyncio.Event()
        self._kill_timer: asyncio.TimerHandle | None = None
        self._holding = True
        self._hold_until = self._loop.time() + HOLD_INPUT_AT_MOST
        self._loop.add_reader(master, self._read_ready)
        self._check_line_mode()

    @classmethod
    async def start(
        cls,
        argv: Sequence[str],
        *,
        env: Mapping[str, str],
        cwd: Path,
        size: tuple[int, int, int, int],
        on_output: Callable[[bytes], None],
        on_input_drained: Callable[[], None] = lambda: None,
        erase: int | None = None,
        spawn: Spawn | None = None,
    ) -> PtyProcess:
        """Start `argv` on a new pty of `size` (columns, rows, xpixels, ypixels):
        by `spawn` if given, else as a new process (fork and exec)."""
        master, slave = os.openpty()
        try:
            fcntl.ioctl(slave, termios.TIOCSWINSZ, _winsize(*size))
            _set_terminal_modes(slave, erase)
            process: GameProcess
            if spawn is not None:
                process = await spawn(argv, env, cwd, slave)
            else:
                started = await asyncio.create_subprocess_exec(
                    *argv,
                    stdin=slave,
                    stdout=slave,
                    stderr=slave,
                    env=dict(env),
                    cwd=cwd,
                    start_new_session=True,
                    preexec_fn=become_session_terminal,
                )
                process = OwnProcess(started)
        except BaseException:
            os.close(master)
            raise
        finally:
            os.close(slave)
        os.set_blocking(master, False)
        return cls(process, master, on_output, on_input_drained)

    @property
    def pid(self) -> int:
        return self._process.pid

    @property
    def running(self) -> bool:
        return self._process.returncode is None

    @property
    def input_buffered(self) -> int:
        return len(self._input)

    def write(self, data: bytes) -> None:
        """Queue key presses for the child; never blocks."""
        if not self._pty_open or not data:
            return
        if self._holding:
            self._input += data
            return
        if not self._input:
            try:
                written = os.write(self._master, data)
            except BlockingIOError:
                written = 0
            except OSError:
                return  # the child is gone; its exit is reported by wait()
            data = data[written:]
            if not data:
                return
            self._loop.add_writer(self._master, self._write_ready)
        self._input += data

    def resize(self, columns: int, rows: int, xpixels: int = 0, ypixels: int = 0) -> None:
        """Set the window size; the game hears of a change (SIGWINCH), as from the kernel."""
        if not self._pty_open:
            return
        size = _winsize(columns, rows, xpixels, ypixels)
        try:
            before = fcntl.ioctl(self._master, termios.TIOCGWINSZ, bytes(len(size)))
            fcntl.ioctl(self._master, termios.TIOCSWINSZ, size)
        except OSError:
            return
        if size != before and self.running:
            self._process.window_changed()

    def pause_output(self) -> None:
        """Stop reading the child's output (the client is behind); the child blocks on write."""
        if self._reading and self._pty_open:
            self._loop.remove_reader(self._master)
        self._reading = False

    def resume_output(self) -> None:
        if not self._reading and self._pty_open:
            self._loop.add_reader(self._master, self._read_ready)
        self._reading = True

    def discard_output(self) -> None:
        """The client is gone: keep draining the pty so the child's last writes never block."""
        self._on_output = lambda data: None
        self.resume_output()

    def hang_up(self, grace: float) -> None:
        """SIGHUP the child's session now and SIGKILL it `grace` seconds later if still there."""
        if not self.running:
            return
        self._process.signal_game(signal.SIGHUP)
        # A stopped process would never see the SIGHUP; the kernel sends SIGCONT too.
        self._process.signal_game(signal.SIGCONT)
        if self._kill_timer is None:
            self._kill_timer = self._loop.call_later(grace, self.kill)

    def kill(self) -> None:
        self._process.signal_game(signal.SIGKILL)

    async def wait(self) -> int:
        """Reap the child, drain its pty, close it; the exit status (-N for signal N)."""
        try:
            status = await self._process.wait()
            try:
                await asyncio.wait_for(self._pty_closed.wait(), DRAIN_AFTER_EXIT)
            except TimeoutError:
                # Something the child started still holds the pty: it goes too.
                self._process.signal_game(signal.SIGKILL)
            return status
        finally:
            if self._kill_timer is not None:
                self._kill_timer.cancel()
            self._close_pty()

    def _read_ready(self) -> None:
        try:
            data = os.read(self._master, READ_SIZE)
        except BlockingIOError:
            return
        except OSError as error:
            # EIO: every slave descriptor is closed, the child and its helpers are gone.
            if error.errno != errno.EIO:
                raise
            data = b""
        if data:
            self._on_output(data)
        else:
            self._close_pty()

    def _check_line_mode(self) -> None:
        """Hold input until the child's terminal leaves line mode (or the hold times out)."""
        if not self._pty_open:
            return
        try:
            line_mode = bool(termios.tcgetattr(self._master)[3] & termios.ICANON)
        except termios.error:
            line_mode = False
        if line_mode and self.running and self._loop.time() < self._hold_until:
            self._loop.call_later(HOLD_POLL, self._check_line_mode)
            return
        self._holding = False
        if self._input:
            self._loop.add_writer(self._master, self._write_ready)

    def _write_ready(self) -> None:
        try:
            written = os.write(self._master, self._input)
        except BlockingIOError:
            return
        except OSError:
            written = len(self._input)
        del self._input[:written]
        if not self._input:
            self._loop.remove_writer(self._master)
            self._on_input_drained()

    def _close_pty(self) -> None:
        if not self._pty_open:
            return
        self._pty_open = False
        self._loop.remove_reader(self._master)
        self._loop.remove_writer(self._master)
        self._input.clear()
        os.close(self._master)
        self._pty_closed.set()


def _set_terminal_modes(fd: int, erase: int | None) -> None:
    """UTF-8 input processing, and the client's erase character if it sent one."""
    attributes = termios.tcgetattr(fd)
    attributes[0] |= getattr(termios, "IUTF8", 0)
    if erase is not None and 0 < erase < 256:
        attributes[6][termios.VERASE] = bytes([erase])
    termios.tcsetattr(fd, termios.TCSANOW, attributes)
