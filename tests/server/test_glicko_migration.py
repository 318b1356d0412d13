"""The one move of the Elo ratings kept before to Glicko-2, on both stores:
an SQLite archive from before its Glicko-2 step (archive_schema.py) and a fleet's
PostgreSQL before its Glicko-2 step (migrations.py), each holding Elo ratings,
opened by this release. Each rating keeps its number, a name resting on 10
rated games or more is settled and one on fewer provisional, as Elo said; a
settled name away for years is provisional again; games rate on by Glicko-2."""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime, timedelta

import psycopg

from tui_reversi.core import Color
from tui_reversi.server.ledger import archive_schema
from tui_reversi.server.ledger.archive import SCHEMA, Archive
from tui_reversi.server.ledger.migrations import MIGRATIONS, NEWEST
from tui_reversi.server.ledger.postgres import migrate_database
from tui_reversi.server.ledger.ratings import from_elo
from tui_reversi.server.ledger.store import Store

from .test_store import opened, played

NOW = datetime.now(UTC)
# name, Elo rating, rated games, when their last rated game ended.
ELO = (
    ("alice", 1620.0, 12, NOW - timedelta(days=2)),  # established: settled
    ("bob", 1480.0, 3, NOW - timedelta(days=1)),  # provisional (fewer than 10 games)
    ("carol", 1750.0, 30, NOW - timedelta(days=3 * 365)),  # established, then years away
)
ELO_GAME = (
    "INSERT INTO games (code, variant, black, white, moves, winner, ending, description, "
    "started, ended) VALUES ({0}, 'othello', {0}, {0}, 'f5', 'black', 'resigned', 'It ended.', "
    "{0}, {0})"
)


def elo_rows() -> list[tuple[object, ...]]:
    """A game each player won last (its end their last rated game's) and their Elo rows."""
    return [(f"G{name[:4]}", name, "someone", ended, ended) for name, _, _, ended in ELO]


async def assert_moved_to_glicko(store: Store) -> None:
    try:
        read = await store.ratings([name for name, *_ in ELO])
        alice, bob, carol = read.values()
        assert (alice.rating, alice.games, alice.shown) == (1620.0, 12, "1620")
        moved = from_elo(1620.0, 12).deviation  # (then two days away: a little more)
        assert moved < alice.deviation < moved + 1.0 < 110.0
        assert (bob.rating, bob.games, bob.shown) == (1480.0, 3, "1480?")
        assert (carol.rating, carol.games, carol.shown) == (1750.0, 30, "1750?")  # (time away)
        assert [standing.name for standing in await store.leaderboard(10)] == ["alice"]
        # Rated on by Glicko-2 from there: bob, less sure, moves further than alice.
        await store.keep(played("AFTER", ("bob", "alice"), Color.BLACK))
        after_alice, after_bob = await store.rating("alice"), await store.rating("bob")
        assert 0.0 < 1620.0 - after_alice.rating < after_bob.rating - 1480.0
        assert after_bob.deviation < bob.deviation and after_alice.games == 13
    finally:
        await store.close()


async def test_an_sqlite_archive_of_elo_ratings_moves_to_glicko_once(tmp_path):
    path = tmp_path / "archive.sqlite3"
    with sqlite3.connect(path) as db:  # as the release before left it, with Elo ratings
        db.executescript(SCHEMA)
        for row in elo_rows():
            db.execute(ELO_GAME.format("?"), tuple(str(value) for value in row))
        for name, rating, games, _ in ELO:
            db.execute(
                "INSERT INTO ratings (name, rating, games) VALUES (?, ?, ?)", (name, rating, games)
            )
    await assert_moved_to_glicko(Archive(path, tmp_path / "players"))
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == archive_schema.NEWEST
    # Opened again: moved once, not again (alice's game since is Glicko-2's).
    again = Archive(path, tmp_path / "players")
    assert (await again.rating("alice")).games == 13
    await again.close()


async def test_a_fleet_database_of_elo_ratings_moves_to_glicko_once(postgres, tmp_path):
    url = postgres.database()
    (step,) = [n for n, (what, _) in enumerate(MIGRATIONS) if what.startswith("Glicko-2")]
    with psycopg.connect(url, autocommit=True) as conn, conn.transaction():
        conn.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)")
        conn.execute("INSERT INTO schema_version VALUES (%s)", (step,))
        for _, script in MIGRATIONS[:step]:  # the schema as the release before left it
            if isinstance(script, str):
                conn.execute(script.encode())
            else:
                script(conn)
        for row in elo_rows():
            conn.execute(ELO_GAME.format("%s").encode(), row)
        for name, rating, games, _ in ELO:
            conn.execute(
                "INSERT INTO ratings (name, rating, games) VALUES (%s, %s, %s)",
                (name, rating, games),
            )
    assert migrate_database(url) == (step, NEWEST)
    await assert_moved_to_glicko(await opened(url, tmp_path / "players"))
    assert migrate_database(url) == (NEWEST, NEWEST)  # once
