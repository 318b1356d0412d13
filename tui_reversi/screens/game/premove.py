"""The premove: a square typed (or clicked) while the computer, or the
person across a server's table, is to move is kept, marked on the board,
and played the moment it is this keyboard's turn if it is legal then; if
not, it is dropped with one sentence. Esc clears it. At a table the move
goes to the server as soon as the turn comes, so the clock charges it
next to nothing."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.binding import Binding

from ...core import Move

if TYPE_CHECKING:
    from .screen import GameScreen

PREMOVE_BINDINGS = [
    Binding(
        "escape",
        "clear_premove",
        "Clear premove",
        id="game.clear_premove",
        key_display="esc",
        tooltip="Forget the move typed ahead while the other side was to move",
    ),
]


class Premove:
    """The move typed ahead, if any, and playing it when the turn comes."""

    def __init__(self, screen: GameScreen) -> None:
        self.screen = screen
        self.move: Move | None = None

    @property
    def square(self) -> int | None:
        """The square marked on the board, or None."""
        return self.move.square if self.move is not None else None

    def keep(self, move: Move) -> bool:
        """Keep `move` for this keyboard's next turn; False when there is no
        such turn to wait for (the game is over, or nobody plays here)."""
        screen = self.screen
        referee, match = screen.referee, screen.match
        if match.is_over or not referee.plays_here or referee.local_to_move:
            return False
        if match.position.color_at(move.square) is not None:  # it never becomes legal
            screen.say(f"{move} is occupied.", error=True)
            return True
        self.move = move
        screen.say(
            f"Premove {move}: played on your turn if legal; esc clears it.",
            for_this_turn=True,  # (gone once the other side has moved)
        )
        screen.show()
        screen.refresh_bindings()
        return True

    def clear(self) -> None:
        """Forget the premove (esc, a takeback, another game)."""
        if self.move is None:
            return
        self.move = None
        self.screen.show()
        self.screen.refresh_bindings()

    def cleared_by_key(self) -> None:
        """Esc: forget the premove, and say so if there was one."""
        move = self.move
        self.clear()
        if move is not None:
            self.screen.say(f"The premove {move} is cleared.")

    def turn_came(self) -> None:
        """This keyboard is asked to move: play the premove, or say why not."""
        move, screen = self.move, self.screen
        if move is None or not screen.referee.local_to_move:
            return
        self.move = None
        reason = screen.match.position.illegal_reason(move.square)
        if reason is not None:
            screen.say(f"The premove {move} was dropped: it {reason} now.", error=True)
            screen.show()
            screen.refresh_bindings()
        elif not screen.referee.submit(move):
            screen.show()
            screen.refresh_bindings()
