"""The `Store` of a fleet (store.py): several `serve` nodes on one PostgreSQL,
with the accounts, ratings, archive and games not over that they share.

psycopg 3's asynchronous connections: a pool for the state (short statements,
each its own transaction unless said, each within a statement timeout; every
method a coroutine, so a slow database holds up only the requests awaiting it),
and one more connection per node that
LISTENs: messages to this node arrive on channel `tui_reversi_<node>`, news
that another node's share of the lobby changed on `tui_reversi_lobby`. That
connection also says the node is up: the view `live_nodes` (migrations.py)
lists the nodes whose listening connection PostgreSQL still has, so a node
killed with kill -9 is gone for the others at once, and the games it held
become anyone's to take over (take_over()). The connections, and how they
come back when the database went away, are node_link.py's.

Every statement takes its values as parameters; the only name put into SQL,
the node's channel, is quoted by psycopg.sql.
"""

from __future__ import annotations

import contextlib
import secrets
import time
from collections.abc import Awaitable, Callable, Collection, Mapping, Sequence
from datetime import UTC
from pathlib import Path
from typing import Any, TypeVar

import psycopg
import psycopg_pool
from psycopg.conninfo import conninfo_to_dict
from psycopg.types.json import Jsonb

from ...net.remote import is_guest
from ...storage import StorageError
from ..config import ServeError
from . import browser_passes, playbans, standings
from .account_keys import AccountKey, KeyCodeStore
from .archive import (
    game_row,
    read_unfinished,
    save_for_players,
    winner_of,
)
from .browser_passes import KeptPasses
from .fleet_messages import FleetMessage, Hearing, LobbyChanged, QueueJoined
from .fleet_seal import LEAST_SECRET, Dropped, Seal
from .migrations import SECRET_TABLE, check, migrate
from .moderation import KeptModeration
from .names import name_key
from .node_link import NodeLink, connect, connect_refusal, where
from .penalties import Penalty, Subject, change_kept
from .playbans import Ban, Outcome
from .postgres_key_codes import SharedKeyCodes
from .postgres_seekers import SharedSeekers
from .ratings import FIRST_RATING, PAIR_WINDOW, Rating, rated_game
from .renames import KeptRenames
from .seekers import Seeker
from .standings import ArchivedGame, Profile, Query, Standing
from .store import PlayedGame, Presence, Results, TableView, UnfinishedGame
from .tournaments import KeptTournaments

LOBBY_CHANNEL = "tui_reversi_lobby"
# NOTIFY takes at most 8000 bytes: a longer message is refused before it is sent.
MAX_MESSAGE = 7900
# Taken while penalties change: one node at a time reads and writes them.
PENALTIES_LOCK = 0x7475_6972_7065_6E61

T = TypeVar("T")


def migrate_database(url: str) -> tuple[int, int]:
    """`serve --database URL --migrate`: (the schema version found, the version now)."""
    with connect(url) as conn:
        try:
            return migrate(conn)
        except psycopg.Error as error:
            raise connect_refusal(url, error) from None


