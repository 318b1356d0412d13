"""Whom pairing may not seat (quick pairing's queue, pairing.py, and the
tournaments, tournaments.py), read from the store at the moment of pairing so
that it holds on every node of a fleet at once: a name with a playban
(conduct.py: kept out of `play` and rated tables), and a name banned from the
server. A banned session is ended on its own node as soon as the ban is read
there (moderation_watch.py, within a poll); this keeps any node from seating
it meanwhile. A ban by key or address is not the store's to match with a name
(a seeker or an entry has a name only): the session it holds against ends on
its node, and that takes it out of the queue or the tournament's wait.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass

from ..ledger.playbans import Ban
from ..ledger.store import Store


@dataclass(frozen=True, slots=True)
class Bars:
    """What keeps players from being seated, as read at one moment."""

    playbans: Mapping[str, Ban]  # name -> the playban in effect
    banned: frozenset[str]  # names banned from the server

    def keep_out(self, name: str) -> bool:
        """True if `name` may not be seated now."""
        return name in self.playbans or name in self.banned


async def read_bars(store: Store, names: Collection[str], now: float) -> Bars:
    """The playbans and bans by name, at Unix time `now`, of `names`, read from
    `store` (made on any node). Raises StorageError."""
    if not names:
        return Bars({}, frozenset())
    playbans = await store.playbans_among(names)
    banned = {
        sanction.subject
        for sanction in await store.sanctions(now)
        if sanction.kind == "ban" and sanction.scope == "name" and sanction.holds(now)
    }
    return Bars(playbans, frozenset(banned.intersection(names)))
