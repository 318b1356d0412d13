"""Standings figures: `ssh host top` and `ssh host player NAME` on a big archive.

Generates (in a temporary directory, never kept) an archive of 10,000 players
and 1,000,000 finished games, every one rated: players' activity falls off as
1/(n + 10), so the busiest player has some 30,000 games and the median one
about 60; the ratings, each game's move of both ratings and the players'
records (whole and against each opponent) are written as the server keeps them.
Then, through the store interface (server/ledger/standings.py's queries):

- the query plan of every statement `top` and `player` run (EXPLAIN QUERY PLAN
  on SQLite, EXPLAIN on PostgreSQL): each reads an index, none scans a table;
- `leaderboard(20)` (`top`), `profile(NAME, 10)` (`player NAME`) for the busiest
  player and for a median one, and `archived_game(ID)` (`replay ID`): median
  and slowest of 20 calls each, in ms (the target: under 100 ms);
- the ratings beside the names of a lobby of 200 people: one `ratings(NAMES)`
  read against a `rating(NAME)` for each, as the lobby read them before; and
  200 lookers' own results: one `records(NAMES)` against a `results(NAME)`
  each, as the app's lobby read them every second before.

SQLite always; PostgreSQL too with --postgres (a temporary cluster, the
machine's initdb, as the tests start one) or --database URL (an empty
database: it is migrated and filled).

First, quick pairing (`play`): bench/pairing.py's figures, 100 players joining
the queue at once, on one node and (with --postgres or --database) on two
nodes of one PostgreSQL, from join to seated. Measures and prints; asserts
nothing:

    nice -n 10 python bench/community.py
    nice -n 10 python bench/community.py --postgres
    nice -n 10 python bench/community.py --pairing-only --postgres
    nice -n 10 python bench/community.py --players 1000 --games 100000
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "bench"), str(ROOT)]

import pairing  # noqa: E402  (bench/pairing.py)

from tui_reversi.server.ledger import standings  # noqa: E402
from tui_reversi.server.ledger.archive import Archive  # noqa: E402
from tui_reversi.server.ledger.store import Store  # noqa: E402

MOVES = "f5d6c3d3c4f4f6f3e6e7"  # every archived game's moves (their length does not matter)
FIRST_ENDED = datetime(2025, 1, 1, tzinfo=UTC)
CALLS = 20
LOBBY = 200  # people in a lobby whose ratings are read beside their names


def player_name(number: int) -> str:
    return f"player{number:05}"


def generated(players: int, games: int, seed: int = 1) -> Iterator[tuple[Any, ...]]:
    """Rows (id, black, white, winner, ended, black's change, white's change)."""
    chooser = random.Random(seed)
    weights = [1.0 / (number + 10) for number in range(players)]
    numbers = list(range(players))
    pairs = chooser.choices(numbers, weights, k=2 * games)
    for game_id in range(1, games + 1):
        black, white = pairs[2 * game_id - 2], pairs[2 * game_id - 1]
        if black == white:
            white = (white + 1) % players
        winner = chooser.choice(("black", "white", "white", "black", "draw"))
        change = {"black": 16.0, "white": -16.0, "draw": 0.0}[winner]
        ended = FIRST_ENDED + timedelta(seconds=30 * game_id)
        yield game_id, player_name(black), player_name(white), winner, ended, change, -change


def fill(
    write: Callable[[str, list[tuple[Any, ...]]], None], players: int, games: int
) -> dict[str, int]:
    """Write the games, rating changes and ratings through `write(table, rows)`;
    each player's number of games."""
    counts: dict[str, int] = {}
    ratings: dict[str, float] = {}
    # (name, opponent) -> [wins, losses, draws, games, last]; opponent '' for the whole record
    records: dict[tuple[str, str], list[Any]] = {}
    chunk: list[tuple[Any, ...]] = []
    changes: list[tuple[Any, ...]] = []
    for game_id, black, white, winner, ended, black_change, white_change in generated(
        players, games
    ):
        chunk.append(
            (
                game_id,
                "BENCH",
                "othello",
                black,
                white,
                MOVES,
                winner,
                "board",
                None,
                None,
                "bench",
                ended - timedelta(seconds=25),
                ended,
            )
        )
        for name, opponent, won in ((black, white, "black"), (white, black, "white")):
            for against in ("", opponent):
                record = records.setdefault((name, against), [0, 0, 0, 0, ended])
                record[0] += winner == won
                record[1] += winner not in (won, "draw")
                record[2] += winner == "draw"
                record[3] += 1
                record[4] = ended
        for name, change in ((black, black_change), (white, white_change)):
            counts[name] = counts.get(name, 0) + 1
            ratings[name] = ratings.get(name, 1500.0) + change / 4
            changes.append((name, game_id, ratings[name], change / 4))
        if len(chunk) == 50_000:
            write("games", chunk)
            write("rating_changes", changes)
            chunk, changes = [], []
    write("games", chunk)
    write("rating_changes", changes)
    write("ratings", [(name, ratings[name], counts[name]) for name in counts])
    rows = [(*key, *record) for key, record in records.items()]
    for start in range(0, len(rows), 50_000):
        write("records", rows[start : start + 50_000])
    return counts


