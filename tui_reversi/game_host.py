"""A game host: one process running several players' games, each in a thread
of its own, for `tui-reversi serve --games-per-process K`.

The preloaded parent (launcher.py) forks a host when the server asks for one,
with the host's own control socket attached to the request; the host then
talks to the server over that socket only, and the parent knows it as one
more child. The host has no controlling terminal (and leads no session, so
it never takes one), a process group of its own, ignores SIGINT (the
operator's ctrl+c is for the server) and runs
each game as `GAME(argv, env, cwd, tty).run()` in a thread, GAME being
tui_reversi.hosted_game's HostedGame unless the server names another.

Messages from the server, one JSON object a datagram:

    {"start": N, "argv": [...], "env": {...}, "cwd": DIR}   + the game's pty slave
    {"game": N, "signal": S}          deliver signal S to game N (HostedGame.signal)
    {"retire": true}                  no game comes any more: exit after the last

Messages to the server:

    {"started": N}                    game N runs
    {"game": N, "error": SENTENCE}    game N could not be started
    {"ended": N, "status": S}         game N is over: what its own process would exit with

When the server's end closes (it stopped, or died) every game is hung up as a
dropped connection would be, killed after HANG_UP_GRACE if still there, and
the host exits. It always leaves by os._exit: a game's thread stuck after
SIGKILL must not keep the process alive.
"""

from __future__ import annotations

import contextlib
import gc
import importlib
import importlib.util
import json
import os
import signal
import socket
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import NoReturn, Protocol

# One message: far more than argv, a whitelisted environment and a path need.
MAX_MESSAGE = 64 * 1024
# The games of a host whose server has gone have this long to save and end after SIGHUP.
HANG_UP_GRACE = 5.0
# And this long to go after SIGKILL, before the host exits under them.
KILL_GRACE = 1.0
ENDING_POLL = 0.05


class Game(Protocol):
    """One hosted game, as tui_reversi.hosted_game.HostedGame is."""

    def run(self) -> int: ...

    def signal(self, number: int) -> None: ...


GameClass = Callable[[list[str], Mapping[str, str], str, int], Game]


@dataclass(frozen=True)
class GameRequest:
    """What to run (in a forked child, or in a host's thread): `python argv...`, with
    this environment, in this directory."""

    argv: list[str]
    env: dict[str, str]
    cwd: str

    @classmethod
    def from_fields(cls, fields: dict[str, object]) -> GameRequest:
        argv, env, cwd = fields["argv"], fields["env"], fields["cwd"]
        if not (
            isinstance(argv, list)
            and argv
            and all(isinstance(word, str) for word in argv)
            and isinstance(env, dict)
            and all(isinstance(k, str) and isinstance(v, str) for k, v in env.items())
            and isinstance(cwd, str)
        ):
            raise ValueError("a request needs argv, env and cwd")
        return cls(argv, env, cwd)


def load_game_class(spec: str) -> GameClass:
    """The game class `spec` names: "MODULE:NAME", or "FILE.py:NAME" (a file
    loaded by its path). ValueError (a sentence) if there is no such class."""
    where, _, name = spec.rpartition(":")
    try:
        if where.endswith(".py"):
            file_spec = importlib.util.spec_from_file_location("hosted_game_of_file", where)
            if file_spec is None or file_spec.loader is None:
                raise ImportError(f"no module at {where}")
            module = importlib.util.module_from_spec(file_spec)
            file_spec.loader.exec_module(module)
        else:
            module = importlib.import_module(where)
        found = getattr(module, name)
    except (ImportError, AttributeError, OSError, ValueError) as error:
        raise ValueError(f"the hosted game {spec} cannot be loaded: {error}") from None
    if not callable(found):
        raise ValueError(f"the hosted game {spec} is not a class")
    return found  # type: ignore[no-any-return]


def program_options(argv: list[str]) -> list[str]:
    """What the game's own program would parse: the words after `-m MODULE` or
    after the script in `argv` (the server's game command without its Python)."""
    return argv[2:] if argv[:1] == ["-m"] else argv[1:]


def receive(control: socket.socket) -> tuple[bytes, list[int]]:
    """One message and the descriptors attached to it (closed on exec)."""
    fds: list[int] = []
    data, ancillary, _, _ = control.recvmsg(MAX_MESSAGE, socket.CMSG_SPACE(4 * 16))
    for level, kind, payload in ancillary:
        if level == socket.SOL_SOCKET and kind == socket.SCM_RIGHTS:
            usable = len(payload) - len(payload) % 4
            fds += list(memoryview(payload)[:usable].cast("i"))
    for fd in fds:
        os.set_inheritable(fd, False)
    return data, fds


