"""Quick pairing (`ssh -t host play [clock 5+3] [anti] [guests]`): players wait in
one queue, and two whose terms match (variant and clock) and whose ratings are
close are seated at a new table at once, colours drawn. How close is close
widens the longer either waits: WINDOW points at first, WIDENING more each
second, at most WIDEST. A guest is paired only with guests, unless the player
with a name allows guests (`play guests`).

The queue is this node's: in a fleet, players waiting on two nodes are not
paired with each other (the queue is not shared through the store yet).
"""

from __future__ import annotations

import asyncio
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from ...core import Color, Variant
from ...net.terms import TableRefused, TimeControl
from .tables import Tables

# Ratings this far apart are paired at once; the window widens by WIDENING points
# a second of the longer wait, to at most WIDEST.
WINDOW = 100.0
WIDENING = 10.0
WIDEST = 600.0
# How often the queue looks for pairs again (the windows widen in between).
TICK = 1.0
# The computer levels and the ratings they are offered at: the level whose rating is
# nearest the player's is offered. First estimates (levels are not rated here yet).
LEVEL_RATINGS = {"easy": 1000.0, "medium": 1300.0, "hard": 1700.0, "expert": 2000.0}


def nearest_level(rating: float) -> str:
    """The computer level offered to a player rated `rating`."""
    return min(LEVEL_RATINGS, key=lambda level: abs(LEVEL_RATINGS[level] - rating))


@dataclass(eq=False)
class Seeker:
    """One player waiting to be paired."""

    name: str
    rating: float
    variant: Variant
    clock: TimeControl | None
    guest: bool  # a guest (no name of their own)
    allows_guests: bool  # a named player who accepts a guest opponent
    # Told the seat found: (its secret, the table's code); queue_wait.py's, once waiting.
    paired: Callable[[str, str], None] = lambda secret, code: None
    since: float = field(default_factory=time.monotonic)


class PairingQueue:
    """The players waiting to be paired on this node: join(), leave()."""

    def __init__(
        self,
        tables: Tables,
        log: Callable[[str], None],
        now: Callable[[], float] = time.monotonic,
    ) -> None:
        self.tables = tables
        self._log = log
        self._now = now
        self.seekers: list[Seeker] = []
        self._timer: asyncio.TimerHandle | None = None

    def join(self, seeker: Seeker) -> None:
        """Put `seeker` in the queue, paired at once if someone fits."""
        seeker.since = self._now()
        self.seekers.append(seeker)
        self.pair()

    def leave(self, seeker: Seeker) -> None:
        """Take `seeker` out of the queue (gone, or left it)."""
        if seeker in self.seekers:
            self.seekers.remove(seeker)
        if not self.seekers and self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def window(self, seeker: Seeker) -> float:
        """How far from `seeker`'s rating an opponent may be rated, after their wait."""
        return min(WINDOW + WIDENING * (self._now() - seeker.since), WIDEST)

    def fits(self, one: Seeker, other: Seeker) -> bool:
        """True if `one` and `other` may be paired now."""
        if one.name == other.name or (one.variant, one.clock) != (other.variant, other.clock):
            return False
        if one.guest != other.guest and not (one.allows_guests or other.allows_guests):
            return False
        return abs(one.rating - other.rating) <= max(self.window(one), self.window(other))

    def pair(self) -> None:
        """Seat every pair that fits, the longest waiting first, each with the nearest
        rating that fits; look again in TICK."""
        waiting = sorted(self.seekers, key=lambda seeker: seeker.since)
        while waiting:
            one = waiting.pop(0)
            fitting = [other for other in waiting if self.fits(one, other)]
            if fitting:
                other = min(fitting, key=lambda other: abs(other.rating - one.rating))
                waiting.remove(other)
                self._seat(one, other)
        if self.seekers and self._timer is None:
            self._timer = asyncio.get_running_loop().call_later(TICK, self._again)

    def _again(self) -> None:
        self._timer = None
        self.pair()

    def _seat(self, one: Seeker, other: Seeker) -> None:
        """A new table for the two, colours drawn; each told their seat."""
        colour = secrets.choice((Color.BLACK, Color.WHITE))
        try:
            table, one_secret = self.tables.open(one.name, one.variant, one.clock, colour)
        except TableRefused as refusal:  # (at their limit of tables): both wait on
            self._log(f"pairing {one.name} with {other.name} refused: {refusal}")
            return
        try:
            _, other_secret = self.tables.sit(table.code, other.name)
        except TableRefused as refusal:
            self.tables.leave(one_secret)  # (the table goes with its only seat)
            self._log(f"pairing {one.name} with {other.name} refused: {refusal}")
            return
        self.leave(one)
        self.leave(other)
        self._log(f"pairing: {one.name} and {other.name} at table {table.code}")
        one.paired(one_secret, table.code)
        other.paired(other_secret, table.code)
