"""The PostgreSQL schema of a fleet, by version: `serve --database URL --migrate`
brings a database up to the newest one; a node starts only on the version it
knows (postgres.py checks), so two releases never write one schema two ways.

A migration is appended, never edited: a database at version N has run
exactly the first N scripts. Each runs in one transaction, under an advisory
lock, so two nodes migrating at once do it once.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable

import psycopg

from ..config import ServeError
from . import browser_passes, glicko_migration, moderation, playbans, renames, tournaments
from .fleet_seal import LEAST_SECRET
from .names import first_keeps
from .ratings import FIRST_DEVIATION
from .standings import BACKFILL, deviation_columns, schema

# Taken while migrating: one node at a time (any constant the fleet agrees on).
MIGRATION_LOCK = 0x7475_6972_7665_7273


def enter_known_names(conn: psycopg.Connection) -> None:
    """Every name the database knows, with its look-alike key (version 4, and an
    archive imported): of two names with one key the older keeps it, the later is
    kept as a twin."""
    rows = conn.execute(
        """SELECT name FROM (
               SELECT name, added AS since FROM account_keys
               UNION ALL SELECT black, started FROM games
               UNION ALL SELECT white, started FROM games
               UNION ALL SELECT black, started FROM unfinished
               UNION ALL SELECT white, started FROM unfinished
               UNION ALL SELECT name, 'infinity'::timestamptz FROM ratings
           ) AS known ORDER BY since, name"""
    ).fetchall()
    with conn.cursor() as cursor:
        cursor.executemany(
            "INSERT INTO names (name, key, twin) VALUES (%s, %s, %s) ON CONFLICT DO NOTHING",
            first_keeps([str(row[0]) for row in rows]),
        )


def move_ratings_to_glicko(conn: psycopg.Connection) -> None:
    """The Elo ratings moved to Glicko-2, once (glicko_migration.py); the pairing
    queue's seekers gain their deviation (pairing's window widens with it)."""
    for statement in glicko_migration.new_columns("DOUBLE PRECISION"):
        conn.execute(statement.encode())
    conn.execute(
        "ALTER TABLE seekers ADD COLUMN deviation DOUBLE PRECISION NOT NULL "
        f"DEFAULT {FIRST_DEVIATION}".encode()
    )
    rows = conn.execute(glicko_migration.ELO_RATINGS.encode()).fetchall()
    with conn.cursor() as cursor:
        cursor.executemany(
            glicko_migration.MOVE.format("%s").encode(), glicko_migration.moved(rows, time.time())
        )


# Where the fleet's secret is kept (fleet_seal.py): a schema of its own that no role but
# its owner, the one that migrates (the nodes' role), may use, so that a role given
# SELECT on the tables in `public` (a reporting role) cannot read it.
SECRET_SCHEMA = "tui_reversi_fleet"
SECRET_TABLE = f"{SECRET_SCHEMA}.secret"


def make_moderation(conn: psycopg.Connection) -> None:
    """Blocks, bans and mutes, reports, roles, notices and the moderation log, whose
    rows a trigger keeps as written (moderation.py)."""
    for statement in moderation.schema("postgresql"):
        conn.execute(statement.encode())  # (fixed text, no parameters)


def make_renames(conn: psycopg.Connection) -> None:
    """The names admins changed, old and new (renames.py)."""
    for statement in renames.schema("postgresql"):
        conn.execute(statement.encode())  # (fixed text, no parameters)


def keep_rating_deviations(conn: psycopg.Connection) -> None:
    """Each rated game's deviations and volatilities, before and after it, beside its
    change of rating; NULL (not known) in the rows of the games rated before."""
    for statement in deviation_columns("DOUBLE PRECISION"):
        conn.execute(statement.encode())  # (fixed text, no parameters)


def make_fleet_secret(conn: psycopg.Connection) -> None:
    """The secret every node seals its messages with: 32 random bytes, readable by
    the owner (and superusers) only."""
    conn.execute(f"CREATE SCHEMA {SECRET_SCHEMA}".encode())  # (constant names)
    conn.execute(f"REVOKE ALL ON SCHEMA {SECRET_SCHEMA} FROM PUBLIC".encode())
    conn.execute(f"CREATE TABLE {SECRET_TABLE} (key BYTEA NOT NULL)".encode())
    conn.execute(f"REVOKE ALL ON {SECRET_TABLE} FROM PUBLIC".encode())
    conn.execute(
        f"INSERT INTO {SECRET_TABLE} (key) VALUES (%s)".encode(),
        (secrets.token_bytes(LEAST_SECRET),),
    )


# A step: a fixed SQL script, or a function run on the connection after the ones before.
Step = str | Callable[[psycopg.Connection], None]

MIGRATIONS: tuple[tuple[str, Step], ...] = (
    (
        "the archive, ratings, games kept not over, and the nodes of the fleet",
        """
        CREATE TABLE games (
            id BIGSERIAL PRIMARY KEY,
            code TEXT NOT NULL,             -- the table's code
            variant TEXT NOT NULL,          -- othello, reversi or anti
            black TEXT NOT NULL,            -- player names, as SSH authenticated them
            white TEXT NOT NULL,
            moves TEXT NOT NULL,            -- the transcript (passes implied)
            winner TEXT CHECK (winner IN ('black', 'white', 'draw')),  -- NULL: no result
            ending TEXT NOT NULL,           -- board, resigned, time, forfeit or left
            black_score INTEGER,            -- World Othello Federation count, when played out
            white_score INTEGER,
            description TEXT NOT NULL,      -- the sentence both players were told
            started TIMESTAMPTZ NOT NULL,
            ended TIMESTAMPTZ NOT NULL
        );
        CREATE INDEX games_black ON games (black);
        CREATE INDEX games_white ON games (white);
        CREATE TABLE ratings (
            name TEXT PRIMARY KEY,
            rating DOUBLE PRECISION NOT NULL,
            games INTEGER NOT NULL
        );
        CREATE TABLE nodes (
            id TEXT PRIMARY KEY,            -- a node's name, new each time it starts
            backend_pid INTEGER NOT NULL,   -- its listening connection: up while that is
            backend_start TIMESTAMPTZ NOT NULL,
            people JSONB NOT NULL DEFAULT '[]',  -- its share of the lobby
            tables JSONB NOT NULL DEFAULT '{}',  -- code -> the table as the lobby shows it
            started TIMESTAMPTZ NOT NULL DEFAULT now()
        );
        -- A node is up while its listening connection is: a node killed with
        -- kill -9 drops out the moment the kernel closes its socket.
        CREATE VIEW live_nodes AS
            SELECT nodes.* FROM nodes JOIN pg_stat_activity AS activity
                ON activity.pid = nodes.backend_pid
               AND activity.backend_start = nodes.backend_start;
        CREATE TABLE unfinished (
            code TEXT PRIMARY KEY,          -- the table's code
            variant TEXT NOT NULL,
            black TEXT NOT NULL,
            white TEXT NOT NULL,
            moves TEXT NOT NULL,            -- the transcript so far
            clock TEXT,                     -- the time control ('5+3'), NULL: none
            black_left DOUBLE PRECISION,    -- seconds on each clock, as of the last move or stop
            white_left DOUBLE PRECISION,
            adjourned BOOLEAN NOT NULL,     -- false: in play when last written
            started TIMESTAMPTZ NOT NULL,
            saved TIMESTAMPTZ NOT NULL,
            node TEXT NOT NULL              -- the node the table is at (gone: anyone's)
        );
        CREATE INDEX unfinished_black ON unfinished (black);
        CREATE INDEX unfinished_white ON unfinished (white);
        """,
    ),
    (
        "accounts: the SSH keys each player name is bound to",
        """
        CREATE TABLE account_keys (
            key TEXT PRIMARY KEY,           -- an OpenSSH public key, 'ssh-ed25519 AAAA...'
            name TEXT NOT NULL,             -- the player name it logs in as
            added TIMESTAMPTZ NOT NULL DEFAULT now()
        );
        CREATE INDEX account_keys_name ON account_keys (name);
        CREATE TABLE key_codes (            -- one-time codes to add a key (keys add)
            name TEXT PRIMARY KEY,
            code TEXT NOT NULL,
            expires TIMESTAMPTZ NOT NULL,
            tries INTEGER NOT NULL          -- wrong codes still allowed
        );
        """,
    ),
    (
        "one person, one name: names with their look-alike keys; the penalties of guessing",
        """
        CREATE TABLE names (
            name TEXT PRIMARY KEY,          -- a name someone has here (a person's or a guest's)
            key TEXT NOT NULL,              -- its look-alike key (names.py)
            twin BOOLEAN NOT NULL DEFAULT false  -- an older name of the same key, kept as it was
        );
        CREATE UNIQUE INDEX names_key ON names (key) WHERE NOT twin;
        CREATE INDEX names_any_key ON names (key);
        CREATE TABLE penalties (
            scope TEXT NOT NULL,            -- 'address', 'name', 'total', 'code-key', ...
            subject TEXT NOT NULL,
            failures INTEGER NOT NULL,
            last_failure DOUBLE PRECISION NOT NULL,  -- Unix time
            next_try DOUBLE PRECISION NOT NULL,      -- nothing from it is compared before
            PRIMARY KEY (scope, subject)
        );
        """,
    ),
    ("the names already known, with their keys", enter_known_names),
    (
        "the standings: records kept as games end, ratings by rating, each rating's moves",
        schema("BIGINT", "DOUBLE PRECISION", "TIMESTAMPTZ") + BACKFILL,
    ),
    (
        "the quick-pairing queue, every node's seekers in one",
        """
        CREATE TABLE seekers (
            id TEXT PRIMARY KEY,            -- one wait in the queue (a session's)
            name TEXT NOT NULL,             -- the player's name
            node TEXT NOT NULL,             -- the node of their session (gone: forgotten)
            variant TEXT NOT NULL,          -- othello, reversi or anti
            clock TEXT NOT NULL,            -- the time control ('5+3'), '' without
            rating DOUBLE PRECISION NOT NULL,
            guest BOOLEAN NOT NULL,         -- a guest: paired with guests, unless the other
            allows_guests BOOLEAN NOT NULL, -- a named player who accepts a guest
            since TIMESTAMPTZ NOT NULL      -- when the wait began (the database's clock)
        );
        """,
    ),
    (
        "browsers bound to names: the codes of keys web and the passes they become",
        browser_passes.schema("TEXT", "DOUBLE PRECISION"),
    ),
    ("the fleet's secret, that every node seals its messages with", make_fleet_secret),
    (
        "Glicko-2 ratings: the Elo ratings moved once, seekers with deviations",
        move_ratings_to_glicko,
    ),
    ("playbans: each player's conduct in rated games and the bans it brought", playbans.schema()),
    (
        "tournaments: arenas and Swiss events, their entries and their games",
        tournaments.schema("TEXT", "DOUBLE PRECISION", "BIGSERIAL"),
    ),
    # (version 12, moderation's: after main's steps; a branch's step goes after it)
    (
        "moderation: blocks, bans and mutes, reports, roles, notices, the append-only log",
        make_moderation,
    ),
    ("renames: the names admins changed, old and new", make_renames),
    (
        "each rated game's deviations and volatilities, before and after (mod void's)",
        keep_rating_deviations,
    ),
)
NEWEST = len(MIGRATIONS)


def schema_version(conn: psycopg.Connection) -> int:
    """The version of the schema in the database: 0 for none."""
    exists = conn.execute("SELECT to_regclass('schema_version') IS NOT NULL").fetchone()
    if not exists or not exists[0]:
        return 0
    row = conn.execute("SELECT version FROM schema_version").fetchone()
    return int(row[0]) if row else 0


def migrate(conn: psycopg.Connection) -> tuple[int, int]:
    """Bring the schema up to NEWEST: (the version found, the version now).
    Raises ServeError for a schema newer than this program knows."""
    with conn.transaction():
        conn.execute("SELECT pg_advisory_xact_lock(%s)", (MIGRATION_LOCK,))
        found = schema_version(conn)
        if found > NEWEST:
            raise ServeError(_too_new(found))
        if found == 0:
            conn.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)")
            conn.execute("INSERT INTO schema_version (version) VALUES (0)")
        for version in range(found + 1, NEWEST + 1):
            _, step = MIGRATIONS[version - 1]
            if isinstance(step, str):
                conn.execute(step.encode())  # (a fixed script: several statements, no parameters)
            else:
                step(conn)
            conn.execute("UPDATE schema_version SET version = %s", (version,))
    return found, NEWEST


def check(conn: psycopg.Connection, where: str) -> None:
    """Raise ServeError, in one sentence, unless the schema is the one this program knows."""
    found = schema_version(conn)
    if found == NEWEST:
        return
    if found > NEWEST:
        raise ServeError(_too_new(found, where))
    if found == 0:
        raise ServeError(f"{where} has no tui-reversi schema yet; create it with --migrate")
    raise ServeError(
        f"{where} has schema version {found}, this tui-reversi needs {NEWEST}; "
        "upgrade it with --migrate"
    )


def _too_new(found: int, where: str = "the database") -> str:
    return (
        f"{where} has schema version {found}, newer than this tui-reversi knows ({NEWEST}); "
        "run the newer tui-reversi on this node"
    )
