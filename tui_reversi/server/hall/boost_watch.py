"""The boosting watch, after lichess's (lila, modules/mod: SandbagWatch.scala):
a rated game lost within a few moves that moved the winner's rating up counts
as a sandbag for the loser and a boost for the winner (boosts counted per
opponent). The third such game, among a player's last seven within three
hours, warns the player; the fourth files a report by itself.

A few moves is QUICK_PLIES (8, lichess's), more for stronger players: a
rating far above the start plays longer games, and losing one that early is
no less strange (2 plies more for every 200 points over 1500, at most 16).

The records live in this node's memory for three hours after their last
game, as lichess's do: a pair's rematches are at one table, on one node.
A report goes through `file`, given where the server is put together
(edge/arcade.py: file_report, the log, until moderation's report queue
takes it there).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, replace

from ...core import Ending
from ..ledger.ratings import Rating
from .conduct import PlayerNotes
from .table import Table

# lichess's: the last seven outcomes, forgotten three hours after the last; once
# seven good ones in a row, forgotten at once.
KEPT = 7
FORGOTTEN_AFTER = 3 * 3600.0
WARN_AT = 3
REPORT_AT = 4
WARN_EVERY = 3600.0  # a player is warned once an hour at most
QUICK_PLIES = 8
QUICK_PLIES_MOST = 16

SANDBAG_WARNING = (
    "Warning: you have lost several rated games within a few moves. Every rated game "
    "must be played to win: losing on purpose (sandbagging) is not allowed here."
)
BOOST_WARNING = (
    "Warning: you have won several rated games within a few moves against the same "
    "player. Both players must play to win: taking rating from someone who loses on "
    "purpose (boosting) is not allowed here."
)


@dataclass(frozen=True, slots=True)
class Watched:
    """One rated game as the watch counts it for one player: `kind` 'good',
    'sandbag' (lost it at once) or 'boost' (won it so); against `opponent`."""

    kind: str
    opponent: str = ""


GOOD = Watched("good")


@dataclass(frozen=True, slots=True)
class Record:
    """A player's last outcomes, the latest first, and when the last came."""

    outcomes: tuple[Watched, ...] = ()
    written: float = 0.0

    def sandbags(self) -> int:
        """How many of the outcomes are sandbags, if the latest is one (else 0)."""
        if not self.outcomes or self.outcomes[0].kind != "sandbag":
            return 0
        return sum(1 for outcome in self.outcomes if outcome.kind == "sandbag")

    def boosts(self) -> int:
        """How many of the outcomes are boosts against the latest's opponent, if the
        latest is a boost (else 0)."""
        if not self.outcomes or self.outcomes[0].kind != "boost":
            return 0
        return sum(1 for outcome in self.outcomes if outcome == self.outcomes[0])

    @property
    def opponents(self) -> tuple[str, ...]:
        """The opponents of the sandbags and boosts kept, each once."""
        return tuple(dict.fromkeys(o.opponent for o in self.outcomes if o.kind != "good"))


@dataclass(frozen=True, slots=True)
class AutoReport:
    """A report the watch files by itself: on `name`, for `reason` (moderation's
    fixed reasons: 'boosting'), saying `text`, the game at `table` the last of them."""

    name: str
    reason: str
    text: str
    table: str
    opponents: tuple[str, ...]


def file_report(report: AutoReport, log: Callable[[str], None]) -> None:
    """Where a report the watch files goes until the moderation's report queue takes
    it (edge/arcade.py gives BoostWatch its `file`): the log."""
    log(f"report on {report.name} ({report.reason}), filed by the boosting watch: {report.text}")


def quick_plies(rating: float) -> int:
    """How few plies a lost game may have to count as lost at once, for a loser rated
    `rating`: 8, and 2 more for every 200 points over 1500, at most 16."""
    more = 2 * max(int((rating - 1500.0) // 200), 0)
    return min(QUICK_PLIES + more, QUICK_PLIES_MOST)


class BoostWatch:
    """Every named player's record on this node: rated() after each rated game (a
    GameWatch of the tables: table_course.py); a report goes to `file`."""

    def __init__(
        self,
        log: Callable[[str], None],
        file: Callable[[AutoReport], None],
        now: Callable[[], float] = time.monotonic,
    ) -> None:
        self._log = log
        self.file = file
        self._now = now
        self.records: dict[str, Record] = {}
        self._warned: dict[str, float] = {}

    def ended(self, table: Table, end: Ending, notes: PlayerNotes) -> None:
        """(Counted once the game is rated: rated().)"""

    async def close(self) -> None:
        """(Nothing runs in the background: the warnings are the notes'.)"""

    def rated(
        self,
        table: Table,
        before: dict[str, Rating],
        after: dict[str, Rating],
        notes: PlayerNotes,
    ) -> None:
        """`table`'s game ended rated, moving each player's rating from `before` to
        `after`: each player's outcome counted, warned (through `notes`) or reported as
        the rule says."""
        end, now = table.ending, self._now()
        if end is None or end.winner is None:
            return
        winner, loser = table.name(end.winner), table.name(end.winner.other)
        quick = table.game.move_number() <= quick_plies(before[loser].rating)
        moved_up = after[winner].rating > before[winner].rating
        caught = quick and moved_up
        outcomes = {
            loser: Watched("sandbag", winner) if caught else GOOD,
            winner: Watched("boost", loser) if caught else GOOD,
        }
        for name, outcome in outcomes.items():
            warning = self._count(table, name, outcome, now)
            if warning is not None:
                notes.tell(table, name, warning)

    def _count(self, table: Table, name: str, outcome: Watched, now: float) -> str | None:
        """`name`'s record with `outcome` added: the warning to give them now, if any."""
        kept = self.records.get(name)
        if kept is not None and now - kept.written > FORGOTTEN_AFTER:
            kept = None
        if kept is None and outcome == GOOD:
            self.records.pop(name, None)
            return None
        record = replace(
            kept or Record(), outcomes=(outcome, *(kept or Record()).outcomes)[:KEPT], written=now
        )
        if len(record.outcomes) == KEPT and all(o == GOOD for o in record.outcomes):
            self.records.pop(name, None)
            return None
        self.records[name] = record
        if WARN_AT in (record.sandbags(), record.boosts()):
            warning = SANDBAG_WARNING if record.sandbags() else BOOST_WARNING
            return self._warning(table, name, warning, now)
        if record.sandbags() == REPORT_AT:
            self._report(table, name, "sandbagging", record)
        elif record.boosts() == REPORT_AT:
            self._report(table, name, "boosting", record)
        return None

    def _warning(self, table: Table, name: str, warning: str, now: float) -> str | None:
        """`warning` for `name`, unless they were warned within the hour."""
        last = self._warned.get(name)
        if last is not None and now - last < WARN_EVERY:
            return None
        self._warned[name] = now
        self._log(f"boosting watch: {name} warned at table {table.code}")
        return warning

    def _report(self, table: Table, name: str, what: str, record: Record) -> None:
        opponents = ", ".join(record.opponents)
        text = (
            f"{REPORT_AT} rated games {'lost' if what == 'sandbagging' else 'won'} within a "
            f"few moves in 3 hours (against {opponents}): possible {what}"
        )
        self.file(AutoReport(name, "boosting", text, table.code, record.opponents))
