"""The title bar and the status line of the game screen: a message said
until the next key (or, telling whose turn it is, until a move is played),
else advice on what to do now; each in a narrower form where the whole does
not fit. The words are in status.py; this part holds the message and draws,
from the `Scene` the screen gives it of the moment."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from textual.content import Content
from textual.widgets import Static

from . import status

if TYPE_CHECKING:
    from ...match import Match


class Say(Protocol):
    """A way to say a sentence on the status line (`GameScreen.say`)."""

    def __call__(self, text: str, *, error: bool = False, narrow: str | None = None) -> None: ...


@dataclass(frozen=True, slots=True)
class Scene:
    """What the two lines tell of when nothing is said: the game, the ply
    reviewed (None: the live game), the opening's name, the analysed best move
    from the reviewed position, paused or not, at a server's table or not."""

    match: Match
    review_ply: int | None
    opening: str | None
    review_line: Content | None
    paused: bool
    at_table: bool


class StatusLine:
    """The message on the status line, if any, and drawing both lines."""

    def __init__(
        self,
        lines: Callable[[], tuple[Static, Static]],
        scene: Callable[[], Scene],
        spell: status.Spell,
        key: status.KeyFor,
        bell: Callable[[], None],
    ) -> None:
        self._lines = lines  # the title bar and the status line
        self._scene = scene
        self._spell = spell
        self.key_for = key  # the key shown for an action as bound, where it acts now
        self._bell = bell
        # (text, its shorter form for a narrow status line, is it an error)
        self.notice: tuple[Content, Content | None, bool] | None = None
        self._for_this_turn = False  # the notice goes when the game moves on

    def say(
        self,
        text: str,
        *,
        error: bool = False,
        for_this_turn: bool = False,
        narrow: str | None = None,
    ) -> None:
        """Show a one-line message on the status line until the next key, or
        (`for_this_turn`: it tells of whose turn it is) until a move is played;
        `narrow` instead where `text` does not fit on the line."""
        spell = self._spell
        shorter = status.notice(narrow, spell) if narrow is not None else None
        self.notice = (status.notice(text, spell), shorter, error)
        self._for_this_turn = for_this_turn
        self.show_status()
        if error:
            self._bell()

    def say_nothing(self) -> None:
        """Clear the message: the line gives advice again."""
        self.notice = None
        self.show_status()

    def forget(self) -> None:
        """Drop the message; the next redraw gives advice again."""
        self.notice = None

    def moved(self) -> None:
        """A move was played: a message of whose turn it was is not true any more."""
        if self._for_this_turn:
            self.notice = None

    def show(self) -> None:
        """Draw both lines."""
        self.show_title()
        self.show_status()

    def show_title(self) -> None:
        title = self._lines()[0]
        scene, spell = self._scene(), self._spell
        match, review_ply, opening = scene.match, scene.review_ply, scene.opening
        bar = status.title_bar(match, review_ply, spell, opening, key=self.key_for)
        width = title.content_size.width  # (0 before the first layout)
        # What gives way, in turn, for the bar to fit whole: the app's name (and
        # the banner's longer keys), then the opening's name.
        for shorter in (opening, None):
            if not 0 < width < bar.cell_length:
                break
            bar = status.title_bar(match, review_ply, spell, shorter, key=self.key_for, narrow=True)
        title.update(bar)
        title.set_class(review_ply is not None, "-review")

    def show_status(self) -> None:
        line = self._lines()[1]
        if self.notice is not None:
            text, narrow, error = self.notice
            width = line.content_size.width  # (0 before the first layout)
            line.update(narrow if narrow is not None and 0 < width < text.cell_length else text)
            line.set_class(error, "-error")
            # A message too long for the line wraps whole onto a second (or
            # third), above the key bar, rather than end in an ellipsis.
            line.add_class("-message")
        else:
            scene = self._scene()
            line.update(
                scene.review_line  # the best move from the reviewed position, when analysed
                or status.advice(
                    scene.match,
                    scene.review_ply,
                    paused=scene.paused,
                    spell=self._spell,
                    key=self.key_for,
                    at_table=scene.at_table,
                )
            )
            line.remove_class("-error", "-message")
