"""A computer level at the board: its strategy searches in a thread of its own."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

from ..core import Move
from .base import (
    Allows,
    MoveRequest,
    Notice,
    PlayFailed,
    PlayResult,
    Progress,
    SearchInfo,
    Strategy,
)


class ComputerPlayer:
    """A seat played by `strategy`. Each request gets a thread and a cancel
    event; cancelling sets the event (threads cannot be killed: the engine
    polls it) and whatever the thread still answers is stale."""

    allows = Allows(hints=False, takebacks=True, pausing=True, shows_thinking=True)

    def __init__(self, strategy: Strategy, *, clock: Callable[[], float] = time.monotonic) -> None:
        self.strategy = strategy
        self._clock = clock
        self._cancel = threading.Event()
        self._thread: threading.Thread | None = None
        self._told: str | None = None  # the strategy's notice, once shown

    @property
    def kind(self) -> str:
        return self.strategy.level

    @property
    def thinking(self) -> bool:
        """True while a search thread is still running (cancelled or not)."""
        return self._thread is not None and self._thread.is_alive()

    def request(self, request: MoveRequest) -> None:
        self.cancel()
        cancel = self._cancel = threading.Event()
        self._thread = threading.Thread(
            target=self._think, args=(request, cancel), name=f"{self.kind} player", daemon=True
        )
        self._thread.start()

    def cancel(self) -> None:
        self._cancel.set()

    def close(self) -> None:
        self.cancel()

    def _think(self, request: MoveRequest, cancel: threading.Event) -> None:
        turn, reply = request.turn, request.reply
        started = self._clock()

        def progress(info: SearchInfo) -> None:
            reply(Progress(turn, info))

        try:
            name = self.strategy.choose_move(
                turn.position, cancelled=cancel.is_set, progress=progress
            )
            move = Move.null() if name is None else Move.parse(name)
        except Exception as error:  # a bug in an engine: report it, keep the game
            reply(PlayFailed(turn, f"{type(error).__name__}: {error}"))
            return
        notice = self.strategy.notice
        if notice is not None and notice != self._told:
            self._told = notice
            reply(Notice(turn, notice))
        # A reply that lands before yours has been drawn looks like cheating.
        while not cancel.is_set() and self._clock() - started < request.min_time:
            cancel.wait(0.02)
        if not cancel.is_set():
            reply(PlayResult(turn, move))
