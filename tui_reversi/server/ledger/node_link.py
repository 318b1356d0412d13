"""A fleet node's connections to its PostgreSQL (postgres.py's queries run on them).

Two kinds: psycopg's asynchronous pool for the state, each statement within
STATEMENT_TIMEOUT (a coroutine awaits its answer: a slow database holds up the
requests that wait on it, never the node's event loop); and one listening connection
that is the node's life in the fleet (the `nodes` row names its backend: the
view `live_nodes`). When that one drops, the node is told (`down`), joins
again with backoff, with a fresh pool, and is told (`rejoined`): it never
needs a restart. Its TCP keepalives, both ways, let a silent machine drop out
within seconds instead of the kernel's hours.

One plain connection besides (`connect`) checks the schema at the start and
runs --migrate; when a node cannot connect, the operator reads why in one
sentence that names the database but never its password (`connect_refusal`).
"""

from __future__ import annotations

import asyncio
import contextlib
import re
import traceback
from collections.abc import AsyncIterator, Callable
from typing import Any

import psycopg
import psycopg_pool
from psycopg import sql
from psycopg.conninfo import conninfo_to_dict, make_conninfo

from ...storage import StorageError
from ..config import ServeError
from .fleet_messages import Down, Heard, Hearing, Rejoined

CONNECT_TIMEOUT = 10
# Connections each node keeps for the state (the listening one aside).
POOL_SIZE = 4
# The longest a statement on a pooled connection may run (milliseconds; a lock waited
# for counts): a slow database slows the requests that need it, this long at most.
STATEMENT_TIMEOUT = 8000
# The listening connection's TCP keepalives: libpq's (this node notices a silent
# database) and the server's (PostgreSQL notices a silent node), about 5 s each.
KEEPALIVES: dict[str, Any] = {
    "keepalives": 1,
    "keepalives_idle": 2,
    "keepalives_interval": 1,
    "keepalives_count": 3,
}
SERVER_KEEPALIVES = (
    ("tcp_keepalives_idle", "2"),
    ("tcp_keepalives_interval", "1"),
    ("tcp_keepalives_count", "3"),
    ("tcp_user_timeout", "5000"),
)
# The database gone: the first wait before joining again, and the longest (seconds).
FIRST_RETRY = 0.25
LAST_RETRY = 2.0
# Meanwhile a statement waits this long for a connection before it fails (seconds).
DOWN_TIMEOUT = 0.1
# A node's row named after the connection that runs it, which is the node's life in
# the fleet (the view live_nodes); %s is the node's id.
CLAIM_ROW = """INSERT INTO nodes (id, backend_pid, backend_start)
    SELECT %s, pid, backend_start FROM pg_stat_activity WHERE pid = pg_backend_pid()
    ON CONFLICT (id) DO UPDATE SET backend_pid = excluded.backend_pid,
        backend_start = excluded.backend_start"""


def where(url: str) -> str:
    """'database tui on db.example:5432' for messages: never the password."""
    try:
        parts = conninfo_to_dict(url)
    except psycopg.ProgrammingError:
        return "the database"
    host = parts.get("host") or "localhost"
    port = f":{parts['port']}" if parts.get("port") else ""
    return f"database {parts.get('dbname') or parts.get('user') or '?'} on {host}{port}"


# What libpq says when it cannot connect -> what the operator reads ({0}: the name it
# quotes, {user}: the URL's role).
_CONNECT_FAILURES = (
    (r'role "(.*)" does not exist', "there is no role {0} (create it: createuser {0})"),
    (r'database "(.*)" does not exist', "there is no database {0} (create it: createdb {0})"),
    (
        r'password authentication failed for user "(.*)"',
        "the password for role {0} is wrong (it comes from ~/.pgpass or PGPASSWORD)",
    ),
    (r"no password supplied", "role {user} needs a password: put it in ~/.pgpass or PGPASSWORD"),
    (r"Connection refused", "the connection was refused (is PostgreSQL listening there?)"),
    (r"timeout expired", "no answer within the connect timeout ({timeout} s)"),
    (r"failed to resolve host", "that host name cannot be resolved"),
    (r"no pg_hba\.conf entry", "its pg_hba.conf lets no connection like this one in"),
)


def connect_refusal(url: str, error: Exception) -> ServeError:
    """Why a node could not connect to `url`, in one sentence (never the password)."""
    text = str(error).strip()
    try:
        parts = conninfo_to_dict(url)
    except psycopg.ProgrammingError:  # (the URL itself is what is wrong: the error says so)
        parts = {}
    for pattern, said in _CONNECT_FAILURES:
        found = re.search(pattern, text)
        if found is not None:
            timeout = parts.get("connect_timeout") or CONNECT_TIMEOUT
            reason = said.format(*found.groups(), user=parts.get("user") or "?", timeout=timeout)
            return ServeError(f"cannot connect to {where(url)}: {reason}")
    # Anything else: libpq's own words, past its 'connection to server at ... failed:'.
    first = text.splitlines()[0] if text else type(error).__name__
    return ServeError(f"cannot connect to {where(url)}: {first.rpartition('failed: ')[2]}")


def connect(url: str) -> psycopg.Connection:
    """One connection to `url` (autocommit), or ServeError saying at once why not."""
    try:
        given = "connect_timeout" in conninfo_to_dict(url)  # (the URL's own, if it says one)
        conninfo = url if given else make_conninfo(url, connect_timeout=CONNECT_TIMEOUT)
        return psycopg.connect(conninfo, autocommit=True)
    except psycopg.Error as error:
        raise connect_refusal(url, error) from None


