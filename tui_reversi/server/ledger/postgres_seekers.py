"""The pairing queue of a fleet in PostgreSQL (seekers.py's `SeekerBook`, for
postgres.py's store): every node's seekers in the table `seekers`, each join
told to every node on the lobby's channel. A node gone (the view `live_nodes`)
takes its seekers with it: they are paired with nobody, and forgotten at the
next look. A pass's pairs are claimed in one transaction, their rows locked
with SKIP LOCKED: of two nodes claiming one seeker at once, one has it.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractAsyncContextManager

import psycopg
import psycopg_pool

from ...core import Variant
from ...net.terms import TimeControl
from ...storage import StorageError
from .seekers import Seeker


class SharedSeekers:
    """The fleet's queue, as node `node` sees it (a `SeekerBook`); `connection()` is
    one of the node's pooled connections (node_link.py)."""

    def __init__(
        self,
        node: str,
        where: str,
        channel: str,
        connection: Callable[[], AbstractAsyncContextManager[psycopg.AsyncConnection]],
        news: Callable[[], str],
    ) -> None:
        self._node = node
        self.where = where
        self._channel = channel  # (where every node hears that someone joined)
        self._connection = connection
        self._news = news  # (QueueJoined's payload, sealed: fleet_seal.py)

    async def _execute(self, query: str, params: tuple[object, ...] = ()) -> list[tuple]:
        try:
            async with self._connection() as conn:
                return await (await conn.execute(query.encode(), params)).fetchall()
        except (psycopg.Error, psycopg_pool.PoolTimeout) as error:
            raise StorageError(f"cannot read the queue in {self.where}: {error}") from None

    async def seek(self, seekers: list[Seeker], now: float) -> None:
        rows = [
            (
                seeker.id,
                seeker.name,
                seeker.node or self._node,
                seeker.variant.value,
                str(seeker.clock) if seeker.clock is not None else "",
                seeker.rating,
                seeker.deviation,
                seeker.guest,
                seeker.allows_guests,
                max(now - seeker.since, 0.0),
            )
            for seeker in seekers
        ]
        news = self._news()
        try:  # (one transaction: the other nodes hear of the seekers once they are there)
            async with (
                self._connection() as conn,
                conn.transaction(),
                conn.cursor() as cursor,
            ):
                await cursor.executemany(
                    """INSERT INTO seekers (id, name, node, variant, clock, rating, deviation,
                           guest, allows_guests, since)
                       VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s,
                               now() - make_interval(secs => %s))
                       ON CONFLICT (id) DO NOTHING""",
                    rows,
                )
                await cursor.execute("SELECT pg_notify(%s, %s)", (self._channel, news))
        except (psycopg.Error, psycopg_pool.PoolTimeout) as error:
            raise StorageError(f"cannot queue in {self.where}: {error}") from None

    async def unseek(self, seeker_id: str) -> bool:
        # (A claim holding the row is waited for: then the row is gone, and this says so.)
        rows = await self._execute("DELETE FROM seekers WHERE id = %s RETURNING id", (seeker_id,))
        return bool(rows)

    async def seekers(self, now: float) -> list[Seeker]:
        rows = await self._execute(
            """WITH gone AS (DELETE FROM seekers WHERE node NOT IN (SELECT id FROM live_nodes))
               SELECT seekers.id, name, node, variant, clock, rating, deviation, guest,
                      allows_guests, extract(epoch FROM now() - since)
               FROM seekers JOIN live_nodes ON live_nodes.id = seekers.node
               ORDER BY since, seekers.id"""
        )
        return [
            Seeker(
                name,
                float(rating),
                Variant(variant),
                TimeControl.parse(clock) if clock else None,
                guest,
                allows_guests,
                float(deviation),
                since=now - float(waited),
                node=node,
                id=seeker_id,
            )
            for (
                seeker_id,
                name,
                node,
                variant,
                clock,
                rating,
                deviation,
                guest,
                allows_guests,
                waited,
            ) in rows
        ]

    async def claim_pairs(self, pairs: list[tuple[str, str]]) -> list[tuple[str, str]]:
        # The rows locked, and a pair taken only if both of its are: a row another node
        # is claiming is skipped, so of two claims of one seeker at once, one has it.
        try:
            async with self._connection() as conn, conn.transaction():
                cursor = await conn.execute(
                    """SELECT id FROM seekers
                       WHERE id = ANY(%s) AND node IN (SELECT id FROM live_nodes)
                       FOR UPDATE SKIP LOCKED""",
                    ([seeker for pair in pairs for seeker in pair],),
                )
                held = {row[0] for row in await cursor.fetchall()}
                taken = []
                for pair in pairs:
                    if pair[0] != pair[1] and held.issuperset(pair):
                        held.difference_update(pair)
                        taken.append(pair)
                if taken:
                    gone = [seeker for pair in taken for seeker in pair]
                    await conn.execute("DELETE FROM seekers WHERE id = ANY(%s)", (gone,))
                return taken
        except (psycopg.Error, psycopg_pool.PoolTimeout) as error:
            raise StorageError(f"cannot pair from the queue in {self.where}: {error}") from None
