"""What the store keeps to keep a public server civil: the names each player
blocks, the bans and mutes in force, the reports players file, the roles named
at run time (an admin names moderators), the notices waiting for a player
(a report acted on, a rating refunded), and the moderation log.

The log (`mod_log`) is append-only: every moderation act is a row added, and
each store refuses to change or delete one (a trigger on SQLite's table and on
PostgreSQL's: `LOG_GUARDS`). Every change the nodes must hear of (a block, a
sanction, a role) moves on the one row of `moderation_news` in its
transaction: a node that sees it move reads them again
(hall/moderation_watch.py), so a ban made on one node holds on all of them
within its poll, which reads that one row.

The queries are one text for both stores (`?` for each value, as
browser_passes.py's), run by a store's `Query`; the ones that must be one
transaction inside `_transaction`. Times are Unix time.
"""

from __future__ import annotations

import json
from collections.abc import Collection
from dataclasses import dataclass
from typing import Any, Protocol

from .browser_passes import remove_key
from .kept_queries import KeptQueries
from .ratings import Rating, settled_until, without_game
from .standings import DEVIATION_COLUMNS, RATING_COLUMNS, Query

# Names one player may block.
MOST_BLOCKS = 500
# The reasons a report may give (lichess's list, with Reversi's words).
REPORT_REASONS = ("cheating", "stalling", "boosting", "abuse", "spam", "name", "other")
# Who filed the reports the server files by itself (hall/watch_reports.py): never a
# name anyone may have (names have no spaces or brackets), and told nothing.
WATCH_REPORTER = "(boosting watch)"
# The roles: a moderator (reports, mutes, bans, notes); an admin (also voids a game's
# rating and names moderators).
MODERATOR = "moderator"
ADMIN = "admin"
ROLES = (MODERATOR, ADMIN)

SCHEMA = """
CREATE TABLE IF NOT EXISTS blocks (
    name TEXT NOT NULL,             -- who blocks
    blocked TEXT NOT NULL,          -- whom
    since {real} NOT NULL,
    PRIMARY KEY (name, blocked)
);
CREATE INDEX IF NOT EXISTS blocks_blocked ON blocks (blocked);
CREATE TABLE IF NOT EXISTS sanctions (
    id {id} PRIMARY KEY,
    kind TEXT NOT NULL,             -- 'ban' or 'mute'
    scope TEXT NOT NULL,            -- 'name', 'key' (a SHA256: fingerprint) or 'address' (a prefix)
    subject TEXT NOT NULL,
    until {real},                   -- NULL: for good
    reason TEXT NOT NULL,
    moderator TEXT NOT NULL,
    made {real} NOT NULL
);
CREATE INDEX IF NOT EXISTS sanctions_subject ON sanctions (scope, subject);
CREATE TABLE IF NOT EXISTS reports (
    id {id} PRIMARY KEY,
    reporter TEXT NOT NULL,
    name TEXT NOT NULL,             -- the name reported
    reason TEXT NOT NULL,           -- one of REPORT_REASONS
    words TEXT NOT NULL,            -- what the reporter added
    game {bigint},                  -- the archived game it is about, if any
    chat TEXT NOT NULL,             -- the table's chat as it was: a JSON list of lines
    made {real} NOT NULL,
    closed {real},                  -- NULL: open
    closed_by TEXT,
    outcome TEXT
);
CREATE INDEX IF NOT EXISTS reports_open ON reports (closed, made);
CREATE TABLE IF NOT EXISTS roles (
    name TEXT PRIMARY KEY,          -- named at run time by an admin (the command line's aside)
    role TEXT NOT NULL,
    named_by TEXT NOT NULL,
    since {real} NOT NULL
);
CREATE TABLE IF NOT EXISTS notices (
    id {id} PRIMARY KEY,
    name TEXT NOT NULL,             -- whom it is for
    text TEXT NOT NULL,
    made {real} NOT NULL
);
CREATE INDEX IF NOT EXISTS notices_name ON notices (name);
CREATE TABLE IF NOT EXISTS mod_log (
    id {id} PRIMARY KEY,
    at {real} NOT NULL,
    moderator TEXT NOT NULL,        -- who acted
    action TEXT NOT NULL,           -- ban, unban, mute, unmute, close, void, note, role, refund...
    subject TEXT NOT NULL,          -- on whom (a name, key, address, game or report)
    reason TEXT NOT NULL,           -- why
    until {real}                    -- until when, for a ban or mute (NULL: for good, or none)
);
CREATE INDEX IF NOT EXISTS mod_log_subject ON mod_log (subject, id);
CREATE TABLE IF NOT EXISTS moderation_news (
    tick {bigint} NOT NULL          -- one row: moved on by every change the nodes must hear of
);
INSERT INTO moderation_news (tick) SELECT 0 WHERE NOT EXISTS (SELECT 1 FROM moderation_news)
"""