class NodeLink:
    """Node `node`'s connections: open(), connection() for the statements,
    listen(heard), stop_listening(), close()."""

    def __init__(
        self,
        url: str,
        where: str,
        node: str,
        channels: tuple[str, ...],
        opened: Callable[[str, str], Heard | None],
    ) -> None:
        self.url = url
        # (payload, channel) -> its node and message, None if dropped (fleet_seal.py)
        self._opened = opened
        self.where = where
        self.node = node
        self._channels = channels
        self.pool = self._new_pool()
        self._listener: psycopg.AsyncConnection | None = None
        self._hearing: asyncio.Task[None] | None = None
        self.down = False  # the listening connection dropped, and is not back yet

    async def open(self) -> None:
        """Open the pool. Raises psycopg.Error or PoolTimeout."""
        await self.pool.open(wait=True, timeout=CONNECT_TIMEOUT)

    async def close(self) -> None:
        await self.pool.close()

    def _new_pool(self) -> psycopg_pool.AsyncConnectionPool:
        return psycopg_pool.AsyncConnectionPool(
            self.url,
            min_size=1,
            max_size=POOL_SIZE,
            kwargs={"autocommit": True, "options": f"-c statement_timeout={STATEMENT_TIMEOUT}"},
            open=False,
            timeout=CONNECT_TIMEOUT,
            name="tui-reversi",
            check=psycopg_pool.AsyncConnectionPool.check_connection,  # (a dead one is replaced)
        )

    @contextlib.asynccontextmanager
    async def connection(self) -> AsyncIterator[psycopg.AsyncConnection]:
        """A pooled connection for a few statements. Raises StorageError at once while
        the database is away (what waits for it is told now, not in a while)."""
        if self.down:
            raise StorageError(f"{self.where}: away just now")
        async with self.pool.connection() as conn:
            yield conn

    async def listen(self, heard: Hearing) -> None:
        """Join the fleet and hear its messages. Raises psycopg.Error if it cannot."""
        self._listener = await self._join()
        self._hearing = asyncio.create_task(self._hear(self._listener, heard))

    async def stop_listening(self) -> None:
        if self._hearing is not None:
            self._hearing.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._hearing
            self._hearing = None
        if self._listener is not None:
            await self._listener.close()
            self._listener = None

    async def _join(self) -> psycopg.AsyncConnection:
        """A listening connection, and this node in the fleet by it (live_nodes)."""
        conn = await psycopg.AsyncConnection.connect(
            self.url, autocommit=True, connect_timeout=CONNECT_TIMEOUT, **KEEPALIVES
        )
        try:
            for setting, value in SERVER_KEEPALIVES:
                await conn.execute("SELECT set_config(%s, %s, false)", (setting, value))
            for channel in self._channels:
                await conn.execute(sql.SQL("LISTEN {}").format(sql.Identifier(channel)))
            async with conn.transaction():
                # One join at a time. Two at once (both nodes back after an outage, on
                # the same backoff) let one's sweep below delete the other's row just
                # renamed to its new backend: the sweep's list of live nodes was read
                # before the rename, and PostgreSQL rechecks only the row. That node
                # was out of the fleet for good while it thought itself in.
                await conn.execute("LOCK TABLE nodes IN SHARE ROW EXCLUSIVE MODE")
                await conn.execute(CLAIM_ROW, (self.node,))
                await conn.execute(
                    "DELETE FROM nodes WHERE id NOT IN (SELECT id FROM live_nodes)"
                )  # (the rows of nodes long gone)
        except BaseException:
            await conn.close()
            raise
        return conn

    async def _hear(self, conn: psycopg.AsyncConnection, heard: Hearing) -> None:
        """Hear the messages to this node; when the connection drops, say so (down),
        join again with backoff and a fresh pool, and say so (rejoined)."""
        while True:
            with contextlib.suppress(psycopg.Error):
                async for notice in conn.notifies():
                    self._heard(notice.payload, notice.channel, heard)
            self._listener = None
            with contextlib.suppress(psycopg.Error):
                await conn.close()
            self.pool.timeout = DOWN_TIMEOUT  # (no statement waits long for a connection)
            self.down = True
            self._tell(heard, Heard(self.node, Down()))
            wait = FIRST_RETRY
            while True:
                await asyncio.sleep(wait)
                try:
                    conn = await self._join()
                    break
                except psycopg.Error:
                    wait = min(2 * wait, LAST_RETRY)
            self._listener = conn
            await self._fresh_pool()
            self.down = False
            self._tell(heard, Heard(self.node, Rejoined()))

    async def _fresh_pool(self) -> None:
        """A new pool (the old one may be waiting out its own backoff to reconnect),
        the old one closed, its statements given a second to finish."""
        old, self.pool = self.pool, self._new_pool()
        await self.pool.open(wait=False)
        await old.close(1.0)

    def _heard(self, payload: str, channel: str, heard: Hearing) -> None:
        try:
            opened = self._opened(payload, channel)
        except Exception:  # a bug: said, and the node goes on hearing (never deaf for good)
            traceback.print_exc()
            return
        if opened is not None and opened.node != self.node:  # (its own, on the lobby's channel)
            self._tell(heard, opened)

    @staticmethod
    def _tell(heard: Hearing, message: Heard) -> None:
        try:
            heard(message)
        except Exception:  # a bug: said, and the node goes on hearing
            traceback.print_exc()
