"""Another game takes the game screen: the new-game dialog (its choice
checked against who may be seated here), a loaded or imported game, a
rematch; the person's seat named as the server knows them. (The screen
then shows nothing of the last game: `GameScreen._began`.)"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from textual.binding import Binding

from ...core import Color, ReversiError
from ...core.errors import sentence
from ...match import Match
from ..new_game import NewGame, NewGameScreen
from .status_line import Say

if TYPE_CHECKING:
    from ...match import Referee


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

    def __init__(
        self,
        referee: Referee,
        say: Say,
        *,
        player: str | None,
        remember: Callable[..., None],
    ) -> None:
        self._referee = referee
        self._say = say
        self._player = player  # on a server: the person's name there
        self._remember = remember  # settings changed in the app (`change_settings`)

    def dialog(self, lobby: Callable[[], None] | None) -> NewGameScreen:
        """The new-game dialog, the current game's choice in it (`lobby`: its way
        to the lobby, on a server)."""
        referee = self._referee

        def check(choice: NewGame) -> str | None:
            try:
                referee.check_seats(Match.new(choice.black, choice.white, choice.variant))
            except ReversiError as error:
                return sentence(str(error))
            return None

        match = referee.match
        current = NewGame(match.black, match.white, match.variant)
        return NewGameScreen(current, check, lobby)

    def chosen(self, choice: NewGame | None) -> None:
        """The dialog's answer: the game chosen, if any, begins."""
        if choice is None:
            return
        if self.begin(Match.new(choice.black, choice.white, choice.variant)):
            # Every choice made in the app is the default of the next start.
            self._remember(black=choice.black, white=choice.white, variant=choice.variant)

    def begin(self, match: Match) -> bool:
        """Play `match` from now on (a new, loaded or imported game). Says why
        and changes nothing if one of its players cannot be seated."""
        try:
            self._referee.check_seats(match)
        except ReversiError as error:
            self._say(sentence(str(error)), error=True)
            return False
        self._referee.begin(match)  # reported back as Began
        return True

    def name_the_player(self, match: Match) -> None:
        """On a server, in the player's own game against the computer: the
        person's seat shows their name (as the server knows it), not "Human"."""
        name = self._player
        if name is None or match.humans != 1 or any(match.names):
            return
        black, white = (name if match.is_human(color) else "" for color in Color)
        match.names = (black, white)
