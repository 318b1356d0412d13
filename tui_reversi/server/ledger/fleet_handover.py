"""A table handed from a node that drains to another (hall/table_handover.py): its
game in the `Handed` message, as the store keeps it, so that the node it goes to
seats its players at once, before any other message of theirs is read (reading it
back from the store would let a player's `sit` overtake it).
"""

from __future__ import annotations

from .archive import read_unfinished
from .fleet_messages import Handed
from .store import UnfinishedGame


def handed(kept: UnfinishedGame) -> Handed:
    """The message that carries `kept` to the node it is handed to."""
    clock = str(kept.time_control) if kept.time_control is not None else ""
    black_left, white_left = (round(left * 1000) for left in kept.left)
    black, white = kept.names
    variant, moves = kept.game.variant.value, kept.game.transcript()
    started = kept.started.isoformat()
    return Handed(kept.code, variant, black, white, moves, clock, black_left, white_left, started)


def handed_game(message: Handed) -> UnfinishedGame | None:
    """The game a `Handed` message carries, adjourned; None if it cannot be read."""
    left = (message.black_left / 1000, message.white_left / 1000)
    row = (message.code, message.variant, message.black, message.white, message.moves)
    clock = message.clock or None
    games, _ = read_unfinished([(*row, clock, *left, True, message.started)])
    return games[0] if games else None
