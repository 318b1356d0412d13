"""The messages this node sends to the others (fleet_port.py), in the order they
were put in, by a task of their own: a slow database delays the messages, never
the node."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable

from ...storage import StorageError
from ..ledger.fleet_messages import FleetMessage
from ..ledger.store import Store

# A message put in, and whether it is sent once more (the first time could not be).
Outgoing = tuple[FleetMessage, bool]


class Outbox:
    """put() a message for a node; the messages go in order, a batch at a time;
    failed(node, sentence, messages) for a node's messages that could not be sent."""

    def __init__(self, store: Store, failed: Callable[[str, str, list[Outgoing]], None]) -> None:
        self._store = store
        self._failed = failed
        self._waiting: list[tuple[str, Outgoing]] = []
        self._posted = asyncio.Event()
        self._sending: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._sending = asyncio.create_task(self._send_all())

    async def close(self) -> None:
        if self._sending is not None:
            self._sending.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._sending

    def put(self, node: str, message: FleetMessage, *, again: bool = False) -> None:
        self._waiting.append((node, (message, again)))
        self._posted.set()

    async def _send_all(self) -> None:
        while True:
            await self._posted.wait()
            self._posted.clear()
            batch, self._waiting = self._waiting, []
            sent: list[int] = []
            try:
                for node, (message, _) in batch:
                    await self._store.send(node, message)
                    sent.append(1)
            except StorageError as error:
                lost: dict[str, list[Outgoing]] = {}
                for node, outgoing in batch[len(sent) :]:
                    lost.setdefault(node, []).append(outgoing)
                for node, messages in lost.items():
                    self._failed(node, str(error), messages)
