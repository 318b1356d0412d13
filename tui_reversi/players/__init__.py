"""The players over the core rules. Imports only core; no UI.

Every seat is a `Player` (base.py): `HumanPlayer` (human.py) for the
keyboard, `ComputerPlayer` (computer.py) around a strategy; `kinds.py` is the
registry of kinds. The computer levels' strategies:

from tui_reversi.players import Limit, create_player
strategy = create_player("hard", seed=1)
strategy.choose_move(position, Limit(time=1.0))  # -> Move.parse('f5'), or Move.null() to pass
"""

from __future__ import annotations

from ..core import Position, Variant
from .base import CancelCheck, Limit, MoveScore, Player, SearchInfo, Strategy
from .kinds import LEVELS, create_player
from .values import move_values

HINT = Limit(time=1.0)  # how long the hint searches


def analyse(
    position: Position,
    *,
    variant: Variant | str = Variant.OTHELLO,
    limit: Limit = HINT,
    cancelled: CancelCheck | None = None,
) -> list[MoveScore]:
    """Every legal move scored for the side to move, best first (the hint).

    Each move's score is the value of the position it leads to (values.py:
    the number the review and NBoard show for it), deepening within `limit`
    (or until `cancelled()`), and exact when few squares are empty (then
    `exact` is True and the score is the final disc margin). Scores are disc
    margins from the mover's view. Empty when the side to move must pass.
    """
    return move_values(position, Variant.parse(variant), limit, cancelled)


__all__ = [
    "HINT",
    "LEVELS",
    "Limit",
    "MoveScore",
    "Player",
    "SearchInfo",
    "Strategy",
    "analyse",
    "create_player",
]
