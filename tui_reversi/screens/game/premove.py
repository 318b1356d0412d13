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
    from ...match import Referee

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


def waits_for_turn(referee: Referee) -> bool:
    """Whether a move typed now waits for this keyboard's next turn: False when
    there is no such turn to wait for (the game is over, nobody plays here) or
    the turn is here already."""
    return not (referee.match.is_over or not referee.plays_here or referee.local_to_move)


def refusal(referee: Referee, move: Move) -> str | None:
    """Why `move` cannot be kept for later, if so (a square taken never becomes legal)."""
    if referee.match.position.color_at(move.square) is not None:
        return f"{move} is occupied."
    return None


def kept_sentence(move: Move) -> str:
    """What the status line says of a move kept for later."""
    return f"Premove {move}: played on your turn if legal; esc clears it."


def dropped(referee: Referee, move: Move) -> str | None:
    """This keyboard's turn came: why the premove `move` is not played, if so."""
    reason = referee.match.position.illegal_reason(move.square)
    return f"The premove {move} was dropped: it {reason} now." if reason is not None else None
