"""The SQLite archive's schema after its first shape (archive.py's SCHEMA), by
version, kept in `PRAGMA user_version`: each step runs once, in order, in one
transaction, when the server opens the archive. Appended, never edited, like
the fleet's (migrations.py), and doing the same.

Version 1: the names people have, each with its look-alike key (names.py),
unique but for the twins an older archive already held (the first keeps the
key, the later one is marked `twin`: both go on as before, and no new name
may take their key); and the penalties of guessing (guessing.py).

Version 2: the codes of `keys web` and the browser passes they become
(browser_passes.py), until then in a file beside the archive.

Version 3: Glicko-2 ratings: the Elo ratings moved once (glicko_migration.py).

Version 4: each player's conduct in rated games, and their playbans (playbans.py).

Version 5: the tournaments, their entries and their games (tournaments.py).

Version 6: moderation's blocks, bans and mutes, reports, roles, notices and
the append-only moderation log (moderation.py).

Version 7: the names admins changed, old and new (renames.py).

Version 8: each rated game's row of `rating_changes` keeps both players'
deviation and volatility before and after it (what `mod void` gives back);
NULL in the rows of the games rated before: not known.
"""

from __future__ import annotations

import sqlite3
import time

from . import (
    browser_passes,
    glicko_migration,
    moderation,
    playbans,
    renames,
    standings,
    tournaments,
)
from .names import first_keeps

NAMES_AND_PENALTIES = """
CREATE TABLE IF NOT EXISTS names (
    name TEXT PRIMARY KEY,          -- a name someone has here (a person's or a guest's)
    key TEXT NOT NULL,              -- its look-alike key (names.py)
    twin INTEGER NOT NULL DEFAULT 0 -- 1: an older name of the same key, kept as it was
);
CREATE UNIQUE INDEX IF NOT EXISTS names_key ON names (key) WHERE twin = 0;
CREATE INDEX IF NOT EXISTS names_any_key ON names (key);
CREATE TABLE IF NOT EXISTS penalties (
    scope TEXT NOT NULL,            -- 'address', 'name', 'total', 'code-key', 'code-address'
    subject TEXT NOT NULL,
    failures INTEGER NOT NULL,
    last_failure REAL NOT NULL,     -- Unix time
    next_try REAL NOT NULL,         -- Unix time: nothing from it is compared before
    PRIMARY KEY (scope, subject)
);
"""

# Every name an archive of version 0 knows, in the order they came.
KNOWN_NAMES = """
SELECT name FROM (
    SELECT name, added AS since FROM account_keys
    UNION ALL SELECT black, started FROM games
    UNION ALL SELECT white, started FROM games
    UNION ALL SELECT black, started FROM unfinished
    UNION ALL SELECT white, started FROM unfinished
    UNION ALL SELECT name, '9999' FROM ratings
) ORDER BY since, name
"""


def _names_and_penalties(db: sqlite3.Connection) -> None:
    for statement in NAMES_AND_PENALTIES.split(";"):
        if statement.strip():
            db.execute(statement)
    names = [str(row[0]) for row in db.execute(KNOWN_NAMES)]
    db.executemany(
        "INSERT OR IGNORE INTO names (name, key, twin) VALUES (?, ?, ?)",
        [(name, key, int(twin)) for name, key, twin in first_keeps(names)],
    )


def _browser_passes(db: sqlite3.Connection) -> None:
    for statement in browser_passes.schema("TEXT", "REAL").split(";"):
        if statement.strip():
            db.execute(statement)


def _glicko_ratings(db: sqlite3.Connection) -> None:
    for statement in glicko_migration.new_columns("REAL"):
        db.execute(statement)
    rows = db.execute(glicko_migration.ELO_RATINGS).fetchall()
    db.executemany(glicko_migration.MOVE.format("?"), glicko_migration.moved(rows, time.time()))


def _playbans(db: sqlite3.Connection) -> None:
    db.execute(playbans.schema())


def _tournaments(db: sqlite3.Connection) -> None:
    for statement in tournaments.schema("TEXT", "REAL", "INTEGER").split(";"):
        if statement.strip():
            db.execute(statement)


def _moderation(db: sqlite3.Connection) -> None:
    for statement in moderation.schema("sqlite"):
        db.execute(statement)


def _renames(db: sqlite3.Connection) -> None:
    for statement in renames.schema("sqlite"):
        db.execute(statement)


def _rating_deviations(db: sqlite3.Connection) -> None:
    # (The standings' tables are made after the steps, archive.py's: a new file has none yet.)
    db.execute(standings.rating_changes_table("INTEGER", "REAL"))
    for statement in standings.deviation_columns("REAL"):
        db.execute(statement)


STEPS = (
    _names_and_penalties,
    _browser_passes,
    _glicko_ratings,
    _playbans,
    _tournaments,
    _moderation,
    _renames,
    _rating_deviations,
)
NEWEST = len(STEPS)


def upgrade(db: sqlite3.Connection) -> None:
    """Bring the archive's schema up to NEWEST (an autocommit connection)."""
    with db:
        db.execute("BEGIN IMMEDIATE")
        found = int(db.execute("PRAGMA user_version").fetchone()[0])
        for version in range(found + 1, NEWEST + 1):
            STEPS[version - 1](db)
            db.execute(f"PRAGMA user_version = {version}")  # (an int: no parameter allowed)