_COLUMNS = {
    "games": "id, code, variant, black, white, moves, winner, ending, black_score, "
    "white_score, description, started, ended",
    "rating_changes": "name, game, rating, change",
    "ratings": "name, rating, games",
    "records": "name, opponent, wins, losses, draws, games, last",
}


def sqlite_writer(db: sqlite3.Connection) -> Callable[[str, list[tuple[Any, ...]]], None]:
    def write(table: str, rows: list[tuple[Any, ...]]) -> None:
        columns = _COLUMNS[table]
        marks = ", ".join("?" * len(columns.split(",")))
        text_rows = [
            tuple(v.isoformat(timespec="seconds") if isinstance(v, datetime) else v for v in row)
            for row in rows
        ]
        db.executemany(f"INSERT INTO {table} ({columns}) VALUES ({marks})", text_rows)

    return write


def postgres_writer(conn: Any) -> Callable[[str, list[tuple[Any, ...]]], None]:
    def write(table: str, rows: list[tuple[Any, ...]]) -> None:
        with (
            conn.cursor() as cursor,
            cursor.copy(f"COPY {table} ({_COLUMNS[table]}) FROM STDIN".encode()) as copy,
        ):
            for row in rows:
                copy.write_row(row)

    return write


class Recorder:
    """A standings `Query` that also keeps each statement it ran, for the plans."""

    def __init__(self, query: standings.Query) -> None:
        self.query = query
        self.statements: dict[str, tuple[object, ...]] = {}

    async def __call__(self, sql: str, params: tuple[object, ...]) -> list[tuple[Any, ...]]:
        self.statements.setdefault(sql, params)
        return await self.query(sql, params)


async def timings(call: Callable[[], Awaitable[object]]) -> str:
    spent = []
    for _ in range(CALLS):
        start = time.perf_counter()
        await call()
        spent.append((time.perf_counter() - start) * 1000)
    return f"median {statistics.median(spent):6.1f} ms, slowest {max(spent):6.1f} ms"


