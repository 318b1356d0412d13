"""The look of the game screen: the glyphs (Unicode or ASCII), flips
animated or not, the legal-move markers, and the biggest board the terminal
holds, with the score and the moves beside it or under it. The screen
applies them (`GameScreen.apply_look`); the settings hold the choice."""

from __future__ import annotations

from textual.binding import Binding

from ...widgets.board import largest_cell
from ...widgets.glyphs import Glyphs

LOOK_BINDINGS = [
    Binding(
        "m",
        "markers",
        "Markers",
        id="game.markers",
        tooltip="Show or hide the dots on the squares you may play",
    ),
]

# The palette's commands for the look (no key of their own), (action, title, help).
LOOK_COMMANDS = (
    ("ascii", "Toggle ASCII board", "X/O/. instead of Unicode discs"),
    ("animation", "Toggle animation", "Turn flipped discs over visibly, or not"),
)

SIDE_PANEL_MIN = 24  # columns the score panel and the move log need beside the board
CHROME_LINES = 3  # title bar, status line, footer
SIDE_PANEL_LINES = 12  # lines the score panel and the move log need under the board


def fitted_board(width: int, height: int, glyphs: Glyphs) -> tuple[bool, tuple[int, int]]:
    """The biggest board a screen of `width` x `height` holds, with the score and
    moves beside it, or under it where that gives a bigger board (a phone held
    upright): (under it, the board's cell size)."""
    height -= CHROME_LINES
    beside = largest_cell(width - SIDE_PANEL_MIN - 2, height, glyphs)
    under = largest_cell(width - 1, height - SIDE_PANEL_LINES, glyphs)
    stacked = under > beside
    return stacked, under if stacked else beside
