"""The one-time codes to add a key to a name in a fleet's PostgreSQL (account_keys.py's
`KeyCodeStore`, for postgres.py's store): a code shown on one node is redeemed on
any. A single server keeps its codes in its memory instead (account_keys.py's
`KeyCodes`).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from contextlib import AbstractAsyncContextManager

import psycopg
import psycopg_pool

from ...storage import StorageError
from .account_keys import CODE_LIFETIME, new_code, same_code


class SharedKeyCodes:
    """The one-time codes to add a key, in the database: shown on one node,
    redeemed on any (account_keys.py's `KeyCodeStore`). `execute` runs one
    statement (the store's, raising StorageError); `connection()` is one of the
    node's pooled connections (node_link.py)."""

    def __init__(
        self,
        where: str,
        execute: Callable[[str, tuple], Awaitable[list[tuple]]],
        connection: Callable[[], AbstractAsyncContextManager[psycopg.AsyncConnection]],
    ) -> None:
        self.where = where
        self._execute = execute
        self._connection = connection

    async def issue(self, name: str) -> str:
        code = new_code()
        await self._execute(
            """INSERT INTO key_codes (name, code, expires, tries)
               VALUES (%s, %s, now() + make_interval(secs => %s), %s)
               ON CONFLICT (name) DO UPDATE SET code = excluded.code,
                   expires = excluded.expires, tries = excluded.tries""",
            (name, code, CODE_LIFETIME, 0),  # (tries: counted per key now, guessing.py)
        )
        return code

    async def pending(self, name: str) -> bool:
        rows = await self._execute(
            "SELECT 1 FROM key_codes WHERE name = %s AND expires > now()", (name,)
        )
        return bool(rows)

    async def redeem(self, name: str, code: str) -> bool:
        try:
            async with self._connection() as conn, conn.transaction():
                held = await (
                    await conn.execute(
                        """SELECT code FROM key_codes
                           WHERE name = %s AND expires > now() FOR UPDATE""",
                        (name,),
                    )
                ).fetchone()
                if held is None:
                    return False
                if not same_code(code, held[0]):
                    return False  # (counted against the key that tried: guessing.py)
                await conn.execute("DELETE FROM key_codes WHERE name = %s", (name,))
                return True
        except (psycopg.Error, psycopg_pool.PoolTimeout) as error:
            raise StorageError(f"cannot read {name}'s code in {self.where}: {error}") from None
