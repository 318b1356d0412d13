"""The server's side of the preloaded parent (the game launcher,
`tui_reversi.launcher`): start it, ask it for games, hear how they end, and
start it again if it dies.

    parent = PreloadedParent(log=arcade.note, launcher="tui_reversi.launcher")
    await parent.start()                      # ServeError if it cannot preload
    if parent.runs(argv): spawn = parent.spawn    # for PtyProcess.start
    await parent.close()                      # after every game has ended

With `games_per_process` K above 1 (`serve --games-per-process K`) the
parent forks game hosts instead, each running up to K games in threads
(game_hosts.py), and spawn places each game in one.

A game forked by the parent is the parent's child, not the server's: its exit
status comes back over the socket. If the parent dies, its games carry on
(they keep their pty and session); the server then learns of each one's end
from a pidfd, without its exit status, and starts a new parent for the next
players. A parent that keeps dying soon after it starts is given up on, and
games start as fresh Pythons again; the log says each of these things.
"""

from __future__ import annotations

import array
import asyncio
import contextlib
import json
import os
import socket
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

from ... import fork_sharing
from ..config import PATH, ServeError
from .game_hosts import GameHosts
from .pty_process import GameProcess, SessionLeader

# The parent's whole environment: what Python needs to start, nothing of the server's.
PARENT_ENVIRONMENT = {"PATH": PATH, "LANG": "C.UTF-8", "PYTHONSAFEPATH": "1"}
# Importing Textual and the app on a busy machine can be slow; this is a stuck parent.
READY_TIMEOUT = 120.0
# A parent that dies this soon after it was ready counts as failing to start.
SHORT_LIFE = 30.0
# After this many short lives in a row, games start as fresh Pythons.
MAX_SHORT_LIVES = 3
# How often a game of a dead parent is checked for where pidfds are missing.
ORPHAN_POLL = 0.5
MAX_MESSAGE = 64 * 1024


def fork_available() -> bool:
    """True where a preloaded parent can fork games and pass them a terminal."""
    return hasattr(os, "fork") and hasattr(socket, "SCM_RIGHTS") and hasattr(os, "setsid")


class ForkedGame(SessionLeader):
    """A game (or a game host) forked by the parent: what PtyProcess needs of a process."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self._status: asyncio.Future[int] = asyncio.get_running_loop().create_future()
        self._pidfd: int | None = None
        with contextlib.suppress(AttributeError, OSError):
            # Opened now, while the pid is surely this game's, for the case the parent dies.
            self._pidfd = os.pidfd_open(pid)

    @property
    def returncode(self) -> int | None:
        return self._status.result() if self._status.done() else None

    async def wait(self) -> int:
        return await asyncio.shield(self._status)

    def ended(self, status: int) -> None:
        if not self._status.done():
            self._status.set_result(status)
        self._close_pidfd()

    def orphaned(self) -> None:
        """The parent died: learn of this game's end without it (its status is lost: 0)."""
        loop = asyncio.get_running_loop()
        if self._pidfd is not None:
            loop.add_reader(self._pidfd, self.ended, 0)
        else:
            loop.call_later(ORPHAN_POLL, self._poll)

    def _poll(self) -> None:
        try:
            os.kill(self.pid, 0)
        except ProcessLookupError:
            self.ended(0)
            return
        except PermissionError:
            pass
        asyncio.get_running_loop().call_later(ORPHAN_POLL, self._poll)

    def _close_pidfd(self) -> None:
        if self._pidfd is not None:
            with contextlib.suppress(ValueError, OSError):
                asyncio.get_running_loop().remove_reader(self._pidfd)
            os.close(self._pidfd)
            self._pidfd = None


