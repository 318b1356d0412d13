"""tui-reversi: Reversi/Othello for the terminal."""

__version__ = "0.1.0"

# Before any engine module loads: compiled (mypyc) or interpreted.
from .engine.build import choose as _choose_engine

_choose_engine()
