"""Pure Reversi rules: positions, moves, variants, notation, game records, perft.

Imports nothing outside the standard library and this package.
"""

from .errors import IllegalMoveError, ReversiError
from .game import PASS, Game, move_name, parse_transcript
from .perft import perft
from .position import Color, Position
from .squares import parse_square, square_name
from .variants import Result, Variant

__all__ = [
    "PASS",
    "Color",
    "Game",
    "IllegalMoveError",
    "Position",
    "Result",
    "ReversiError",
    "Variant",
    "move_name",
    "parse_square",
    "parse_transcript",
    "perft",
    "square_name",
]
