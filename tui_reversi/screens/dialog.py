"""What every dialog shares: its own key bar at the bottom, so the keys shown
are the dialog's, not the game's behind it, `q` quitting as it does on
the game screen (a dialog stops the app's own non-priority keys), and an
answer given once."""

from __future__ import annotations

import functools
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
# Esc's action runs, or its dialog goes, at once however busy the machine; this is
# only so that a dialog that never answers Esc keeps no key from the player for long.
ESC_WAIT_LIMIT = 5.0  # seconds


class KeysForDialogs:
    """Keys typed right after the one that opens or closes a dialog wait for it.

    Keys that arrive together (a fast typist, a paste, a slow SSH link) are
    handed to the focused widget before the first one has done its work: so
    `o`, `i`, a path and Enter left the import box empty while the path's
    letters and digits played on the board, and a square typed right after
    the Esc that closes a dialog went to the dialog's widgets (gone with it)
    rather than to the board. The app gives every key from the terminal to
    `held()` first; the keys behind one bound to a dialog-opening action are
    held until a new screen is up (mounted, its focus asked for), and those
    behind Esc on a dialog until its action has run (`acted`): then they are
    sent again in order, to the screen the player sees.

    Only Esc, the key that backs out of every dialog, sends what follows it
    to the screen below: the keys that answer one (Enter, y) are often
    pressed twice, and the second stays with the dialog it answered
    (AnswersOnce), never a move on the board behind it.
    """

    def __init__(self, app: App) -> None:
        self.app = app
        self._held: list[events.Key] = []
        self._below: list[Screen] | None = None  # the screens before the dialog opening
        self._acting: Screen | None = None  # the dialog whose key's action is awaited
        self._since = 0.0
        self._round = 0  # which wait a timer's check is for (one may end before it runs)

    def held(self, event: events.Key) -> bool:
        """True when `event` waits for a dialog (the app must not pass it on)."""
        active = self.app.screen.active_bindings.get(event.key)
        if active is not None and active.binding.priority:
            return False  # ctrl+q and the like act at once, dialog or not
        if self._below is not None or self._acting is not None:
            self._held.append(event)
            return True
        if active is None or not active.enabled:
            return False
        action = active.binding.action.split("(")[0].rsplit(".", 1)[-1]
        if action in OPENS_A_DIALOG or self._quits(action):
            self._below = list(self.app.screen_stack)
            self._wait()
        elif event.key == "escape" and isinstance(self.app.screen, Dialog):
            self._acting = self.app.screen
            self._wait()
        return False

    def acted(self) -> None:
        """An action has run: the keys waiting behind the Esc bound to it go on,
        to whatever is in front now."""
        if self._acting is not None:
            self._release()

    def _quits(self, action: str) -> bool:
        # The keys behind a quit wait too, and go with the app: a square typed
        # with it reached the board before the quit did, and was played.
        # Not in a text box, which takes q as a letter.
        return action == "quit" and not isinstance(self.app.focused, Input)

    def state(self) -> str:
        """For a hang's diagnosis: whether keys are waiting, and for how long."""
        if self._below is None and self._acting is None:
            return "none held"
        waited = time.monotonic() - self._since
        return f"{len(self._held)} held for a dialog, for {waited:.1f} s"

    def _wait(self) -> None:
        self._since = time.monotonic()
        self._round += 1
        self.app.set_timer(0.01, functools.partial(self._check, self._round))

    def _check(self, round_: int) -> None:
        if round_ != self._round or (self._below is None and self._acting is None):
            return  # that wait is over already (acted)
        if not self.app.screen_stack:  # the app is closing: no screen to give the keys to
            self._held, self._below, self._acting = [], None, None
            return
        screen = self.app.screen
        if self._below is not None:
            done, limit = screen not in self._below and screen.is_mounted, WAIT_LIMIT
        else:
            done, limit = screen is not self._acting, ESC_WAIT_LIMIT
        if done or time.monotonic() - self._since > limit:
            self._release()
        else:
            self.app.set_timer(0.01, functools.partial(self._check, round_))

    def _release(self) -> None:
        # Posted after the new screen's own focus request: they reach its box.
        held, self._held, self._below, self._acting = self._held, [], None, None
        for key in held:
            self.app.post_message(events.Key(key.key, key.character))
