"""How each rated game's players behaved, and the playbans it brings (the rule
is ledger/playbans.py's, lichess's): when a game between two named players
ends, each player's outcome is read from how it ended (`outcomes`) and kept
in the store; a player it bans is told at once, at the table, how long for.
A banned player is refused `play` and every new table (open, join, an
invitation sent or accepted) with one sentence that says how long is left.

Bans are kept in the store, for the whole fleet. A session's `play`, `table`
or `join` reads the player's from the store (`Playbans.refusal`), so a ban
made on one node holds on every node; the in-app lobby reads it likewise at
each invitation, answer, seat and tournament joined. Each node also remembers
the bans it knows of (`Playbans.known`: the ones its games brought, and the
last read of each player's): what stands while the store cannot be reached.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime

from ...core import Color, Ending
from ...core.errors import capitalised
from ...net.remote import is_guest
from ...net.server_line import line
from ...storage import StorageError
from ..ledger.playbans import Ban, Outcome
from ..ledger.ratings import Rating
from ..ledger.store import Store
from .games_socket import tell
from .table import Table

# A player who lets their clock run out after waiting this share of the game's time
# on one move (lichess's twelfth), at least SITTING_LEAST, at most SITTING_MOST
# seconds, was sitting, not short of time.
SITTING_SHARE = 1 / 12
SITTING_LEAST = 15.0
SITTING_MOST = 180.0
# An Othello game is about 30 moves a side: the clock's whole time, increments in.
MOVES_A_SIDE = 30
# A resignation with fewer moves than this of one's own, within QUICK_SECONDS of
# the start, is resigning at once (lichess's quick resignation, a sandbag).
QUICK_MOVES = 5
QUICK_SECONDS = 60.0


def moves_by(table: Table, color: Color) -> int:
    """How many moves `color` played at `table` (passes not counted)."""
    game = table.game
    return sum(
        1
        for before, move in zip(game.positions, game.played, strict=False)
        if not move.is_pass and before.to_move == color
    )


def sitting_limit(table: Table) -> float | None:
    """How long one move may wait before a flag is sitting; None without a clock."""
    clock = table.time_control
    if clock is None:
        return None
    whole = clock.base + MOVES_A_SIDE * clock.increment
    return min(max(whole * SITTING_SHARE, SITTING_LEAST), SITTING_MOST)


def outcomes(table: Table, end: Ending, now: datetime) -> dict[str, Outcome]:
    """Each named player's outcome in `table`'s game, ended as `end` says at `now`
    (before its clocks stop: a flag's loser's time left is what they sat on); {}
    for a game with a guest (unrated) or with one seat empty."""
    names = table.names
    if len(names) != 2 or any(is_guest(name) for name in names.values()):
        return {}
    if end.winner is None:
        if end.reason == "left" and not table.game.moves and len(table.links) == 1:
            (stayed,) = table.links  # (the other went before any move: an abort)
            return {names[stayed.other]: Outcome.ABORT}
        return {name: Outcome.GOOD for name in names.values()} if end.reason == "normal" else {}
    loser = end.winner.other
    return {names[end.winner]: Outcome.GOOD, names[loser]: _losers(table, end, loser, now)}


def _losers(table: Table, end: Ending, loser: Color, now: datetime) -> Outcome:
    """How the loser lost: well, or by one of the bad ways."""
    played = moves_by(table, loser)
    if end.reason in ("flag", "left") and played == 0:
        return Outcome.NO_PLAY
    if end.reason == "left":
        return Outcome.RAGE_QUIT
    limit = sitting_limit(table)
    if end.reason == "flag" and limit is not None and table.remaining[loser] >= limit:
        return Outcome.SITTING
    quick = (now - table.started).total_seconds() < QUICK_SECONDS
    if end.reason == "resigned" and played < QUICK_MOVES and quick:
        return Outcome.QUICK_RESIGN
    return Outcome.GOOD


class PlayerNotes:
    """Sentences for one player at a table (a playban, a warning), told once what the
    table's writes hold back is out (its end, the ratings: table_writes.py), so that
    they are the last word the player's game shows; `settled` waits for a table's."""

    def __init__(self, settled: Callable[[Table], Awaitable[None]]) -> None:
        self._settled = settled
        self._telling: set[asyncio.Task[None]] = set()

    def tell(self, table: Table, name: str, text: str) -> None:
        """`text` to `name`'s game at `table` (if it is still there), as news."""
        task = asyncio.get_running_loop().create_task(self._tell(table, name, text))
        self._telling.add(task)
        task.add_done_callback(self._telling.discard)

    async def _tell(self, table: Table, name: str, text: str) -> None:
        await self._settled(table)
        for color, sitting in table.names.items():
            writer = table.links.get(color)
            if sitting == name and writer is not None:
                tell(writer, line("news", text))

    async def close(self) -> None:
        """Let the sentences on their way go."""
        if self._telling:
            await asyncio.gather(*self._telling, return_exceptions=True)


class Playbans:
    """The playbans, as the store keeps them and this node knows them: refusal()
    reads a player's from the store; ended() keeps a game's outcomes when it ends
    (a GameWatch of the tables: table_course.py)."""

    def __init__(
        self,
        store: Store,
        log: Callable[[str], None],
        now: Callable[[], float] = time.time,
    ) -> None:
        self._store = store
        self._log = log
        self._now = now
        self.known: dict[str, Ban] = {}
        self._recording: set[asyncio.Task[None]] = set()

    async def refusal(self, name: str, who: str = "you") -> str | None:
        """Why `name` cannot play now, said to `who` ('you', or the name), if banned:
        their ban read from the store (made on any node); the store away, the one this
        node knows."""
        if is_guest(name):
            return None
        try:
            ban = await self._store.playban(name)
        except StorageError as error:
            self._log(f"playbans: {name}'s cannot be read: {error}")
        else:
            if ban is not None:
                self.known[name] = ban
            else:
                self.known.pop(name, None)
        return self.known_refusal(name, who)

    def known_refusal(self, name: str, who: str = "you") -> str | None:
        """refusal() from what this node knows, without asking the store."""
        ban = self.known.get(name)
        now = self._now()
        if ban is None or ban.end <= now:
            self.known.pop(name, None)
            return None
        return ban.sentence(now, who)

    def ended(self, table: Table, end: Ending, notes: PlayerNotes) -> None:
        """`table`'s game ended as `end` says: its players' outcomes are kept, and a
        player banned for them told so at the table through `notes` (in the background)."""
        seen = outcomes(table, end, datetime.now(UTC))
        if not seen:
            return
        task = asyncio.get_running_loop().create_task(self._record(table, seen, notes))
        self._recording.add(task)
        task.add_done_callback(self._recording.discard)

    def rated(
        self,
        table: Table,
        before: dict[str, Rating],
        after: dict[str, Rating],
        notes: PlayerNotes,
    ) -> None:
        """(A rated game's ratings count for nothing here: its outcome was read at its end.)"""

    async def _record(self, table: Table, seen: dict[str, Outcome], notes: PlayerNotes) -> None:
        try:
            bans = await self._store.record_conduct(seen)
        except StorageError as error:
            self._log(f"playbans: table {table.code}'s conduct cannot be kept: {error}")
            return
        for name, ban in bans.items():
            self.known[name] = ban
            self._log(f"playban: {name} for {ban.minutes} minutes ({seen[name].value})")
            notes.tell(table, name, capitalised(ban.sentence(self._now())))

    async def close(self) -> None:
        """Let the outcomes being kept finish."""
        if self._recording:
            await asyncio.gather(*self._recording, return_exceptions=True)
