"""A table's phase, and the only ways it changes.

A table is open (a seat free), playing, held (a dropped player's seat waits
for them a while: the game goes on for whoever is there), adjourned (the game
waits, clocks stopped and kept, until both players sit down again) or ended
(a rematch plays it again). The hall's `Table` keeps its phase as it changes
(hall/table.py); a change `NEXT` does not list is a bug, and raises. The
lobby and the fleet's views list a table in its `listed` phase, where a held
table is playing. docs/developing.md draws it.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import Enum, StrEnum
from typing import TypeVar

from ...core import ReversiError

State = TypeVar("State", bound=Enum)


class Phase(StrEnum):
    """Where a table's game is in its life."""

    OPEN = "open"
    PLAYING = "playing"
    HELD = "held"
    ADJOURNED = "adjourned"
    ENDED = "ended"

    @property
    def listed(self) -> Phase:
        """The phase the lobby lists a table in: a held table's game goes on."""
        return Phase.PLAYING if self is Phase.HELD else self

    @property
    def in_play(self) -> bool:
        """True while its game goes on: both seats taken, neither adjourned nor over."""
        return self in (Phase.PLAYING, Phase.HELD)

    @property
    def waits(self) -> bool:
        """True while a seat at it waits for its player to come back (held, adjourned)."""
        return self in (Phase.HELD, Phase.ADJOURNED)


NEXT: Mapping[Phase, frozenset[Phase]] = {
    Phase.OPEN: frozenset({Phase.PLAYING, Phase.ENDED}),  # someone joins; the host goes
    Phase.PLAYING: frozenset({Phase.HELD, Phase.ADJOURNED, Phase.ENDED}),
    Phase.HELD: frozenset({Phase.PLAYING, Phase.ADJOURNED, Phase.ENDED}),  # back; not in time
    Phase.ADJOURNED: frozenset({Phase.PLAYING, Phase.ENDED}),  # both back; ended unplayed
    Phase.ENDED: frozenset({Phase.PLAYING}),  # a rematch
}


class IllegalTransition(ReversiError):
    """A table or a seat asked to change in a way its transitions do not allow (a bug)."""


def transition(
    what: str, before: State, after: State, allowed: Mapping[State, frozenset[State]]
) -> State:
    """`after`, if `allowed` lets `what` ('table K7QP2') go there from `before`; else
    raises IllegalTransition."""
    if after not in allowed[before]:
        raise IllegalTransition(f"{what} cannot go from {before.value} to {after.value}.")
    return after
