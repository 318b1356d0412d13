"""The title bar and the status line of the game screen: a message said
until the next key (or, telling whose turn it is, until a move is played),
else advice on what to do now; each in a narrower form where the whole does
not fit. The words are in status.py; this part holds the message and draws."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.content import Content
from textual.widgets import Static

from ...widgets.key_bar import key_for
from . import status

if TYPE_CHECKING:
    from .screen import GameScreen


class StatusLine:
    """The message on the status line, if any, and drawing both lines."""

    def __init__(self, screen: GameScreen) -> None:
        self.screen = screen
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
        spell = self.screen.reversi_app.text
        shorter = status.notice(narrow, spell) if narrow is not None else None
        self.notice = (status.notice(text, spell), shorter, error)
        self._for_this_turn = for_this_turn
        self.show_status()
        if error:
            self.screen.app.bell()

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

    def key_for(self, action: str) -> str | None:
        """The key shown for `action` as bound, where it acts now (for the words)."""
        return key_for(self.screen, action)

    def show_title(self) -> None:
        screen = self.screen
        title = screen.query_one("#title-bar", Static)
        review_ply = screen.review.ply
        ply = screen.match.game.ply if review_ply is None else review_ply
        opening = screen.analysis.opening(ply)
        spell = screen.reversi_app.text
        bar = status.title_bar(screen.match, review_ply, spell, opening, key=self.key_for)
        width = title.content_size.width  # (0 before the first layout)
        # What gives way, in turn, for the bar to fit whole: the app's name (and
        # the banner's longer keys), then the opening's name.
        for shorter in (opening, None):
            if not 0 < width < bar.cell_length:
                break
            bar = status.title_bar(
                screen.match, review_ply, spell, shorter, key=self.key_for, narrow=True
            )
        title.update(bar)
        title.set_class(screen.review.reviewing, "-review")

    def show_status(self) -> None:
        screen = self.screen
        line = screen.query_one("#status", Static)
        if self.notice is not None:
            text, narrow, error = self.notice
            width = line.content_size.width  # (0 before the first layout)
            line.update(narrow if narrow is not None and 0 < width < text.cell_length else text)
            line.set_class(error, "-error")
            # A message too long for the line wraps whole onto a second (or
            # third), above the key bar, rather than end in an ellipsis.
            line.add_class("-message")
        else:
            review_ply = screen.review.ply
            review = None if review_ply is None else screen.analysis.review_line(review_ply)
            line.update(
                review  # the best move from the reviewed position, when analysed
                or status.advice(
                    screen.match,
                    review_ply,
                    paused=screen.referee.paused,
                    spell=screen.reversi_app.text,
                    key=self.key_for,
                    at_table=screen.table.link is not None,
                )
            )
            line.remove_class("-error", "-message")
