"""A player an admin renamed (ledger/renames.py), on this node: every session of
the old name here ends with one sentence that tells them their new name (their
keys are the new name's), and once their games have gone, their folder (saved
games, autosave, settings) moves to the new name's. Each node does it when it
reads the rename (hall/moderation_watch.py tells `RenamesHere.read` the renames
it has not seen), so a rename made on one node reaches the players and folders
of all of them; a node that was down meanwhile moves its folders when it starts.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Protocol

from ...core.errors import reason, sentence
from ..config import player_directory_name
from ..hall.sessions import HallSession, Sessions
from ..ledger.renames import Rename

# How long the old name's games get to end (they are hung up, and killed after
# their grace) before its folder is left where it is, said in the log.
GAMES_GONE = 60.0


class Visitor(Protocol):
    """A client let in (connection.py's `Client`), as a rename reads it."""

    user: str | None
    authenticated: bool

    @property
    def session(self) -> HallSession | None: ...

    def end(self, reason: str, message: str) -> None: ...


def renamed_sentence(rename: Rename) -> str:
    """What the renamed player reads as their session ends."""
    new = rename.new
    return sentence(
        f"this server's admins renamed you to {new}: from now on you sign in as {new}, "
        "with the same keys"
    )


def move_folder(players_dir: Path, old: str, new: str) -> str | None:
    """Move `old`'s folder to `new`'s; a sentence for the log if it moved or could
    not (None: `old` has no folder here)."""
    folder = players_dir / player_directory_name(old)
    if folder.is_symlink() or not folder.is_dir():
        return None
    target = players_dir / player_directory_name(new)
    if target.exists():
        return f"{old}'s folder stays where it is: {new} has one already"
    try:
        folder.rename(target)
    except OSError as error:
        return f"{old}'s folder cannot move to {new}'s: {reason(error)}"
    return f"{old}'s folder is {new}'s now"


class RenamesHere:
    """This node's part of each rename (see the module): read() starts it, in the
    order the renames were made; close() waits for what is under way."""

    def __init__(
        self,
        visitors: Callable[[], Iterable[Visitor]],
        sessions: Sessions,
        players_dir: Path,
        log: Callable[[str], None],
    ) -> None:
        self._visitors = visitors
        self._sessions = sessions
        self._players_dir = players_dir
        self._log = log
        self._working: asyncio.Task[None] | None = None

    def read(self, renames: list[Rename]) -> None:
        """Carry `renames` out here, after those read before."""
        self._working = asyncio.create_task(self._carry_out(self._working, renames))

    async def close(self) -> None:
        if self._working is not None:
            self._working.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._working

    async def _carry_out(self, before: asyncio.Task[None] | None, renames: list[Rename]) -> None:
        if before is not None:
            await asyncio.wait([before])  # (its failure, a bug, is asyncio's to report)
        for rename in renames:
            games = self._end_sessions(rename)
            if games:
                _, going = await asyncio.wait(games, timeout=GAMES_GONE)
                if going:
                    self._log(f"{rename.old}'s folder stays where it is: a game of theirs runs on")
                    continue
            said = move_folder(self._players_dir, rename.old, rename.new)
            if said is not None:
                self._log(said)

    def _end_sessions(self, rename: Rename) -> set[asyncio.Task[None]]:
        """End every session of the old name here; the games still running."""
        told = renamed_sentence(rename)
        player = player_directory_name(rename.old)
        for visitor in list(self._visitors()):
            if visitor.authenticated and visitor.user == rename.old:
                visitor.end("renamed", told)
        for session in self._sessions.games:  # (a game whose connection has gone, too)
            if session.player == player:
                session.end("renamed", told)
        return {
            session.task
            for session in self._sessions.games
            if session.player == player and session.task is not None and not session.task.done()
        }
