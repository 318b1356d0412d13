"""Quick-pairing figures (`play`, server/hall/pairing.py): COUNT players (default
100) join the queue at once, all on the same terms, ratings drawn around 1500
(sd 200, the same draw each run). Three figures, in one run:

- the rule, on a stepped clock: one queue with the server's own tables and a
  SQLite store (a fleet of one: the queue in memory), a pass after each join;
  how long the joins took, how many were seated during them, how long one
  pass over the queue takes, and (the clock stepped a second at a time, the
  window widening as it does) how many seconds of waiting it took to pair
  everyone;
- one node, served: a real `serve` (edge/arcade.py's Arcade, in this process,
  its SQLite store: the queue in memory), the players put in its queue at
  once; from each join until the player is told their seat (the callback the
  SSH session's wait gets), median, 95th percentile and last;
- two nodes on PostgreSQL (with --postgres, or --database URL): two `serve`
  nodes in this process on one real PostgreSQL, the players put half in each
  node's queue at once: the same figure, the queue being the fleet's (the
  seekers in the database, each join NOTIFYing the other node, pairs claimed
  in a transaction, a seeker on the other node told their seat by a message).

Real time for the served figures: a pair whose ratings are further apart than
the first window waits for it to widen (10 points a second), as in play. No
SSH and no games started: what is timed is the queue, the store and the
messages between nodes. Both nodes share this process's event loop. Measures
and prints; asserts nothing:

    nice -n 10 python bench/pairing.py --postgres
    nice -n 10 python bench/community.py --pairing-only --postgres   (the same)
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT)]

from tui_reversi.core import Variant  # noqa: E402
from tui_reversi.net.terms import TimeControl  # noqa: E402
from tui_reversi.server.hall.fleet_port import Fleet  # noqa: E402
from tui_reversi.server.hall.pairing import WIDENING, WINDOW, PairingQueue, Seeker  # noqa: E402
from tui_reversi.server.hall.tables import Tables  # noqa: E402
from tui_reversi.server.ledger.archive import Archive  # noqa: E402

# The longest the served figures wait for everyone to be seated (seconds).
GIVE_UP = 90.0


def drawn(count: int, seed: int) -> list[Seeker]:
    chooser = random.Random(seed)
    clock = TimeControl.parse("5+3")
    return [
        # Settled players (deviation 60): the window starts at pairing.WINDOW.
        Seeker(f"p{n}", chooser.gauss(1500, 200), Variant.OTHELLO, clock, False, False, 60.0)
        for n in range(count)
    ]


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


async def the_rule(directory: Path, count: int, seed: int) -> None:
    now = [0.0]
    store = Archive(directory / "rule.sqlite3", directory / "rule-players")
    fleet = Fleet(store, people=list, log=lambda text: None)
    tables = Tables(lambda text: None, store, fleet)
    queue = PairingQueue(tables, store, fleet, lambda text: None, now=lambda: now[0])
    paired_at: dict[str, float] = {}

    def seated(name: str) -> Callable[[str, str], None]:
        return lambda secret, code: paired_at.setdefault(name, now[0])

    seekers = drawn(count, seed)
    start = time.perf_counter()
    for seeker in seekers:  # (a pass after each join, as when they come one by one)
        queue.join(seeker, seated(seeker.name))
        await queue.pair()
    joined = (time.perf_counter() - start) * 1000
    at_once = len(paired_at)
    passes: list[float] = []
    while queue.seekers and now[0] < 600:
        now[0] += 1.0
        start = time.perf_counter()
        await queue.pair()
        passes.append((time.perf_counter() - start) * 1000)
    waits = sorted(paired_at.values())
    print(
        f"Pairing, {count} players joining at once (window {WINDOW:g} points, "
        f"+{WIDENING:g} a second):"
    )
    print(f"  the rule, clock stepped: the {count} joins, a pass after each: {joined:.1f} ms; "
          f"{at_once} seated during them")  # fmt: skip
    if passes:
        print(
            f"  one pass over the queue: median {statistics.median(passes):.2f} ms, "
            f"slowest {max(passes):.2f} ms"
        )
    print(
        f"  waited to be paired: median {statistics.median(waits):.0f} s, "
        f"90th percentile {waits[int(len(waits) * 0.9) - 1]:.0f} s, last {waits[-1]:.0f} s; "
        f"{len(queue.seekers)} left alone"
    )
    for seeker in queue.seekers:
        queue.leave(seeker)
    await queue.close()
    await tables.close()
    await store.close()


async def served(label: str, nodes: list, count: int, seed: int) -> None:
    """The players put in the nodes' queues (in turn) at once; join to seat, real time."""
    joined_at: dict[str, float] = {}
    seated_at: dict[str, float] = {}
    everyone = asyncio.Event()

    def seated(name: str) -> Callable[[str, str], None]:
        def told(secret: str, code: str) -> None:
            seated_at[name] = time.perf_counter()
            if len(seated_at) == count:
                everyone.set()

        return told

    for number, seeker in enumerate(drawn(count, seed)):
        joined_at[seeker.name] = time.perf_counter()
        nodes[number % len(nodes)].pairing.join(seeker, seated(seeker.name))
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(everyone.wait(), GIVE_UP)
    waits = [seated_at[name] - joined_at[name] for name in seated_at]
    first = sum(wait < 1.0 for wait in waits)
    print(
        f"  {label}: join to seated: median {statistics.median(waits) * 1000:.0f} ms, "
        f"95th percentile {percentile(waits, 0.95) * 1000:.0f} ms, "
        f"last {max(waits):.1f} s; {first} seated within 1 s; "
        f"{count - len(waits)} not seated in {GIVE_UP:g} s"
    )
    for node in nodes:
        for seeker in node.pairing.seekers:
            node.pairing.leave(seeker)


