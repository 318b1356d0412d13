"""Playbans, after lichess's rule (lila, modules/playban: model.scala): how each
player behaved in each rated game is kept (an `Outcome`: good, or one of the
bad ones), and bad ones that pass a share of the games kept, or that come in
a row, ban the player from quick pairing and rated tables for a while: 10
minutes the first time; again within 72 hours of the last ban's end, longer
(up to 2.2 times as long, less the later it comes); never over 3 days.
A ban clears the outcomes kept: the count starts again.

lichess's rule also weighs the account's age and trust, which this server
does not know; the rest is lichess's, numbers included.

The rule is pure (`after`); the stores keep each player's `Conduct` as one
row (`schema`, `record`, `current`: one text of SQL for both).
"""

from __future__ import annotations

import json
import math
from collections.abc import Awaitable, Callable, Collection, Mapping
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any, Protocol

# How many outcomes and bans a player's row keeps (lichess's).
KEPT = 30
FIRST_MINUTES = 10
MOST_MINUTES = 3 * 24 * 60
# A ban repeated within this many hours of the last one's end is longer.
REPEAT_HOURS = 72
WEEK = 7 * 24 * 3600.0


class Outcome(StrEnum):
    """How a player behaved in one rated game (lichess's outcomes; the value is how
    the stores keep it)."""

    GOOD = "good"
    ABORT = "abort"  # left before any move was played, the other still there
    NO_PLAY = "no-play"  # lost without playing a move
    RAGE_QUIT = "rage-quit"  # left a game with moves and never came back
    SITTING = "sitting"  # let the clock run out after waiting a long time
    QUICK_RESIGN = "quick-resign"  # resigned at once


# How much each bad outcome weighs in the share (lichess: sandbagging 0.7).
WEIGHTS = {Outcome.ABORT: 0.8, Outcome.NO_PLAY: 0.8, Outcome.QUICK_RESIGN: 0.7}


@dataclass(frozen=True, slots=True)
class Ban:
    """A playban: from `start` (Unix time) for `minutes`."""

    start: float
    minutes: int

    @property
    def end(self) -> float:
        return self.start + self.minutes * 60.0

    def sentence(self, now: float, who: str = "you") -> str:
        """Why `who` ('you', or their name) cannot play: one sentence, with how long
        is left."""
        return (
            f"{who} may not play rated games for another {how_long(self.end - now)} "
            "(a playban: too many recent games left, stalled or resigned at once)."
        )


@dataclass(frozen=True, slots=True)
class Conduct:
    """A player's outcomes since their last ban (oldest first) and their bans."""

    outcomes: tuple[Outcome, ...] = ()
    bans: tuple[Ban, ...] = ()

    def ban_at(self, now: float) -> Ban | None:
        """The ban in effect at `now`, if any."""
        last = self.bans[-1] if self.bans else None
        return last if last is not None and last.end > now else None


def after(conduct: Conduct, outcome: Outcome, now: float) -> tuple[Conduct, Ban | None]:
    """`conduct` with one more rated game's `outcome` at Unix time `now`, and the ban
    it brings, if it brings one (then the outcomes start again)."""
    kept = replace(conduct, outcomes=(*conduct.outcomes, outcome)[-KEPT:])
    if outcome == Outcome.GOOD or kept.ban_at(now) is not None or not _bannable(kept, now):
        return kept, None
    ban = Ban(now, ban_minutes(kept.bans, now))
    return Conduct((), (*kept.bans, ban)[-KEPT:]), ban


def _bannable(conduct: Conduct, now: float) -> bool:
    """lichess's test: too many bad outcomes for the games kept, or a run of them."""
    outcomes, bans = conduct.outcomes, conduct.bans
    bad = sum(WEIGHTS.get(outcome, 1.0) for outcome in outcomes if outcome != Outcome.GOOD)
    tolerance = 0.4 if len(bans) < 3 else 0.3
    this_week = sum(1 for ban in bans if ban.start > now - WEEK)
    least = 4 if this_week <= 1 else 3 if this_week <= 3 else 2
    if bad >= max(tolerance * len(outcomes), least):
        return True
    run = 6 if not bans else 5 if len(bans) < 3 else 4 if len(bans) < 10 else 3
    return len(outcomes) >= run and Outcome.GOOD not in outcomes[-run:]


