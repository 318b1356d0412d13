"""What every dialog shares: its own key bar at the bottom, so the keys shown
are the dialog's, not the game's behind it, `q` quitting as it does on
the game screen (a dialog stops the app's own non-priority keys), and an
answer given once."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, TypeVar, cast

from textual import events
from textual.await_complete import AwaitComplete
from textual.binding import Binding
from textual.screen import ModalScreen, Screen
from textual.widgets import Input

from ..widgets.key_bar import KeyBar

if TYPE_CHECKING:
    from textual.app import App

    from .game_app import GameApp

Result = TypeVar("Result")


class AnswersOnce(Screen[Result]):
    """A screen dismissed at most once, and only while it is the screen in front.

    Keys typed ahead (Enter twice) may ask it again after it has gone, or
    while another screen is in front of it: Textual would then pop the wrong
    screen, or the last one (ScreenStackError). Those requests are ignored.
    One that comes before the screen is mounted waits until it is."""

    _answered = False

    def dismiss(self, result: Result | None = None) -> AwaitComplete:
        if self._answered or not self._in_front():
            return AwaitComplete.nothing()
        if not self.is_mounted:
            # Answered before it was set up (a key typed ahead of a dialog the
            # server opened): its on_mount looks for widgets a dismissed screen
            # no longer has, so it answers once that has run.
            self.call_after_refresh(self._dismiss_when_mounted, result)
            return AwaitComplete.nothing()
        self._answered = True
        return super().dismiss(result)

    def _dismiss_when_mounted(self, result: Result | None) -> None:
        # Not awaited (so not returned): a screen awaiting its own removal never ends.
        self.dismiss(result)

    def _in_front(self) -> bool:
        from textual.app import ScreenStackError

        try:
            return self.app.screen is self
        except ScreenStackError:  # the app is closing
            return False


class Dialog(ModalScreen[Result], AnswersOnce[Result]):
    """A modal screen over the game, with a key bar of its own bindings."""

    # As ctrl+q (shown in the bar); a text box keeps q for typing. A modal
    # screen keeps the app's keys from it, so F1 (help, at this dialog's keys)
    # is asked for here; ? stays a character in the text boxes.
    BINDINGS = [
        Binding("q", "app.quit", "Quit", show=False),
        Binding("f1", "app.help", "Help", show=False),
    ]

    def terminal_text(self, text: str) -> str:
        """`text` as the terminal should get it (the app's ASCII mode spells symbols out)."""
        return cast("GameApp", self.app).text(text)

    def on_mount(self) -> None:
        # Mounted here rather than composed, so subclasses compose only their dialog.
        if self.is_attached:  # not when closed by a key typed before this ran
            self.mount(KeyBar())


# Actions that open a dialog (on the game screen, in the saved-games list, in
# review, anywhere): the keys typed after one of them belong to that dialog.
OPENS_A_DIALOG = frozenset(
    {
        "new_game",
        "lobby",
        "save_game",
        "open_games",
        "export",
        "settings",
        "help",
        "import",
        "delete",
        "continue_here",
    }
)
# If no dialog has come by then (the action opened none), the keys go on as typed.
WAIT_LIMIT = 1.0  # seconds


class KeysForDialogs:
    """Keys typed right after the one that opens a dialog wait for it.

    Keys that arrive together (a fast typist, a paste, a slow SSH link) are
    handed to the focused widget before the first one has done its work, so
    `o`, `i`, a path and Enter left the import box empty while the path's
    letters and digits played on the board. The app gives every key from the
    terminal to `held()` first; after a key bound to a dialog-opening action,
    the keys behind it are held until a new screen is up (mounted, its focus
    asked for), then sent again in order.
    """

    def __init__(self, app: App) -> None:
        self.app = app
        self._held: list[events.Key] = []
        self._below: list[Screen] | None = None  # the screens before the dialog
        self._since = 0.0

    def held(self, event: events.Key) -> bool:
        """True when `event` waits for a dialog (the app must not pass it on)."""
        active = self.app.screen.active_bindings.get(event.key)
        if active is not None and active.binding.priority:
            return False  # ctrl+q and the like act at once, dialog or not
        if self._below is not None:
            self._held.append(event)
            return True
        if active is not None and active.enabled:
            action = active.binding.action.split("(")[0].rsplit(".", 1)[-1]
            if action in OPENS_A_DIALOG or self._quits(action):
                self._below = list(self.app.screen_stack)
                self._since = time.monotonic()
                self.app.set_timer(0.01, self._check)
        return False

    def _quits(self, action: str) -> bool:
        # The keys behind a quit wait too, and go with the app: a square typed
        # with it reached the board before the quit did, and was played.
        # Not in a text box, which takes q as a letter.
        return action == "quit" and not isinstance(self.app.focused, Input)

    def state(self) -> str:
        """For a hang's diagnosis: whether keys are waiting, and for how long."""
        if self._below is None:
            return "none held"
        waited = time.monotonic() - self._since
        return f"{len(self._held)} held for a dialog, for {waited:.1f} s"

    def _check(self) -> None:
        if not self.app.screen_stack:  # the app is closing: no screen to give the keys to
            self._held, self._below = [], None
            return
        screen = self.app.screen
        opened = screen not in (self._below or ()) and screen.is_mounted
        if opened or time.monotonic() - self._since > WAIT_LIMIT:
            # Posted after the new screen's own focus request: they reach its box.
            held, self._held, self._below = self._held, [], None
            for key in held:
                self.app.post_message(events.Key(key.key, key.character))
        else:
            self.app.set_timer(0.01, self._check)
