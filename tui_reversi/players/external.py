"""An outside engine as a Player: a subprocess speaking a line protocol.

The protocol (documented in docs/engine.md), one line each way, UTF-8:

    arena -> engine   tui-reversi 1
    engine -> arena   ok NAME
    arena -> engine   go VARIANT BOARD SIDE MILLISECONDS
    engine -> arena   move f5            (or: move pass)
    arena -> engine   quit

A `go` line the engine cannot read gets `error TEXT` instead of a move.

VARIANT is othello, reversi or anti; BOARD is the 64-character board string
(a1..h8, X black, O white, - empty) and SIDE the side to move (X or O);
MILLISECONDS is the time budget for this move (the request's Limit; one
second when it has no clock). Each `go` is independent:
the engine needs to keep no game state. Lines the engine prints that start
with `#` are ignored (for its own logging). An engine that answers with an
illegal move, a malformed line, or not within its budget plus a grace
period loses the game.
"""

from __future__ import annotations

import contextlib
import queue
import shlex
import subprocess
import threading
from collections.abc import Callable, Iterable

from ..core import Move, Position, ReversiError, Variant
from ..core.errors import reason
from .base import CancelCheck, Limit, ProgressCallback, Strategy

PROTOCOL = "tui-reversi 1"
GRACE = 5.0  # seconds allowed beyond three times the budget
UNTIMED = 1.0  # seconds an engine is given when a request has no clock


class EngineError(ReversiError):
    """An outside engine broke the protocol, crashed or ran out of time."""


class ExternalPlayer:
    """Plays by asking an outside program. `command` is a shell-style line."""

    level = "external"
    notice: str | None = None  # it has nothing to tell

    def __init__(self, command: str, variant: Variant = Variant.OTHELLO):
        self.command = command
        self.variant = variant
        try:
            argv = shlex.split(command)
        except ValueError as error:
            raise ReversiError(f"cannot read the engine command {command!r}: {error}") from None
        if not argv:
            raise ReversiError("the engine command is empty")
        try:
            self._process = subprocess.Popen(
                argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                text=True,
                bufsize=1,
            )
        except OSError as error:
            raise ReversiError(f"cannot start the engine {argv[0]!r}: {reason(error)}") from None
        self._lines: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()
        self._send(PROTOCOL)
        reply = self._answer(10.0)
        if not reply.startswith("ok"):
            self.close()
            raise EngineError(f"engine {command!r} answered {reply!r} instead of 'ok NAME'")
        self.name = reply[2:].strip() or argv[0]

    def _read(self) -> None:
        assert self._process.stdout is not None
        for line in self._process.stdout:
            self._lines.put(line.strip())
        self._lines.put(None)

    def _send(self, line: str) -> None:
        try:
            assert self._process.stdin is not None
            self._process.stdin.write(line + "\n")
            self._process.stdin.flush()
        except OSError:
            raise EngineError(f"engine {self.command!r} has stopped") from None

    def _answer(self, timeout: float) -> str:
        while True:
            try:
                line = self._lines.get(timeout=timeout)
            except queue.Empty:
                raise EngineError(f"engine {self.command!r} did not answer in time") from None
            if line is None:
                raise EngineError(f"engine {self.command!r} has stopped")
            if line and not line.startswith("#"):
                return line

    def choose_move(
        self,
        position: Position,
        limit: Limit,
        *,
        cancelled: CancelCheck | None = None,
        progress: ProgressCallback | None = None,
    ) -> Move:
        board, side = str(position).split()
        seconds = limit.clock or UNTIMED
        self._send(f"go {self.variant.value} {board} {side} {round(seconds * 1000)}")
        reply = self._answer(3 * seconds + GRACE)
        word, _, move = reply.partition(" ")
        if word != "move" or not move:
            raise EngineError(
                f"engine {self.command!r} answered {reply!r} instead of 'move SQUARE'"
            )
        try:
            return Move.parse(move)
        except ReversiError:
            raise EngineError(
                f"engine {self.command!r} sent {move.strip()!r}, which is not a square"
            ) from None

    def close(self) -> None:
        """Ask the engine to quit, and make sure it does."""
        with contextlib.suppress(EngineError):
            self._send("quit")
        try:
            self._process.wait(timeout=2)
        except subprocess.TimeoutExpired:
            self._process.kill()
            self._process.wait()


def serve(
    player: Callable[[Variant], Strategy],
    lines: Iterable[str],
    write: Callable[[str], None],
) -> None:
    """Speak the protocol as an engine: read requests from `lines`, answer
    with `write(line)`, choosing moves with the engine `player(variant)`
    within each request's milliseconds."""
    for raw in lines:
        words = raw.split()
        if not words:
            continue
        if words[0] == "quit":
            return
        if words[:2] == PROTOCOL.split():
            write(f"ok tui-reversi {player(Variant.OTHELLO).level}")
        elif words[0] == "go":
            try:
                if len(words) != 5:
                    raise ValueError("go takes VARIANT BOARD SIDE MILLISECONDS")
                variant = Variant.parse(words[1])
                position = Position.from_string(f"{words[2]} {words[3]}")
                seconds = max(int(words[4]), 1) / 1000
            except (ReversiError, ValueError) as error:
                write(f"error bad go line: {error}")  # no move: none was asked for
                continue
            move = player(variant).choose_move(position, Limit(time=seconds))
            write(f"move {move}")
        else:
            write(f"# unknown command: {raw.strip()}")
