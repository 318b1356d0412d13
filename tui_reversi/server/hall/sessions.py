"""This node's game sessions as the hall keeps them (`Sessions`): every session
with a game running, and which of them plays each player's own game, so that a
player has one live game however many times they connect; and what a
take-over asks of a session here (`taken_over`), from this node or another.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Protocol

from .take_over_elsewhere import player_autosave


class HallSession(Protocol):
    """A game session as the hall sees it (ssh_session.py's `GameSession`: the
    hall's lower modules read it through this, the session imports them)."""

    started: float  # (time.monotonic())
    task: asyncio.Task[None] | None  # its game, while it has one

    @property
    def player(self) -> str:
        """The player's name as their files know it."""

    @property
    def address(self) -> str:
        """Where the player connected from."""

    @property
    def client_connected(self) -> bool:
        """True while its player is still connected."""

    @property
    def playing_at_table(self) -> bool:
        """True while its game plays at a player's seat at a table."""

    @property
    def table_secret(self) -> str | None:
        """The secret of its seat at a table, if it has one."""

    def hand_seat_over(self) -> str | None:
        """Its seat's secret for the session taking its game over, if it is at a table."""

    def end(self, reason: str, message: str) -> None:
        """Hang its game up for `reason` (logged), `message` told to the player."""


class Sessions:
    """The sessions with a game running here (`games`), and each player's own
    game among them (`own`); a session is in `games` from `begin` to `gone`."""

    def __init__(self, players_dir: Path) -> None:
        self._players_dir = players_dir
        # Player (directory) name -> the session whose game is that player's own game.
        self._own: dict[str, HallSession] = {}
        # Every session with a game running, its connection still there or gone.
        self._games: set[HallSession] = set()

    @property
    def games(self) -> frozenset[HallSession]:
        """Every session with a game running, its player still connected or gone."""
        return frozenset(self._games)

    def own(self, player: str) -> HallSession | None:
        """The session playing `player`'s own game here, if one does."""
        return self._own.get(player)

    def begin(self, session: HallSession, *, own: bool) -> None:
        """`session`'s game starts: the player's own game if `own`, else one beside it."""
        if own:
            self._own[session.player] = session
        self._games.add(session)

    def gone(self, session: HallSession) -> None:
        """`session`'s game has ended."""
        self._games.discard(session)
        if self._own.get(session.player) is session:
            del self._own[session.player]

    def at_table(self, player: str, besides: HallSession) -> HallSession | None:
        """The oldest of `player`'s sessions here (other than `besides`) playing at
        a table they sat down at from a command."""
        seated = [
            session
            for session in self._games
            if session is not besides and session.player == player and session.playing_at_table
        ]
        return min(seated, key=lambda session: session.started, default=None)

    def end_all(self, reason: str, message: str) -> list[asyncio.Task[None]]:
        """Every game here hung up (killed after the grace if it does not go): their tasks."""
        for session in list(self._games):
            session.end(reason, message)
        return [session.task for session in self._games if session.task is not None]

    async def give_seat_over(self, name: str, address: str) -> str | None:
        """For `name`'s session on another node (from `address`) that takes their game
        over: the new secret of their seat at a table here, the session here ended first
        (its game saved); None if they play at no table here."""
        playing = [session for session in self._games if session.player == name]
        seated = [session for session in playing if session.playing_at_table]
        session = min(seated, key=lambda session: session.started, default=None)
        if session is None:
            return None
        secret = session.hand_seat_over()
        if secret is not None:
            await taken_over(session, address)
        return secret

    async def give_own_game_over(self, name: str, address: str) -> bytes | None:
        """For `name`'s session on another node (from `address`) that takes their own
        game over: the session here playing it ended (its game saved), and the autosave
        taken out of their folder here (kept there as autosave.previous.json, so a
        message lost on the way loses nothing): its bytes, b"" if it held no game; None
        if no own game of theirs plays here."""
        session = self._own.get(name)
        if session is None or session.playing_at_table:
            return None
        await taken_over(session, address)
        autosave = player_autosave(self._players_dir, name)
        try:
            found = autosave.load()
            if not found.resumable or found.record is None:
                return b""
            autosave.clear()
            return found.record.to_json().encode()
        finally:
            autosave.release()


async def taken_over(session: HallSession, address: str) -> None:
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
