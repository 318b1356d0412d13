"""The one way engine work runs in the background: a computer seat's move,
the hint, the game analysis.

    runner = Background("hint")
    runner.start(turn, lambda cancelled: analyse(position, cancelled=cancelled), answer)

A `Background` runs one job at a time in a thread of its own: `start`
stops the job before it, and `cancel` stops the current one. Threads cannot
be killed, so the work polls the `cancelled()` it is given (the engine does
every few hundred nodes). When a job ends, `answer` is called on its thread
with the outcome and the token the job was started with: `Done` (its
result), `Stopped` (cancelled: never a result), or `Failed` (an exception,
as one line for a bug report). The token (a `Turn`: game id, ply, position;
or the game analysed) is how the owner drops an answer for a game that has
moved on, on its own thread; none of this knows of the UI.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Generic, TypeVar

from ..surroundings import GameThread
from .base import CancelCheck

Token = TypeVar("Token")
Result = TypeVar("Result")


@dataclass(frozen=True, slots=True)
class Done(Generic[Token, Result]):
    """The job for `token` finished with `result`."""

    token: Token
    result: Result


@dataclass(frozen=True, slots=True)
class Stopped(Generic[Token]):
    """The job for `token` was cancelled; whatever it found is not an answer."""

    token: Token


@dataclass(frozen=True, slots=True)
class Failed(Generic[Token]):
    """The job for `token` raised: a bug, in one line ('RuntimeError: no book')."""

    token: Token
    problem: str


Outcome = Done[Token, Result] | Stopped[Token] | Failed[Token]


class Background(Generic[Token, Result]):
    """Runs engine work one job at a time in its own thread, named `name`."""

    def __init__(self, name: str) -> None:
        self.name = name
        self._cancel = threading.Event()
        self._thread: threading.Thread | None = None

    @property
    def busy(self) -> bool:
        """True while a job's thread still runs (cancelled or not)."""
        return self._thread is not None and self._thread.is_alive()

    def start(
        self,
        token: Token,
        work: Callable[[CancelCheck], Result],
        answer: Callable[[Outcome[Token, Result]], None],
    ) -> None:
        """Stop the job running, if any, and run `work(cancelled)` for `token`."""
        self.cancel()
        cancel = self._cancel = threading.Event()
        self._thread = GameThread(
            target=_run, args=(token, work, answer, cancel), name=self.name, daemon=True
        )
        self._thread.start()

    def cancel(self) -> None:
        """Stop the current job: its answer will be `Stopped` (or `Failed`)."""
        self._cancel.set()


def _run(
    token: Token,
    work: Callable[[CancelCheck], Result],
    answer: Callable[[Outcome[Token, Result]], None],
    cancel: threading.Event,
) -> None:
    try:
        result = work(cancel.is_set)
    except Exception as error:  # a bug in the engine: report it, keep the game
        answer(Failed(token, f"{type(error).__name__}: {error}"))
        return
    answer(Stopped(token) if cancel.is_set() else Done(token, result))