# Each store's guard that keeps the log's rows as they were written: whole statements.
LOG_GUARDS = {
    "sqlite": (
        """CREATE TRIGGER IF NOT EXISTS mod_log_no_update BEFORE UPDATE ON mod_log
           BEGIN SELECT RAISE(ABORT, 'the moderation log is append-only'); END""",
        """CREATE TRIGGER IF NOT EXISTS mod_log_no_delete BEFORE DELETE ON mod_log
           BEGIN SELECT RAISE(ABORT, 'the moderation log is append-only'); END""",
    ),
    "postgresql": (
        """CREATE FUNCTION mod_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
           BEGIN RAISE EXCEPTION 'the moderation log is append-only'; END $$""",
        """CREATE TRIGGER mod_log_no_change BEFORE UPDATE OR DELETE ON mod_log
           FOR EACH ROW EXECUTE FUNCTION mod_log_append_only()""",
        """CREATE TRIGGER mod_log_no_truncate BEFORE TRUNCATE ON mod_log
           FOR EACH STATEMENT EXECUTE FUNCTION mod_log_append_only()""",
    ),
}


def schema(store: str) -> list[str]:
    """The tables of moderation and the log's guard, statement by statement, in
    `store`'s types and dialect ('sqlite' or 'postgresql')."""
    if store == "sqlite":
        types = {"id": "INTEGER", "real": "REAL", "bigint": "INTEGER"}
    else:
        types = {"id": "BIGSERIAL", "real": "DOUBLE PRECISION", "bigint": "BIGINT"}
    tables = [part.strip() for part in SCHEMA.format(**types).split(";") if part.strip()]
    return tables + list(LOG_GUARDS[store])


@dataclass(frozen=True, slots=True)
class Sanction:
    """A ban or a mute in force (or once in force: `until` past)."""

    id: int
    kind: str  # 'ban' or 'mute'
    scope: str  # 'name', 'key' or 'address'
    subject: str
    until: float | None  # None: for good
    reason: str
    moderator: str
    made: float

    def holds(self, now: float) -> bool:
        return self.until is None or self.until > now


@dataclass(frozen=True, slots=True)
class Report:
    """A player's report of another."""

    id: int
    reporter: str
    name: str
    reason: str
    words: str
    game: int | None
    chat: tuple[str, ...]
    made: float
    closed: float | None = None
    closed_by: str | None = None
    outcome: str | None = None


@dataclass(frozen=True, slots=True)
class LogEntry:
    """One row of the moderation log."""

    id: int
    at: float
    moderator: str
    action: str
    subject: str
    reason: str
    until: float | None


