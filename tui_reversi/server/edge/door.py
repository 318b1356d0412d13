"""Who is let in, counted where: connections at the door (not authenticated
yet) and inside (authenticated), per address and in all. (What a wrong
password costs is guessing.py's.)

A connection refused at the door is never counted, so whoever opens sockets
and leaves them idle fills only their own share of the door, never a player's
place inside.
"""

from __future__ import annotations

from collections import Counter

from ..config import ServeConfig

# A source's wrong passwords are forgotten after this long without another.
FORGIVE_AFTER = 600.0
# The wait before a guess doubles after every this many wrong ones, up to MAX_PENALTY_FACTOR.
FAILURES_PER_DOUBLING = 3
MAX_PENALTY_FACTOR = 64
# Sources remembered at most (the oldest are forgotten first).
MAX_SOURCES = 4096


class Door:
    """The counts: `arrive` at the door, `enter` once authenticated, `leave` at the end."""

    def __init__(self, config: ServeConfig) -> None:
        self._config = config
        self.waiting: Counter[str] = Counter()  # at the door, per address
        self.inside: Counter[str] = Counter()  # authenticated, per address

    def arrive(self, address: str) -> bool:
        """Count a new connection at the door; False if there is no room for it there."""
        config = self._config
        if self.waiting[address] >= config.max_unauthenticated_per_address():
            return False
        if sum(self.waiting.values()) >= config.max_unauthenticated():
            return False
        self.waiting[address] += 1
        return True

    def room_inside(self, address: str) -> str | None:
        """Why a connection from `address` cannot come in now (a sentence), or None."""
        if self.inside[address] >= self._config.max_per_address:
            return "Too many connections from your address; please try again later."
        if sum(self.inside.values()) >= self._config.max_connections():
            return "The server is busy; please try again in a few minutes."
        return None

    def enter(self, address: str) -> None:
        """A connection at the door has authenticated: it is counted inside now."""
        _take(self.waiting, address)
        self.inside[address] += 1

    def leave(self, address: str, *, inside: bool) -> None:
        _take(self.inside if inside else self.waiting, address)


def _take(counts: Counter[str], address: str) -> None:
    counts[address] -= 1
    if counts[address] <= 0:
        del counts[address]
