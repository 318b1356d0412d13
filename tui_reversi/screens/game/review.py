"""History review on the game screen: step through the game's past
positions (or pick a move in the log); the board shows them read-only under
a banner. Esc returns to the live game; Enter plays on from the reviewed
position after a confirmation, discarding the later moves. The reviewed ply
is the screen's `review_ply`; these say where a key takes it."""

from __future__ import annotations

from textual.binding import Binding

from ...core import Game

REVIEW_BINDINGS = [
    Binding(
        "comma",
        "review_step(-1)",
        "Review",
        id="review.back",
        key_display=",",
        tooltip="Step back one move (starts reviewing the game)",
    ),
    Binding(
        "full_stop",
        "review_step(1)",
        "Forward",
        id="review.forward",
        key_display=".",
        tooltip="Step forward one move; past the last one returns to the game",
    ),
    Binding(
        "home",
        "review_to(0)",
        "Start",
        id="review.start",
        show=False,
        tooltip="Jump to the start position",
    ),
    Binding(
        "end",
        "review_to(-1)",
        "End",
        id="review.end",
        show=False,
        tooltip="Jump to the last move",
    ),
    Binding(
        "escape",
        "live",
        "Back to game",
        id="review.live",
        key_display="esc",
        tooltip="Stop reviewing: back to the game in progress",
    ),
    Binding(
        "enter",
        "continue_here",
        "Play from here",
        id="review.continue",
        key_display="⏎",
        tooltip="Play on from the reviewed position (asks first: later moves are discarded)",
    ),
]


def stepped(game: Game, shown: int | None, delta: int) -> int | None:
    """The ply to show after stepping `delta` moves from `shown` (None: the live game)."""
    current = game.ply if shown is None else shown
    return to_show(game, max(0, min(game.length, current + delta)))


def jumped(game: Game, ply: int) -> int | None:
    """The ply to show for a jump to `ply`; a negative one means the last move."""
    return to_show(game, game.length if ply < 0 else ply)


def to_show(game: Game, ply: int) -> int | None:
    """`ply`, or None where that is the live game (its last position, nothing undone)."""
    return None if ply == game.ply and game.at_end else ply


def continue_question(game: Game, ply: int) -> str | None:
    """The question before playing on from `ply`; None: no later move would go."""
    later = game.move_number(game.length) - game.move_number(ply)
    if not later:
        return None
    moves = "move" if later == 1 else "moves"
    if ply == 0:
        return f"Play on from the start? All {later} {moves} will be discarded."
    number = game.move_number(ply)
    return f"Play on from move {number}? The {later} later {moves} will be discarded."
