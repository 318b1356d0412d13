"""Computer opponents over the core rules. Imports only core; no UI.

from tui_reversi.players import create_player
player = create_player("hard", seed=1)
player.choose_move(position)  # -> 'f5', or None to pass
"""

from __future__ import annotations

from ..core import Position, ReversiError, Variant, square_name
from ..core.bitboard import legal_moves
from .base import CancelCheck, MoveScore, Player, SearchInfo
from .random_player import RandomPlayer

LEVELS = ("easy", "medium", "hard", "expert")


def create_player(
    level: str,
    *,
    variant: Variant | str = Variant.OTHELLO,
    seed: int | None = None,
    time_limit: float | None = None,
) -> Player:
    """A computer opponent for `level` (easy, medium, hard, expert).

    `time_limit` overrides the level's default seconds per move; `seed` makes
    its choices repeatable. Raises ReversiError for an unknown level.
    """
    variant = Variant.parse(variant)
    name = level.strip().lower()
    if name == "easy":
        return RandomPlayer(variant, seed)
    if name in LEVELS:
        raise ReversiError(f"the {name} level is not built yet")
    raise ReversiError(f"unknown level {level!r}: choose one of {', '.join(LEVELS)}")


def analyse(
    position: Position,
    *,
    variant: Variant | str = Variant.OTHELLO,
    time_limit: float = 1.0,
    cancelled: CancelCheck | None = None,
) -> list[MoveScore]:
    """Every legal move scored for the side to move, best first (the hint).

    Interim one-ply scoring (fewest replies for the opponent); the hard
    engine's search replaces it.
    """
    scored = []
    for move in position.legal_moves():
        child = position.play(move)
        replies = legal_moves(child.own, child.opp).bit_count()
        scored.append(MoveScore(square_name(move), float(-replies)))
    return sorted(scored, key=lambda s: -s.score)


__all__ = ["LEVELS", "MoveScore", "Player", "SearchInfo", "analyse", "create_player"]
