"""The server's one token bucket, and the limits built of it that every room
uses: the edge's budgets (edge/budgets.py) and the hall's limits on what a
player asks (invitations, chat, takebacks), each charged to whoever asks (a
name) and to the address they connected from.

A request past a limit is dropped, never queued; the one who sent it is told
in a sentence, and the log hears of it once a burst.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass

Clock = Callable[[], float]

# Keys (addresses, names) whose buckets are remembered (the least recently used go first).
MAX_KEYS = 4096
# A kind's drops from one key are one burst until this long passes without one:
# one log line a burst.
BURST_QUIET = 30.0


@dataclass(frozen=True)
class Rate:
    """A budget: `burst` at once, refilled at `per_second`."""

    burst: float
    per_second: float

    def times(self, people: int) -> Rate:
        """The rate of `people` together (the people behind one address)."""
        return Rate(self.burst * people, self.per_second * people)


def per_minute(count: float) -> Rate:
    """`count` at once, and `count` more a minute."""
    return Rate(count, count / 60)


class TokenBucket:
    """`take(cost)` succeeds while the bucket holds `cost`; it refills at the rate."""

    def __init__(self, rate: Rate, now: Clock = time.monotonic) -> None:
        self.rate = rate
        self._now = now
        self._left = float(rate.burst)
        self._since = now()

    def take(self, cost: float = 1.0) -> bool:
        """Charge `cost` if it fits; False (nothing charged) if not."""
        self._fill()
        if cost > self._left:
            return False
        self._left -= cost
        return True

    def wait(self, cost: float = 1.0) -> float:
        """Seconds until `cost` fits (0 if it does now)."""
        self._fill()
        return max(0.0, (cost - self._left) / self.rate.per_second)

    def _fill(self) -> None:
        now = self._now()
        self._left = min(self.rate.burst, self._left + (now - self._since) * self.rate.per_second)
        self._since = now


class Buckets:
    """One bucket per key (an address, a name) at one rate, the least recently
    used forgotten beyond MAX_KEYS (a forgotten key starts full again)."""

    def __init__(self, rate: Rate, now: Clock = time.monotonic) -> None:
        self._rate = rate
        self._now = now
        self._buckets: OrderedDict[str, TokenBucket] = OrderedDict()

    def bucket(self, key: str) -> TokenBucket:
        bucket = self._buckets.get(key)
        if bucket is None:
            bucket = self._buckets[key] = TokenBucket(self._rate, self._now)
            if len(self._buckets) > MAX_KEYS:
                self._buckets.popitem(last=False)
        else:
            self._buckets.move_to_end(key)
        return bucket


@dataclass(frozen=True)
class Limit:
    """How often a player may ask one thing: per name and per address (all the
    names connected from it together), what the things are called, and what a
    player past the limit is advised to do."""

    per_name: Rate
    per_address: Rate
    what: str
    advice: str

    @property
    def refusal(self) -> str:
        """The sentence a player past the limit is told."""
        return f"Too fast: at most {self.per_name.burst:g} {self.what} a minute; {self.advice}."


class Limiter:
    """Charges one kind of request to the name that asks and the address it
    connected from; past either, the request is to be dropped, and the log
    hears of it once a burst (per name)."""

    def __init__(
        self,
        limit: Limit,
        log: Callable[[str, str], None],
        *,
        people: int = 1,
        now: Clock = time.monotonic,
    ) -> None:
        self.limit = limit
        self._log = log  # (the sentence, the address it is charged to)
        self._now = now
        self._names = Buckets(limit.per_name, now)
        # An address has as many people's limits as the operator says it has.
        self._addresses = Buckets(limit.per_address.times(people), now)
        self._last_drop: OrderedDict[str, float] = OrderedDict()

    def take(self, name: str, address: str) -> bool:
        """Charge one request of `name`'s from `address` ('' if not known here:
        only the name's limit holds); False if it is past either limit."""
        own = self._names.bucket(name)
        shared = self._addresses.bucket(address) if address else None
        if own.wait() == 0 and (shared is None or shared.take()):
            own.take()
            return True
        self._dropped(name, address)
        return False

    def _dropped(self, name: str, address: str) -> None:
        now = self._now()
        last = self._last_drop.pop(name, None)
        self._last_drop[name] = now
        if len(self._last_drop) > MAX_KEYS:
            self._last_drop.popitem(last=False)
        if last is None or now - last > BURST_QUIET:
            rate = self.limit.per_name
            where = f" from {address}" if address else ""
            self._log(
                f"{self.limit.what} dropped past their limit "
                f"({rate.burst:g}+{rate.per_second * 60:g}/min a name): {name}{where}",
                address,
            )
