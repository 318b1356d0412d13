"""A keyed player's browsers, as the ledger keeps them: the one-time codes that
`ssh host keys web` shows (shown on one node, traded on any) and the passes
they become (`BrowserPass`), in the store, so a browser bound on one node of a
fleet plays as its player on every node. The rules around them (who may make
a code, the cookie, the page's button) are the edge's (edge/browser_passes.py).

Only digests are kept (a code's and a pass's SHA-256): a copy of the tables
lets nobody in. A pass lapses PASS_IDLE after it was last used, and each use
moves that on (a browser played in every month stays bound, as on lichess);
a name has at most PASSES_PER_NAME, the one used longest ago going when
another is bound; a pass goes with the key whose session made its code
(`remove_key`, each store's).

The queries are one text for both stores (`?` for each value, as standings.py's),
run by a store's `Query`, the ones that must be one transaction inside it.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from typing import Any, Protocol

from .account_keys import CODE_LIFETIME, new_code
from .kept_queries import KeptQueries
from .standings import Query

# A pass lapses this long after its last use (seconds): 30 days, rolling.
PASS_IDLE = 30 * 24 * 3600.0
# Passes one name may hold; binding another browser unbinds the one used longest ago.
PASSES_PER_NAME = 10

SCHEMA = """
CREATE TABLE IF NOT EXISTS pass_codes (
    name {text} PRIMARY KEY,         -- one code a name: a new one replaces the old
    digest {text} NOT NULL UNIQUE,   -- the code's SHA-256 (as typed: upper case)
    key {text},                      -- the key whose session asked for it
    expires {real} NOT NULL          -- Unix time
);
CREATE TABLE IF NOT EXISTS browser_passes (
    id {text} PRIMARY KEY,           -- what the player names it by (keys web remove ID)
    digest {text} NOT NULL UNIQUE,   -- the pass's SHA-256 (the browser holds the pass)
    name {text} NOT NULL,
    key {text},                      -- the key that made it (NULL: from an older server's file)
    made {real} NOT NULL,            -- Unix time
    used {real},                     -- its last use, NULL: none yet
    expires {real} NOT NULL          -- PASS_IDLE after its last use
);
CREATE INDEX IF NOT EXISTS browser_passes_name ON browser_passes (name);
CREATE INDEX IF NOT EXISTS browser_passes_key ON browser_passes (key);
"""


def schema(text: str, real: str) -> str:
    """The tables of codes and passes, in a store's types."""
    return SCHEMA.format(text=text, real=real)


@dataclass(frozen=True, slots=True)
class BrowserPass:
    """One browser bound to a name (times are Unix time)."""

    id: str
    name: str
    key: str | None  # the key whose session made its code (None: not recorded)
    made: float
    used: float | None
    expires: float


class PassBook(Protocol):
    """Where codes and passes are kept (archive.py's SQLite, postgres.py's). Methods
    raise StorageError (one sentence) when the store fails. `now` is Unix time."""

    async def issue_pass_code(self, name: str, key: str | None, now: float) -> str:
        """A new code for `name` (asked for by a session of `key`), replacing any it had."""

    async def pass_code_holder(self, code: str, now: float) -> str | None:
        """The name `code` would bind a browser to, if it is current (nothing spent)."""

    async def trade_pass_code(
        self, code: str, pass_digest: str, now: float
    ) -> tuple[BrowserPass, list[str]] | None:
        """Spend `code` on a pass (kept by its digest) for the code's name; the pass and
        the ids of the name's passes unbound to make room (PASSES_PER_NAME). None if
        `code` is not current. One transaction."""

    async def pass_holder(self, pass_digest: str, now: float) -> BrowserPass | None:
        """The pass with that digest if current; its use is noted (and its lapse moved on)."""

    async def passes_of(self, name: str, now: float) -> list[BrowserPass]:
        """`name`'s current passes, the first made first."""

    async def remove_passes(self, name: str, pass_id: str | None) -> int:
        """Unbind `name`'s pass `pass_id` (None: all of them); how many went."""

    async def import_passes(self, passes: list[tuple[str, str, float]], now: float) -> int:
        """Keep (digest, name, expires) passes from an older server's file, those not
        kept already; how many were new."""


def code_digest(code: str) -> str:
    """A code's SHA-256, as typed in any case and with spaces around it."""
    return digest(code.strip().upper())


def digest(secret: str) -> str:
    """A code's or a pass's SHA-256, in hex."""
    return hashlib.sha256(secret.encode()).hexdigest()


_COLUMNS = "id, name, key, made, used, expires"


def _read(row: tuple[Any, ...]) -> BrowserPass:
    pass_id, name, key, made, used, expires = row
    used = float(used) if used is not None else None
    return BrowserPass(str(pass_id), str(name), key, float(made), used, float(expires))


async def issue(run: Query, name: str, key: str | None, code: str, expires: float) -> None:
    """Keep `code` as `name`'s (made by `key`), replacing the one it had."""
    await run(
        """INSERT INTO pass_codes (name, digest, key, expires) VALUES (?, ?, ?, ?)
           ON CONFLICT (name) DO UPDATE SET digest = excluded.digest, key = excluded.key,
               expires = excluded.expires""",
        (name, code_digest(code), key, expires),
    )


async def holder(run: Query, code: str, now: float) -> str | None:
    rows = await run(
        "SELECT name FROM pass_codes WHERE digest = ? AND expires > ?", (code_digest(code), now)
    )
    return str(rows[0][0]) if rows else None


async def trade(
    run: Query, code: str, pass_digest: str, now: float
) -> tuple[BrowserPass, list[str]] | None:
    """trade_pass_code's statements, for a store to run in one transaction."""
    await run("DELETE FROM pass_codes WHERE expires <= ?", (now,))
    spent = await run(
        "DELETE FROM pass_codes WHERE digest = ? RETURNING name, key", (code_digest(code),)
    )
    if not spent:
        return None
    name, key = str(spent[0][0]), spent[0][1]
    made = BrowserPass(secrets.token_hex(4), name, key, now, None, now + PASS_IDLE)
    await run(
        f"INSERT INTO browser_passes (digest, {_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?)",
        (pass_digest, made.id, name, key, made.made, made.used, made.expires),
    )
    await run("DELETE FROM browser_passes WHERE name = ? AND expires <= ?", (name, now))
    held = await run(
        """SELECT id FROM browser_passes WHERE name = ?
           ORDER BY coalesce(used, made) DESC, made DESC""",
        (name,),
    )
    unbound = [str(row[0]) for row in held[PASSES_PER_NAME:]]
    for pass_id in unbound:
        await run("DELETE FROM browser_passes WHERE id = ?", (pass_id,))
    return made, unbound


async def use(run: Query, pass_digest: str, now: float) -> BrowserPass | None:
    rows = await run(
        f"""UPDATE browser_passes SET used = ?, expires = ? WHERE digest = ? AND expires > ?
            RETURNING {_COLUMNS}""",
        (now, now + PASS_IDLE, pass_digest, now),
    )
    return _read(rows[0]) if rows else None


async def of(run: Query, name: str, now: float) -> list[BrowserPass]:
    rows = await run(
        f"SELECT {_COLUMNS} FROM browser_passes WHERE name = ? AND expires > ? ORDER BY made, id",
        (name, now),
    )
    return [_read(row) for row in rows]


async def remove(run: Query, name: str, pass_id: str | None) -> int:
    if pass_id is None:
        rows = await run("DELETE FROM browser_passes WHERE name = ? RETURNING id", (name,))
    else:
        rows = await run(
            "DELETE FROM browser_passes WHERE name = ? AND id = ? RETURNING id", (name, pass_id)
        )
    return len(rows)


async def remove_key(run: Query, name: str, key: str) -> bool:
    """A store's remove_key, in one transaction: `key` is no longer `name`'s, and the
    passes it made and the code it asked for go with it. True if it was `name`'s."""
    gone = await run(
        "DELETE FROM account_keys WHERE name = ? AND key = ? RETURNING key", (name, key)
    )
    if gone:
        await run("DELETE FROM browser_passes WHERE key = ?", (key,))
        await run("DELETE FROM pass_codes WHERE key = ?", (key,))
    return bool(gone)


async def import_old(run: Query, passes: list[tuple[str, str, float]], now: float) -> int:
    """import_passes' statements: each pass kept with a new id, lapsing when it did or
    PASS_IDLE from now, whichever is first."""
    new = 0
    for pass_digest, name, until in passes:
        if until <= now:
            continue
        rows = await run(
            f"""INSERT INTO browser_passes (digest, {_COLUMNS}) VALUES (?, ?, ?, NULL, ?, NULL, ?)
                ON CONFLICT (digest) DO NOTHING RETURNING id""",
            (pass_digest, secrets.token_hex(4), name, now, min(until, now + PASS_IDLE)),
        )
        new += len(rows)
    return new


class KeptPasses(KeptQueries):
    """A `PassBook` for a store that runs these queries: one statement by `_rows`,
    several in one transaction by `_transaction` (archive.py's, postgres.py's)."""

    async def issue_pass_code(self, name: str, key: str | None, now: float) -> str:
        code = new_code()
        await issue(self._rows, name, key, code, now + CODE_LIFETIME)
        return code

    async def pass_code_holder(self, code: str, now: float) -> str | None:
        return await holder(self._rows, code, now)

    async def trade_pass_code(
        self, code: str, pass_digest: str, now: float
    ) -> tuple[BrowserPass, list[str]] | None:
        return await self._transaction(
            lambda run: trade(run, code, pass_digest, now), "keep a browser's pass"
        )

    async def pass_holder(self, pass_digest: str, now: float) -> BrowserPass | None:
        return await use(self._rows, pass_digest, now)

    async def passes_of(self, name: str, now: float) -> list[BrowserPass]:
        return await of(self._rows, name, now)

    async def remove_passes(self, name: str, pass_id: str | None) -> int:
        return await remove(self._rows, name, pass_id)

    async def import_passes(self, passes: list[tuple[str, str, float]], now: float) -> int:
        return await self._transaction(
            lambda run: import_old(run, passes, now), "keep the browsers' passes"
        )
