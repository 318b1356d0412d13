"""Each looker's own record in the app's lobby: their results here and how their
last game moved their rating, kept per name, so that a lobby sent every second
does not read them from the store every second for every player looking.

A name's record is read again when a game of theirs is kept on this node
(table_course.py says so), when the ratings read for the lobby show a rated
game of theirs not counted yet (one kept on another node of a fleet), and
otherwise at most every RECORD_AGAIN seconds (a game without a rating kept
elsewhere). The rating itself is not kept here: the lobby reads everyone's in
one statement each time it is sent.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace

from ...net.remote import is_guest
from ..ledger.standings import Results
from ..ledger.store import Store
from .table_store import last_game_lines

# Seconds a record is shown as read before it is read again, if nothing said it changed.
RECORD_AGAIN = 30.0


@dataclass(frozen=True, slots=True)
class OwnRecord:
    """A player's record as the lobby shows it to them."""

    games: int  # the rated games their rating rested on when it was read
    results: str  # '3 won, 1 lost, 0 drawn'
    last: str  # 'Your last game, against bob (id 12), moved your rating +16.', or ''
    read: float  # when (the clock given to OwnRecords)


class OwnRecords:
    """The lookers' records by name: of() reads the stale ones (all in one store
    call), kept() makes some stale."""

    def __init__(
        self, store: Callable[[], Store], now: Callable[[], float] = time.monotonic
    ) -> None:
        self._store = store  # the server's store
        self._now = now
        self._records: dict[str, OwnRecord] = {}

    def kept(self, names: Iterable[str]) -> None:
        """A game of these players has been kept: their records are read again."""
        for name in names:
            self._records.pop(name, None)

    def forget_all_but(self, names: Iterable[str]) -> None:
        """Let go of the records of everyone not among `names` (no longer looking)."""
        looking = set(names)
        for name in [name for name in self._records if name not in looking]:
            del self._records[name]

    async def of(self, lookers: dict[str, int]) -> dict[str, OwnRecord]:
        """Each looker's record, `lookers` giving the rated games each one's rating
        rests on now; those that may have changed are read again: their results in
        one store call, then the last game of each whose results or rated games did
        change. Raises StorageError."""
        now = self._now()
        stale = [
            name
            for name, games in lookers.items()
            if not is_guest(name) and not self._fresh(self._records.get(name), games, now)
        ]
        store = self._store()
        if stale:
            read = await store.records(stale)
            for name in stale:
                kept, games, results = self._records.get(name), lookers[name], str(read[name])
                if kept is not None and (kept.games, kept.results) == (games, results):
                    self._records[name] = replace(kept, read=now)  # (nothing new)
                else:
                    last = " ".join(await last_game_lines(store, name))
                    self._records[name] = OwnRecord(games, results, last, now)
        # A guest plays unrated (and a server without a store keeps nothing): no record.
        nothing = str(Results())
        return {
            name: self._records.get(name) or OwnRecord(games, nothing, "", now)
            for name, games in lookers.items()
        }

    @staticmethod
    def _fresh(kept: OwnRecord | None, games: int, now: float) -> bool:
        """True if `kept` is still the record: no rated game since, read lately."""
        return kept is not None and kept.games == games and now - kept.read < RECORD_AGAIN
