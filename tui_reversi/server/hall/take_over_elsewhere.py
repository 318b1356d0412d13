"""Taking a game at a table over from a session on another node of the fleet
("take it over here", ssh_session.py): the new session asks the node its game
is on (fleet.py: `take`), that node hands the seat over and ends the old
session, and the new one sits down at the table through the relay, as a
join from another node does.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Protocol


@dataclass(eq=False)
class GameElsewhere:
    """The player's game at table `code` on `node`, another node of the fleet, as the
    lobby's shares say: a session there plays it."""

    node: str
    code: str
    started: float = field(default_factory=time.monotonic)
    client_connected: bool = True
    task: asyncio.Task[None] | None = None

    @property
    def address(self) -> str:
        return f"on another node of the server, at table {self.code}"


class SeatedSession(Protocol):
    """A session here, as a take-over from another node sees it (ssh_session.py)."""

    started: float
    task: asyncio.Task[None] | None

    @property
    def player(self) -> str: ...

    @property
    def playing_at_table(self) -> bool: ...

    @property
    def client_connected(self) -> bool: ...

    def hand_seat_over(self) -> str | None: ...

    def end(self, reason: str, message: str) -> None: ...


async def give_seat_over(sessions: Iterable[SeatedSession], name: str, address: str) -> str | None:
    """For `name`'s session on another node (from `address`) that takes their game
    over: the new secret of their seat at a table here, the session here ended first
    (its game saved); None if they play at no table here."""
    seated = [session for session in sessions if session.player == name]
    playing = [session for session in seated if session.playing_at_table]
    session = min(playing, key=lambda session: session.started, default=None)
    if session is None:
        return None
    secret = session.hand_seat_over()
    if secret is not None:
        await taken_over(session, address)
    return secret


async def taken_over(session: SeatedSession, address: str) -> None:
    """End `session`'s game, taken over by a session from `address` (it saves on the
    hang-up), and wait until it has gone."""
    if session.client_connected:
        session.end(
            "taken over by another session",
            f"your game was taken over by a new session from {address}; "
            "it was saved first and carries on there.",
        )
    if session.task is not None:
        await asyncio.shield(session.task)