async def report(
    store: Store,
    query: standings.Query,
    explain: Callable[[str, tuple[object, ...]], list[str]],
    counts: dict[str, int],
) -> None:
    busiest = max(counts, key=counts.__getitem__)
    median = sorted(counts, key=counts.__getitem__)[len(counts) // 2]
    recorder = Recorder(query)
    await standings.leaderboard(recorder, 20)
    await standings.profile(recorder, busiest, 10)
    print("  query plans (each statement top and player run):")
    for sql, params in recorder.statements.items():
        print(
            "    "
            + " ".join(sql.split())[:110]
            + ("..." if len(" ".join(sql.split())) > 110 else "")
        )
        for plan in explain(sql, params):
            print(f"      {plan}")
    profile = await store.profile(busiest, 10)
    assert profile is not None
    print(f"  top 20:                              {await timings(lambda: store.leaderboard(20))}")
    print(
        f"  player (busiest, {counts[busiest]:>6} games):       "
        f"{await timings(lambda: store.profile(busiest, 10))}"
    )
    print(
        f"  player (median,  {counts[median]:>6} games):       "
        f"{await timings(lambda: store.profile(median, 10))}"
    )
    game_id = profile.games[0].id
    replay = await timings(lambda: store.archived_game(game_id))
    print(f"  replay (one game by id):             {replay}")
    names = sorted(counts)[:LOBBY]

    async def one_by_one(read: Callable[[str], Awaitable[object]]) -> None:
        for name in names:
            await read(name)

    at_once = await timings(lambda: store.ratings(names))
    print(f"  {f'a lobby of {LOBBY}: ratings in one read:':<36} {at_once}")
    each = await timings(lambda: one_by_one(store.rating))
    print(f"  {'the same, a read a name:':<36} {each}")
    # The app's lobby: each looker's own results, for all of them at once.
    records = await timings(lambda: store.records(names))
    print(f"  {f'{LOBBY} lookers: results in one read:':<36} {records}")
    each = await timings(lambda: one_by_one(store.results))
    print(f"  {'the same, a read a name:':<36} {each}")


async def bench_sqlite(directory: Path, players: int, games: int) -> None:
    path = directory / "archive.sqlite3"
    await Archive(path, directory / "players").close()  # the schema, indexes and all
    db = sqlite3.connect(path, isolation_level=None)
    start = time.perf_counter()
    db.execute("BEGIN")
    counts = fill(sqlite_writer(db), players, games)
    db.execute("COMMIT")
    db.execute("ANALYZE")
    db.close()
    print(
        f"SQLite: {games:,} games of {len(counts):,} players written in "
        f"{time.perf_counter() - start:.0f} s ({path.stat().st_size / 1e6:.0f} MB)"
    )
    store = Archive(path, directory / "players")
    plans = sqlite3.connect(path)

    def explain(sql: str, params: tuple[object, ...]) -> list[str]:
        return [str(row[3]) for row in plans.execute(f"EXPLAIN QUERY PLAN {sql}", params)]

    await report(store, store._rows, explain, counts)
    await store.close()


async def bench_postgres(url: str, directory: Path, players: int, games: int) -> None:
    import psycopg

    from tui_reversi.server.ledger.postgres import PostgresStore, migrate_database

    migrate_database(url)
    start = time.perf_counter()
    with psycopg.connect(url) as conn:
        counts = fill(postgres_writer(conn), players, games)
        conn.commit()
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("SELECT setval('games_id_seq', (SELECT max(id) FROM games))")
        conn.execute("VACUUM ANALYZE")
    print(
        f"PostgreSQL: {games:,} games of {len(counts):,} players written in "
        f"{time.perf_counter() - start:.0f} s"
    )
    store = PostgresStore(url, directory / "players")
    await store.open()
    plans = psycopg.connect(url, autocommit=True)

    def explain(sql: str, params: tuple[object, ...]) -> list[str]:
        rows = plans.execute(f"EXPLAIN {sql.replace('?', '%s')}".encode(), params).fetchall()
        return [str(row[0]).strip() for row in rows]

    await report(store, store._rows, explain, counts)
    plans.close()
    await store.close()


def main() -> None:
    assert __doc__ is not None
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=10_000)
    parser.add_argument("--games", type=int, default=1_000_000)
    parser.add_argument("--postgres", action="store_true", help="also on a temporary PostgreSQL")
    parser.add_argument("--database", help="also on this (empty) PostgreSQL database")
    parser.add_argument("--queueing", type=int, default=100, help="players pairing at once")
    parser.add_argument("--pairing-only", action="store_true", help="only the pairing figures")
    args = parser.parse_args()
    print(f"load average before: {os.getloadavg()[0]:.2f}")
    pairing.figures(args.queueing, args.database, args.postgres)
    if args.pairing_only:
        return
    with tempfile.TemporaryDirectory(prefix="bench-community-") as temporary:
        directory = Path(temporary)
        asyncio.run(bench_sqlite(directory, args.players, args.games))
        url, cluster = args.database, None
        if args.postgres and url is None:
            from tests.server.postgres_cluster import Cluster, find_bin

            bin_dir = find_bin()
            if bin_dir is None:
                raise SystemExit("no PostgreSQL found: install postgresql, or give --database URL")
            cluster = Cluster(bin_dir)
            cluster.start()
            url = cluster.database()
        try:
            if url is not None:
                asyncio.run(bench_postgres(url, directory, args.players, args.games))
        finally:
            if cluster is not None:
                cluster.stop()
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
