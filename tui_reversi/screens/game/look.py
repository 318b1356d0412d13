"""The look of the game screen: the glyphs (Unicode or ASCII), flips
animated or not, the legal-move markers, and the biggest board the terminal
holds, with the score and the moves beside it or under it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.binding import Binding

from ...widgets.board import BoardView, largest_cell
from ...widgets.glyphs import board_glyphs, glyphs_for
from ...widgets.move_log import MoveLog
from ...widgets.score import ScorePanel

if TYPE_CHECKING:
    from .screen import GameScreen

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


class Look:
    """Applies the look the settings choose, and toggles it."""

    def __init__(self, screen: GameScreen) -> None:
        self.screen = screen

    def apply(self) -> None:
        screen = self.screen
        ascii_ = screen.settings.ascii
        glyphs = glyphs_for(ascii_)
        screen.app.set_class(ascii_, "-ascii")
        # (NO_COLOR: Textual's own reading of it)
        colour = not screen.app.no_color
        screen.query_one(BoardView).glyphs = board_glyphs(ascii_, colour=colour)
        screen.query_one(ScorePanel).glyphs = glyphs
        screen.query_one(MoveLog).glyphs = glyphs
        screen.query_one(BoardView).animate_flips = screen.reversi_app.flips_animated
        self.fit_board()

    def fit_board(self) -> None:
        """The biggest board the screen holds, with the score and moves beside
        it, or under it where that gives a bigger board (a phone held upright)."""
        screen = self.screen
        board = screen.query_one(BoardView)
        width, height = screen.size.width, screen.size.height - CHROME_LINES
        beside = largest_cell(width - SIDE_PANEL_MIN - 2, height, board.glyphs)
        under = largest_cell(width - 1, height - SIDE_PANEL_LINES, board.glyphs)
        stacked = under > beside
        screen.set_class(stacked, "-stacked")
        board.cell = under if stacked else beside

    def toggle_markers(self) -> None:
        screen = self.screen
        screen.reversi_app.change_settings(legal_moves=not screen.settings.legal_moves)
        screen.show()
        screen.say(f"Legal-move markers {'on' if screen.settings.legal_moves else 'off'}.")

    def toggle_ascii(self) -> None:
        screen = self.screen
        screen.reversi_app.change_settings(ascii=not screen.settings.ascii)
        self.apply()
        screen.show()

    def toggle_animation(self) -> None:
        app = self.screen.reversi_app
        app.change_settings(animation=not app.flips_animated)
        self.apply()
        self.screen.say(f"Animation {'on' if app.flips_animated else 'off'}.")
