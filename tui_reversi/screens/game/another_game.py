"""Another game takes the game screen: the new-game dialog (its choice
checked against who may be seated here), a loaded or imported game, a
rematch; the person's seat named as the server knows them, and nothing of
the last game shown any more (its result, a review, an analysis)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.binding import Binding

from ...core import Color, ReversiError
from ...match import Match
from ...session import sentence
from ..game_over import GameOverScreen
from ..new_game import NewGame, NewGameScreen

if TYPE_CHECKING:
    from .screen import GameScreen


NEW_GAME_BINDINGS = [
    Binding(
        "n",
        "new_game",
        "New game",
        id="game.new",
        tooltip="Choose who plays Black and White (human, easy ... expert) and the variant",
    ),
]


class AnotherGame:
    """Asking for a new game and putting a match on the board."""

    def __init__(self, screen: GameScreen) -> None:
        self.screen = screen

    def ask(self) -> None:
        """The new-game dialog (not at a table: its game is the table's)."""
        screen = self.screen
        if screen.table.link is not None:
            screen.say("This table's game is over: q leaves, and a new table starts a new game.")
            return

        def check(choice: NewGame) -> str | None:
            try:
                screen.referee.check_seats(Match.new(choice.black, choice.white, choice.variant))
            except ReversiError as error:
                return f"{str(error)[:1].upper()}{str(error)[1:]}."
            return None

        match = screen.match
        current = NewGame(match.black, match.white, match.variant)
        lobby = screen.action_lobby if screen.reversi_app.invitations is not None else None
        screen.app.push_screen(NewGameScreen(current, check, lobby), self._chosen)

    def _chosen(self, choice: NewGame | None) -> None:
        if choice is None:
            return
        if self.begin(Match.new(choice.black, choice.white, choice.variant)):
            # Every choice made in the app is the default of the next start.
            self.screen.reversi_app.change_settings(
                black=choice.black, white=choice.white, variant=choice.variant
            )

    def begin(self, match: Match) -> bool:
        """Play `match` from now on (a new, loaded or imported game). Says why
        and changes nothing if one of its players cannot be seated."""
        screen = self.screen
        try:
            screen.referee.check_seats(match)
        except ReversiError as error:
            screen.say(sentence(str(error)), error=True)
            return False
        screen.referee.begin(match)  # reported back as Began
        return True

    def began(self, match: Match) -> None:
        """Another game is on the board (new, loaded, a rematch): nothing of the
        last one is shown any more (its result, a review, an analysis)."""
        screen = self.screen
        if isinstance(screen.app.screen, GameOverScreen):
            screen.app.screen.dismiss(None)
        self.name_the_player(match)
        screen.analysis.reset(match)
        screen.review.reset()
        screen.premove.move = None
        screen.back_to_play()

    def name_the_player(self, match: Match) -> None:
        """On a server, in the player's own game against the computer: the
        person's seat shows their name (as the server knows it), not "Human"."""
        invitations = self.screen.reversi_app.invitations
        if invitations is None or match.humans != 1 or any(match.names):
            return
        name = invitations.link.name
        black, white = (name if match.is_human(color) else "" for color in Color)
        match.names = (black, white)
