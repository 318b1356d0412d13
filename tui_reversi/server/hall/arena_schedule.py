"""The operator's recurring arenas (`serve --arena "hourly 30m 3+2"`, as often as
wanted): each says how often one starts (hourly, on the hour; daily, at
midnight UTC), how long it lasts and its clock, and may add a variant and
`casual`. The directors (tournaments.py) keep the next one of each made, so
`tournaments` lists it as coming; of two nodes making it at once, the store
keeps one (its maker, the schedule's text, and its start are unique)."""

from __future__ import annotations

import math
from dataclasses import dataclass

from ...core import ReversiError, Variant
from ...net.terms import TermsRefused, TimeControl
from ..ledger.tournaments import ARENA, COMING, SCHEDULED, Tournament

EVERY = {"hourly": 3600.0, "daily": 86400.0}
USAGE = '--arena "hourly|daily MINUTESm CLOCK [anti|reversi] [casual]", e.g. "hourly 30m 3+2"'


class ScheduleRefused(ReversiError):
    """A schedule that cannot be read, in one sentence."""


@dataclass(frozen=True, slots=True)
class ArenaSchedule:
    """One recurring arena."""

    text: str  # as the operator wrote it
    every: float  # seconds between starts (starts fall on multiples of it, UTC)
    minutes: int
    clock: TimeControl
    variant: Variant
    rated: bool

    @classmethod
    def parse(cls, text: str) -> ArenaSchedule:
        """Read a schedule. Raises ScheduleRefused."""
        words = text.split()
        if len(words) < 3 or words[0] not in EVERY:
            raise ScheduleRefused(f"{text[:40]!r} is not an arena's schedule: {USAGE}")
        length = words[1].removesuffix("m")
        if not length.isdigit() or not 1 <= int(length) <= EVERY[words[0]] / 60:
            raise ScheduleRefused(f"{words[1][:20]!r} is not a length in minutes: {USAGE}")
        try:
            clock = TimeControl.parse(words[2])
        except TermsRefused as refusal:
            raise ScheduleRefused(f"{refusal}: {USAGE}") from None
        variant, rated = Variant.OTHELLO, True
        for word in words[3:]:
            if word in {v.value for v in Variant}:
                variant = Variant(word)
            elif word == "casual":
                rated = False
            else:
                raise ScheduleRefused(f"{word[:20]!r} is not a term of an arena: {USAGE}")
        return cls(" ".join(words), EVERY[words[0]], int(length), clock, variant, rated)

    @property
    def maker(self) -> str:
        """The name its arenas are made by (no player's: a name has no space)."""
        return f"{SCHEDULED}{self.text}"

    def next_arena(self, now: float) -> Tournament:
        """The arena that starts next after `now`."""
        starts = math.floor(now / self.every) * self.every + self.every
        return Tournament(
            0,
            ARENA,
            self.variant.value,
            str(self.clock),
            self.rated,
            0,
            0,
            starts,
            starts + 60.0 * self.minutes,
            COMING,
            self.maker,
        )
