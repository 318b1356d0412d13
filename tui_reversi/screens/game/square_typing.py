"""A square typed with the focus anywhere on the game screen: the move log
focused (Tab, or a click on the Moves panel) or nothing focused, a column
letter then a row digit still plays (or premoves) the square. The board
reads the keys (`BoardView.type_key`) whichever part has the focus.

In the move log `h` is also "previous move": it steps the review back at
once, and a row digit after it first returns to the position shown before,
then plays h<digit>, as the board puts back its cursor after an `h`."""

from __future__ import annotations

from collections.abc import Callable

from textual import events

from ...widgets.board import BoardView

H_COLUMN = 7


class SquareTyping:
    """Hands the board the keys typed while something else has the focus."""

    def __init__(
        self,
        board: Callable[[], BoardView],
        shown: Callable[[], int | None],
        return_to: Callable[[int | None], None],
    ) -> None:
        self._board = board
        self._shown = shown  # the reviewed ply (None: the live game)
        self._return_to = return_to  # back to one, as it was before a key moved it
        # The reviewed ply (None: the live game) before an `h` the log may
        # have taken as "previous move"; a 1-tuple, as None is a ply too.
        self._shown_before_h: tuple[int | None] | None = None

    def key(self, event: events.Key) -> bool:
        """A key that reached the screen: True when it was part of a typed
        square (the board took it), so that nothing is to be said of it."""
        board = self._board()
        if board.has_focus:  # (it read the key itself, before the screen)
            return False
        shown_before_h, self._shown_before_h = self._shown_before_h, None
        character = event.character or ""
        if character == "h":
            self._shown_before_h = (self._shown(),)
        elif (
            shown_before_h is not None
            and len(character) == 1
            and character in "12345678"
            and board.typed_column == H_COLUMN
        ):
            self._return_to(shown_before_h[0])
        return board.type_key(event)
