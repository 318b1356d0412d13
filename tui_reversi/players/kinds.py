"""The one registry of player kinds: who can sit at a colour.

Everything that names a player (the command line, settings, saved games,
dialogs) reads this table; a new kind of player plugs in by adding a row
and a way to seat it in `seat`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ..core import ReversiError, Variant
from .base import Player, Strategy
from .computer import ComputerPlayer
from .human import HumanPlayer


@dataclass(frozen=True, slots=True)
class PlayerKind:
    name: str  # as written in settings, saved games and on the command line
    label: str  # as shown: 'Human', 'Easy', ...
    description: str  # one line for the dialogs
    computer: bool


HUMAN = "human"
# A person at another terminal, seated by the server at a table (net.remote).
PERSON = "person"

KINDS = (
    PlayerKind(HUMAN, "Human", "you (or a friend) at the keyboard", computer=False),
    PlayerKind("easy", "Easy", "random legal moves, like a beginner", computer=True),
    PlayerKind("medium", "Medium", "looks a few moves ahead, a casual player", computer=True),
    PlayerKind("hard", "Hard", "a strong engine that answers within about a second", computer=True),
    PlayerKind("expert", "Expert", "the strongest engine, with a longer think", computer=True),
)
# Never chosen in a dialog or on the command line: only a server's table seats one.
PERSON_KIND = PlayerKind(PERSON, "Person", "a person at another terminal", computer=False)
_BY_NAME = {kind.name: kind for kind in (*KINDS, PERSON_KIND)}

NAMES = tuple(kind.name for kind in KINDS)  # every kind, human first
LEVELS = tuple(kind.name for kind in KINDS if kind.computer)  # the computer levels

# Makes the strategy of a computer level for a variant (create_player, or a test's fake).
StrategyFactory = Callable[[str, Variant], Strategy]


def player_kind(text: str) -> PlayerKind:
    """The kind called `text` (case-insensitive). Raises ReversiError."""
    kind = _BY_NAME.get(text.strip().lower())
    if kind is None:
        raise ReversiError(f"unknown player {text!r}: choose one of {', '.join(NAMES)}")
    return kind


def label(name: str) -> str:
    """'Hard' for 'hard'."""
    return player_kind(name).label


def seat(name: str, variant: Variant, strategies: StrategyFactory) -> Player:
    """A player of kind `name` for a game of `variant`. Raises ReversiError
    for an unknown kind or a level whose strategy cannot be made. A person
    away from a table (a table's game loaded at home) is played at this keyboard."""
    kind = player_kind(name)
    if not kind.computer:
        return HumanPlayer()
    return ComputerPlayer(strategies(kind.name, variant))
