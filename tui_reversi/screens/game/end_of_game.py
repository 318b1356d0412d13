"""The end of a game on the game screen: the game-over dialog, shown once
per ending (not for an adjourned game, which goes on later), put aside for a
newer dialog and shown again after it, the ratings it moved, and what its
buttons lead to."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...core import Ending
from ..game_over import GameOverScreen

if TYPE_CHECKING:
    from .screen import GameScreen


class EndOfGame:
    """Which ending the dialog has shown, and showing it."""

    def __init__(self, screen: GameScreen) -> None:
        self.screen = screen
        self._shown: tuple[int, int, Ending] | None = None  # (game, ply, ending)

    def forget(self) -> None:
        """The live game changes: its end may be announced again."""
        self._shown = None

    def announce(self, ending: Ending) -> None:
        screen = self.screen
        match, table = screen.match, screen.table
        shown = (match.game_id, match.game.ply, ending)
        if self._shown == shown or ending.reason == "adjourned":
            return  # (adjourned: the game goes on later; the status line says so)
        self._shown = shown
        rerated = table.rerated
        ratings = rerated[1] if rerated is not None and rerated[0] == match.game_id else ""
        over = GameOverScreen(
            match,
            ending,
            at_table=table.link is not None,
            rematch=table.can_ask_rematch(),
            ratings=ratings,
        )
        screen.app.push_screen(over, self._chosen)

    def show_rating_changes(self, text: str) -> None:
        """How the game just over moved the ratings: in the game-over dialog if it is
        up (else it shows them when it opens), and on the status line."""
        app_screen = self.screen.app.screen
        if isinstance(app_screen, GameOverScreen):
            app_screen.show_ratings(text)
        self.screen.say(f"Ratings: {text}")

    def set_aside(self) -> bool:
        """A newer dialog is coming: the game-over one, if it is up, goes for
        now (one dialog at a time). True if it was up."""
        app_screen = self.screen.app.screen
        if not isinstance(app_screen, GameOverScreen):
            return False
        app_screen.dismiss(None)
        return True

    def again(self) -> None:
        """Show the result again (after the dialog that put it aside), if the
        game is still over."""
        ending = self.screen.match.ended
        if ending is not None:
            self._shown = None
            self.announce(ending)

    def _chosen(self, choice: str | None) -> None:
        screen = self.screen
        if choice == "new":
            screen.action_new_game()
        elif choice == "review":
            screen.review.step(-1)
        elif choice == "analyse":
            screen.analysis.start_or_stop()
        elif choice == "leave":
            screen.app.exit()
        elif choice == "rematch":
            screen.table.ask_rematch()
