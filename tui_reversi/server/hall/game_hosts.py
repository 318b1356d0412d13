"""Several players' games in one process (`serve --games-per-process K`): the
server's side of the game hosts (tui_reversi/game_host.py), each forked by
the preloaded parent and holding up to K games, each game in a thread.

    hosts = GameHosts(slots=K, fork_host=parent.fork_host, log=arcade.note)
    await hosts.open_first()                          # OSError if a host cannot start
    game = await hosts.spawn(argv, env, cwd, slave)   # a GameProcess, for PtyProcess
    await hosts.close()                               # at shutdown

A game goes to a host with a free slot, else to a new host. A host takes
no new game once it has none left, nor after it has taken
GAMES_A_HOST_TAKES_PER_SLOT * K in all: retired, it exits with its last
game, so that no host lives (and its heap grows) for ever and no idle host
holds memory. A game in a host reports the host's pid as its own; it is
signalled, and told of a resize, by a message to its host, never by a
signal to the host's process group (that would end every game in it).
If a host dies, every game in it ends as a killed process's game would.
"""

from __future__ import annotations

import array
import asyncio
import contextlib
import json
import signal
import socket
from collections.abc import Awaitable, Callable, Mapping, Sequence
from pathlib import Path

from .pty_process import GameProcess

# A host is retired after it has taken this many games for each of its slots
# (24 for K = 6): a fork from the preloaded parent costs next to nothing, and a
# fresh host starts from the parent's shared pages again.
GAMES_A_HOST_TAKES_PER_SLOT = 4
# A hosted game ends at once when told SIGKILL (its thread let go if stuck); one
# still there after this long means the host itself no longer answers, and it
# is killed, its games with it.
HOST_ANSWERS_KILL_WITHIN = 10.0
MAX_MESSAGE = 64 * 1024

# Forks a host from the preloaded parent with its end of the control socket: its process.
ForkHost = Callable[[int], Awaitable[GameProcess]]


class HostedGameProcess:
    """One game in a host: what PtyProcess needs of a process."""

    def __init__(self, host: GameHost, number: int) -> None:
        self._host = host
        self.number = number
        self._status: asyncio.Future[int] = asyncio.get_running_loop().create_future()

    @property
    def pid(self) -> int:
        """The host's pid: the process the game runs in, with others."""
        return self._host.pid

    @property
    def returncode(self) -> int | None:
        return self._status.result() if self._status.done() else None

    async def wait(self) -> int:
        return await asyncio.shield(self._status)

    def signal_game(self, number: int) -> None:
        if self._status.done():
            return
        self._host.tell({"game": self.number, "signal": number})
        if number == signal.SIGKILL:
            loop = asyncio.get_running_loop()
            loop.call_later(HOST_ANSWERS_KILL_WITHIN, self._host.kill_if_stuck, self)

    def window_changed(self) -> None:
        # The pty is no process's controlling terminal: the kernel's SIGWINCH reaches nobody.
        self.signal_game(signal.SIGWINCH)

    def ended(self, status: int) -> None:
        if not self._status.done():
            self._status.set_result(status)