async def nodes_served(
    directory: Path, database: str | None, count: int, seed: int, label: str
) -> None:
    from tui_reversi.server.config import ServeConfig
    from tui_reversi.server.edge.arcade import Arcade

    nodes = []
    try:
        for name in ("a", "b") if database is not None else ("alone",):
            config = ServeConfig(
                data_dir=directory / name,
                host="127.0.0.1",
                port=0,
                preload=False,
                database=database,
            )
            node = Arcade(config, log=lambda text: None)
            await node.start()
            nodes.append(node)
        if database is not None:  # (each node sees the other up before the joins)
            while any([len(await node.store.live_nodes()) < 2 for node in nodes]):
                await asyncio.sleep(0.05)
        await served(label, nodes, count, seed)
    finally:
        for node in nodes:
            await node.close()


@contextlib.contextmanager
def postgres(url: str | None, wanted: bool) -> Iterator[str | None]:
    """A database for the fleet's figures: `url` (migrated), a temporary cluster if
    `wanted`, else None."""
    from tui_reversi.server.ledger.postgres import migrate_database

    if url is not None or not wanted:
        if url is not None:
            migrate_database(url)
        yield url
        return
    from tests.server.postgres_cluster import Cluster, find_bin

    bin_dir = find_bin()
    if bin_dir is None:
        raise SystemExit("no PostgreSQL found: install postgresql, or give --database URL")
    cluster = Cluster(bin_dir)
    cluster.start()
    try:
        url = cluster.database()
        migrate_database(url)
        yield url
    finally:
        cluster.stop()


def figures(count: int, url: str | None, wanted: bool, seed: int = 2) -> None:
    """Print every pairing figure (the fleet's if a PostgreSQL is given or `wanted`)."""
    with tempfile.TemporaryDirectory(prefix="bench-pairing-") as temporary:
        directory = Path(temporary)
        asyncio.run(the_rule(directory, count, seed))
        asyncio.run(nodes_served(directory, None, count, seed, "one node (SQLite), served"))
        with postgres(url, wanted) as database:
            if database is not None:
                label = "two nodes (PostgreSQL), served"
                asyncio.run(nodes_served(directory, database, count, seed, label))


def main() -> None:
    assert __doc__ is not None
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--queueing", type=int, default=100, help="players pairing at once")
    parser.add_argument("--postgres", action="store_true", help="two nodes on a temporary one")
    parser.add_argument("--database", help="two nodes on this PostgreSQL database")
    args = parser.parse_args()
    print(f"load average before: {os.getloadavg()[0]:.2f}")
    figures(args.queueing, args.database, args.postgres)
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
