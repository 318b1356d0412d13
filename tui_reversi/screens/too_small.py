"""Shown instead of a broken layout when the terminal is below the minimum size."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.screen import Screen

from ..widgets.literal import Literal

# Below this the layout cannot fit; this notice takes over.
MIN_WIDTH, MIN_HEIGHT = 60, 21


class TooSmallScreen(Screen):
    """Covers everything until the terminal is big enough again.

    The app pushes and pops it on resizes it does not control, also as it
    closes (a hang-up with a resize in flight): then Textual mounts none of
    its widgets, so it keeps its notice itself instead of looking it up."""

    def __init__(self) -> None:
        super().__init__()
        self._notice = Literal(id="too-small")

    def compose(self) -> ComposeResult:
        yield self._notice

    def on_mount(self) -> None:
        self._explain()

    def on_resize(self) -> None:
        self._explain()

    def _explain(self) -> None:
        width, height = self.app.size
        self._notice.update(
            f"Terminal too small: {width}x{height}.\n"
            f"tui-reversi needs at least {MIN_WIDTH}x{MIN_HEIGHT}.\n"
            "Enlarge the window, or press ctrl+q to quit."
        )
