"""The game screen and its parts (see screen.py)."""

from .screen import GameScreen

__all__ = ["GameScreen"]