def ban_minutes(bans: tuple[Ban, ...], now: float) -> int:
    """How long a new ban at `now` lasts after `bans`: 10 minutes the first time;
    within 72 hours of the last one's end, that one's length times (132 - hours)/60
    (2.2 times at once, once at 72 hours); later, less and less; 10 to 3 days."""
    if not bans:
        return FIRST_MINUTES
    last = bans[-1].minutes
    hours = max(int((now - bans[-1].end) // 3600), 0)
    if hours < REPEAT_HOURS:
        minutes = last * (132 - hours) // 60
    else:  # (lichess's drop-off: back towards 10 over some weeks)
        minutes = int(55.6 * last / (math.pow(5.56 * last - 54.6, hours / 720) + 54.6))
    return min(max(minutes, FIRST_MINUTES), MOST_MINUTES)


def how_long(seconds: float) -> str:
    """'7 minutes', '2 hours 5 minutes', '1 day 3 hours': a ban's time left, rounded up
    to the minute."""
    minutes = max(math.ceil(seconds / 60.0), 1)
    days, minutes = divmod(minutes, 24 * 60)
    hours, minutes = divmod(minutes, 60)
    parts = [(days, "day"), (hours, "hour"), (minutes, "minute")]
    said = [f"{count} {unit}{'' if count == 1 else 's'}" for count, unit in parts if count]
    return " ".join(said[:2])


class PlaybanBook(Protocol):
    """Where each player's conduct is kept (the `Store`'s part)."""

    async def record_conduct(self, outcomes: Mapping[str, Outcome]) -> dict[str, Ban]:
        """Keep one rated game's outcome for each of its players (name -> outcome), now;
        the bans it brings (name -> ban)."""

    async def playban(self, name: str) -> Ban | None:
        """`name`'s ban in effect now, if any."""

    async def playbans_among(self, names: Collection[str]) -> dict[str, Ban]:
        """The bans in effect now of those of `names` who have one (name -> ban), in one
        statement (the pairing queue's look at everyone waiting)."""


# -- the rows, one text of SQL for both stores -------------------------------------------


def schema() -> str:
    """The playbans' table, the same in both stores: each player's conduct as JSON."""
    return """
CREATE TABLE IF NOT EXISTS playbans (
    name TEXT PRIMARY KEY,          -- a player name
    outcomes TEXT NOT NULL,         -- JSON: the outcomes since the last ban, oldest first
    bans TEXT NOT NULL              -- JSON: [[start (Unix time), minutes], ...], oldest first
)"""


# Run one statement with its values; its rows (standings.Query's shape).
Query = Callable[[str, tuple[object, ...]], Awaitable[list[tuple[Any, ...]]]]


async def read(query: Query, name: str, lock: str = "") -> Conduct:
    """`name`'s conduct as kept (`lock`: PostgreSQL's ' FOR UPDATE' in a transaction)."""
    rows = await query(f"SELECT outcomes, bans FROM playbans WHERE name = ?{lock}", (name,))
    return _conduct(rows[0][0], rows[0][1]) if rows else Conduct()


async def bans_among(
    query: Query,
    among: Callable[[list[str]], tuple[str, object]],
    names: Collection[str],
    now: float,
) -> dict[str, Ban]:
    """PlaybanBook.playbans_among over `query`, at Unix time `now`; `among` is the
    store's test that a row's name is one of a list (standings.Among)."""
    wanted = list(dict.fromkeys(names))
    if not wanted:
        return {}
    test, value = among(wanted)
    rows = await query(f"SELECT name, outcomes, bans FROM playbans WHERE {test}", (value,))
    held = {str(name): _conduct(outcomes, bans).ban_at(now) for name, outcomes, bans in rows}
    return {name: ban for name, ban in held.items() if ban is not None}


def _conduct(outcomes: object, bans: object) -> Conduct:
    """A row's two JSON texts as the conduct they keep."""
    return Conduct(
        tuple(Outcome(outcome) for outcome in json.loads(str(outcomes))),
        tuple(Ban(float(start), int(minutes)) for start, minutes in json.loads(str(bans))),
    )


async def record(
    query: Query, outcomes: Mapping[str, Outcome], now: float, lock: str = ""
) -> dict[str, Ban]:
    """PlaybanBook.record_conduct over `query` (in the caller's transaction)."""
    bans: dict[str, Ban] = {}
    for name in sorted(outcomes):  # (locked in name order: no deadlock between two games)
        conduct, ban = after(await read(query, name, lock), outcomes[name], now)
        await query(
            """INSERT INTO playbans (name, outcomes, bans) VALUES (?, ?, ?)
               ON CONFLICT (name) DO UPDATE SET
                   outcomes = excluded.outcomes, bans = excluded.bans""",
            (
                name,
                json.dumps([outcome.value for outcome in conduct.outcomes]),
                json.dumps([[kept.start, kept.minutes] for kept in conduct.bans]),
            ),
        )
        if ban is not None:
            bans[name] = ban
    return bans