class GameHost:
    """One host process and the games the server placed in it."""

    def __init__(
        self,
        process: GameProcess,
        control: socket.socket,
        slots: int,
        on_gone: Callable[[GameHost, int, int], None],
    ) -> None:
        self.process = process
        self._control = control
        self._slots = slots
        self._takes = slots * GAMES_A_HOST_TAKES_PER_SLOT
        self._on_gone = on_gone
        self._games: dict[int, HostedGameProcess] = {}
        self._starting: dict[int, asyncio.Future[None]] = {}
        self._taken = 0
        self.retired = False
        self.alive = True
        self._going: asyncio.Task[None] | None = None
        control.setblocking(False)
        asyncio.get_running_loop().add_reader(control.fileno(), self._readable)

    @property
    def pid(self) -> int:
        return self.process.pid

    @property
    def has_room(self) -> bool:
        return self.alive and not self.retired and len(self._games) < self._slots

    def take(self) -> HostedGameProcess:
        """A slot for one more game (the caller checked has_room), numbered."""
        self._taken += 1
        game = HostedGameProcess(self, self._taken)
        self._games[game.number] = game
        if self._taken >= self._takes:
            self.retired = True  # told once its last game ends
        return game

    async def start(
        self,
        game: HostedGameProcess,
        argv: Sequence[str],
        env: Mapping[str, str],
        cwd: Path,
        slave: int,
    ) -> None:
        """Start `game` (taken here) as `python argv[1:]` on the pty `slave`; OSError
        if it cannot."""
        started = asyncio.get_running_loop().create_future()
        self._starting[game.number] = started
        message = {"start": game.number, "argv": list(argv[1:]), "env": dict(env), "cwd": str(cwd)}
        try:
            await self._send(json.dumps(message).encode(), slave)
            await started
        except OSError:
            self._game_ended(game.number, None)
            raise
        finally:
            self._starting.pop(game.number, None)

    def tell(self, message: dict[str, object]) -> None:
        """A message the host need not answer; dropped if the host has gone."""
        if self.alive:
            with contextlib.suppress(OSError):
                self._control.send(json.dumps(message).encode())

    def close(self) -> None:
        """Let the host go: its games are hung up and it exits (at shutdown)."""
        self._lost()

    def kill_if_stuck(self, game: HostedGameProcess) -> None:
        """`game` was told SIGKILL long ago: if it still runs, the host answers no
        message any more, and it goes with every game in it."""
        if game.returncode is None and self.alive:
            self.process.signal_game(signal.SIGKILL)

    async def _send(self, message: bytes, slave: int) -> None:
        fds = [(socket.SOL_SOCKET, socket.SCM_RIGHTS, array.array("i", [slave]))]
        while True:
            if not self.alive:
                raise OSError("the game host has gone")
            try:
                self._control.sendmsg([message], fds)
                return
            except BlockingIOError:
                await asyncio.sleep(0.005)

    def _readable(self) -> None:
        while True:
            try:
                data = self._control.recv(MAX_MESSAGE)
            except BlockingIOError:
                return
            except OSError:
                data = b""
            if not data:
                self._lost()
                return
            self._heard(json.loads(data))

    def _heard(self, message: dict) -> None:
        if "started" in message:
            started = self._starting.get(int(message["started"]))
            if started is not None and not started.done():
                started.set_result(None)
        elif "error" in message:
            started = self._starting.get(int(message["game"]))
            if started is not None and not started.done():
                problem = str(message["error"])
                started.set_exception(OSError(f"the game host could not start a game: {problem}"))
        elif "ended" in message:
            self._game_ended(int(message["ended"]), int(message["status"]))

    def _game_ended(self, number: int, status: int | None) -> None:
        game = self._games.pop(number, None)
        if game is not None and status is not None:
            game.ended(status)
        if not self._games:
            self.retired = True  # an idle host holds memory: the next game forks a new one
            self.tell({"retire": True})

    def _lost(self) -> None:
        """The host's end closed (it exited, or died) or the server lets it go."""
        if not self.alive:
            return
        self.alive = False
        self.retired = True
        asyncio.get_running_loop().remove_reader(self._control.fileno())
        self._control.close()
        for started in self._starting.values():
            if not started.done():
                started.set_exception(OSError("the game host has gone"))
        games, self._games = list(self._games.values()), {}
        self._going = asyncio.get_running_loop().create_task(self._gone(games))

    async def _gone(self, games: list[HostedGameProcess]) -> None:
        """Once the host's own status is known, its games still running end as if
        killed with it (by its signal, else SIGKILL)."""
        status = await self.process.wait()
        killed = status if status < 0 else -signal.SIGKILL
        for game in games:
            game.ended(killed)
        self._on_gone(self, status, len(games))


class GameHosts:
    """Every host of this server, and where the next game goes."""

    def __init__(self, slots: int, fork_host: ForkHost, log: Callable[[str], None]) -> None:
        self._slots = slots
        self._fork_host = fork_host
        self._log = log
        self._hosts: list[GameHost] = []
        self._placing = asyncio.Lock()

    @property
    def hosts(self) -> list[GameHost]:
        """The hosts alive now, oldest first."""
        return list(self._hosts)

    async def spawn(
        self, argv: Sequence[str], env: Mapping[str, str], cwd: Path, slave: int
    ) -> HostedGameProcess:
        """Start `python argv[1:]` as a game on the pty `slave` in a host; OSError if it cannot."""
        async with self._placing:  # two players at once never take one last slot
            host = next((host for host in self._hosts if host.has_room), None)
            if host is None:
                host = await self._new_host()
            game = host.take()
        await host.start(game, argv, env, cwd, slave)
        return game

    async def open_first(self) -> None:
        """Start a host before any player comes (the first player's game starts in
        it at once), proving hosts can start; OSError if not."""
        async with self._placing:
            await self._new_host()

    async def close(self) -> None:
        """Let every host go (their games should have ended) and wait for each to exit."""
        hosts, self._hosts = list(self._hosts), []
        for host in hosts:
            host.close()
        for host in hosts:
            await host.process.wait()

    async def _new_host(self) -> GameHost:
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        try:
            process = await self._fork_host(theirs.fileno())
        except BaseException:
            ours.close()
            raise
        finally:
            theirs.close()
        host = GameHost(process, ours, self._slots, self._gone)
        self._hosts.append(host)
        return host

    def _gone(self, host: GameHost, status: int, games: int) -> None:
        with contextlib.suppress(ValueError):
            self._hosts.remove(host)
        if games:
            how = f"killed by signal {-status}" if status < 0 else f"exited with status {status}"
            self._log(f"game host (pid {host.pid}) {how}; its {games} games ended with it")
