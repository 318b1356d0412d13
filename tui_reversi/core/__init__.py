"""Pure Reversi rules: positions, moves, variants, notation, game records, perft.

Imports nothing outside the standard library and this package.
"""

from .ending import REASONS, Ending
from .errors import IllegalMoveError, ReversiError
from .game import Game, move_name, move_numbers, parse_transcript
from .move import PASS, Move
from .perft import perft
from .position import Color, Position
from .squares import parse_square, square_name
from .variants import Result, Variant

__all__ = [
    "PASS",
    "REASONS",
    "Color",
    "Ending",
    "Game",
    "IllegalMoveError",
    "Move",
    "Position",
    "Result",
    "ReversiError",
    "Variant",
    "move_name",
    "move_numbers",
    "parse_square",
    "parse_transcript",
    "perft",
    "square_name",
]