class ModerationBook(Protocol):
    """Where blocks, sanctions, reports, roles, notices and the log are kept (the
    store: archive.py's SQLite, postgres.py's). Methods raise StorageError."""

    async def block(self, name: str, blocked: str, now: float) -> bool | None:
        """`name` blocks `blocked`: True if new, False if blocked already, None if
        `name` blocks MOST_BLOCKS names already (nothing kept)."""

    async def unblock(self, name: str, blocked: str) -> bool:
        """`name` no longer blocks `blocked`: False if it did not."""

    async def blocks_of(self, name: str) -> list[str]:
        """The names `name` blocks, alphabetically."""

    async def blocks_among(self, names: Collection[str]) -> list[tuple[str, str]]:
        """Every (blocker, blocked) of which either side is one of `names` (one query)."""

    async def known_name(self, name: str) -> bool:
        """True if someone has had `name` here."""

    async def sanction(self, sanction: Sanction, log: LogEntry) -> int:
        """Keep a ban or mute and its row of the log, in one transaction; its id."""

    async def lift(self, kind: str, scope: str, subject: str, log: LogEntry, now: float) -> int:
        """End the bans (or mutes) in force of `subject` and log it; how many ended."""

    async def close_name(self, sanction: Sanction, log: LogEntry) -> int:
        """Close `sanction.subject`'s name: banned by `sanction` (for good), its keys
        and the browsers they bound let go, and the log told, in one transaction; how
        many keys went."""

    async def sanctions(self, now: float) -> list[Sanction]:
        """The bans and mutes in force."""

    async def news(self) -> int:
        """A number that moves on whenever a block, a sanction or a role changes."""

    async def append_log(self, entry: LogEntry) -> int:
        """Append one row to the moderation log; its id."""

    async def mod_log(self, subject: str | None, count: int) -> list[LogEntry]:
        """The latest `count` rows of the log (about `subject` only, if given), latest first."""

    async def file_report(self, report: Report) -> int:
        """Keep a report; its id."""

    async def open_reports(self, count: int) -> list[Report]:
        """The oldest `count` open reports."""

    async def close_reports(
        self, name: str | None, report_id: int | None, by: str, outcome: str, now: float
    ) -> list[Report]:
        """Close `name`'s open reports (or the one `report_id`) with `outcome`; those closed."""

    async def named_roles(self) -> dict[str, str]:
        """The roles named at run time: name -> 'moderator' or 'admin'."""

    async def name_role(self, name: str, role: str | None, by: str, now: float) -> None:
        """Give `name` `role` (None: take it away)."""

    async def leave_notice(self, name: str, text: str, now: float) -> None:
        """Keep a line for `name` to read when they next come."""

    async def take_notices(self, name: str) -> list[str]:
        """`name`'s notices, oldest first, which are forgotten once taken."""

    async def void_game(self, game_id: int, log: LogEntry) -> list[tuple[str, float]]:
        """Take game `game_id`'s rating changes back (and log it): each (name, change)
        taken back; [] if it moved no rating (or was voided already)."""

    async def refund(self, victims: dict[str, float], log: list[LogEntry]) -> None:
        """Give each victim back the points (name -> points) and log each refund."""

    async def run_query(self, query: str, params: tuple[object, ...]) -> list[tuple[Any, ...]]:
        """One read of the store (`?` for each value), for rules kept beside it (refunds.py)."""


_SANCTION = "id, kind, scope, subject, until, reason, moderator, made"
_REPORT = "id, reporter, name, reason, words, game, chat, made, closed, closed_by, outcome"
_LOG = "id, at, moderator, action, subject, reason, until"


def _sanction(row: tuple[Any, ...]) -> Sanction:
    sid, kind, scope, subject, until, reason, moderator, made = row
    ends = None if until is None else float(until)
    return Sanction(int(sid), kind, scope, subject, ends, reason, moderator, float(made))


def _report(row: tuple[Any, ...]) -> Report:
    rid, reporter, name, reason, words, game, chat, made, closed, closed_by, outcome = row
    return Report(
        int(rid),
        reporter,
        name,
        reason,
        words,
        None if game is None else int(game),
        tuple(json.loads(chat)),
        float(made),
        None if closed is None else float(closed),
        closed_by,
        outcome,
    )


def _entry(row: tuple[Any, ...]) -> LogEntry:
    lid, at, moderator, action, subject, reason, until = row
    ends = None if until is None else float(until)
    return LogEntry(int(lid), float(at), moderator, action, subject, reason, ends)


_NEWS = "UPDATE moderation_news SET tick = tick + 1"


async def _append(run: Query, entry: LogEntry) -> int:
    rows = await run(
        """INSERT INTO mod_log (at, moderator, action, subject, reason, until)
           VALUES (?, ?, ?, ?, ?, ?) RETURNING id""",
        (entry.at, entry.moderator, entry.action, entry.subject, entry.reason, entry.until),
    )
    return int(rows[0][0])


async def _block(run: Query, name: str, blocked: str, now: float) -> bool | None:
    held = await run("SELECT blocked FROM blocks WHERE name = ?", (name,))
    if any(row[0] == blocked for row in held):
        return False
    if len(held) >= MOST_BLOCKS:
        return None
    await run("INSERT INTO blocks (name, blocked, since) VALUES (?, ?, ?)", (name, blocked, now))
    await run(_NEWS, ())
    return True


async def _unblock(run: Query, name: str, blocked: str) -> bool:
    gone = await run(
        "DELETE FROM blocks WHERE name = ? AND blocked = ? RETURNING name", (name, blocked)
    )
    if gone:
        await run(_NEWS, ())
    return bool(gone)


