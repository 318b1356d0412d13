"""What every dialog shares: its own key bar at the bottom, so the keys shown
are the dialog's, not the game's behind it, and an answer given once."""

from __future__ import annotations

from typing import TypeVar

from textual.await_complete import AwaitComplete
from textual.screen import ModalScreen, Screen

from ..widgets.key_bar import KeyBar

Result = TypeVar("Result")


class AnswersOnce(Screen[Result]):
    """A screen dismissed at most once, and only while it is the screen in front.

    Keys typed ahead (Enter twice) may ask it again after it has gone, or
    while another screen is in front of it: Textual would then pop the wrong
    screen, or the last one (ScreenStackError). Those requests are ignored."""

    _answered = False

    def dismiss(self, result: Result | None = None) -> AwaitComplete:
        if self._answered or not self._in_front():
            return AwaitComplete.nothing()
        self._answered = True
        return super().dismiss(result)

    def _in_front(self) -> bool:
        from textual.app import ScreenStackError

        try:
            return self.app.screen is self
        except ScreenStackError:  # the app is closing
            return False


class Dialog(ModalScreen[Result], AnswersOnce[Result]):
    """A modal screen over the game, with a key bar of its own bindings."""

    def on_mount(self) -> None:
        # Mounted here rather than composed, so subclasses compose only their dialog.
        self.mount(KeyBar())
