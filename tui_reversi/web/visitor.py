"""One browser visitor's game: a process textual-serve's protocol drives
(Textual's web driver on its standard input and output), started without a
shell in a session of its own, and certain to end when the visitor leaves."""

from __future__ import annotations

import asyncio
import contextlib
import os
import shlex
import signal
from asyncio.subprocess import Process
from collections.abc import Awaitable, Callable, Mapping, Sequence

from textual_serve.app_service import AppService
from textual_serve.download_manager import DownloadManager

# After the quit message, how long the game has to save and end before it is
# told to (SIGTERM: it saves then too), and then before it is killed.
QUIT_GRACE = 5.0
TERM_GRACE = 3.0


class Visitor(AppService):
    """The game process of one browser page."""

    def __init__(
        self,
        argv: Sequence[str],
        *,
        environment: Mapping[str, str],
        write_bytes: Callable[[bytes], Awaitable[None]],
        write_str: Callable[[str], Awaitable[None]],
        close: Callable[[], Awaitable[None]],
    ) -> None:
        super().__init__(
            shlex.join(argv),
            write_bytes=write_bytes,
            write_str=write_str,
            close=close,
            download_manager=DownloadManager(),
        )
        self._argv = list(argv)
        self._environment = dict(environment)
        self._stopping: asyncio.Task[None] | None = None

    @property
    def pid(self) -> int | None:
        """The game process's id, once started."""
        return None if self._process is None else self._process.pid

    def _build_environment(self, width: int = 80, height: int = 24) -> dict[str, str]:
        environment = super()._build_environment(width=width, height=height)
        environment.update(self._environment)
        return environment

    async def _open_app_process(self, width: int = 80, height: int = 24) -> Process:
        # No shell between (textual-serve starts one): the pid is the game's,
        # and its own session lets a stuck game be ended with all it started.
        self._process = process = await asyncio.create_subprocess_exec(
            *self._argv,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
            env=self._build_environment(width=width, height=height),
            start_new_session=True,
        )
        assert process.stdin is not None
        self._stdin = process.stdin
        return process

    async def arrived(self, size: int) -> bool:
        """(A page of the player's own machine: no budget.)"""
        return True

    def pinged(self) -> bool:
        """(See arrived.)"""
        return True

    async def run(self) -> None:
        """Relay the game's output to the page; when the game ends (quit, crash),
        close the page's socket so the page says so."""
        try:
            await super().run()
        except asyncio.CancelledError:
            # textual-serve cancels its stderr reader as the game ends, and a reader
            # not yet started raises here (a game that ended at once): not ours to pass on.
            task = asyncio.current_task()
            if task is not None and task.cancelling():
                raise
        finally:
            with contextlib.suppress(ConnectionError, RuntimeError):
                await self.remote_close()

    async def stop(self) -> None:
        """Ask the game to quit (it saves); end it if it has not within the grace.
        The page's handler and the server's shutdown may both ask: one stop runs."""
        if self._stopping is None:
            self._stopping = asyncio.create_task(self._stop())
        await asyncio.shield(self._stopping)

    async def _stop(self) -> None:
        process = self._process
        if process is None:
            return
        with contextlib.suppress(TimeoutError, OSError):
            await asyncio.wait_for(super().stop(), QUIT_GRACE)
        if await _ended(process, 1.0):
            return
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGTERM)
        if await _ended(process, TERM_GRACE):
            return
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        await process.wait()


async def _ended(process: Process, seconds: float) -> bool:
    try:
        await asyncio.wait_for(process.wait(), seconds)
    except TimeoutError:
        return False
    return True
