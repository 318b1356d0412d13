"""The computer's turn on the game screen: an exclusive thread worker asks
the player for a move; its progress, answer or failure comes back as a
message carrying the Turn it was asked for, and an answer for a Turn that
is no longer current is dropped. Also the pause key of a
computer-against-computer game."""

from __future__ import annotations

import time

from textual import on, work
from textual.message import Message
from textual.screen import Screen
from textual.worker import get_current_worker

from ...core import IllegalMoveError
from ...match import Turn
from ...players import SearchInfo
from ...widgets.score import ScorePanel, Thinking


class ComputerTurns(Screen):
    """The part of GameScreen that runs the computer players."""

    class ComputerMoved(Message):
        def __init__(self, turn: Turn, move: str | None) -> None:
            super().__init__()
            self.turn, self.move = turn, move

    class ComputerProgress(Message):
        def __init__(self, turn: Turn, info: SearchInfo) -> None:
            super().__init__()
            self.turn, self.info = turn, info

    class ComputerFailed(Message):
        def __init__(self, turn: Turn, error: str) -> None:
            super().__init__()
            self.turn, self.error = turn, error

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.paused = False
        self._thinking_turn: Turn | None = None

    def _start_thinking(self) -> None:
        match = self.match
        player = self.app.players[match.to_move]
        if player is None:
            return
        turn = match.turn()
        self._thinking_turn = turn
        delay = self.options.computer_delay if match.humans else self.options.watch_delay
        self.query_one(ScorePanel).thinking = Thinking(match.to_move, self.options.clock())
        self._think(player, turn, delay)

    @work(thread=True, exclusive=True, group="computer", exit_on_error=False)
    def _think(self, player, turn: Turn, delay: float) -> None:
        worker = get_current_worker()
        clock = self.options.clock
        started = clock()

        def cancelled() -> bool:
            return worker.is_cancelled

        def progress(info: SearchInfo) -> None:
            self.post_message(self.ComputerProgress(turn, info))

        try:
            move = player.choose_move(turn.position, cancelled=cancelled, progress=progress)
        except Exception as error:  # a bug in a player: report it, keep the game
            self.post_message(self.ComputerFailed(turn, f"{type(error).__name__}: {error}"))
            return
        # A reply that lands before yours has been drawn looks like cheating.
        while not cancelled() and clock() - started < delay:
            time.sleep(0.02)
        if not cancelled():
            self.post_message(self.ComputerMoved(turn, move))

    @on(ComputerProgress)
    def _computer_progress(self, event: ComputerProgress) -> None:
        panel = self.query_one(ScorePanel)
        if event.turn == self._thinking_turn and panel.thinking is not None:
            info = event.info
            panel.thinking = Thinking(
                panel.thinking.color, panel.thinking.started, info.depth, info.exact
            )

    @on(ComputerMoved)
    def _computer_moved(self, event: ComputerMoved) -> None:
        if not self.match.is_current(event.turn) or event.turn != self._thinking_turn:
            return  # stale: the game moved on (undo, new game) while it thought
        self._thinking_turn = None
        self.query_one(ScorePanel).thinking = None
        if event.move is None:
            self.say(
                f"{self.match.to_move.label}'s player passed with a legal move available.",
                error=True,
            )
            return
        try:
            self.match.game.play(event.move)
        except IllegalMoveError as error:
            self.say(f"The computer tried an illegal move: {error}.", error=True)
            return
        self._record_changed(animate=True)

    @on(ComputerFailed)
    def _computer_failed(self, event: ComputerFailed) -> None:
        if event.turn != self._thinking_turn:
            return
        self._thinking_turn = None
        self.query_one(ScorePanel).thinking = None
        self.paused = True
        self.say(f"The computer player failed ({event.error}); p tries again.", error=True)
        self.refresh_bindings()

    def _cancel_thinking(self) -> None:
        self._thinking_turn = None
        self.workers.cancel_group(self, "computer")
        self.query_one(ScorePanel).thinking = None

    def action_pause(self) -> None:
        self.paused = not self.paused
        if self.paused:
            self._cancel_thinking()
            self.say("Paused: p lets the computers play on.")
        else:
            self.notice = None
            if self.match.computer_to_move:
                self._start_thinking()
        self._show()
        self.refresh_bindings()
