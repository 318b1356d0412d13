"""Whether this node should be sent players: what `/readyz` answers (operator_port.py).

`Health` is the arcade's (`Arcade.health`): the arcade says when it listens and
when it stops, a drain says that the node drains (`drain(why)`), and `said`
answers from those alone (all there is before the store and the fleet are put
together); `unready` adds what only asking can tell: whether the store answers,
and whether the node is in its fleet.
"""

from __future__ import annotations

import asyncio

from ...storage import StorageError
from ..hall.fleet_port import Fleet
from ..ledger.store import Store

# How long the store has to answer `ping` before the node counts as without it.
PING_TIMEOUT = 2.0


class Health:
    """The node's readiness: listening, draining or stopping, and its store's answer."""

    def __init__(self) -> None:
        self.listening = False  # the arcade listens (it has joined its fleet, if any)
        self.stopping = False
        self.draining: str | None = None  # why the node drains, while it does
        self._asking: asyncio.Task[str | None] | None = None  # (one ping at a time)

    def drain(self, why: str = "the node is draining") -> None:
        """From now on `/readyz` says the node drains, and why."""
        self.draining = why

    def said(self) -> str | None:
        """Why this node should not be sent players by what the arcade said (a line),
        or None: it drains, stops, or does not listen yet (its parts not put together)."""
        if self.draining is not None:
            return f"draining: {self.draining}"
        if self.stopping:
            return "stopping"
        if not self.listening:
            return "starting: not listening yet"
        return None

    async def unready(self, store: Store, fleet: Fleet) -> str | None:
        """Why this node should not be sent players now (a line), or None if it
        should: it drains, stops, has not started, is out of its fleet, or its
        store does not answer within PING_TIMEOUT."""
        said = self.said()
        if said is not None:
            return said
        if fleet.down:
            return "out of the fleet: its database cannot be reached"
        # Checks that come together share one ping (a scrape and a balancer's check).
        if self._asking is None or self._asking.done():
            self._asking = asyncio.ensure_future(_ping(store))
        return await asyncio.shield(self._asking)


async def _ping(store: Store) -> str | None:
    try:
        await asyncio.wait_for(store.ping(), PING_TIMEOUT)
    except TimeoutError:
        return f"the store did not answer within {PING_TIMEOUT:g} s"
    except StorageError as error:
        return f"the store cannot be reached: {error}"
    return None
