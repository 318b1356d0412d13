"""Arena pairing figures (server/hall/tournaments.py, server/ledger/arena.py): an
arena of COUNT players (default 500), ratings drawn around 1500 (sd 200, the
same draw each run). Two figures, in one run:

- the rule alone: the standings counted from GAMES finished games a player
  (default 5, random results) and the pairs of everyone free, as one look of
  the director computes them (tournament_standings.py, arena.arena_pairs);
  median and 90th percentile over REPEATS;
- one look of a node's director on SQLite (the server's own Tables and store in
  this process, no SSH, no game processes): everyone waiting at once, and the
  look that reads the store, claims every pair in it, opens each table and
  keeps each game: how long it took and how many tables it opened; then a
  second look with everyone seated (the reads and the standings alone);
- the same on PostgreSQL (with --postgres, a temporary cluster, or --database
  URL), each statement a round trip.

Measures and prints; asserts nothing:

    nice -n 10 python bench/tournament_pairing.py --count 500 --postgres
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

from tui_reversi.server.hall.fleet_port import Fleet
from tui_reversi.server.hall.tables import Tables
from tui_reversi.server.hall.tournaments import TournamentDirector
from tui_reversi.server.ledger.archive import Archive
from tui_reversi.server.ledger.arena import arena_pairs
from tui_reversi.server.ledger.postgres import PostgresStore
from tui_reversi.server.ledger.store import Store
from tui_reversi.server.ledger.tournament_standings import free_in_order, standings
from tui_reversi.server.ledger.tournaments import (
    ARENA,
    BLACK_WON,
    DRAWN,
    RUNNING,
    WAITING,
    WHITE_WON,
    Entry,
    Tournament,
    TournamentGame,
)


def arena(now: float) -> Tournament:
    return Tournament(0, ARENA, "othello", "3+2", True, 0, 0, now, now + 3600, RUNNING, "bench")


def history(
    count: int, games: int, draw: random.Random
) -> tuple[list[Entry], list[TournamentGame]]:
    """COUNT players waiting, each with about GAMES finished games of random results."""
    names = [f"p{n:04}" for n in range(count)]
    entries = [
        Entry(name, draw.gauss(1500, 200), WAITING, "local", False, None, 0.0) for name in names
    ]
    played = []
    for number in range(count * games // 2):
        black, white = draw.sample(names, 2)
        result = draw.choice((BLACK_WON, WHITE_WON, DRAWN))
        played.append(
            TournamentGame(number, 0, black, white, "", "local", (False, False), result, 30)
        )
    return entries, played


def rule_figures(count: int, games: int, repeats: int) -> None:
    draw = random.Random(1)
    entries, played = history(count, games, draw)
    tournament = arena(0.0)
    times = []
    for _ in range(repeats):
        started = time.perf_counter()
        lines = standings(tournament, entries, played)
        pairs = arena_pairs(free_in_order(lines, entries, played))
        times.append(time.perf_counter() - started)
    times.sort()
    print(
        f"rule: {count} players free, {len(played)} games behind them: standings and "
        f"{len(pairs)} pairs in {statistics.median(times) * 1000:.1f} ms median, "
        f"{times[int(0.9 * (len(times) - 1))] * 1000:.1f} ms 90th percentile ({repeats} runs)"
    )


async def director_figures(count: int, url: str | None = None) -> None:
    draw = random.Random(2)
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        if url is None:
            store: Store = Archive(root / "archive.sqlite3", root / "players")
            where = "SQLite"
        else:
            store = PostgresStore(url, root / "players")
            await store.open()
            where = "PostgreSQL"
        fleet = Fleet(store, people=list, log=lambda _text: None)  # (a fleet of one)
        tables = Tables(lambda _text: None, store, fleet, tables_per_player=2)
        # (not started: no loop of its own, looked at here)
        director = TournamentDirector(store, tables, lambda _text: None)
        number = await store.new_tournament(arena(time.time()))
        for index in range(count):
            rating = draw.gauss(1500, 200)
            await store.enter(number, f"p{index:04}", rating, store.node, time.time())
        started = time.perf_counter()
        await director.look()
        seating = time.perf_counter() - started
        started = time.perf_counter()
        await director.look()
        again = time.perf_counter() - started
        print(
            f"director on {where}: {count} players waiting: one look opened "
            f"{len(tables.tables)} tables in {seating * 1000:.0f} ms "
            f"({seating / max(1, len(tables.tables)) * 1000:.2f} ms a table); "
            f"the next look, everyone seated: {again * 1000:.0f} ms"
        )
        await store.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--count", type=int, default=500, help="players in the arena")
    parser.add_argument(
        "--games", type=int, default=5, help="finished games a player, for the rule"
    )
    parser.add_argument("--repeats", type=int, default=20, help="runs of the rule")
    parser.add_argument("--postgres", action="store_true", help="and on a temporary PostgreSQL")
    parser.add_argument("--database", help="and on this PostgreSQL database")
    options = parser.parse_args()
    rule_figures(options.count, options.games, options.repeats)
    asyncio.run(director_figures(options.count))
    root = Path(__file__).resolve().parent.parent
    sys.path[:0] = [str(root / "bench"), str(root)]
    from pairing import postgres  # (bench/pairing.py's: a migrated database, or a cluster)

    with postgres(options.database, options.postgres) as url:
        if url is not None:
            asyncio.run(director_figures(options.count, url))


if __name__ == "__main__":
    main()
