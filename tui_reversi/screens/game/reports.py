"""What the referee reports, shown on the game screen: another game began,
the record changed (a move, a takeback), the game ended, a player was asked
or is thinking, a move was refused, a computer player failed, a player said
something, the game was paused. Each report goes to the parts it concerns,
and the view is rebuilt from the game."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...match import (
    Asked,
    Began,
    Ended,
    Event,
    Failed,
    PauseChanged,
    RecordChanged,
    Refused,
    Thinking,
    Told,
)
from ...session import sentence

if TYPE_CHECKING:
    from .screen import GameScreen


class RefereeReports:
    """Follows the referee's reports for the screen (`referee.watch(reports.follow)`)."""

    def __init__(self, screen: GameScreen) -> None:
        self.screen = screen

    def follow(self, event: Event) -> None:
        screen = self.screen
        if isinstance(event, Began):
            screen.another_game.began(event.match)
        elif isinstance(event, RecordChanged):
            # Work for the old position is dropped; the view is rebuilt from the game.
            screen.thinking.stopped()
            screen.hints.clear()
            if not event.moved:  # taken back, or another position: typed ahead for none
                screen.premove.move = None
            else:  # ("It is White's turn" is not true any more)
                screen.status_line.moved()
            review_ply = screen.review.ply
            if review_ply is not None and review_ply > screen.match.game.length:
                screen.review.reset()  # taken back past the reviewed position
            screen.show(animate=event.moved)
            screen.refresh_bindings()
        elif isinstance(event, Ended):
            screen.thinking.stopped()
            screen.premove.move = None
            screen.show()  # nothing more to play: no markers, no Enter to play
            screen.refresh_bindings()
            screen.end_of_game.announce(event.ending)
        elif isinstance(event, Asked):
            if event.player.allows.local_input:  # (asked once this report is done)
                screen.call_later(screen.premove.turn_came)
            if event.player.allows.shows_thinking:
                screen.thinking.started(event.turn, event.color)
        elif isinstance(event, Thinking):
            screen.thinking.progressed(event.turn, event.info)
        elif isinstance(event, Refused):
            self._refused(event)
        elif isinstance(event, Failed):
            screen.thinking.stopped()
            screen.say(f"The computer player failed ({event.problem}); p tries again.", error=True)
            screen.refresh_bindings()
        elif isinstance(event, Told):  # a toast: the status line clears as play goes on
            screen.app.notify(sentence(event.text), severity="warning", timeout=20)
        elif isinstance(event, PauseChanged) and event.paused:
            screen.thinking.stopped()

    def _refused(self, event: Refused) -> None:
        screen = self.screen
        if event.player.allows.local_input:
            screen.say(f"{event.move} {event.reason}.", error=True)
            return
        screen.thinking.stopped()
        if not event.move:
            problem = f"{event.color.label}'s player passed with a legal move available."
        else:
            problem = f"The computer tried an illegal move: {event.move} {event.reason}."
        screen.say(problem, error=True)
        screen.refresh_bindings()
