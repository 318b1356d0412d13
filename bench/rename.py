"""How long an admin's rename (`mod rename`, ledger/renames.py) holds the store.

It fills a SQLite archive (and, with --database URL, a migrated PostgreSQL)
with P players who played G finished games among themselves (their rows in
games, ratings, rating_changes and records written straight, as the archive
would have them after G games), gives the renamed player a share of them,
then times `rename_player` a few times (renaming the same player on and on).
On SQLite the server's event loop waits for the whole transaction (sqlite3
runs on it), so this is also how long every player on a server alone waits.

Prints figures only (never asserts a duration); compare runs made on the same
machine at the same time.

    python bench/rename.py                     # 2,000 players, 200,000 games
    python bench/rename.py --players 500 --games 20000 --renames 5
    python bench/rename.py --database postgresql://localhost/bench_db
"""

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tui_reversi.server.ledger.archive import Archive
from tui_reversi.server.ledger.moderation import LogEntry
from tui_reversi.server.ledger.names import name_key
from tui_reversi.server.ledger.renames import Rename
from tui_reversi.server.ledger.store import Store

ENDED = "2026-12-01T12:00:00+00:00"


def rows(players: int, games: int, seed: int) -> dict[str, list[tuple[object, ...]]]:
    """The rows of `games` games among `players` players (p0 plays a tenth of them)."""
    rng = random.Random(seed)
    names = [f"p{number}" for number in range(players)]
    played: list[tuple[object, ...]] = []
    changes: list[tuple[object, ...]] = []
    records: dict[tuple[str, str], list[int]] = {}
    for game in range(1, games + 1):
        black = "p0" if game % 10 == 0 else rng.choice(names)
        white = rng.choice([name for name in names[:50] if name != black])
        winner = rng.choice(("black", "white", "draw"))
        played.append(
            (game, "CODE", "othello", black, white, "f5d6", winner, "board", 33, 31, "", ENDED)
        )
        for name, other, side in ((black, white, "black"), (white, black, "white")):
            changes.append((name, game, 1500.0, 1.0))
            won, drawn = winner == side, winner == "draw"
            for key in ((name, other), (name, "")):
                counts = records.setdefault(key, [0, 0, 0, 0])
                counts[0 if won else 2 if drawn else 1] += 1
                counts[3] += 1
    return {
        "games": played,
        "rating_changes": changes,
        "records": [(n, o, w, lost, d, g, ENDED) for (n, o), (w, lost, d, g) in records.items()],
        "ratings": [(name, 1500.0, 10, 200.0, 0.06, 0.0, 0.0) for name in names],
        "names": [(name, name_key(name), False) for name in names],
    }


INSERTS = {
    "games": "INSERT INTO games (id, code, variant, black, white, moves, winner, ending, "
    "black_score, white_score, description, started, ended) VALUES "
    "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
    "rating_changes": "INSERT INTO rating_changes (name, game, rating, change) VALUES (?, ?, ?, ?)",
    "records": "INSERT INTO records (name, opponent, wins, losses, draws, games, last) "
    "VALUES (?, ?, ?, ?, ?, ?, ?)",
    "ratings": "INSERT INTO ratings (name, rating, games, deviation, volatility, rated_at, "
    "settled_until) VALUES (?, ?, ?, ?, ?, ?, ?)",
    "names": "INSERT INTO names (name, key, twin) VALUES (?, ?, ?)",
}


def fill_sqlite(archive: Archive, filled: dict[str, list[tuple[object, ...]]]) -> None:
    db = archive._db
    with db:
        db.execute("BEGIN")
        for table, values in filled.items():
            insert = INSERTS[table]
            if table == "games":  # (started and ended: one value twice)
                values = [(*row[:-1], row[-1], row[-1]) for row in values]
            db.executemany(insert, values)


async def fill_postgres(url: str, filled: dict[str, list[tuple[object, ...]]]) -> None:
    import psycopg

    async with await psycopg.AsyncConnection.connect(url) as conn, conn.cursor() as cursor:
        for table, values in filled.items():
            insert = INSERTS[table].replace("?", "%s")
            if table == "games":
                values = [(*row[:-1], row[-1], row[-1]) for row in values]
            await cursor.executemany(insert.encode(), values)


async def time_renames(store: Store, renames: int) -> list[float]:
    taken: list[float] = []
    name = "p0"
    for number in range(1, renames + 1):
        new = f"renamed{number}"
        entry = LogEntry(0, time.time(), "bench", "rename", name, f"to {new}", None)
        start = time.perf_counter()
        await store.rename_player(Rename(0, name, new, "bench", time.time()), entry)
        taken.append(time.perf_counter() - start)
        name = new
    return taken


def report(where: str, taken: list[float], games: int) -> None:
    print(
        f"{where}: rename of a player with {games // 10:,} of the games: "
        f"median {statistics.median(taken) * 1000:.0f} ms, "
        f"max {max(taken) * 1000:.0f} ms over {len(taken)} renames"
    )


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=2000)
    parser.add_argument("--games", type=int, default=200_000)
    parser.add_argument("--renames", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--database", help="also a migrated, empty PostgreSQL (its URL)")
    options = parser.parse_args()
    filled = rows(options.players, options.games, options.seed)
    print(
        f"{options.players:,} players, {options.games:,} games, {len(filled['records']):,} records"
    )
    with tempfile.TemporaryDirectory() as directory:
        archive = Archive(Path(directory) / "archive.sqlite3", Path(directory) / "players")
        fill_sqlite(archive, filled)
        report("SQLite", await time_renames(archive, options.renames), options.games)
        await archive.close()
        if options.database:
            from tui_reversi.server.ledger.postgres import PostgresStore

            await fill_postgres(options.database, filled)
            store = PostgresStore(options.database, Path(directory) / "players")
            await store.open()
            try:
                report("PostgreSQL", await time_renames(store, options.renames), options.games)
            finally:
                await store.close()


if __name__ == "__main__":
    asyncio.run(main())
