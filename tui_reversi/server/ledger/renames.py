"""A name an admin changes (`mod rename OLD NEW`): everything the store keeps
under the old name moves to the new one, in one transaction, on either store.

What moves is every column that holds a player's name (`NAME_COLUMNS`, and a
store's own: PostgreSQL's pending key codes, tests/server/test_renames_store.py
checks that no column of either schema is forgotten): their keys and browser
passes, ratings and their history, games on both seats, records both ways,
blocks both ways, bans and mutes of the name, reports by and on them, roles,
notices, playbans, tournaments and their entries and games. The moderation log
keeps its rows as they were written (it is append-only): the rename is a row
of its own, and `renames` keeps the lineage, so that the log of a name reads
the rows of the names it had before (`person_log`).

The old name stays reserved: nobody may sign in as it (login.py asks
`renamed_away`) nor take a name that looks like it, so that nobody passes for
the renamed player; only a later rename may give it back to them. A name at a
table (a game in play or adjourned, kept in `unfinished`) is not renamed until
the game ends. Each node reads the renames it has not seen (`renames_since`)
when moderation's news moves (moderation.py): it ends the old name's sessions
there and moves its folder (edge/rename_door.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from ...core.errors import ReversiError
from ...net.remote import is_guest
from ...storage import StorageError
from .kept_queries import KeptQueries
from .moderation import LOG_COLUMNS, LogEntry, append_entry, log_entry, news_moved
from .names import look_alike_refusal, name_key, name_refusal
from .standings import Query

# How much of a name typed is echoed in a refusal (as hall/safety.py's).
NAME_TYPED = 40


SCHEMA = """
CREATE TABLE IF NOT EXISTS renames (
    id {id} PRIMARY KEY,
    old TEXT NOT NULL,              -- the name as it was (reserved from then on)
    new TEXT NOT NULL,              -- the name it became
    moderator TEXT NOT NULL,        -- the admin who renamed it
    made {real} NOT NULL            -- Unix time
);
CREATE INDEX IF NOT EXISTS renames_old ON renames (old, id);
CREATE INDEX IF NOT EXISTS renames_new ON renames (new, id)
"""

# Columns of the store, as (table, column).
Columns = tuple[tuple[str, str], ...]

# Every column of both stores that holds a player's name: each moves.
NAME_COLUMNS: Columns = (
    ("account_keys", "name"),
    ("pass_codes", "name"),
    ("browser_passes", "name"),
    ("games", "black"),
    ("games", "white"),
    ("ratings", "name"),
    ("rating_changes", "name"),
    ("records", "name"),
    ("records", "opponent"),
    ("playbans", "name"),
    ("tournaments", "made_by"),
    ("tournaments", "winner"),
    ("tournament_entries", "name"),
    ("tournament_games", "black"),
    ("tournament_games", "white"),
    ("blocks", "name"),
    ("blocks", "blocked"),
    ("sanctions", "moderator"),
    ("reports", "reporter"),
    ("reports", "name"),
    ("reports", "closed_by"),
    ("roles", "name"),
    ("roles", "named_by"),
    ("notices", "name"),
)


def schema(store: str) -> list[str]:
    """The table of renames, statement by statement, in `store`'s types ('sqlite'
    or 'postgresql')."""
    types = {"id": "INTEGER", "real": "REAL"}
    if store != "sqlite":
        types = {"id": "BIGSERIAL", "real": "DOUBLE PRECISION"}
    return [part.strip() for part in SCHEMA.format(**types).split(";") if part.strip()]


class RenameRefused(ReversiError):
    """A rename the store refuses, in one sentence: nothing was changed."""


@dataclass(frozen=True, slots=True)
class Rename:
    """One name changed into another by an admin."""

    id: int
    old: str
    new: str
    moderator: str
    made: float


class RenameBook(Protocol):
    """The renames a store keeps (archive.py's SQLite, postgres.py's). Methods
    raise StorageError."""

    async def rename_player(self, rename: Rename, log: LogEntry) -> None:
        """Move everything kept under `rename.old` to `rename.new`, keep the rename and
        append `log`, in one transaction. RenameRefused (nothing changed) if the old
        name is nobody's, at a table or renamed already, or the new one is taken or
        looks like a name someone has."""

    async def renames_since(self, after: int) -> list[Rename]:
        """The renames numbered after `after`, in the order they were made."""

    async def renamed_away(self, name: str) -> bool:
        """True if `name` was renamed (and not given back since): nobody may have it."""

    async def former_names(self, name: str) -> list[str]:
        """The names that became `name`, one rename or more ago, the latest first."""

    async def person_log(self, name: str, count: int) -> list[LogEntry]:
        """The latest `count` rows of the moderation log about `name` or any of its
        former names, latest first."""


_RENAME = "id, old, new, moderator, made"


def _rename(row: tuple[Any, ...]) -> Rename:
    rid, old, new, moderator, made = row
    return Rename(int(rid), str(old), str(new), str(moderator), float(made))


async def _renamed_away(run: Query, name: str) -> bool:
    rows = await run(
        "SELECT old FROM renames WHERE old = ? OR new = ? ORDER BY id DESC LIMIT 1", (name, name)
    )
    return bool(rows) and rows[0][0] == name


async def _former(run: Query, name: str) -> list[str]:
    """The names that became `name`, by any chain of renames, the latest first."""
    found: list[str] = []
    seen = {name}
    heads = [name]
    while heads:
        rows = await run("SELECT old FROM renames WHERE new = ? ORDER BY id DESC", (heads.pop(0),))
        for (old,) in rows:
            if old not in seen:
                seen.add(old)
                found.append(str(old))
                heads.append(str(old))
    return found


async def _refusal(run: Query, old: str, new: str) -> str | None:
    """Why `old` may not become `new` now (one sentence), or None."""
    if not await run("SELECT 1 FROM names WHERE name = ?", (old,)):
        return f"nobody called {old[:NAME_TYPED]!r} has been here."
    if is_guest(old):
        return f"{old} is a guest's name, the server's: a guest has no name to change."
    why = name_refusal(new)
    if why is not None:
        return why
    if old == new:
        return f"{old} is that name already."
    if await _renamed_away(run, old):
        return f"{old} was renamed already: nobody has that name now."
    seated = await run(
        "SELECT code FROM unfinished WHERE black = ? OR white = ? ORDER BY code LIMIT 1",
        (old, old),
    )
    if seated:
        return f"{old} is at table {seated[0][0]}; try again when the game ends."
    theirs = {old, *await _former(run, old)}  # (a name of their own may come back to them)
    if new not in theirs:
        if await run("SELECT 1 FROM names WHERE name = ?", (new,)):
            return f"the name {new} is taken here; choose another."
        banned = await run(
            "SELECT 1 FROM sanctions WHERE scope = 'name' AND subject = ? LIMIT 1", (new,)
        )
        if banned:
            return f"the name {new} is reserved here; choose another."
    holders = await run(
        "SELECT name FROM names WHERE key = ? AND name <> ? ORDER BY twin", (name_key(new), new)
    )
    for (holder,) in holders:
        if holder not in theirs:
            return look_alike_refusal(new, str(holder))
    return None


async def _move(
    run: Query, rename: Rename, log: LogEntry, moved: Columns, forgotten: Columns
) -> None:
    old, new = rename.old, rename.new
    # The old name's row, locked until this commits: a rename of it begun at once on
    # another node waits, then reads (PostgreSQL reads each statement afresh) that it
    # was renamed already; without it both went through.
    await run("UPDATE names SET twin = twin WHERE name = ?", (old,))
    refusal = await _refusal(run, old, new)
    if refusal is not None:
        raise RenameRefused(refusal)
    # The new name takes its look-alike key (names.py): a name of theirs that held it
    # (their old name, a case apart) keeps its row as a twin, reserved. Only theirs, as
    # the refusal read them: a name another rename committed since (on another node) is
    # not touched, so that this one's row meets it as a duplicate key and is refused;
    # read afresh, both renames to one name went through, one person's games and
    # rating merged into the other's.
    key, theirs = name_key(new), sorted({old, *await _former(run, old)})
    among = ", ".join("?" for _ in theirs)
    await run(
        f"UPDATE names SET twin = ? WHERE key = ? AND name <> ? AND name IN ({among})",
        (True, key, new, *theirs),
    )
    if new in theirs:  # (a name of their own coming back to them: its row is there)
        await run("UPDATE names SET twin = ? WHERE name = ?", (False, new))
    else:
        await run("INSERT INTO names (name, key, twin) VALUES (?, ?, ?)", (new, key, False))
    # (the tables' and columns' names are constants: never anything typed)
    for table, column in moved:
        await run(f"UPDATE {table} SET {column} = ? WHERE {column} = ?", (new, old))
    for table, column in forgotten:
        await run(f"DELETE FROM {table} WHERE {column} = ?", (old,))
    await run("UPDATE sanctions SET subject = ? WHERE scope = 'name' AND subject = ?", (new, old))
    # The penalties of guessing at the name (guessing.py) protect the person.
    await run("DELETE FROM penalties WHERE scope = 'name' AND subject = ?", (new,))
    await run("UPDATE penalties SET subject = ? WHERE scope = 'name' AND subject = ?", (new, old))
    await run(
        "INSERT INTO renames (old, new, moderator, made) VALUES (?, ?, ?, ?)",
        (old, new, rename.moderator, rename.made),
    )
    await append_entry(run, log)
    await news_moved(run)


class KeptRenames(KeptQueries):
    """A `RenameBook` for a store that runs these queries: one statement by `_rows`,
    several in one transaction by `_transaction` (archive.py's, postgres.py's)."""

    # The store's own columns that hold a name, beside NAME_COLUMNS: moved, and
    # forgotten (a wait in the pairing queue: the session it was for is ended).
    OWN_NAME_COLUMNS: Columns = ()
    OWN_PASSING_COLUMNS: Columns = ()

    async def rename_player(self, rename: Rename, log: LogEntry) -> None:
        moved, forgotten = NAME_COLUMNS + self.OWN_NAME_COLUMNS, self.OWN_PASSING_COLUMNS
        try:
            await self._transaction(
                lambda run: _move(run, rename, log, moved, forgotten), f"rename {rename.old}"
            )
        except StorageError:
            # Two renames to one new name at once (on PostgreSQL, from two nodes): the
            # later one meets the other's new row as a duplicate key. Read again, its
            # refusal is the sentence it would have had a moment later.
            refusal = await _refusal(self._rows, rename.old, rename.new)
            if refusal is None:
                raise
            raise RenameRefused(refusal) from None

    async def renames_since(self, after: int) -> list[Rename]:
        rows = await self._rows(f"SELECT {_RENAME} FROM renames WHERE id > ? ORDER BY id", (after,))
        return [_rename(row) for row in rows]

    async def renamed_away(self, name: str) -> bool:
        return await _renamed_away(self._rows, name)

    async def former_names(self, name: str) -> list[str]:
        return await _former(self._rows, name)

    async def person_log(self, name: str, count: int) -> list[LogEntry]:
        test, value = self._among([name, *await self.former_names(name)])
        rows = await self._rows(
            f"SELECT {LOG_COLUMNS} FROM mod_log WHERE {test.replace('name', 'subject', 1)}"
            " ORDER BY id DESC LIMIT ?",
            (value, count),
        )
        return [log_entry(row) for row in rows]
