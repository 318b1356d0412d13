"""`serve --database URL --import-archive FILE`: a single server's SQLite archive
(archive.py) moved into a fleet's PostgreSQL (postgres.py), once, into an empty
database: its accounts (names and their keys), ratings, finished games, games
not over, the browsers bound to names, and moderation's records (blocks, bans
and mutes, reports, roles, notices and the moderation log, each row as it was)
and the names admins changed (the old names reserved on the fleet as well).

The keys and the games not over go in through the `Store` (claim, add_key,
save_table), so the fleet's own rules for names apply to them: two names of the
archive that the fleet takes for one are refused, and nothing is kept. The
finished games (their numbers and dates too) and the ratings are copied as they
were, in one transaction: nothing is rated again. The games not over wait for their players
as a gone node's do (any node takes one over when a player resumes it).
"""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path

import psycopg

from ...storage import StorageError
from ..config import ServeError
from . import glicko_migration
from .archive import read_unfinished
from .migrations import enter_known_names
from .names import name_key
from .node_link import connect, connect_refusal
from .postgres import PostgresStore

# Held while importing: two imports into one database never interleave.
IMPORT_LOCK = 0x7475_6972_696D_706F

# What both sides hold, counted: (label, the table).
_KEPT = (
    ("names with keys", "SELECT count(DISTINCT name) FROM account_keys"),
    ("keys", "SELECT count(*) FROM account_keys"),
    ("ratings", "SELECT count(*) FROM ratings"),
    ("finished games", "SELECT count(*) FROM games"),
    ("games not over", "SELECT count(*) FROM unfinished"),
)
# A game keeps its number (the database being empty, no other has it).
_GAME_COLUMNS = (
    "id, code, variant, black, white, moves, winner, ending, black_score, white_score, "
    "description, started, ended"
)


@dataclass(frozen=True)
class Counts:
    """How many of each kind one side holds, in _KEPT's order."""

    numbers: tuple[int, ...]

    def __str__(self) -> str:
        return ", ".join(f"{label}: {n}" for n, (label, _) in zip(self.numbers, _KEPT, strict=True))


def import_archive(path: Path, url: str, players_dir: Path) -> tuple[Counts, Counts]:
    """Copy the archive at `path` into the empty fleet database at `url`: what the
    archive held and what the database holds now (the same, or ServeError). A
    command's own: its one event loop is for the store's coroutines."""
    return asyncio.run(_import(path, url, players_dir))


async def _import(path: Path, url: str, players_dir: Path) -> tuple[Counts, Counts]:
    with contextlib.closing(_read_only(path)) as source:
        found = _counts(source, path)
        _refuse_one_name_twice(source)
        store = PostgresStore(url, players_dir)
        try:
            await store.open()
            with connect(url) as target:
                target.execute("SELECT pg_advisory_lock(%s)", (IMPORT_LOCK,))
                _refuse_unless_empty(target, store.where)
                try:
                    await _copy(source, store, target)
                except BaseException:
                    _empty(target)  # it was empty: so it is again, and nothing is half moved
                    raise
                now = Counts(tuple(_one(target, query) for _, query in _KEPT))
        except psycopg.Error as error:
            raise connect_refusal(url, error) from None
        except StorageError as error:
            raise ServeError(str(error)) from None
        except sqlite3.Error as error:
            raise ServeError(f"--import-archive: {path} cannot be read: {error}") from None
        finally:
            await store.close()
    if now != found:
        raise ServeError(f"{store.where} holds {now} after the import, not the archive's {found}")
    return found, now


def _read_only(path: Path) -> sqlite3.Connection:
    if not path.is_file():
        raise ServeError(f"--import-archive: there is no archive file {path}")
    try:
        source = sqlite3.connect(f"{path.absolute().as_uri()}?mode=ro", uri=True)
        source.execute("SELECT count(*) FROM games").fetchone()
    except sqlite3.Error as error:
        raise ServeError(
            f"--import-archive: {path} is not a tui-reversi archive ({error})"
        ) from None
    return source


def _counts(source: sqlite3.Connection, path: Path) -> Counts:
    try:
        return Counts(tuple(int(source.execute(query).fetchone()[0]) for _, query in _KEPT))
    except sqlite3.Error as error:
        raise ServeError(f"--import-archive: {path} cannot be read: {error}") from None


