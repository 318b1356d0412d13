"""A table handed from a node that drains to another (hall/table_handover.py): its
game in the `handed` message, as the store keeps it, so that the node it goes to
seats its players at once, before any other message of theirs is read (reading it
back from the store would let a player's `sit` overtake it).
"""

from __future__ import annotations

from typing import Any

from .archive import read_unfinished
from .store import UnfinishedGame


def handed_row(kept: UnfinishedGame) -> list[Any]:
    """`kept` as a message carries it: the store's columns code, variant, black,
    white, moves, clock, black_left, white_left, adjourned, started."""
    clock = str(kept.time_control) if kept.time_control is not None else None
    return [
        kept.code,
        kept.game.variant.value,
        *kept.names,
        kept.game.transcript(),
        clock,
        *kept.left,
        kept.adjourned,
        kept.started.isoformat(),
    ]


def handed_game(row: Any) -> UnfinishedGame | None:
    """The game a `handed` message carries; None if it cannot be read."""
    if not isinstance(row, list) or len(row) != 10:
        return None
    games, _ = read_unfinished([row])
    return games[0] if games else None
