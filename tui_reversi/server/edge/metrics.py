"""The server's metrics as Prometheus reads them (prometheus_client, imported by
`serve --metrics-port` alone): a registry of the server's own with the process
and platform metrics that come free, and one collector that reads, at scrape
time, the arcade's state (sessions, tables, fleet) and the tally's counts
(tally.py). docs/hosting.md, "Metrics and health", lists every metric."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

from prometheus_client import CollectorRegistry, GCCollector, PlatformCollector, ProcessCollector
from prometheus_client.core import (
    CounterMetricFamily,
    GaugeMetricFamily,
    HistogramMetricFamily,
    Metric,
)
from prometheus_client.registry import Collector

from ..ledger.table_phase import Phase
from ..tally import COUNTERS, HISTOGRAMS, TALLY, Kind, Tally
from .arcade import Arcade

PREFIX = "tui_reversi_"
DOORS = ("ssh", "web")
KINDS = ("keyed", "guest")


def _state(phase: Phase) -> str:
    """A table's state as the metric names it: its listed phase, 'over' once ended."""
    return "over" if phase is Phase.ENDED else phase.listed.value


# Every state, reported at 0 too: open, playing, adjourned, over.
TABLE_STATES = tuple(dict.fromkeys(_state(phase) for phase in Phase))


def server_registry(arcade: Arcade) -> CollectorRegistry:
    """A registry of this server's own (not the library's global one): its
    metrics, and the process's, the platform's and the garbage collector's."""
    registry = CollectorRegistry(auto_describe=True)
    ProcessCollector(registry=registry)  # (each registers itself in the registry given)
    PlatformCollector(registry=registry)
    GCCollector(registry=registry)
    registry.register(ServerCollector(arcade))
    return registry


class ServerCollector(Collector):
    """The arcade's state and the tally's counts, as metrics, when scraped."""

    def __init__(self, arcade: Arcade, tally: Tally = TALLY) -> None:
        self.arcade = arcade
        self.tally = tally

    def collect(self) -> Iterator[Metric]:
        yield self._sessions()
        yield self._tables()
        if self.arcade.health.listening:  # (the fleet is put together by then; of one alone)
            alive = GaugeMetricFamily(
                PREFIX + "fleet_nodes_alive",
                "Nodes of the fleet up when this one last looked, itself among them.",
            )
            alive.add_metric([], self.arcade.fleet.nodes_alive)
            yield alive
        for kind in COUNTERS:
            yield self._counter(kind)
        for kind in HISTOGRAMS:
            yield self._histogram(kind)

    def _sessions(self) -> Metric:
        sessions = GaugeMetricFamily(
            PREFIX + "sessions",
            "People let in now, by door (ssh, web) and kind (keyed: under their own name; guest).",
            labels=["door", "kind"],
        )
        now = Counter(
            (client.way_in, "guest" if client.guest else "keyed")
            for client in self.arcade.connections
            if client.authenticated
        )
        for door in DOORS:
            for kind in KINDS:
                sessions.add_metric([door, kind], now[door, kind])
        return sessions

    def _tables(self) -> Metric:
        tables = GaugeMetricFamily(
            PREFIX + "tables",
            "This node's tables by state: open (one seat taken), playing, adjourned, "
            "over (the game ended, the table not cleared yet).",
            labels=["state"],
        )
        # (put together once the arcade listens: none before)
        every = self.arcade.tables.tables.values() if self.arcade.health.listening else []
        here = [table for table in every if table.node is None]
        now = Counter(_state(table.phase) for table in here)
        for state in TABLE_STATES:
            tables.add_metric([state], now[state])
        return tables

    def _counter(self, kind: Kind) -> Metric:
        counter = CounterMetricFamily(PREFIX + kind.name, kind.meaning, labels=kind.labels)
        counts = self.tally.counts.get(kind, {})
        if not kind.labels and not counts:
            counter.add_metric([], 0)  # (a counter with no labels is there from the start)
        for values, count in sorted(counts.items()):
            counter.add_metric(list(values), count)
        return counter

    def _histogram(self, kind: Kind) -> Metric:
        histogram = HistogramMetricFamily(PREFIX + kind.name, kind.meaning, labels=kind.labels)
        for values, spread in sorted(self.tally.spreads.get(kind, {}).items()):
            bounds = [*(f"{bound:g}" for bound in kind.buckets), "+Inf"]
            cumulative, running = [], 0
            for bound, count in zip(bounds, spread.buckets, strict=True):
                running += count
                cumulative.append((bound, running))
            histogram.add_metric(list(values), cumulative, spread.total)
        return histogram