def _refuse_one_name_twice(source: sqlite3.Connection) -> None:
    """Names a single server kept apart that a fleet takes for one, however cased
    (the store's own rules, checked as the keys go in, may find more)."""
    names: dict[str, str] = {}
    for (name,) in source.execute(
        """SELECT name FROM account_keys UNION SELECT name FROM ratings
           UNION SELECT black FROM games UNION SELECT white FROM games ORDER BY 1"""
    ):
        other = names.setdefault(name.casefold(), name)
        if other != name:
            raise _one_name(other, name)


def _one(target: psycopg.Connection, query: str) -> int:
    row = target.execute(query.encode()).fetchone()  # (a fixed query)
    return int(row[0]) if row else 0


def _refuse_unless_empty(target: psycopg.Connection, where: str) -> None:
    held = Counts(tuple(_one(target, query) for _, query in _KEPT))
    if any(held.numbers):
        raise ServeError(
            f"{where} already holds {held}: an archive is imported only into an empty "
            "database (imported already? then there is nothing left to do)"
        )


async def _copy(
    source: sqlite3.Connection, store: PostgresStore, target: psycopg.Connection
) -> None:
    """Keys and games not over through the store, finished games and ratings as rows."""
    keys = source.execute("SELECT name, key FROM account_keys ORDER BY added, key").fetchall()
    claimed: set[str] = set()
    for name, key in keys:
        if name in claimed:
            bound = await store.add_key(name, key)
        else:
            bound = await store.claim(name, key)
            claimed.add(name)
        if not bound:
            held = await store.keys_of(name)
            owner = await store.key_owner(key)
            owner = owner or (await store.key_owner(held[0].key) if held else None)
            raise _one_name(owner or "another", name)
    with target.transaction():
        for row in source.execute(f"SELECT {_GAME_COLUMNS} FROM games ORDER BY id"):
            target.execute(
                f"INSERT INTO games ({_GAME_COLUMNS}) VALUES "  # (fixed names, values apart)
                "(%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s)".encode(),
                row,
            )
        # The next game a node archives is numbered after them.
        target.execute(
            b"SELECT setval(pg_get_serial_sequence('games', 'id'), max(id)) FROM games"
            b" HAVING count(*) > 0"
        )
        _copy_ratings(source, target)
    rows = source.execute(
        """SELECT code, variant, black, white, moves, clock, black_left, white_left,
                  adjourned, started FROM unfinished ORDER BY started"""
    ).fetchall()
    unfinished, problems = read_unfinished(rows)
    if problems:
        raise ServeError(f"--import-archive: {problems[0]}")
    for game in unfinished:
        await store.save_table(game)
    with target.transaction():  # (the names in, each with its look-alike key: names.py)
        enter_known_names(target)
    _copy_passes(source, target)
    _copy_moderation(source, target)
    _copy_renames(source, target)
    _copy_playbans(source, target)


def _copy_playbans(source: sqlite3.Connection, target: psycopg.Connection) -> None:
    """Each player's conduct and bans (playbans.py) go with them (an archive of a
    release that kept them)."""
    if not _has_table(source, "playbans"):
        return
    with target.transaction():
        for row in source.execute("SELECT name, outcomes, bans FROM playbans"):
            target.execute(b"INSERT INTO playbans (name, outcomes, bans) VALUES (%s, %s, %s)", row)


# The ratings as both stores keep them since Glicko-2 (glicko_migration.py).
_RATING_COLUMNS = "name, rating, games, deviation, volatility, rated_at, settled_until"


def _copy_ratings(source: sqlite3.Connection, target: psycopg.Connection) -> None:
    """The ratings as they were; an archive of a release before Glicko-2 (its Elo
    ratings) has them moved as the store's own migration moves them."""
    columns = {str(row[1]) for row in source.execute("PRAGMA table_info(ratings)")}
    if "deviation" in columns:
        for row in source.execute(f"SELECT {_RATING_COLUMNS} FROM ratings"):
            target.execute(
                f"INSERT INTO ratings ({_RATING_COLUMNS}) VALUES "  # (fixed names)
                "(%s, %s, %s, %s, %s, %s, %s)".encode(),
                row,
            )
        return
    for row in source.execute("SELECT name, rating, games FROM ratings"):
        target.execute(b"INSERT INTO ratings (name, rating, games) VALUES (%s, %s, %s)", row)
    rows = target.execute(glicko_migration.ELO_RATINGS.encode()).fetchall()
    with target.cursor() as cursor:
        cursor.executemany(
            glicko_migration.MOVE.format("%s").encode(), glicko_migration.moved(rows, time.time())
        )


