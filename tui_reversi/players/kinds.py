"""The one registry of player kinds: who can sit at a colour.

Everything that names a player (the command line, settings, saved games,
dialogs) reads this table, and so does everything that makes a computer
level (`create_player`, `seat`): a kind's row holds its name, how it is
shown, how its strategy is made and how long it thinks about a move. A new
kind of player plugs in by adding a row.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ..core import ReversiError, Variant
from .alphabeta_player import EXPERT, HARD, AlphaBetaPlayer, Level
from .base import Limit, Player, Strategy
from .computer import ComputerPlayer
from .human import HumanPlayer
from .minimax_player import MinimaxPlayer
from .random_player import RandomPlayer

# Makes a computer level's strategy: (variant, seed, evaluation) -> Strategy.
# The seed makes its choices repeatable; the evaluation ("trained" or
# "handmade", None for the default) is what hard and expert search with.
MakeStrategy = Callable[[Variant, int | None, str | None], Strategy]
NO_LIMIT = Limit()  # easy answers at once; medium's depth is its own


def _searching(level: Level) -> MakeStrategy:
    """Hard's or expert's strategy: the alpha-beta engine at `level`."""
    return lambda variant, seed, evaluation: AlphaBetaPlayer(
        level, variant, seed, evaluation=evaluation
    )


@dataclass(frozen=True, slots=True)
class PlayerKind:
    name: str  # as written in settings, saved games and on the command line
    label: str  # as shown: 'Human', 'Easy', ...
    description: str  # one line for the dialogs
    strategy: MakeStrategy | None = None  # a computer level's; None: a person plays
    limit: Limit = NO_LIMIT  # how far a computer level thinks about a move

    @property
    def computer(self) -> bool:
        return self.strategy is not None


HUMAN = "human"
# A person at another terminal, seated by the server at a table (net.remote).
PERSON = "person"

KINDS = (
    PlayerKind(HUMAN, "Human", "you (or a friend) at the keyboard"),
    PlayerKind(
        "easy",
        "Easy",
        "random legal moves, like a beginner",
        lambda variant, seed, evaluation: RandomPlayer(variant, seed),
    ),
    PlayerKind(
        "medium",
        "Medium",
        "looks a few moves ahead, a casual player",
        lambda variant, seed, evaluation: MinimaxPlayer(variant, seed),
    ),
    PlayerKind(
        "hard",
        "Hard",
        "a strong engine that answers within about a second",
        _searching(HARD),
        Limit(time=1.0),
    ),
    PlayerKind(
        "expert",
        "Expert",
        "the strongest engine, with a longer think",
        _searching(EXPERT),
        Limit(time=5.0),
    ),
)
# Never chosen in a dialog or on the command line: only a server's table seats one.
PERSON_KIND = PlayerKind(PERSON, "Person", "a person at another terminal")
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


def create_player(
    level: str,
    *,
    variant: Variant | str = Variant.OTHELLO,
    seed: int | None = None,
    evaluation: str | None = None,
) -> Strategy:
    """The strategy of the computer `level` (easy, medium, hard, expert);
    ask it with a Limit per move (the level's own is `player_kind(level).limit`).

    `seed` makes its choices repeatable. `evaluation` picks what hard and
    expert search with: "trained" (fitted patterns, with the opening book)
    or "handmade"; by default $TUI_REVERSI_EVALUATION, else the trained one
    (the hand-made one when its weights cannot be read). Raises ReversiError
    for an unknown level or evaluation.
    """
    kind = _BY_NAME.get(level.strip().lower())
    if kind is None or kind.strategy is None:
        raise ReversiError(f"unknown level {level!r}: choose one of {', '.join(LEVELS)}")
    return kind.strategy(Variant.parse(variant), seed, evaluation)


def seat(
    name: str, variant: Variant, strategies: StrategyFactory, limit: Limit | None = None
) -> Player:
    """A player of kind `name` for a game of `variant`, a computer level
    thinking within `limit` (default: its own). Raises ReversiError for an
    unknown kind or a level whose strategy cannot be made. A person away
    from a table (a table's game loaded at home) is played at this keyboard."""
    kind = player_kind(name)
    if not kind.computer:
        return HumanPlayer()
    return ComputerPlayer(strategies(kind.name, variant), kind.limit if limit is None else limit)
