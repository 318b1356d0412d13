"""The look of the game screen: the glyphs (Unicode or ASCII), flips
animated or not, the legal-move markers, and the biggest board the terminal
holds, with the score and the moves beside it or under it, as the
settings choose them."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, cast

from textual.app import App
from textual.binding import Binding
from textual.geometry import Size

from ...widgets.board import BoardView, largest_cell
from ...widgets.glyphs import Glyphs, board_glyphs, glyphs_for
from ...widgets.move_log import MoveLog
from ...widgets.score import ScorePanel

if TYPE_CHECKING:
    from ..game_app import GameApp

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


class Look:
    """Applies the look the settings choose to the game screen's widgets."""

    def __init__(
        self,
        app: App[Any],
        widgets: Callable[[], tuple[BoardView, ScorePanel, MoveLog]],
        *,
        size: Callable[[], Size],
        stacked: Callable[[bool], object],
    ) -> None:
        self._app = app
        self._widgets = widgets
        self._size = size  # of the screen
        self._stacked = stacked  # the score and the moves go under the board, or not

    def apply(self) -> None:
        """Glyphs, animation, the board's size."""
        app = cast("GameApp", self._app)
        ascii_ = app.settings.ascii
        glyphs = glyphs_for(ascii_)
        self._app.set_class(ascii_, "-ascii")
        board, score, log = self._widgets()
        # (NO_COLOR: Textual's own reading of it)
        board.glyphs = board_glyphs(ascii_, colour=not self._app.no_color)
        score.glyphs = glyphs
        log.glyphs = glyphs
        board.animate_flips = app.flips_animated
        self.fit_board()

    def fit_board(self) -> None:
        """The biggest board the screen holds (see `fitted_board`)."""
        board = self._widgets()[0]
        size = self._size()
        stacked, cell = fitted_board(size.width, size.height, board.glyphs)
        self._stacked(stacked)
        board.cell = cell