# The browsers bound to names (browser_passes.py), as both stores keep them.
_PASS_COLUMNS = "id, digest, name, key, made, used, expires"


def _copy_passes(source: sqlite3.Connection, target: psycopg.Connection) -> None:
    """The browsers bound to names go with their keys (an archive of a release
    that kept them in the store: an older one's are in browser_passes.json, which
    the node moves in when it starts)."""
    if not _has_table(source, "browser_passes"):
        return
    with target.transaction():
        for row in source.execute(f"SELECT {_PASS_COLUMNS} FROM browser_passes"):
            target.execute(
                f"INSERT INTO browser_passes ({_PASS_COLUMNS}) VALUES "  # (fixed names)
                "(%s, %s, %s, %s, %s, %s, %s) ON CONFLICT DO NOTHING".encode(),
                row,
            )


# Moderation's tables (moderation.py), as both stores keep them: their columns, and
# whether their ids are numbered by the database (then numbered on after the copy).
_MODERATION = (
    ("blocks", "name, blocked, since", False),
    ("sanctions", "id, kind, scope, subject, until, reason, moderator, made", True),
    (
        "reports",
        "id, reporter, name, reason, words, game, chat, made, closed, closed_by, outcome",
        True,
    ),
    ("roles", "name, role, named_by, since", False),
    ("notices", "id, name, text, made", True),
    ("mod_log", "id, at, moderator, action, subject, reason, until", True),
)


def _copy_moderation(source: sqlite3.Connection, target: psycopg.Connection) -> None:
    """Moderation's records, row for row, in one transaction (an archive of a release
    before them has none): the log keeps its rows and their numbers."""
    if not _has_table(source, "mod_log"):
        return
    with target.transaction():
        for table, columns, numbered in _MODERATION:
            marks = ", ".join(["%s"] * len(columns.split(", ")))
            for row in source.execute(f"SELECT {columns} FROM {table}"):  # (fixed names)
                target.execute(f"INSERT INTO {table} ({columns}) VALUES ({marks})".encode(), row)
            if numbered:
                target.execute(
                    f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), max(id)) "
                    f"FROM {table} HAVING count(*) > 0".encode()
                )


def _copy_renames(source: sqlite3.Connection, target: psycopg.Connection) -> None:
    """The renames (renames.py), row for row, and each old name reserved as it was:
    kept with its look-alike key (a twin, if the new name of a case apart has it)."""
    if not _has_table(source, "renames"):
        return
    with target.transaction():
        for row in source.execute("SELECT id, old, new, moderator, made FROM renames ORDER BY id"):
            target.execute(
                b"INSERT INTO renames (id, old, new, moderator, made) VALUES (%s, %s, %s, %s, %s)",
                row,
            )
            key = name_key(str(row[1]))
            target.execute(
                b"""INSERT INTO names (name, key, twin) VALUES
                      (%s, %s, EXISTS (SELECT 1 FROM names WHERE key = %s AND NOT twin))
                    ON CONFLICT DO NOTHING""",
                (row[1], key, key),
            )
        target.execute(
            b"SELECT setval(pg_get_serial_sequence('renames', 'id'), max(id)) "
            b"FROM renames HAVING count(*) > 0"
        )


def _has_table(source: sqlite3.Connection, table: str) -> bool:
    """True if the archive has `table` (a release before it had none)."""
    return bool(
        source.execute(
            "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", (table,)
        ).fetchone()
    )


def _one_name(first: str, second: str) -> ServeError:
    return ServeError(
        f"--import-archive: the archive's names {first} and {second} are one name on a fleet "
        "(rename one in the archive first); nothing was imported"
    )


def _empty(target: psycopg.Connection) -> None:
    for table in (
        "unfinished",
        "ratings",
        "games",
        "account_keys",
        "names",
        "browser_passes",
        "playbans",
        "renames",
    ):
        target.execute(f"DELETE FROM {table}".encode())  # (fixed names)
