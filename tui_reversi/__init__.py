"""tui-reversi: Reversi/Othello for the terminal."""

__version__ = "0.1.0"
