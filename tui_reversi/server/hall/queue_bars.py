"""Who quick pairing may not seat, read from the store at the moment of pairing
so that it holds on every node of a fleet at once: a name with a playban
(conduct.py: kept out of `play` and rated tables), and a name banned from the
server. A banned session is ended on its own node as soon as the ban is read
there (moderation_watch.py, within a poll); this keeps any node from seating
it meanwhile. A ban by key or address is not the queue's to read (a seeker in
the store has a name only): the session it holds against ends on its node,
and that takes it out of the queue.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass

from ..ledger.playbans import Ban
from ..ledger.seekers import Seeker
from ..ledger.store import Store


@dataclass(frozen=True, slots=True)
class Bars:
    """What keeps seekers from being seated, as read at one moment."""

    playbans: Mapping[str, Ban]  # name -> the playban in effect
    banned: frozenset[str]  # names banned from the server

    def keep_out(self, seeker: Seeker) -> bool:
        """True if `seeker` may not be seated now."""
        return seeker.name in self.playbans or seeker.name in self.banned


async def read_bars(store: Store, waiting: Collection[Seeker], now: float) -> Bars:
    """The playbans and bans by name, at Unix time `now`, of the names `waiting`, read
    from `store` (made on any node). Raises StorageError."""
    names = {seeker.name for seeker in waiting}
    if not names:
        return Bars({}, frozenset())
    named = [seeker for seeker in waiting if not seeker.guest]  # (a guest has no conduct kept)
    playbans = await store.playbans_among({seeker.name for seeker in named})
    banned = {
        sanction.subject
        for sanction in await store.sanctions(now)
        if sanction.kind == "ban" and sanction.scope == "name" and sanction.holds(now)
    }
    return Bars(playbans, frozenset(names & banned))
