"""The named Othello openings, recognised in any of the board's orientations.

Every line is written as Black opening on f5; a game that opens on d3, c4 or
e6 is the same game seen in a mirror, so it is matched after turning the
board by one of the four symmetries that keep the Othello start in place.
The name shown is that of the longest line the game follows.

    opening_name(game.moves)  # 'Tiger' for f5 d6 c3 d3 c4 (or c4 e3 f6 e6 f5 ...)
"""

from __future__ import annotations

from dataclasses import dataclass

from .game import Game
from .squares import parse_square
from .variants import Variant

# (moves as Black opening on f5, name). Legal and distinct, as tests check.
OPENINGS: tuple[tuple[str, str], ...] = (
    ("f5f6", "Diagonal Opening"),
    ("f5f6e6f4g7", "X-square Opening"),
    ("f5f6e6f4g6", "Snake/Peasant"),
    ("f5f6e6f4g6c5g4g5f3e3c4", "Pyramid/Checkerboarding Peasant"),
    ("f5f6e6f4g5", "Heath/Tobidashi"),
    ("f5f6e6f4g5e7f7c6e3f3c4d3c2", "Mimura Variation II"),
    ("f5f6e6f4g5e7e3", "Heath-Bat"),
    ("f5f6e6f4g5e7d7", "Iwasaki Variation"),
    ("f5f6e6f4g5d6", "Heath-Chimney"),
    ("f5f6e6f4g4", "Raccoon Dog"),
    ("f5f6e6f4g3", "Rocket"),
    ("f5f6e6f4g3f3g4", "Hamilton"),
    ("f5f6e6f4g3d6", "Lollipop"),
    ("f5f6e6f4e3", "Cow"),
    ("f5f6e6f4e3d6", "Chimney"),
    ("f5f6e6f4e3c5g5", "Cow Bat/Bat/Cambridge"),
    ("f5f6e6f4e3c5g5g3g4f3g6", "Bat (Piau Continuation 2)"),
    ("f5f6e6f4e3c5g5g3g4f3c4", "Melnikov/Bat (Piau Continuation 1)"),
    ("f5f6e6f4e3c5g5f3g4g6g3d6f7h5h4h3e7", "Bat (Kling Continuation)"),
    ("f5f6e6f4e3c5g5d6g6", "Bat (Kling Alternative)"),
    ("f5f6e6f4e3c5c4", "Rose-v-Toth"),
    ("f5f6e6f4e3c5c4e7", "Tanida"),
    ("f5f6e6f4e3c5c4e7g4", "Aircraft/Feldborg"),
    ("f5f6e6f4e3c5c4e7b5e2", "Sailboat"),
    ("f5f6e6f4e3c5c4d3f3e2", "Maruoka"),
    ("f5f6e6f4e3c5c4d3c3", "Tamenori"),
    ("f5f6e6f4c3", "Buffalo/Kenichi Variation"),
    ("f5f6e6f4c3d7f3", "Maruoka Buffalo"),
    ("f5f6e6f4c3d6f3c4c5b4", "Tanida Buffalo"),
    ("f5f6e6f4c3c4", "Hokuriku Buffalo"),
    ("f5f6d3f4", "Wing Variation"),
    ("f5f6c4f4", "Semi-Wing Variation"),
    ("f5f4", "Parallel Opening"),
    ("f5d6", "Perpendicular Opening"),
    ("f5d6c5f4e3d3", "Mimura"),
    ("f5d6c5f4e3c6f3", "Shaman/Danish"),
    ("f5d6c5f4e3c6e6", "Inoue"),
    ("f5d6c5f4e3c6e6f6", "Iago"),
    ("f5d6c5f4e3c6d7", "Bhagat"),
    ("f5d6c5f4e3c6d3f6e6d7", "Rose"),
    ("f5d6c5f4e3c6d3f6e6d7g4", "Flat"),
    ("f5d6c5f4e3c6d3f6e6d7g4c4", "Rotating Flat"),
    ("f5d6c5f4e3c6d3f6e6d7g4c4g6", "Murakami Variation"),
    ("f5d6c5f4e3c6d3f6e6d7g3c4", "Rose-birdie/Rose-Tamenori"),
    ("f5d6c5f4e3c6d3f6e6d7e7", "Greenland"),
    ("f5d6c5f4e3c6d3f3", "Germany"),
    ("f5d6c5f4d3", "Comp'Oth"),
    ("f5d6c4g5", "No-Kung"),
    ("f5d6c4g5c6", "Lightning Bolt"),
    ("f5d6c3d3c4", "Tiger"),
    ("f5d6c3d3c4f4f6", "Stephenson"),
    ("f5d6c3d3c4f4c5b3c2", "Brightwell"),
    ("f5d6c3d3c4b3", "Aubrey/Tanaka"),
)


def _turn(square: int, symmetry: int) -> int:
    """`square` under one of the four symmetries that keep the start in place:
    0 none, 1 half a turn, 2 the a1-h8 diagonal, 3 the h1-a8 diagonal."""
    row, col = divmod(square, 8)
    if symmetry == 1:
        row, col = 7 - row, 7 - col
    elif symmetry == 2:
        row, col = col, row
    elif symmetry == 3:
        row, col = 7 - col, 7 - row
    return row * 8 + col


def _squares(line: str) -> tuple[int, ...]:
    return tuple(parse_square(line[i : i + 2]) for i in range(0, len(line), 2))


# Every orientation of every line, keyed by its moves, for one lookup per prefix.
_BY_MOVES: dict[tuple[int, ...], str] = {
    tuple(_turn(sq, symmetry) for sq in _squares(line)): name
    for line, name in OPENINGS
    for symmetry in range(4)
}
LONGEST = max(len(line) // 2 for line, _ in OPENINGS)


@dataclass(frozen=True, slots=True)
class Opening:
    """A named opening a game follows, and how many of its moves it spans."""

    name: str
    plies: int


def opening(moves: list[int] | tuple[int, ...]) -> Opening | None:
    """The longest named opening that `moves` (square indices from the
    Othello start, passes as negative numbers) begins with, if any."""
    for length in range(min(len(moves), LONGEST), 1, -1):
        name = _BY_MOVES.get(tuple(moves[:length]))
        if name is not None:
            return Opening(name, length)
    return None


def opening_name(moves: list[int] | tuple[int, ...]) -> str | None:
    """The name of `opening(moves)`, or None."""
    found = opening(moves)
    return found.name if found is not None else None


def game_opening(game: Game, upto: int | None = None) -> Opening | None:
    """The named opening of an Othello game from the usual start (its moves
    before ply `upto`, default all); None for other variants and starts,
    where the names mean nothing."""
    if game.variant is not Variant.OTHELLO or game.start != Variant.OTHELLO.start():
        return None
    return opening(game.moves if upto is None else game.moves[:upto])