class PostgresStore(KeptPasses, KeptTournaments, KeptModeration, KeptRenames):
    """The fleet's state in PostgreSQL (store.py's `Store`)."""

    # A rename (renames.py) moves the codes to add a key, and forgets the waits in the queue.
    OWN_NAME_COLUMNS = (("key_codes", "name"),)
    OWN_PASSING_COLUMNS = (("seekers", "name"),)

    def __init__(
        self,
        url: str,
        players_dir: Path,
        *,
        secret: bytes | None = None,
        dropped: Dropped | None = None,
    ) -> None:
        """Connect, check the schema and read the fleet's secret (`secret`: the one
        given instead, `serve --fleet-secret`); ServeError (one sentence) if any of it
        fails. `dropped` is told of each message from the others that is dropped
        (fleet_seal.py)."""
        self.url = url
        self.where = where(url)
        self.players_dir = players_dir
        self._node = secrets.token_hex(6)
        self._codes = SharedKeyCodes(self.where, self._execute, lambda: self._link.connection())
        # One connection first (at start, before the node serves anyone: it may wait):
        # what is wrong is said at once, not after the pool's retries.
        with connect(url) as conn:
            try:
                check(conn, self.where)
                if secret is None:
                    secret = _fleet_secret(conn, url)
            except psycopg.Error as error:
                raise connect_refusal(url, error) from None
        self._seal = Seal(secret, self._node, dropped or _not_told)
        self._seekers = SharedSeekers(
            self._node,
            self.where,
            LOBBY_CHANNEL,
            lambda: self._link.connection(),
            lambda: self._seal.seal(QueueJoined(), LOBBY_CHANNEL),
        )
        channels = (f"tui_reversi_{self._node}", LOBBY_CHANNEL)
        self._link = NodeLink(url, self.where, self._node, channels, self._seal.open)

    async def open(self) -> None:
        """Open the pool of connections for the state (before any other call);
        ServeError (one sentence) if it cannot be."""
        try:
            await self._link.open()
        except (psycopg.Error, psycopg_pool.PoolTimeout) as error:
            await self._link.close()
            raise connect_refusal(self.url, error) from None

    @property
    def node(self) -> str:
        return self._node

    @property
    def alone(self) -> bool:
        return False

    async def leave(self) -> None:
        await self._link.stop_listening()
        with contextlib.suppress(StorageError):
            await self._execute("DELETE FROM seekers WHERE node = %s", (self._node,))
            await self._execute("DELETE FROM nodes WHERE id = %s", (self._node,))

    async def close(self) -> None:
        await self._link.close()

    async def _execute(self, query: str, params: tuple | dict = ()) -> list[tuple]:
        """Run one statement on a pooled connection; its rows, if any. Raises StorageError."""
        try:
            async with self._link.connection() as conn:
                # (parameters, never formatted)
                cursor = await conn.execute(query.encode(), params)
                return await cursor.fetchall() if cursor.description is not None else []
        except (psycopg.Error, psycopg_pool.PoolTimeout) as error:
            reason = str(error).strip() or type(error).__name__
            raise StorageError(f"{self.where}: {reason}") from None

    # -- the archive --------------------------------------------------------------------

    async def keep(self, played: PlayedGame) -> list[str]:
        problems: list[str] = []
        try:
            await self._insert(played)
        except (psycopg.Error, psycopg_pool.PoolTimeout) as error:
            problems.append(f"cannot archive table {played.code}'s game in {self.where}: {error}")
        return problems + save_for_players(played, self.players_dir)

    async def _insert(self, played: PlayedGame) -> None:
        """The game, its unfinished row gone and the ratings it moves: all or nothing."""
        winner = winner_of(played)
        async with self._link.connection() as conn, conn.transaction():
            inserted = await (
                await conn.execute(
                    """INSERT INTO games (code, variant, black, white, moves, winner, ending,
                       black_score, white_score, description, started, ended)
                   VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, now())
                   RETURNING id, ended""",
                    (*game_row(played), played.started),
                )
            ).fetchone()
            assert inserted is not None  # (RETURNING gives the one row inserted)

            async def on_conn(query: str, params: tuple[object, ...]) -> list[tuple]:
                await conn.execute(_placeholders(query).encode(), params)
                return []

            await standings.count_game(on_conn, played.names, winner, inserted[1])
            await conn.execute(
                "DELETE FROM unfinished WHERE code = %s AND node = %s", (played.code, self._node)
            )
            if winner is None or not played.rated or any(is_guest(n) for n in played.names):
                return  # (guests play unrated; and a casual tournament)
            names = list(played.names)
            for name in names:
                await conn.execute(
                    """INSERT INTO ratings (name, rating, games) VALUES (%s, %s, 0)
                       ON CONFLICT (name) DO NOTHING""",
                    (name, FIRST_RATING),
                )
            # Locked in name order: two games ending at once on two nodes never deadlock.
            now = time.time()
            rows = await (
                await conn.execute(
                    f"""SELECT name, {standings.RATING_COLUMNS} FROM ratings
                        WHERE name = ANY(%s) ORDER BY name FOR UPDATE""".encode(),
                    (names,),
                )
            ).fetchall()
            before = {str(row[0]): standings.kept_rating(row[1:], now) for row in rows}
            earlier = await (
                await conn.execute(
                    """SELECT count(*) FROM games
                       WHERE winner IS NOT NULL AND ended > now() - make_interval(secs => %s)
                         AND ((black = %s AND white = %s) OR (black = %s AND white = %s))""",
                    (PAIR_WINDOW, *names, *reversed(names)),
                )
            ).fetchone()
            assert earlier is not None
            after = rated_game(  # (this game's row is in the count)
                before[names[0]], before[names[1]], winner, int(earlier[0]) - 1
            )
            rated = dict(zip(names, after, strict=True))
            await standings.keep_ratings(on_conn, rated, now)
            await standings.note_rating_changes(
                on_conn,
                int(inserted[0]),
                before,
                rated,
            )

    async def rating(self, name: str) -> Rating:
        return (await standings.ratings(self._rows, _among, [name]))[name]

    async def ratings(self, names: Collection[str]) -> dict[str, Rating]:
        return await standings.ratings(self._rows, _among, names)

    def _among(self, names: list[str]) -> tuple[str, object]:
        return _among(names)

    async def results(self, name: str) -> Results:
        rows = await self._execute(
            """SELECT
                 count(*) FILTER (WHERE (black = %(n)s AND winner = 'black')
                                     OR (white = %(n)s AND winner = 'white')),
                 count(*) FILTER (WHERE (black = %(n)s AND winner = 'white')
                                     OR (white = %(n)s AND winner = 'black')),
                 count(*) FILTER (WHERE winner = 'draw')
               FROM games WHERE black = %(n)s OR white = %(n)s""",
            {"n": name},
        )
        return Results(*(int(count) for count in rows[0]))

    async def records(self, names: Collection[str]) -> dict[str, Results]:
        return await standings.records(self._rows, _among, names)

    # -- the standings (standings.py): the same queries as SQLite's ------------------

    async def leaderboard(self, count: int) -> list[Standing]:
        return await standings.leaderboard(self._rows, count)

    async def profile(self, name: str, games: int) -> Profile | None:
        return await standings.profile(self._rows, name, games)

    async def archived_game(self, game_id: int) -> ArchivedGame | None:
        return await standings.archived_game(self._rows, game_id)

    async def _rows(self, query: str, params: tuple[object, ...]) -> list[tuple]:
        return await self._execute(_placeholders(query), params)

    # -- the players' conduct in rated games (playbans.py): one row a player ---------------

    async def record_conduct(self, outcomes: Mapping[str, Outcome]) -> dict[str, Ban]:
        return await self._transaction(
            lambda run: playbans.record(run, outcomes, time.time(), " FOR UPDATE"),
            "keep the players' conduct",
        )

    async def playban(self, name: str) -> Ban | None:
        return (await playbans.read(self._rows, name)).ban_at(time.time())

    async def playbans_among(self, names: Collection[str]) -> dict[str, Ban]:
        return await playbans.bans_among(self._rows, _among, names, time.time())

    # -- accounts (account_keys.py's AccountStore): which keys are which name's -------------

    async def key_owner(self, key: str) -> str | None:
        rows = await self._execute("SELECT name FROM account_keys WHERE key = %s", (key,))
        return str(rows[0][0]) if rows else None

    async def keys_of(self, name: str) -> list[AccountKey]:
        rows = await self._execute(
            "SELECT key, added FROM account_keys WHERE name = %s ORDER BY added, key", (name,)
        )
        return [
            AccountKey(str(key), added.astimezone(UTC).isoformat(timespec="seconds"))
            for key, added in rows
        ]

    async def claim(self, name: str, key: str) -> bool:
        return await self._bind(name, key, only_if_free=True)

    async def add_key(self, name: str, key: str) -> bool:
        return await self._bind(name, key, only_if_free=False)

    async def remove_key(self, name: str, key: str) -> bool:
        return await self._transaction(
            lambda run: browser_passes.remove_key(run, name, key), f"remove {name}'s key"
        )

    async def _transaction(self, work: Callable[[Query], Awaitable[T]], what: str) -> T:
        """`work`'s statements (`?` for each value) in one transaction; StorageError
        saying it could not `what` if the database fails."""
        try:
            async with self._link.connection() as conn, conn.transaction():

                async def run(query: str, params: tuple[object, ...]) -> list[tuple[Any, ...]]:
                    cursor = await conn.execute(_placeholders(query).encode(), params)
                    return await cursor.fetchall() if cursor.description is not None else []

                return await work(run)
        except (psycopg.Error, psycopg_pool.PoolTimeout) as error:
            raise StorageError(f"cannot {what} in {self.where}: {error}") from None

    @property
    def codes(self) -> KeyCodeStore:
        return self._codes

    # -- one person, one name (names.py); what guessing costs (guessing.py) ---------------

    async def look_alike(self, name: str) -> str | None:
        rows = await self._execute(
            """SELECT name FROM names WHERE key = %s AND name <> %s
                 AND NOT EXISTS (SELECT 1 FROM names WHERE name = %s)
               ORDER BY twin LIMIT 1""",
            (name_key(name), name, name),
        )
        return str(rows[0][0]) if rows else None

    async def enter_name(self, name: str, *, new: bool = False) -> str | None:
        key = name_key(name)
        entered = await self._execute(
            """INSERT INTO names (name, key) VALUES (%s, %s) ON CONFLICT DO NOTHING
               RETURNING name""",
            (name, key),
        )
        if entered:
            return None
        return await self.look_alike(name) or (name if new else None)

    async def change_penalties(
        self, subjects: Sequence[Subject], change: Callable[[dict[Subject, Penalty]], T]
    ) -> T:
        try:
            async with self._link.connection() as conn, conn.transaction():
                await conn.execute("SELECT pg_advisory_xact_lock(%s)", (PENALTIES_LOCK,))

                async def read(subject: Subject) -> tuple[Any, ...] | None:
                    return await (
                        await conn.execute(
                            "SELECT failures, last_failure, next_try FROM penalties "
                            "WHERE scope = %s AND subject = %s",
                            subject,
                        )
                    ).fetchone()

                async def write(subject: Subject, penalty: Penalty | None) -> None:
                    if penalty is None:
                        await conn.execute(
                            "DELETE FROM penalties WHERE scope = %s AND subject = %s", subject
                        )
                        return
                    await conn.execute(
                        """INSERT INTO penalties (scope, subject, failures, last_failure, next_try)
                           VALUES (%s, %s, %s, %s, %s)
                           ON CONFLICT (scope, subject) DO UPDATE SET
                               failures = excluded.failures,
                               last_failure = excluded.last_failure,
                               next_try = excluded.next_try""",
                        (*subject, penalty.failures, penalty.last_failure, penalty.next_try),
                    )

                return await change_kept(subjects, change, read, write)
        except (psycopg.Error, psycopg_pool.PoolTimeout) as error:
            raise StorageError(f"cannot keep the penalties in {self.where}: {error}") from None

    async def _bind(self, name: str, key: str, *, only_if_free: bool) -> bool:
        """Bind `key` to `name` unless the key has a name (or, `only_if_free`, the name a
        key): two nodes binding one name at once do it one after the other."""
        try:
            async with self._link.connection() as conn, conn.transaction():
                await conn.execute("SELECT pg_advisory_xact_lock(hashtext(%s))", (name,))
                taken = await (
                    await conn.execute(
                        "SELECT 1 FROM account_keys WHERE key = %s OR (%s AND name = %s)",
                        (key, only_if_free, name),
                    )
                ).fetchone()
                if taken:
                    return False
                bound = await (
                    await conn.execute(
                        """INSERT INTO account_keys (key, name) VALUES (%s, %s)
                           ON CONFLICT (key) DO NOTHING RETURNING key""",
                        (key, name),
                    )
                ).fetchone()
                return bound is not None
        except (psycopg.Error, psycopg_pool.PoolTimeout) as error:
            raise StorageError(f"cannot keep {name}'s key in {self.where}: {error}") from None

    # -- games not over -----------------------------------------------------------------

    async def save_table(self, unfinished: UnfinishedGame) -> None:
        # A game another node took over meanwhile (this one cut off) is not this one's
        # to write: the row stays as that node keeps it (hall/fleet_port.py: reconcile).
        await self._write_table(unfinished, self._node)

    async def hand_table(self, unfinished: UnfinishedGame, node: str) -> bool:
        return await self._write_table(unfinished, node)

    async def _write_table(self, unfinished: UnfinishedGame, node: str) -> bool:
        """Keep `unfinished` as `node`'s, if this node keeps it (or nobody does yet):
        True if it was written."""
        game, clock = unfinished.game, unfinished.time_control
        left = unfinished.left if clock is not None else (None, None)
        written = await self._execute(
            """INSERT INTO unfinished (code, variant, black, white, moves, clock, black_left,
                   white_left, adjourned, started, saved, node)
               VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, now(), %s)
               ON CONFLICT (code) DO UPDATE SET variant = excluded.variant,
                   black = excluded.black, white = excluded.white, moves = excluded.moves,
                   clock = excluded.clock, black_left = excluded.black_left,
                   white_left = excluded.white_left, adjourned = excluded.adjourned,
                   started = excluded.started, saved = excluded.saved, node = excluded.node
               WHERE unfinished.node = %s
               RETURNING code""",
            (
                unfinished.code,
                game.variant.value,
                *unfinished.names,
                game.transcript(),
                str(clock) if clock is not None else None,
                *left,
                unfinished.adjourned,
                unfinished.started,
                node,
                self._node,
            ),
        )
        return bool(written)

    async def forget_table(self, code: str) -> None:
        await self._execute(
            "DELETE FROM unfinished WHERE code = %s AND node = %s", (code, self._node)
        )

    async def unfinished_tables(self) -> tuple[list[UnfinishedGame], list[str]]:
        return [], []  # in a fleet, a node takes games over one by one (take_over)

    async def orphaned(self, name: str) -> list[UnfinishedGame]:
        rows = await self._execute(
            """SELECT code, variant, black, white, moves, clock, black_left, white_left,
                      adjourned, started
               FROM unfinished
               WHERE (black = %s OR white = %s)
                 AND NOT EXISTS (SELECT 1 FROM live_nodes WHERE live_nodes.id = unfinished.node)
               ORDER BY started""",
            (name, name),
        )
        return read_unfinished(rows)[0]

    async def take_over(self, code: str) -> UnfinishedGame | None:
        # One statement: of two nodes taking over at once, the second finds the row taken.
        rows = await self._execute(
            """UPDATE unfinished SET node = %s, adjourned = true
               WHERE code = %s
                 AND NOT EXISTS (SELECT 1 FROM live_nodes WHERE live_nodes.id = unfinished.node)
               RETURNING code, variant, black, white, moves, clock, black_left, white_left,
                         adjourned, started""",
            (self._node, code),
        )
        games, _ = read_unfinished(rows)
        return games[0] if games else None

    async def holders(self, codes: list[str]) -> dict[str, str]:
        rows = await self._execute(
            "SELECT code, node FROM unfinished WHERE code = ANY(%s)", (codes,)
        )
        return {code: node for code, node in rows}

    # -- the fleet ------------------------------------------------------------------------

    async def share(self, people: list[Presence], tables: list[TableView]) -> None:
        await self._execute(
            """WITH shared AS (UPDATE nodes SET people = %s, tables = %s WHERE id = %s)
               SELECT pg_notify(%s, %s)""",
            (
                Jsonb([[p.name, p.state, p.text, p.code, p.in_lobby] for p in people]),
                Jsonb({t.code: _table_row(t) for t in tables}),
                self._node,
                LOBBY_CHANNEL,
                self._seal.seal(LobbyChanged(), LOBBY_CHANNEL),
            ),
        )

    async def shared(self) -> tuple[list[Presence], list[TableView]]:
        rows = await self._execute(
            "SELECT id, people, tables FROM live_nodes WHERE id <> %s ORDER BY started",
            (self._node,),
        )
        people: list[Presence] = []
        tables: list[TableView] = []
        for node, node_people, node_tables in rows:
            for name, state, text, code, in_lobby in node_people:
                people.append(Presence(name, state, text, code, node, bool(in_lobby)))
            for code, (phase, black, white, variant, clock, move, waiting) in node_tables.items():
                row = (code, phase, black, white, variant, clock, move, node, tuple(waiting))
                tables.append(TableView(*row))
        return people, tables

    async def send(self, node: str, message: FleetMessage) -> None:
        channel = f"tui_reversi_{node}"
        payload = self._seal.seal(message, channel)
        if len(payload) > MAX_MESSAGE:
            raise StorageError(f"a message of {len(payload)} bytes is too long for NOTIFY")
        await self._execute("SELECT pg_notify(%s, %s)", (channel, payload))

    async def listen(self, heard: Hearing) -> None:
        try:
            await self._link.listen(heard)
        except psycopg.Error as error:
            raise connect_refusal(self.url, error) from None

    async def live_nodes(self) -> set[str]:
        return {row[0] for row in await self._execute("SELECT id FROM live_nodes")}

    async def ping(self) -> None:
        await self._execute("SELECT 1")

    # -- the pairing queue (seekers.py's SeekerBook): postgres_seekers.py's ------------------

    async def seek(self, seekers: list[Seeker], now: float) -> None:
        await self._seekers.seek(seekers, now)

    async def unseek(self, seeker_id: str) -> bool:
        return await self._seekers.unseek(seeker_id)

    async def seekers(self, now: float) -> list[Seeker]:
        return await self._seekers.seekers(now)

    async def claim_pairs(self, pairs: list[tuple[str, str]]) -> list[tuple[str, str]]:
        return await self._seekers.claim_pairs(pairs)


