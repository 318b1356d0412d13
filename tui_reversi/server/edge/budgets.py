"""What a client may send: every kind of request has a budget, a token bucket
charged to the connection that sends it and to its address, declared here
beside the rest. What goes past a budget is dropped, not queued, and logged
once a burst; a connection that floods is not read for a while, so its
flood waits in its own TCP buffers and costs this process nothing.

`InputAllowance` is the bytes a game is given (a paste of megabytes costs the
game and the server nothing); `ConnectionBudget` is one connection's count
of everything else (packets, window changes, channel requests, sessions).
A browser page's connection (browser.py) has the same: each of its socket's
messages is a packet, and its pings and sockets have budgets of their own.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from ..bucket import BURST_QUIET, Buckets, Clock, Rate, TokenBucket
from ..tally import BUDGET_HITS, TALLY
from .event_log import EventLog

# -- the bytes a game is given -----------------------------------------------------------

# A burst a game takes at once (a long paste into the chat, a flurry of mouse
# reports), and how fast the allowance fills again after it.
INPUT = Rate(burst=16 * 1024, per_second=2 * 1024)

_PASTE_START = b"\x1b[200~"
_PASTE_END = b"\x1b[201~"


class InputAllowance:
    """The bytes a client sends its game, over a token bucket. Input comes in
    chunks (a key press, a packet of a paste); a chunk that does not fit in
    what is left is dropped whole, so no key's escape sequence is cut, and a
    bracketed paste that was let begin is always let end."""

    def __init__(self, now: Clock = time.monotonic) -> None:
        self._bucket = TokenBucket(INPUT, now)
        self._in_paste = False
        self.dropped = 0  # bytes dropped so far
        self.burst = int(INPUT.burst)  # (what a player is told it takes at once)

    def admit(self, data: bytes) -> bytes:
        """What of `data` the game gets: all of it, or nothing (or a paste's end)."""
        if self._bucket.take(len(data)):
            self._follow_paste(data)
            return data
        self.dropped += len(data)
        if self._in_paste and _PASTE_END in data:
            self._in_paste = False
            return _PASTE_END
        return b""

    def _follow_paste(self, data: bytes) -> None:
        start, end = data.rfind(_PASTE_START), data.rfind(_PASTE_END)
        if start > end:
            self._in_paste = True
        elif end > start:
            self._in_paste = False


# -- every other request -------------------------------------------------------------------


@dataclass(frozen=True)
class Budget:
    """One kind of request's budget: per connection and per address (all its
    connections together), and what a drop is called in the log."""

    per_connection: Rate
    per_address: Rate
    what: str


# A message of a page's counts as one packet more for each this many bytes of it
# (a megabyte is not one keystroke's worth of work to read).
PACKET_BYTES = 4096
# Every SSH packet a connection sends after login (keys, mouse reports, window
# changes, requests): far more than a person makes, typing or dragging.
PACKETS = Budget(Rate(1000, 300), Rate(2000, 600), "packets")
# Window changes: a drag sends a few dozen; past this they are coalesced (the
# latest size is applied when the budget allows, the ones between dropped).
WINDOW_CHANGES = Budget(Rate(10, 2), Rate(20, 4), "window changes")
# Channel requests (pty, shell, exec, signals) and channels asked for (sessions,
# forwardings): a client makes a handful a connection.
CHANNEL_REQUESTS = Budget(Rate(20, 1), Rate(60, 3), "channel requests")
# Sessions (a game, `lobby`, `keys`...) started from one address.
SESSIONS = Budget(Rate(2, 0.1), Rate(60, 1), "sessions")

# A browser page's pings (its page sends one as it opens): answered within this budget only.
PINGS = Budget(Rate(4, 0.5), Rate(8, 1), "pings")
# Page sockets (websocket upgrades) opened from one address: a page opens one, a
# reload another. (Only per_address applies: each opening is a connection of its own.)
PAGE_SOCKETS = Budget(Rate(1, 1), Rate(10, 1), "page sockets")

# A connection past its packet budget is not read for this long at the least,
# twice as long each time it is over again within a burst, up to HOLD_AT_MOST.
HOLD_AT_LEAST = 1.0
HOLD_AT_MOST = 8.0
# Held this many times in one burst (half a minute of flooding and more), it is ended.
HOLDS_AT_MOST = 7
# Why a connection so ended was, for the log.
FLOODED = "flooded past its budgets"


class Budgets:
    """The server's per-address buckets for every budget; `for_connection` gives
    one connection its own, charged together with its address's."""

    def __init__(self, events: EventLog, people: int = 1, now: Clock = time.monotonic) -> None:
        self._events = events
        self._people = people  # an address's budgets are this many times a budget's per_address
        self._now = now
        self._addresses: dict[Budget, Buckets] = {}

    def address_bucket(self, budget: Budget, address: str) -> TokenBucket:
        buckets = self._addresses.get(budget)
        if buckets is None:
            rate = budget.per_address.times(self._people)
            buckets = self._addresses[budget] = Buckets(rate, self._now)
        return buckets.bucket(address)

    def for_connection(
        self,
        peer: tuple[str, str],
        who: Callable[[], str | None],
        hold: Callable[[float], None],
        end: Callable[[], None],
    ) -> ConnectionBudget:
        """The budgets of a connection from `peer` (its address, and the address and
        port for the log); `who` names its user, `hold` stops reading it a while,
        `end` ends it (it flooded too long)."""
        return ConnectionBudget(self, peer, who, (hold, end), self._events, self._now)


class ConnectionBudget:
    """One connection's budgets. `allow(budget)` charges a request to the
    connection and its address; past either, the request is to be dropped
    (logged once a burst), and past the packet budget the connection is held:
    not read for a while."""

    def __init__(
        self,
        budgets: Budgets,
        peer: tuple[str, str],
        who: Callable[[], str | None],
        hold: tuple[Callable[[float], None], Callable[[], None]],
        events: EventLog,
        now: Clock = time.monotonic,
    ) -> None:
        self._budgets = budgets
        self._address, self._peer = peer
        self._who = who  # (the user name for the log, once known)
        self._hold, self._end = hold
        self._events = events
        self._now = now
        self._own: dict[Budget, TokenBucket] = {}
        self._last_drop: dict[Budget, float] = {}
        self._holds = 0  # times held in this burst of packets
        self._held_until = 0.0  # (what was read before the hold still comes meanwhile)
        self._ended = False  # it flooded too long: nothing more is let through
        self.dropped: dict[str, int] = {}  # requests dropped so far, by what they were

    def allow(self, budget: Budget, cost: float = 1.0) -> bool:
        """True if a request of `budget`'s kind, `cost` of them (a large message
        counts as several), fits the connection's and the address's."""
        if self._ended:
            return False
        own, shared = self._bucket(budget), self._budgets.address_bucket(budget, self._address)
        cost = min(cost, own.rate.burst, shared.rate.burst)  # (it must fit when they are full)
        if own.wait(cost) == 0 and shared.take(cost):
            own.take(cost)
            return True
        began = self._drop(budget)
        if budget is PACKETS and self._now() >= self._held_until:
            self._holds = 0 if began else self._holds
            self._holds += 1
            if self._holds > HOLDS_AT_MOST:
                self._ended = True
                self._end()
                return False
            longer = min(HOLD_AT_LEAST * 2 ** (self._holds - 1), HOLD_AT_MOST)
            hold = max(longer, own.wait(own.rate.burst / 2), shared.wait())
            self._held_until = self._now() + hold
            self._hold(hold)
        return False

    def packet(self, size: int = 0) -> bool:
        """Charge one packet of `size` bytes (one more for each PACKET_BYTES of it);
        False if it is to be dropped (the connection is held)."""
        return self.allow(PACKETS, 1 + size // PACKET_BYTES)

    def window_change(self) -> bool:
        return self.allow(WINDOW_CHANGES)

    def window_change_wait(self) -> float:
        return self.wait(WINDOW_CHANGES)

    def channel_request(self) -> bool:
        return self.allow(CHANNEL_REQUESTS)

    def wait(self, budget: Budget) -> float:
        """Seconds until one more request of `budget`'s kind fits."""
        shared = self._budgets.address_bucket(budget, self._address)
        return max(self._bucket(budget).wait(), shared.wait())

    def _bucket(self, budget: Budget) -> TokenBucket:
        bucket = self._own.get(budget)
        if bucket is None:
            bucket = self._own[budget] = TokenBucket(budget.per_connection, self._now)
        return bucket

    def _drop(self, budget: Budget) -> bool:
        """Count a drop; True if it begins a burst (and is logged)."""
        self.dropped[budget.what] = self.dropped.get(budget.what, 0) + 1
        TALLY.count(BUDGET_HITS, budget.what)
        now = self._now()
        last = self._last_drop.get(budget)
        self._last_drop[budget] = now
        if last is None or now - last > BURST_QUIET:
            rate = budget.per_connection
            self._events.write(
                "requests-dropped",
                address=self._address,
                peer=self._peer,
                user=self._who(),
                what=budget.what,
                allowance=f"{rate.burst:g}+{rate.per_second:g}/s",
            )
            return True
        return False