async def _sanction_kept(run: Query, sanction: Sanction, log: LogEntry) -> int:
    rows = await run(
        """INSERT INTO sanctions (kind, scope, subject, until, reason, moderator, made)
           VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id""",
        (
            sanction.kind,
            sanction.scope,
            sanction.subject,
            sanction.until,
            sanction.reason,
            sanction.moderator,
            sanction.made,
        ),
    )
    await _append(run, log)
    await run(_NEWS, ())
    return int(rows[0][0])


async def _close_name(run: Query, sanction: Sanction, log: LogEntry) -> int:
    keys = await run("SELECT key FROM account_keys WHERE name = ?", (sanction.subject,))
    for (key,) in keys:
        await remove_key(run, sanction.subject, str(key))
    await _sanction_kept(run, sanction, log)
    return len(keys)


async def _lift(run: Query, kind: str, scope: str, subject: str, log: LogEntry, now: float) -> int:
    ended = await run(
        """UPDATE sanctions SET until = ? WHERE kind = ? AND scope = ? AND subject = ?
             AND (until IS NULL OR until > ?) RETURNING id""",
        (now, kind, scope, subject, now),
    )
    if ended:
        await _append(run, log)
        await run(_NEWS, ())
    return len(ended)


async def _close(
    run: Query, name: str | None, report_id: int | None, by: str, outcome: str, now: float
) -> list[Report]:
    which, value = ("name = ?", name) if report_id is None else ("id = ?", report_id)
    rows = await run(
        f"""UPDATE reports SET closed = ?, closed_by = ?, outcome = ?
            WHERE closed IS NULL AND {which} RETURNING {_REPORT}""",
        (now, by, outcome, value),
    )
    return [_report(row) for row in rows]


async def _name_role(run: Query, name: str, role: str | None, by: str, now: float) -> None:
    await run("DELETE FROM roles WHERE name = ?", (name,))
    if role is not None:
        await run(
            "INSERT INTO roles (name, role, named_by, since) VALUES (?, ?, ?, ?)",
            (name, role, by, now),
        )
    await run(_NEWS, ())


async def _take_notices(run: Query, name: str) -> list[str]:
    rows = await run("DELETE FROM notices WHERE name = ? RETURNING id, text", (name,))
    return [str(text) for _, text in sorted(rows)]


async def _void(run: Query, game_id: int, log: LogEntry) -> list[tuple[str, float]]:
    moved = await run(
        f"DELETE FROM rating_changes WHERE game = ? RETURNING name, change, {DEVIATION_COLUMNS}",
        (game_id,),
    )
    for name, change, *spread in moved:
        rows = await run(f"SELECT {RATING_COLUMNS} FROM ratings WHERE name = ?", (name,))
        if not rows:
            continue
        points, deviation, volatility, games, rated_at = rows[0]
        rating = without_game(
            Rating(float(points), float(deviation), float(volatility), int(games)),
            float(change),
            tuple(None if value is None else float(value) for value in spread),
        )
        since = float(rated_at) if rated_at is not None else log.at
        await run(
            """UPDATE ratings SET rating = ?, deviation = ?, volatility = ?, games = ?,
                   settled_until = ? WHERE name = ?""",
            (
                rating.rating,
                rating.deviation,
                rating.volatility,
                rating.games,
                settled_until(rating, since),
                name,
            ),
        )
    if moved:
        await _append(run, log)
    return [(str(name), float(change)) for name, change, *_ in moved]


async def _refund(run: Query, victims: dict[str, float], log: list[LogEntry]) -> None:
    for name, points in victims.items():
        await run("UPDATE ratings SET rating = rating + ? WHERE name = ?", (points, name))
    for entry in log:
        await _append(run, entry)


