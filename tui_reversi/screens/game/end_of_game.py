"""The end of a game on the game screen: the game-over dialog, shown once
per ending (not for an adjourned game, which goes on later), put aside for a
newer dialog and shown again after it, the ratings it moved, and what its
buttons lead to (the screen is told the choice)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from textual.app import App

from ...core import Ending
from ...match import Match
from ..game_over import GameOverScreen


@dataclass(frozen=True, slots=True)
class AtTheEnd:
    """What the dialog offers beside the result: a table's game or not, a
    rematch to ask for, how the game moved the ratings ('' if not known yet)."""

    at_table: bool
    rematch: bool
    ratings: str


class EndOfGame:
    """Which ending the dialog has shown, and showing it."""

    def __init__(
        self,
        app: App[Any],
        offers: Callable[[Match], AtTheEnd],
        chosen: Callable[[str | None], None],
    ) -> None:
        self._app = app
        self._offers = offers  # asked when the dialog opens
        self._chosen = chosen  # the button chosen ("new", "review", ... None: closed)
        self._shown: tuple[int, int, Ending] | None = None  # (game, ply, ending)

    def forget(self) -> None:
        """The live game changes: its end may be announced again."""
        self._shown = None

    def announce(self, match: Match, ending: Ending) -> None:
        shown = (match.game_id, match.game.ply, ending)
        if self._shown == shown or ending.reason == "adjourned":
            return  # (adjourned: the game goes on later; the status line says so)
        self._shown = shown
        offers = self._offers(match)
        over = GameOverScreen(
            match, ending, at_table=offers.at_table, rematch=offers.rematch, ratings=offers.ratings
        )
        self._app.push_screen(over, self._chosen)

    def show_rating_changes(self, text: str) -> None:
        """How the game just over moved the ratings: in the game-over dialog if it
        is up (else it shows them when it opens)."""
        app_screen = self._app.screen
        if isinstance(app_screen, GameOverScreen):
            app_screen.show_ratings(text)

    def set_aside(self) -> bool:
        """A newer dialog is coming: the game-over one, if it is up, goes for
        now (one dialog at a time). True if it was up."""
        app_screen = self._app.screen
        if not isinstance(app_screen, GameOverScreen):
            return False
        app_screen.dismiss(None)
        return True

    def again(self, match: Match) -> None:
        """Show the result again (after the dialog that put it aside), if the
        game is still over."""
        ending = match.ended
        if ending is not None:
            self._shown = None
            self.announce(match, ending)

    def close(self) -> None:
        """Another game takes the board: the last one's dialog goes, if it is up."""
        if isinstance(self._app.screen, GameOverScreen):
            self._app.screen.dismiss(None)