class PreloadedParent:
    """One preloaded parent at a time, started again whenever it dies."""

    def __init__(
        self,
        log: Callable[[str], None],
        launcher: str,
        *,
        games_per_process: int = 1,
        hosted_game: str = "",
    ) -> None:
        self._log = log
        self._launcher = launcher  # run as `python -m LAUNCHER FD`
        self._hosted_game = hosted_game  # the class a host runs games with, "MODULE:NAME"
        self._hosts = GameHosts(games_per_process, self.fork_host, log)
        self._games_per_process = games_per_process
        self._process: asyncio.subprocess.Process | None = None
        self._control: socket.socket | None = None
        self._ready: asyncio.Future[float] | None = None
        self._ready_at = 0.0
        self._requests: dict[int, asyncio.Future[ForkedGame]] = {}
        self._games: dict[int, ForkedGame] = {}
        self._next_id = 0
        self._short_lives = 0
        self._closing = False
        self._restart: asyncio.Task[None] | None = None
        self.given_up = False
        self.preload_seconds = 0.0

    @property
    def pid(self) -> int | None:
        return self._process.pid if self._process is not None else None

    @staticmethod
    def runs(argv: Sequence[str]) -> bool:
        """True for `python -m MODULE ...` or `python SCRIPT ...` with this Python."""
        return (
            len(argv) >= 2
            and argv[0] == sys.executable
            and ((argv[1] == "-m" and len(argv) >= 3) or not argv[1].startswith("-"))
        )

    async def start(self) -> None:
        """Start the parent and wait until it has preloaded; ServeError if it cannot."""
        loop = asyncio.get_running_loop()
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        try:
            self._process = await asyncio.create_subprocess_exec(
                sys.executable,
                "-m",
                self._launcher,
                str(theirs.fileno()),
                *fork_sharing.told(),
                pass_fds=(theirs.fileno(),),
                env=PARENT_ENVIRONMENT,
                cwd="/",
                stdin=asyncio.subprocess.DEVNULL,
                stdout=asyncio.subprocess.DEVNULL,
                start_new_session=True,  # the operator's ctrl+c is for the server
            )
        except OSError as error:
            ours.close()
            raise ServeError(f"cannot start the preloaded parent: {error}") from None
        finally:
            theirs.close()
        ours.setblocking(False)
        self._control = ours
        self._ready = loop.create_future()
        loop.add_reader(ours.fileno(), self._readable, ours, self._process)
        try:
            self.preload_seconds = await asyncio.wait_for(
                asyncio.shield(self._ready), READY_TIMEOUT
            )
        except TimeoutError:
            await self._stop()
            late = f"the preloaded parent was not ready in {READY_TIMEOUT:.0f} s"
            raise ServeError(late) from None
        except ServeError:
            await self._stop()
            raise
        self._ready_at = time.monotonic()

    async def usable(self) -> bool:
        """True if games can be forked now (waiting for a restart under way first)."""
        if self._restart is not None:
            with contextlib.suppress(asyncio.CancelledError):
                await asyncio.shield(self._restart)
        return not self.given_up and self._control is not None

    @property
    def hosts(self) -> GameHosts | None:
        """The game hosts, if games share processes (`--games-per-process` above 1)."""
        return self._hosts if self._games_per_process > 1 else None

    async def start_hosting(self) -> None:
        """With several games a process, start the first game host now; if it
        cannot start, games get a process each (ServeError says why)."""
        if self._games_per_process == 1:
            return
        try:
            await self._hosts.open_first()
        except OSError as error:
            self._games_per_process = 1
            raise ServeError(f"{error}; every game gets a process of its own") from None

    async def spawn(
        self, argv: Sequence[str], env: Mapping[str, str], cwd: Path, slave: int
    ) -> GameProcess:
        """Fork a game for `python argv[1:]` on the pty `slave` (or place it in a
        game host). OSError if it cannot."""
        if self._games_per_process > 1:
            return await self._hosts.spawn(argv, env, cwd, slave)
        fields = {"argv": list(argv[1:]), "env": dict(env), "cwd": str(cwd)}
        return await self._fork(fields, slave)

    async def fork_host(self, control: int) -> ForkedGame:
        """Fork a game host talking to the server on the socket `control`: its process."""
        return await self._fork({"host": self._hosted_game}, control)

    async def _fork(self, fields: Mapping[str, object], attached: int) -> ForkedGame:
        control = self._control
        if control is None or self._ready is None or not self._ready.done():
            raise OSError("the preloaded parent is not running")
        self._next_id += 1
        request_id = self._next_id
        message = json.dumps({"id": request_id, **fields}).encode()
        reply: asyncio.Future[ForkedGame] = asyncio.get_running_loop().create_future()
        self._requests[request_id] = reply
        try:
            await self._send(control, message, attached)
            return await reply  # the game itself: it may have ended already
        finally:
            self._requests.pop(request_id, None)

    async def close(self) -> None:
        """Stop the parent (games should have ended first) and reap it."""
        self._closing = True
        if self._restart is not None:
            self._restart.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._restart
        await self._hosts.close()
        await self._stop()
        for game in list(self._games.values()):
            game.orphaned()

    async def _send(self, control: socket.socket, message: bytes, slave: int) -> None:
        fds = [(socket.SOL_SOCKET, socket.SCM_RIGHTS, array.array("i", [slave]))]
        while True:
            try:
                control.sendmsg([message], fds)
                return
            except BlockingIOError:
                await asyncio.sleep(0.005)

    def _readable(self, control: socket.socket, process: asyncio.subprocess.Process) -> None:
        while True:
            try:
                data = control.recv(MAX_MESSAGE)
            except BlockingIOError:
                return
            except OSError:
                data = b""
            if not data:
                self._lost(control, process)
                return
            self._heard(json.loads(data))

    def _heard(self, message: dict) -> None:
        if "ready" in message and self._ready is not None and not self._ready.done():
            self._ready.set_result(float(message["ready"]))
        elif "exited" in message:
            game = self._games.pop(int(message["exited"]), None)
            if game is not None:
                game.ended(int(message["status"]))
        elif "pid" in message:
            game = self._games[int(message["pid"])] = ForkedGame(int(message["pid"]))
            reply = self._requests.get(message.get("id", -1))
            if reply is not None and not reply.done():
                reply.set_result(game)
        elif "error" in message:
            problem = str(message["error"])
            reply = self._requests.get(message.get("id", -1))
            if reply is not None and not reply.done():
                reply.set_exception(OSError(f"the preloaded parent could not fork: {problem}"))
            elif self._ready is not None and not self._ready.done():
                self._ready.set_exception(ServeError(f"the preloaded parent failed: {problem}"))

    def _lost(self, control: socket.socket, process: asyncio.subprocess.Process) -> None:
        """The parent's end closed: it died (or is stopping). Its games carry on."""
        loop = asyncio.get_running_loop()
        loop.remove_reader(control.fileno())
        if control is self._control:
            self._control = None
        control.close()
        for reply in self._requests.values():
            if not reply.done():
                reply.set_exception(OSError("the preloaded parent died"))
        games, self._games = list(self._games.values()), {}
        for game in games:
            game.orphaned()
        if self._ready is not None and not self._ready.done():
            self._ready.set_exception(ServeError("the preloaded parent exited while preloading"))
            return
        if self._closing or self._restart is not None:
            return
        self._restart = asyncio.create_task(self._start_again(process, len(games)))

    async def _start_again(self, dead: asyncio.subprocess.Process, games: int) -> None:
        status = await dead.wait()
        how = f"killed by signal {-status}" if status < 0 else f"exited with status {status}"
        carry_on = f"; its {games} running games carry on" if games else ""
        lived = time.monotonic() - self._ready_at
        self._short_lives = self._short_lives + 1 if lived < SHORT_LIFE else 0
        if self._short_lives >= MAX_SHORT_LIVES:
            self.given_up = True
            self._log(
                f"preloaded parent (pid {dead.pid}) {how}{carry_on}; it died {self._short_lives}"
                " times soon after starting, so games now start as fresh Pythons"
            )
            self._restart = None
            return
        self._log(f"preloaded parent (pid {dead.pid}) {how}{carry_on}; starting a new one")
        try:
            await self.start()
        except ServeError as error:
            self.given_up = True
            self._log(f"{error}; games now start as fresh Pythons")
        else:
            took = f"{self.preload_seconds:.1f} s"
            self._log(f"preloaded parent restarted (pid {self.pid}, preloaded in {took})")
        finally:
            self._restart = None

    async def _stop(self) -> None:
        control, self._control = self._control, None
        if control is not None:
            with contextlib.suppress(ValueError, OSError):
                asyncio.get_running_loop().remove_reader(control.fileno())
            control.close()  # the parent reads EOF and exits
        process = self._process
        if process is not None and process.returncode is None:
            try:
                await asyncio.wait_for(process.wait(), 10)
            except TimeoutError:
                with contextlib.suppress(ProcessLookupError):
                    process.kill()
                await process.wait()
