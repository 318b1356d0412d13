"""This node's view of what keeps the server civil, in memory, so that a chat
line, an invitation, a seat or a pairing is checked without waiting on the
store: the bans and mutes in force, who blocks whom among the people here, and
who is a moderator or an admin.

It is read again from the store when the store's news of moderation moves
(ledger/moderation.py; asked every `POLL`: a sanction made on another node
of a fleet holds here within it), and at once after a change made here. A ban
read so is told to `banned` (the arcade's: it ends the sessions it holds against),
and each rename not read before to `renamed` (the arcade's: it ends the old
name's sessions and moves its folder: edge/rename_door.py).
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable, Collection, Iterable

from ...storage import StorageError
from ..ledger.moderation import ADMIN, MODERATOR, ROLES, Sanction
from ..ledger.renames import Rename
from ..ledger.store import Store
from .sanction_terms import holds_against, time_left

# How often the store is asked whether anything changed (seconds).
POLL = 0.5


class Moderation:
    """The sanctions, blocks and roles as this node knows them (see the module)."""

    def __init__(
        self,
        store: Store,
        given: dict[str, str] | None = None,
        *,
        log: Callable[[str], None] = lambda _text: None,
        present: Callable[[], Collection[str]] = lambda: (),
        banned: Callable[[list[Sanction]], None] = lambda _bans: None,
        renamed: Callable[[list[Rename]], None] = lambda _renames: None,
        now: Callable[[], float] = time.time,
    ) -> None:
        """`store` keeps them; `given`, the roles the command line gave (--moderators:
        not the store's to change); `present`, who is here (names), whose blocks
        this node keeps; `banned` is told the bans read (new or not) and ends the
        sessions they hold against; `renamed`, the renames not read before (all of
        them at the first read)."""
        self.store = store
        self.given = dict(given or {})
        self._named: dict[str, str] = {}  # the roles an admin named (the store's)
        self._log = log
        self._present = present
        self._banned = banned
        self._renamed = renamed
        self._last_rename = 0  # (the latest rename read)
        self.now = now
        self.sanctions: list[Sanction] = []
        self._apart: set[frozenset[str]] = set()
        self._news: int | None = None
        self._polling: asyncio.Task[None] | None = None
        self._failing = False  # (the store failed at the last look: said once)

    async def start(self) -> None:
        """Read everything from the store (if it answers now), then watch it for changes."""
        await self._look()
        self._polling = asyncio.create_task(self._poll())

    async def close(self) -> None:
        if self._polling is not None:
            self._polling.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._polling

    async def _poll(self) -> None:
        while True:
            await asyncio.sleep(POLL)
            await self._look()

    async def _look(self) -> None:
        """Read everything again if the store's news moved; a store that fails is said
        once in the log (and once when it answers again), not at every poll."""
        try:
            if await self.store.news() != self._news:
                await self.read()
        except StorageError as error:
            if not self._failing:
                self._log(f"moderation: the store cannot be read ({error}); kept as it was")
            self._failing = True
            return
        if self._failing:
            self._log("moderation: the store answers again")
        self._failing = False

    async def read(self, arriving: Iterable[str] = ()) -> None:
        """Read the sanctions, roles and blocks among the people here (and
        `arriving`) again, and the renames not read yet. Raises StorageError (then
        the next poll reads it all again, the news being marked read only at the end)."""
        store = self.store
        news = await store.news()
        self.sanctions = await store.sanctions(self.now())
        self._named = await store.named_roles()
        names = {*self._present(), *arriving}
        self._apart = {frozenset(pair) for pair in await store.blocks_among(names)}
        self._banned([s for s in self.sanctions if s.kind == "ban"])
        renames = await store.renames_since(self._last_rename)
        renames = [rename for rename in renames if rename.id > self._last_rename]  # (told once)
        if renames:
            self._last_rename = renames[-1].id
            self._renamed(renames)
        self._news = news

    async def arrive(self, name: str) -> None:
        """`name` is here: their blocks, both ways, are known from now on."""
        try:
            pairs = await self.store.blocks_among([name])
        except StorageError as error:
            self._log(f"moderation: {name}'s blocks cannot be read: {error}")
            return
        self._apart |= {frozenset(pair) for pair in pairs}

    def blocked(self, name: str, other: str, *, blocks: bool) -> None:
        """`name` has just blocked (or, not `blocks`, unblocked) `other` here."""
        if blocks:
            self._apart.add(frozenset((name, other)))
        else:
            self._apart.discard(frozenset((name, other)))

    def apart(self, one: str, other: str) -> bool:
        """True if either of the two blocks the other: never seated, invited or paired
        together, and neither's chat reaches the other's table."""
        return frozenset((one, other)) in self._apart

    def apart_from_any(self, name: str, others: Iterable[str]) -> bool:
        return any(self.apart(name, other) for other in others if other != name)

    def ban_of(self, name: str, key: str | None, address: str) -> Sanction | None:
        """The ban in force against this player, if any."""
        return self._held("ban", name, key, address)

    def mute_of(self, name: str) -> Sanction | None:
        """The mute in force against `name`, if any."""
        return self._held("mute", name, None, "")

    def _held(self, kind: str, name: str, key: str | None, address: str) -> Sanction | None:
        now = self.now()
        for sanction in self.sanctions:
            held = sanction.kind == kind and sanction.holds(now)
            if held and holds_against(sanction, name, key, address):
                return sanction
        return None

    def role_of(self, name: str) -> str | None:
        """'admin', 'moderator' or None: the command line's word first, then an admin's."""
        role = self.given.get(name) or self._named.get(name)
        return role if role in ROLES else None

    def is_moderator(self, name: str) -> bool:
        return self.role_of(name) in (MODERATOR, ADMIN)


def chat_refusal(moderation: Moderation, name: str, players: Iterable[str]) -> str | None:
    """Why `name`'s chat line at a table of `players` is not passed on: a mute (with
    the time left), or a player there blocks them or is blocked by them (said no more)."""
    mute = moderation.mute_of(name)
    if mute is not None:
        left = time_left(mute.until, moderation.now())
        return f"You are muted {left} ({mute.reason}): your chat is not passed on."
    if moderation.apart_from_any(name, players):
        return "That line cannot be sent here."
    return None
