"""What the server has done, counted: the one place every room adds to, read by
the operator's metrics (edge/metrics.py) when Prometheus scrapes them.

Counting is plain Python (an addition to a dict entry), so it costs nothing
worth measuring and needs no library: prometheus_client is imported only by a
server started with `--metrics-port`, which turns these counts into metrics.
What can be read from the server's state at scrape time (sessions, tables,
fleet nodes) is not counted here: it is read then, and so never drifts.
"""

from __future__ import annotations

import bisect
import threading
from dataclasses import dataclass, field

# Upper bounds (seconds) of the histograms' buckets: a store call on a local
# SQLite file takes well under a millisecond, one to PostgreSQL a few, a slow
# disk or a busy database far more.
STORE_SECONDS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)
# From a fleet message sealed on one node to its opening on another: LISTEN/NOTIFY
# takes milliseconds; more is a busy database or clocks apart.
NOTIFY_SECONDS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)


@dataclass(frozen=True)
class Kind:
    """One thing counted: its metric's name (without the `tui_reversi_` prefix
    and a counter's `_total`), what it means, and the names of its labels."""

    name: str
    meaning: str
    labels: tuple[str, ...]
    buckets: tuple[float, ...] = ()  # a histogram's; none for a counter


GAMES_STARTED = Kind("games_started", "Games begun at this node's tables (both seats taken).", ())
GAMES_ENDED = Kind(
    "games_ended",
    "Games over at this node's tables, by how they ended "
    "(normal, resigned, flag, left, banned: core/ending.py's reasons).",
    ("reason",),
)
MOVES = Kind("moves_played", "Moves played at this node's tables.", ())
LOGINS = Kind(
    "logins",
    "Logins at either door (ssh, web) by result: keyed or guest let in, or refused.",
    ("door", "result"),
)
DOOR_REFUSALS = Kind(
    "door_refusals",
    "Connections turned away at the door, by why: shut (the address outstayed its time "
    "before), startups (too many waiting, in all or from the address), address-full, "
    "guests-full, busy.",
    ("kind",),
)
BUDGET_HITS = Kind(
    "budget_hits",
    "Requests dropped past a connection's or an address's budget, by kind "
    "(packets, window changes, channel requests, sessions, pings, page sockets).",
    ("kind",),
)
STORE_CALLS = Kind(
    "store_call_seconds",
    "Time the store took to answer a call, by backend (sqlite, postgresql) and method.",
    ("backend", "method"),
    STORE_SECONDS,
)
NOTIFY_DELAY = Kind(
    "fleet_notify_delay_seconds",
    "Time from a fleet message's sealing on its node to its opening on this one.",
    (),
    NOTIFY_SECONDS,
)

COUNTERS = (GAMES_STARTED, GAMES_ENDED, MOVES, LOGINS, DOOR_REFUSALS, BUDGET_HITS)
HISTOGRAMS = (STORE_CALLS, NOTIFY_DELAY)


@dataclass
class Spread:
    """One histogram's observations: how many fell in each bucket (not
    cumulative), how many in all, and their sum."""

    buckets: list[int]
    count: int = 0
    total: float = 0.0


@dataclass
class Tally:
    """The counts, by kind and then by the labels' values (in the kind's order)."""

    counts: dict[Kind, dict[tuple[str, ...], int]] = field(default_factory=dict)
    spreads: dict[Kind, dict[tuple[str, ...], Spread]] = field(default_factory=dict)
    # Store calls are timed in the threads they run in: an increment read and
    # written back by two threads at once would lose one without it.
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False, compare=False)

    def count(self, kind: Kind, *values: str) -> None:
        """One more of `kind`, for the labels' `values`."""
        assert len(values) == len(kind.labels), kind
        with self._lock:
            counts = self.counts.setdefault(kind, {})
            counts[values] = counts.get(values, 0) + 1

    def observe(self, kind: Kind, seconds: float, *values: str) -> None:
        """One more observation of `kind` (a histogram), `seconds` long."""
        assert len(values) == len(kind.labels), kind
        with self._lock:
            spreads = self.spreads.setdefault(kind, {})
            spread = spreads.get(values)
            if spread is None:
                spread = spreads[values] = Spread([0] * (len(kind.buckets) + 1))
            spread.buckets[bisect.bisect_left(kind.buckets, seconds)] += 1
            spread.count += 1
            spread.total += seconds


# This process's counts (a server is one process: every room adds to these).
TALLY = Tally()
