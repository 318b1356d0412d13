"""A stand-in for tui_reversi.hosted_game.HostedGame, as standin.py is for the game:
run by a game host (tui_reversi/game_host.py) in a thread, it reports what a
game would see and answers keys and signals, so that the host's plumbing is
tested without the app.

On start it writes `STANDIN pid=P ppid=P game=N size=CxR`, its environment
(`ENV`), its options (`ARGS`), its working directory (`CWD`) and `READY`;
then in raw mode it echoes every key as `KEY <hex>`, a resize (SIGWINCH) as
`SIZE CxR`, and ends with status 0 on `q`, 3 on `x`, 70 (a crash) on `c`.
SIGHUP leaves `hup-N` in its directory and ends it with 129, SIGKILL with -9.
"""

from __future__ import annotations

import itertools
import json
import os
import select
import signal
import threading
import tty
from collections.abc import Mapping

_numbers = itertools.count(1)
_numbering = threading.Lock()


class StandinGame:
    def __init__(self, argv: list[str], env: Mapping[str, str], cwd: str, tty_fd: int) -> None:
        self._argv = list(argv)
        self._env = dict(env)
        self._cwd = cwd
        self._tty = tty_fd
        self._signals: list[int] = []
        self._wake_read, self._wake_write = os.pipe()
        with _numbering:
            self.number = next(_numbers)

    def signal(self, number: int) -> None:
        self._signals.append(number)
        os.write(self._wake_write, b"!")

    def run(self) -> int:
        try:
            return self._play()
        finally:
            for fd in (self._tty, self._wake_read, self._wake_write):
                os.close(fd)

    def _say(self, line: str) -> None:
        os.write(self._tty, (line + "\r\n").encode())

    def _size(self) -> str:
        columns, rows = os.get_terminal_size(self._tty)
        return f"{columns}x{rows}"

    def _play(self) -> int:
        self._say(
            f"STANDIN pid={os.getpid()} ppid={os.getppid()} game={self.number} size={self._size()}"
        )
        self._say("ENV " + json.dumps(self._env, sort_keys=True))
        self._say("ARGS " + json.dumps(self._argv))
        self._say("CWD " + self._cwd)
        tty.setraw(self._tty)
        self._say("READY")
        while True:
            readable, _, _ = select.select([self._tty, self._wake_read], [], [])
            if self._wake_read in readable:
                os.read(self._wake_read, 1024)
                while self._signals:
                    ended = self._signalled(self._signals.pop(0))
                    if ended is not None:
                        return ended
            if self._tty not in readable:
                continue
            try:
                data = os.read(self._tty, 1024)
            except OSError:
                return 1
            if not data:
                return 0
            self._say("KEY " + data.hex())
            for key, status in ((b"q", 0), (b"x", 3), (b"c", 70)):
                if key in data:
                    return status

    def _signalled(self, number: int) -> int | None:
        if number == signal.SIGKILL:
            return -signal.SIGKILL
        if number == signal.SIGHUP:
            with open(os.path.join(self._cwd, f"hup-{self.number}"), "w") as marker:
                marker.write("hup\n")
            return 128 + signal.SIGHUP
        if number == signal.SIGWINCH:
            self._say(f"SIZE {self._size()}")
        return None