def send(control: socket.socket, message: dict[str, object]) -> None:
    """One message; a server that has gone reads nothing more."""
    with contextlib.suppress(OSError):
        control.send(json.dumps(message).encode())


def run_host(control: socket.socket, game_class: GameClass) -> NoReturn:
    """In the forked child: become a host and serve the server's messages until
    the host is done; never returns."""
    status = 1
    try:
        _become_host(control)
        Host(control, game_class).serve()
        status = 0
    finally:
        os._exit(status)


def _become_host(control: socket.socket) -> None:
    """A process group of its own in the parent's session, which has no terminal;
    nothing of the parent's open but the control socket; descriptors 0-2 on
    /dev/null (a game writes to its pty only)."""
    # Not setsid(): a session leader that opens a terminal takes it as its controlling
    # terminal, and that terminal's hang-up would then end every game here.
    os.setpgid(0, 0)
    signal.set_wakeup_fd(-1)
    signal.signal(signal.SIGCHLD, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    null = os.open(os.devnull, os.O_RDWR)
    for target in (0, 1, 2):
        os.dup2(null, target)
    keep = control.fileno()
    os.closerange(3, keep)
    os.closerange(keep + 1, open_max())
    gc.enable()  # the parent's pages stay frozen; what the games make is collected


class Host:
    """The games of one host process, by the server's number for each."""

    def __init__(self, control: socket.socket, game_class: GameClass) -> None:
        self._control = control
        self._game_class = game_class
        self._lock = threading.Lock()
        self._games: dict[int, Game] = {}
        self._retired = False

    def serve(self) -> None:
        """Read the server's messages until its end closes (then end every game)."""
        while True:
            try:
                data, fds = receive(self._control)
            except OSError:
                data, fds = b"", []
            if not data:
                for fd in fds:
                    os.close(fd)
                self._end_every_game()
                return
            try:
                message = json.loads(data)
            except ValueError:
                message = None
            if not isinstance(message, dict):
                for fd in fds:
                    os.close(fd)
                continue
            if "start" in message:
                self._start(message, fds)
                continue
            for fd in fds:
                os.close(fd)
            if "signal" in message:
                self._signal(message.get("game"), message["signal"])
            elif message.get("retire"):
                self._retire()

    def _start(self, message: dict[str, object], fds: list[int]) -> None:
        number = message["start"]
        try:
            if not isinstance(number, int):
                raise ValueError("a game needs a number")
            request = GameRequest.from_fields(message)
            if len(fds) != 1:
                raise ValueError("a game needs exactly one terminal")
            game = self._game_class(program_options(request.argv), request.env, request.cwd, fds[0])
        except Exception as error:  # a game that cannot start is told so; the host goes on
            for fd in fds:
                os.close(fd)
            send(self._control, {"game": number, "error": str(error)})
            return
        with self._lock:
            self._games[number] = game
        send(self._control, {"started": number})  # (before its end can be)
        runner = threading.Thread(
            target=self._run, args=(number, game), name=f"game-{number}", daemon=True
        )
        runner.start()

    def _run(self, number: int, game: Game) -> None:
        try:
            status = game.run()
        except BaseException:  # (run never raises; if it did, the others play on)
            status = 1
        with self._lock:
            self._games.pop(number, None)
            done = self._retired and not self._games
        send(self._control, {"ended": number, "status": status})
        if done:
            os._exit(0)

    def _signal(self, number: object, signal_number: object) -> None:
        if not isinstance(signal_number, int):
            return
        with self._lock:
            game = self._games.get(number) if isinstance(number, int) else None
        if game is not None:
            game.signal(signal_number)

    def _retire(self) -> None:
        with self._lock:
            self._retired = True
            done = not self._games
        if done:
            os._exit(0)

    def _end_every_game(self) -> None:
        """The server has gone: what a dropped connection does to each game, then SIGKILL."""
        for number, grace in ((signal.SIGHUP, HANG_UP_GRACE), (signal.SIGKILL, KILL_GRACE)):
            with self._lock:
                games = list(self._games.values())
            for game in games:
                game.signal(number)
            deadline = time.monotonic() + grace
            while time.monotonic() < deadline:
                with self._lock:
                    if not self._games:
                        return
                time.sleep(ENDING_POLL)


def open_max() -> int:
    """The highest descriptor number there may be, plus one."""
    with contextlib.suppress(ValueError, OSError):
        return max(os.sysconf("SC_OPEN_MAX"), 256)
    return 65536
