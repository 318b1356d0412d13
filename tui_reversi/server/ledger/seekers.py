"""The quick-pairing queue as a store keeps it (hall/pairing.py pairs from it):
`Seeker`, one player waiting, and `SeekerBook`, the part of the `Store`
(store.py) that holds them. In a fleet the book is PostgreSQL's table
`seekers` (postgres.py), every node's seekers in one queue; on a server alone
it is `SeekersHere`, in memory: a wait never outlives the process that shows it.

A pair is taken out of the queue by claim_pairs(), both seekers or neither, so of
two nodes pairing at once one seats a seeker and the other finds them gone.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from typing import Protocol

from ...core import Variant
from ...net.terms import TimeControl
from .ratings import FIRST_DEVIATION


def new_seeker_id() -> str:
    return secrets.token_hex(8)


@dataclass(eq=False)
class Seeker:
    """One player waiting to be paired, on this node or another."""

    name: str
    rating: float
    variant: Variant
    clock: TimeControl | None
    guest: bool  # a guest (no name of their own)
    allows_guests: bool  # a named player who accepts a guest opponent
    deviation: float = FIRST_DEVIATION  # how sure `rating` is (ratings.py)
    since: float = 0.0  # when the wait began, on the pairing queue's clock
    node: str = ""  # the node of the player's session
    id: str = field(default_factory=new_seeker_id)  # this wait's (a player may wait twice)


class SeekerBook(Protocol):
    """Who waits in the pairing queue: seek(), unseek(), seekers(), claim_pairs(). `now` is
    the caller's clock (the pairing queue's), which `Seeker.since` is read on."""

    async def seek(self, seekers: list[Seeker], now: float) -> None:
        """Put `seekers` in the queue, each having waited `now - seeker.since` already;
        in a fleet, the other nodes are told (a `queue` message)."""

    async def unseek(self, seeker_id: str) -> bool:
        """Take a seeker out of the queue (they left); False if they were not in it
        (claimed for a pairing meanwhile, or never there)."""

    async def seekers(self, now: float) -> list[Seeker]:
        """Everyone waiting on a live node, the longest waiting first (in a fleet,
        forgetting the seekers of nodes gone)."""

    async def claim_pairs(self, pairs: list[tuple[str, str]]) -> list[tuple[str, str]]:
        """Take each of `pairs` (seeker ids) out of the queue, both seekers or neither,
        to be seated: the pairs taken. A pair is not if a seeker of it is gone, on a
        node gone, being claimed elsewhere, or in a pair before it."""


class SeekersHere:
    """The queue of a server alone, in memory (a `SeekerBook`)."""

    def __init__(self) -> None:
        self._waiting: dict[str, Seeker] = {}

    async def seek(self, seekers: list[Seeker], now: float) -> None:
        self._waiting.update((seeker.id, seeker) for seeker in seekers)

    async def unseek(self, seeker_id: str) -> bool:
        return self._waiting.pop(seeker_id, None) is not None

    async def seekers(self, now: float) -> list[Seeker]:
        return sorted(self._waiting.values(), key=lambda seeker: seeker.since)

    def forget_name(self, name: str) -> None:
        """`name` waits no more (renamed: their session is ended)."""
        for seeker in [seeker for seeker in self._waiting.values() if seeker.name == name]:
            del self._waiting[seeker.id]

    async def claim_pairs(self, pairs: list[tuple[str, str]]) -> list[tuple[str, str]]:
        taken = []
        for one, other in pairs:
            if one != other and one in self._waiting and other in self._waiting:
                del self._waiting[one], self._waiting[other]
                taken.append((one, other))
        return taken
