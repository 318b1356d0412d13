"""What every computer opponent promises: a move for a position, on time,
stoppable, never illegal. None of them touches the UI."""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from ..core import Position, Variant

# Asked every few thousand nodes: True means stop now and answer with the best so far.
CancelCheck = Callable[[], bool]


@dataclass(frozen=True, slots=True)
class SearchInfo:
    """Progress of a search, for a 'thinking' indicator."""

    depth: int  # completed iterative-deepening depth (0 if none yet)
    nodes: int
    best: str | None  # best move so far, as a square name
    score: float | None = None  # from the mover's view; disc margin when exact
    exact: bool = False  # True once the endgame is solved to the end


ProgressCallback = Callable[[SearchInfo], None]


@dataclass(frozen=True, slots=True)
class MoveScore:
    """One legal move and how good the engine thinks it is for the mover."""

    move: str
    score: float
    exact: bool = False


class Player(Protocol):
    """A computer opponent. `level` is 'easy', 'medium', 'hard' or 'expert'."""

    level: str
    variant: Variant
    time_limit: float | None

    def choose_move(
        self,
        position: Position,
        *,
        cancelled: CancelCheck | None = None,
        progress: ProgressCallback | None = None,
    ) -> str | None:
        """The square to play in `position` (e.g. 'f5'), or None to pass.

        Returns within the time limit (plus a small margin), and promptly after
        `cancelled()` becomes true. Never returns an illegal move.
        """
        ...


def event_check(event: threading.Event) -> CancelCheck:
    """A cancel check backed by a threading.Event."""
    return event.is_set
