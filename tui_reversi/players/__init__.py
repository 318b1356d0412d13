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
from .alphabeta_player import analyse_position
from .base import CancelCheck, Limit, MoveScore, Player, SearchInfo, Strategy
from .kinds import LEVELS, create_player

HINT = Limit(time=1.0)  # how long the hint searches


def analyse(
    position: Position,
    *,
    variant: Variant | str = Variant.OTHELLO,
    limit: Limit = HINT,
    cancelled: CancelCheck | None = None,
) -> list[MoveScore]:
    """Every legal move scored for the side to move, best first (the hint).

    The hard engine searches every move in a full window by iterative
    deepening within `limit` (or until `cancelled()`), and solves exactly
    when few squares are empty (then `exact` is True and the score is the
    final disc margin). Scores are disc margins from the mover's view.
    Empty when the side to move must pass.
    """
    return analyse_position(position, Variant.parse(variant), limit, cancelled)


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
