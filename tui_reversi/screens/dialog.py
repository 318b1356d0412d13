"""What every dialog shares: its own key bar at the bottom, so the keys shown
are the dialog's, not the game's behind it, and `q` quitting as it does on
the game screen (a dialog stops the app's own non-priority keys)."""

from __future__ import annotations

from typing import TypeVar

from textual.binding import Binding
from textual.screen import ModalScreen

from ..widgets.key_bar import KeyBar

Result = TypeVar("Result")


class Dialog(ModalScreen[Result]):
    """A modal screen over the game, with a key bar of its own bindings."""

    # As ctrl+q (shown in the bar); a text box keeps q for typing.
    BINDINGS = [Binding("q", "app.quit", "Quit", show=False)]

    def on_mount(self) -> None:
        # Mounted here rather than composed, so subclasses compose only their dialog.
        self.mount(KeyBar())
