"""The players over the core rules. Imports only core; no UI.

Every seat is a `Player` (base.py): `HumanPlayer` (human.py) for the
keyboard, `ComputerPlayer` (computer.py) around a strategy; `kinds.py` is the
registry of kinds. The computer levels' strategies:

from tui_reversi.players import create_player
strategy = create_player("hard", seed=1)
strategy.choose_move(position)  # -> Move.parse('f5'), or Move.null() to pass
"""

from __future__ import annotations

import math

from ..core import Position, ReversiError, Variant
from .alphabeta_player import EXPERT, HARD, AlphaBetaPlayer, analyse_position
from .base import CancelCheck, MoveScore, Player, SearchInfo, Strategy
from .kinds import LEVELS
from .minimax_player import MinimaxPlayer
from .random_player import RandomPlayer


def create_player(
    level: str,
    *,
    variant: Variant | str = Variant.OTHELLO,
    seed: int | None = None,
    time_limit: float | None = None,
    max_depth: int | None = None,
    max_nodes: int | None = None,
    evaluation: str | None = None,
) -> Strategy:
    """The strategy of a computer opponent for `level` (easy, medium, hard, expert).

    `time_limit` overrides the level's default seconds per move (hard 1 s,
    expert 5 s; math.inf for no clock); `seed` makes its choices repeatable.
    `max_depth` (plies) and `max_nodes` bound the search of hard and expert
    (medium takes `max_depth` as its fixed depth): with no clock they make a
    move a pure function of the position. `evaluation` picks what hard and
    expert search with: "trained" (fitted patterns, with the opening book) or
    "handmade"; by default $TUI_REVERSI_EVALUATION, else the trained one
    (the hand-made one when its weights cannot be read). Raises ReversiError for an
    unknown level or evaluation, or a bad limit.
    """
    variant = Variant.parse(variant)
    name = level.strip().lower()
    if time_limit is not None and not (time_limit > 0):
        raise ReversiError(f"a time limit must be a positive number of seconds, not {time_limit}")
    if max_depth is not None and max_depth < 1:
        raise ReversiError(f"a depth limit must be at least 1, not {max_depth}")
    if name == "easy":
        return RandomPlayer(variant, seed)
    if name == "medium":
        return MinimaxPlayer(
            variant,
            seed,
            None if time_limit is None or math.isinf(time_limit) else time_limit,
            **({"depth": max_depth} if max_depth is not None else {}),
        )
    if name in ("hard", "expert"):
        return AlphaBetaPlayer(
            HARD if name == "hard" else EXPERT,
            variant,
            seed,
            time_limit,
            max_depth=max_depth,
            max_nodes=max_nodes,
            evaluation=evaluation,
        )
    raise ReversiError(f"unknown level {level!r}: choose one of {', '.join(LEVELS)}")


def analyse(
    position: Position,
    *,
    variant: Variant | str = Variant.OTHELLO,
    time_limit: float = 1.0,
    cancelled: CancelCheck | None = None,
) -> list[MoveScore]:
    """Every legal move scored for the side to move, best first (the hint).

    The hard engine searches every move in a full window by iterative
    deepening for `time_limit` seconds (or until `cancelled()`), and solves
    exactly when few squares are empty (then `exact` is True and the score is
    the final disc margin). Scores are disc margins from the mover's view.
    Empty when the side to move must pass.
    """
    return analyse_position(position, Variant.parse(variant), time_limit, cancelled)


__all__ = ["LEVELS", "MoveScore", "Player", "SearchInfo", "Strategy", "analyse", "create_player"]