def _fleet_secret(conn: psycopg.Connection, url: str) -> bytes:
    """The secret --migrate made (migrations.py); ServeError if this role cannot read it."""
    try:
        row = conn.execute(f"SELECT key FROM {SECRET_TABLE}".encode()).fetchone()
    except psycopg.errors.InsufficientPrivilege:
        user = conninfo_to_dict(url).get("user") or "this node's role"
        raise ServeError(
            f"{user} cannot read the fleet's secret ({SECRET_TABLE}): run the nodes as "
            "the role that ran --migrate, or give every node the same --fleet-secret FILE"
        ) from None
    if row is None or len(bytes(row[0])) < LEAST_SECRET:
        raise ServeError(f"{SECRET_TABLE} holds no secret; give --fleet-secret FILE")
    return bytes(row[0])


def _not_told(why: str, node: str | None, size: int, untold: int) -> None:
    """(A store that does not listen, as --import-archive's: nobody to tell.)"""


def _table_row(table: TableView) -> list[str | int | list[str]]:
    fields: list[str | int] = [
        table.phase.value,
        table.black,
        table.white,
        table.variant,
        table.clock,
    ]
    fields.append(table.move)
    return [*fields, list(table.waiting_for)]


def _among(names: list[str]) -> tuple[str, object]:
    """standings.Among on PostgreSQL: the names as one array."""
    return "name = ANY(?)", names


def _placeholders(query: str) -> str:
    """standings.py's `?` for each value as psycopg's `%s` (its queries hold no other `?`)."""
    return query.replace("?", "%s")