class KeptModeration(KeptQueries):
    """A `ModerationBook` for a store that runs these queries: one statement by
    `_rows`, several in one transaction by `_transaction` (archive.py's, postgres.py's)."""

    async def block(self, name: str, blocked: str, now: float) -> bool | None:
        return await self._transaction(
            lambda run: _block(run, name, blocked, now), f"keep {name}'s blocks"
        )

    async def unblock(self, name: str, blocked: str) -> bool:
        return await self._transaction(
            lambda run: _unblock(run, name, blocked), f"keep {name}'s blocks"
        )

    async def blocks_of(self, name: str) -> list[str]:
        rows = await self._rows(
            "SELECT blocked FROM blocks WHERE name = ? ORDER BY blocked", (name,)
        )
        return [str(row[0]) for row in rows]

    async def blocks_among(self, names: Collection[str]) -> list[tuple[str, str]]:
        if not names:
            return []
        test, value = self._among(sorted(set(names)))
        blocker, blocked = test, test.replace("name", "blocked", 1)
        rows = await self._rows(
            f"SELECT name, blocked FROM blocks WHERE {blocker} OR {blocked}", (value, value)
        )
        return sorted({(str(a), str(b)) for a, b in rows})

    async def known_name(self, name: str) -> bool:
        return bool(await self._rows("SELECT 1 FROM names WHERE name = ?", (name,)))

    async def sanction(self, sanction: Sanction, log: LogEntry) -> int:
        return await self._transaction(
            lambda run: _sanction_kept(run, sanction, log), f"keep the {sanction.kind}"
        )

    async def close_name(self, sanction: Sanction, log: LogEntry) -> int:
        return await self._transaction(
            lambda run: _close_name(run, sanction, log), f"close the name {sanction.subject}"
        )

    async def lift(self, kind: str, scope: str, subject: str, log: LogEntry, now: float) -> int:
        return await self._transaction(
            lambda run: _lift(run, kind, scope, subject, log, now), f"lift the {kind}"
        )

    async def sanctions(self, now: float) -> list[Sanction]:
        rows = await self._rows(
            f"SELECT {_SANCTION} FROM sanctions WHERE until IS NULL OR until > ? ORDER BY id",
            (now,),
        )
        return [_sanction(row) for row in rows]

    async def news(self) -> int:
        rows = await self._rows("SELECT tick FROM moderation_news", ())
        return int(rows[0][0]) if rows else 0

    async def append_log(self, entry: LogEntry) -> int:
        return await self._transaction(lambda run: _append(run, entry), "append to the log")

    async def mod_log(self, subject: str | None, count: int) -> list[LogEntry]:
        if subject is None:
            rows = await self._rows(
                f"SELECT {_LOG} FROM mod_log ORDER BY id DESC LIMIT ?", (count,)
            )
        else:
            rows = await self._rows(
                f"SELECT {_LOG} FROM mod_log WHERE subject = ? ORDER BY id DESC LIMIT ?",
                (subject, count),
            )
        return [_entry(row) for row in rows]

    async def file_report(self, report: Report) -> int:
        rows = await self._rows(
            """INSERT INTO reports (reporter, name, reason, words, game, chat, made)
               VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id""",
            (
                report.reporter,
                report.name,
                report.reason,
                report.words,
                report.game,
                json.dumps(list(report.chat)),
                report.made,
            ),
        )
        return int(rows[0][0])

    async def open_reports(self, count: int) -> list[Report]:
        rows = await self._rows(
            f"SELECT {_REPORT} FROM reports WHERE closed IS NULL ORDER BY made, id LIMIT ?",
            (count,),
        )
        return [_report(row) for row in rows]

    async def close_reports(
        self, name: str | None, report_id: int | None, by: str, outcome: str, now: float
    ) -> list[Report]:
        return await self._transaction(
            lambda run: _close(run, name, report_id, by, outcome, now), "close the reports"
        )

    async def named_roles(self) -> dict[str, str]:
        rows = await self._rows("SELECT name, role FROM roles", ())
        return {str(name): str(role) for name, role in rows}

    async def name_role(self, name: str, role: str | None, by: str, now: float) -> None:
        await self._transaction(
            lambda run: _name_role(run, name, role, by, now), f"name {name}'s role"
        )

    async def leave_notice(self, name: str, text: str, now: float) -> None:
        await self._rows(
            "INSERT INTO notices (name, text, made) VALUES (?, ?, ?)", (name, text, now)
        )

    async def take_notices(self, name: str) -> list[str]:
        return await self._transaction(
            lambda run: _take_notices(run, name), f"read {name}'s notices"
        )

    async def void_game(self, game_id: int, log: LogEntry) -> list[tuple[str, float]]:
        return await self._transaction(
            lambda run: _void(run, game_id, log), f"void game {game_id}'s rating"
        )

    async def refund(self, victims: dict[str, float], log: list[LogEntry]) -> None:
        await self._transaction(lambda run: _refund(run, victims, log), "refund the ratings")

    async def run_query(self, query: str, params: tuple[object, ...]) -> list[tuple[Any, ...]]:
        return await self._rows(query, params)


# For the other books that log an act in their own transaction (renames.py).
LOG_COLUMNS = _LOG
append_entry = _append
log_entry = _entry


async def news_moved(run: Query) -> None:
    """Move moderation's news on (in `run`'s transaction): every node reads it all again."""
    await run(_NEWS, ())
