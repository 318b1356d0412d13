"""Who is let in, counted where: connections at the door (not authenticated
yet) and inside (authenticated), per address and in all. (What a wrong
password costs is guessing.py's.)

A connection refused at the door is never counted, so whoever opens sockets
and leaves them idle fills only their own share of the door, never a player's
place inside; under pressure the door drops newcomers at random (MaxStartups),
lets go of those that do not ask to log in, and shuts for a while to an
address whose connections outstay their time.
"""

from __future__ import annotations

import random
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

from ..config import ServeConfig
from ..tally import DOOR_REFUSALS, TALLY

# A source's wrong passwords are forgotten after this long without another.
FORGIVE_AFTER = 600.0
# Sources remembered at most (the oldest are forgotten first).
MAX_SOURCES = 4096
# An address whose connection outstayed its time at the door finds it shut this
# long, doubling each time up to SHUT_AT_MOST (forgiven after FORGIVE_AFTER).
SHUT_FIRST = 10.0
SHUT_AT_MOST = 600.0
# Under pressure, a connection that has not asked to log in after this long is
# let go (a client's key exchange takes a fraction of it), and counts as timed out.
PRESSURE_GRACE = 3.0


class Door:
    """The counts: `arrive` at the door, `enter` once authenticated, `leave` at the end.

    Under pressure the door works as OpenSSH's MaxStartups START:RATE:FULL: with
    START connections waiting, a new one is dropped with RATE percent chance,
    rising evenly to every one at FULL; in total (`ServeConfig.startups`) and
    per address (`startups_per_address`). An address whose connection ran out
    of time at the door (`timed_out`) finds it shut for a while, longer each
    time, as OpenSSH's PerSourcePenalties `grace-exceeded`.
    """

    def __init__(self, config: ServeConfig, chance: Callable[[], float] = random.random) -> None:
        self._config = config
        self._chance = chance
        self.waiting: Counter[str] = Counter()  # at the door, per address
        self.inside: Counter[str] = Counter()  # authenticated, per address
        self.guests: Counter[str] = Counter()  # of those inside, the guests
        self._shut: dict[str, _Shut] = {}  # addresses the door is shut to, and until when

    def arrive(self, address: str) -> bool:
        """Count a new connection at the door; False if there is no room for it there."""
        config = self._config
        if self.shut_to(address):
            TALLY.count(DOOR_REFUSALS, "shut")
            return False
        if _dropped(self.waiting[address], config.startups_per_address(), self._chance):
            TALLY.count(DOOR_REFUSALS, "startups")
            return False
        if _dropped(sum(self.waiting.values()), config.startups(), self._chance):
            TALLY.count(DOOR_REFUSALS, "startups")
            return False
        self.waiting[address] += 1
        return True

    @property
    def under_pressure(self) -> bool:
        """True while START connections or more wait at the door."""
        return sum(self.waiting.values()) >= self._config.startups()[0]

    def shut_to(self, address: str) -> bool:
        """True while `address` pays for connections that ran out of time at the door."""
        shut = self._shut.get(address)
        return shut is not None and time.monotonic() < shut.until

    def timed_out(self, address: str) -> float:
        """A connection from `address` stayed at the door past its time: the door is
        shut to the address for a while (returned), longer each time."""
        now = time.monotonic()
        shut = self._shut.pop(address, None)
        if shut is None or now - shut.until > FORGIVE_AFTER:
            shut = _Shut()
        shut.times += 1
        wait = min(SHUT_FIRST * 2 ** (shut.times - 1), SHUT_AT_MOST)
        shut.until = max(shut.until, now + wait)
        if len(self._shut) >= MAX_SOURCES:
            del self._shut[next(iter(self._shut))]
        self._shut[address] = shut
        return wait

    def room_inside(self, address: str, *, guest: bool = False) -> str | None:
        """Why a connection from `address` cannot come in now (a sentence), or None."""
        config = self._config
        if self.inside[address] >= config.max_per_address:
            TALLY.count(DOOR_REFUSALS, "address-full")
            return "Too many connections from your address; please try again later."
        if guest and self.guests[address] >= config.guests_per_address():
            TALLY.count(DOOR_REFUSALS, "guests-full")
            return (
                "Too many guests from your address; please try again later "
                "(or connect with your SSH key)."
            )
        if sum(self.inside.values()) >= config.max_connections():
            TALLY.count(DOOR_REFUSALS, "busy")
            return "The server is busy; please try again in a few minutes."
        return None

    def enter(self, address: str, *, guest: bool = False) -> None:
        """A connection at the door has authenticated: it is counted inside now."""
        _take(self.waiting, address)
        self.inside[address] += 1
        if guest:
            self.guests[address] += 1

    def leave(self, address: str, *, inside: bool, guest: bool = False) -> None:
        _take(self.inside if inside else self.waiting, address)
        if inside and guest:
            _take(self.guests, address)


@dataclass
class _Shut:
    times: int = 0
    until: float = 0.0


def _dropped(count: int, marks: tuple[int, int, int], chance: Callable[[], float]) -> bool:
    """MaxStartups' random early drop: with `count` waiting, is the next one dropped?"""
    start, rate, full = marks
    if count < start:
        return False
    if count >= full:
        return True
    share = rate / 100 + (1 - rate / 100) * (count - start) / max(full - start, 1)
    return chance() < share


def _take(counts: Counter[str], address: str) -> None:
    counts[address] -= 1
    if counts[address] <= 0:
        del counts[address]
