"""Draining a running `tui-reversi serve`: the pid file a server keeps in its data
directory, and `serve --drain`, which sends that pid SIGTERM (the server then
drains: server/edge/arcade.py, `Arcade.drain`) and waits until it has stopped.

A pid file rather than a control socket: SIGTERM is what systemd, a container
engine and `kill` send already, so one path drains them all, and the command
needs nothing the server would have to listen on.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import time
from collections.abc import Coroutine
from pathlib import Path
from typing import Any

from ..core.errors import reason
from ..server.config import ServeError, format_duration

PID_FILE = "serve.pid"
# How much longer than its drain `serve --drain` waits for the server to stop: the
# games' hang-up grace, the clients' goodbyes and closing the store (seconds).
STOP_MARGIN = 60.0
# How often `serve --drain` looks whether the server has stopped (seconds).
LOOK_EVERY = 0.2


class PidFile:
    """DIR/serve.pid: the pid of the server running on data directory DIR."""

    def __init__(self, data_dir: Path) -> None:
        self.path = data_dir / PID_FILE

    def write(self) -> None:
        """This process's pid, in a file only the server's user may read."""
        fd = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w") as file:
            file.write(f"{os.getpid()}\n")

    def remove(self) -> None:
        """Gone, unless another server on the directory has written its own since."""
        with contextlib.suppress(OSError, ValueError):
            if int(self.path.read_text()) == os.getpid():
                self.path.unlink()

    def running(self) -> int:
        """The pid of the server running on the directory; ServeError if none is."""
        try:
            pid = int(self.path.read_text())
        except FileNotFoundError:
            raise ServeError(
                f"--drain: no server is running with --data-dir {self.path.parent} "
                f"(there is no {self.path})"
            ) from None
        except (OSError, ValueError) as error:
            why = reason(error) if isinstance(error, OSError) else "it holds no pid"
            raise ServeError(f"--drain: cannot read {self.path}: {why}") from None
        if _gone(pid) or not _serves(pid):
            raise ServeError(
                f"--drain: no server is running with --data-dir {self.path.parent} "
                f"({self.path} names pid {pid}, which is not one any more)"
            )
        return pid


def drain_running(data_dir: Path, seconds: float) -> int:
    """`serve --drain`: SIGTERM to the server on `data_dir`, then wait until it has
    stopped (its drain of `seconds` and its stopping); 0 once it has, 1 if it has
    not in that time; ServeError (one sentence) if no server runs there."""
    pid = PidFile(data_dir).running()
    try:
        os.kill(pid, signal.SIGTERM)
    except OSError as error:
        raise ServeError(f"--drain: cannot signal pid {pid}: {reason(error)}") from None
    print(
        f"tui-reversi serve: draining the server on {data_dir} (pid {pid}); waiting for it "
        f"to stop (its players have its --drain-seconds, {format_duration(seconds)} here)",
        flush=True,
    )
    deadline = time.monotonic() + seconds + STOP_MARGIN
    while not _gone(pid):
        if time.monotonic() > deadline:
            print(
                f"tui-reversi serve: pid {pid} still runs after "
                f"{format_duration(seconds + STOP_MARGIN)} (is its --drain-seconds longer?)",
                flush=True,
            )
            return 1
        time.sleep(LOOK_EVERY)
    print(f"tui-reversi serve: the server on {data_dir} (pid {pid}) has stopped", flush=True)
    return 0


def _gone(pid: int) -> bool:
    """True when `pid` has exited (a zombie waiting for its parent has, too)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except PermissionError:
        return False  # (another user's process: there, and not ours to drain)
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rpartition(")")[2].split()[0] == "Z"


def _serves(pid: int) -> bool:
    """Whether `pid` is a `serve` (its pid reused by another program is not); True
    where /proc cannot tell."""
    try:
        argv = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
    except OSError:
        return True
    return b"serve" in argv


async def until_either(
    stop: asyncio.Event, other: asyncio.Event | Coroutine[Any, Any, None]
) -> None:
    """Wait until `stop` is set or `other` (an event set, or work done) comes first;
    what is still waited on is cancelled; the work's error is raised."""
    waiting = asyncio.ensure_future(stop.wait())
    work = asyncio.ensure_future(other.wait() if isinstance(other, asyncio.Event) else other)
    try:
        await asyncio.wait({waiting, work}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for task in (waiting, work):
            task.cancel()
        await asyncio.gather(waiting, work, return_exceptions=True)
    if not work.cancelled():
        work.result()
