"""Who is let in, counted where: connections at the door (not authenticated
yet) and inside (authenticated), per address and in all, and the penalty a
source address pays for wrong passwords.

A connection refused at the door is never counted, so whoever opens sockets
and leaves them idle fills only their own share of the door, never a player's
place inside. Password guesses from one address are answered one at a time,
each after a wait that grows with that address's failures, however many
connections they come on and however they are pipelined.
"""

from __future__ import annotations

import asyncio
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

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


@dataclass
class _Source:
    failures: int = 0
    next_guess: float = 0.0  # the event loop's time before which no guess is compared
    last_failure: float = 0.0


class PasswordPenalties:
    """Password guesses per source address: one compared at a time, the wait
    between them growing with the source's wrong guesses. A guess is compared
    only once its wait is over, so a guess the client cancels by sending the
    next (asyncssh cancels the running check) is never compared at all."""

    def __init__(self, delay: float, log: Callable[[str], None]) -> None:
        self._delay = delay
        self._log = log
        self._sources: dict[str, _Source] = {}

    def wait_after(self, address: str) -> float:
        """How long a source waits between guesses now (0 if it has no wrong guess held)."""
        source = self._sources.get(address)
        return self._wait(source.failures) if source is not None else 0.0

    async def turn(self, address: str) -> None:
        """Return when a guess from `address` may be compared; compare at once, without
        awaiting anything first, and report it with `failed` or `passed`."""
        loop = asyncio.get_running_loop()
        source = self._source(address)
        while (wait := source.next_guess - loop.time()) > 0:
            await asyncio.sleep(wait)
        # Until this guess is reported, no other from the address is compared.
        source.next_guess = loop.time() + self._wait(source.failures + 1)

    def failed(self, address: str, user: str) -> None:
        """A wrong guess from `address`: the next waits longer. Logged once per source."""
        loop = asyncio.get_running_loop()
        source = self._source(address)
        source.failures += 1
        source.last_failure = time.monotonic()
        source.next_guess = loop.time() + self._wait(source.failures)
        if source.failures == 1:
            self._log(
                f"wrong password from {address} (user={user}): each further guess from "
                f"{address} waits {self._wait(1):g} s, longer after each failure"
            )

    def passed(self, address: str) -> None:
        """The right password from `address`: its failures are forgotten."""
        self._sources.pop(address, None)

    def _wait(self, failures: int) -> float:
        factor = min(2 ** (max(failures - 1, 0) // FAILURES_PER_DOUBLING), MAX_PENALTY_FACTOR)
        return self._delay * factor if failures else 0.0

    def _source(self, address: str) -> _Source:
        source = self._sources.get(address)
        if source is not None and time.monotonic() - source.last_failure > FORGIVE_AFTER:
            source = None
        if source is None:
            if len(self._sources) >= MAX_SOURCES:
                oldest = min(self._sources, key=lambda a: self._sources[a].last_failure)
                del self._sources[oldest]
            source = self._sources[address] = _Source(last_failure=time.monotonic())
        return source
