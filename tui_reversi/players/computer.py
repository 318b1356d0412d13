"""A computer level at the board: its strategy searches in a thread of its own."""

from __future__ import annotations

import time
from collections.abc import Callable

from ..core import Move
from .background import Background, Done, Failed, Outcome
from .base import (
    Allows,
    CancelCheck,
    Limit,
    MoveRequest,
    Notice,
    PlayFailed,
    PlayResult,
    Progress,
    SearchInfo,
    Strategy,
    Turn,
)


class ComputerPlayer:
    """A seat played by `strategy`, asked to move within `limit` each turn.
    Its thinking runs in the background (background.py): a new request or a
    cancel stops the search before it, and whatever that one still answers
    is stale (the referee drops an answer for another Turn)."""

    allows = Allows(hints=False, takebacks=True, pausing=True, shows_thinking=True)

    def __init__(
        self, strategy: Strategy, limit: Limit, *, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.strategy = strategy
        self.limit = limit
        self._clock = clock
        self._thinking: Background[Turn, Move] = Background(f"{strategy.level} player")
        self._told: str | None = None  # the strategy's notice, once shown

    @property
    def kind(self) -> str:
        return self.strategy.level

    @property
    def thinking(self) -> bool:
        """True while a search thread is still running (cancelled or not)."""
        return self._thinking.busy

    def request(self, request: MoveRequest) -> None:
        def answer(outcome: Outcome[Turn, Move]) -> None:
            if isinstance(outcome, Done):
                request.reply(PlayResult(outcome.token, outcome.result))
            elif isinstance(outcome, Failed):
                request.reply(PlayFailed(outcome.token, outcome.problem))

        self._thinking.start(
            request.turn, lambda cancelled: self._think(request, cancelled), answer
        )

    def cancel(self) -> None:
        self._thinking.cancel()

    def close(self) -> None:
        self.cancel()

    def _think(self, request: MoveRequest, cancelled: CancelCheck) -> Move:
        turn, reply = request.turn, request.reply
        started = self._clock()

        def progress(info: SearchInfo) -> None:
            reply(Progress(turn, info))

        move = self.strategy.choose_move(
            turn.position, self.limit, cancelled=cancelled, progress=progress
        )
        notice = self.strategy.notice
        if notice is not None and notice != self._told:
            self._told = notice
            reply(Notice(turn, notice))
        # A reply that lands before yours has been drawn looks like cheating.
        while not cancelled() and self._clock() - started < request.min_time:
            time.sleep(0.02)
        return move
