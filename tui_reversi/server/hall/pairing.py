"""Quick pairing (`ssh -t host play [5+3] [anti] [guests]`): players wait in
one queue, and two whose terms match (variant and clock) and whose ratings are
close are seated at a new table at once, colours drawn. How close is close
is how unsure each rating is, and widens the longer either waits: a
player's rating deviation (ratings.py: 500 for a new name, under 110 for a
settled one), at least WINDOW points, WIDENING more each second, at most
WIDEST. A guest is paired only with guests, unless the player
with a name allows guests (`play guests`).

The queue is the fleet's: its seekers are kept in the store (ledger/seekers.py:
PostgreSQL's table in a fleet, each join told to every node; memory on a
server alone), and every node pairs from all of them by one rule, pairs(). Of
the pairs it finds, a node seats those whose longer-waiting seeker is its own:
it claims both from the store at once (both or neither: no seeker is seated
twice), opens the table here and seats them. A seeker on another node is
told their seat (fleet_port.py: `Paired`) and plays at the table through their
node, as a join across nodes does; if they have left meanwhile, the table
ends as if they left it.

Nobody with a playban or a ban is seated: each pass reads them from the store
for everyone waiting (pairing_bars.py), so that one made on any node holds at
once; a player of this node with a playban is taken out of the queue and told
how long it lasts.
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import time
from collections.abc import Callable
from typing import NamedTuple

from ...core import Color
from ...net.terms import TableRefused
from ...storage import StorageError
from ..ledger import fleet_messages as told
from ..ledger.seekers import Seeker as Seeker
from ..ledger.seekers import SeekerBook
from ..ledger.store import Store, TableView
from .fleet_port import Fleet
from .pairing_bars import Bars, read_bars
from .tables import Tables

# Told the seat found: (its secret, the table's code); queue_wait.py's.
Paired = Callable[[str, str], None]
# Told, in one sentence, why the player is out of the queue (a playban); queue_wait.py's.
Barred = Callable[[str], None]


class Waiting(NamedTuple):
    """One of this node's seekers, and what they are told."""

    seeker: Seeker
    paired: Paired
    barred: Barred


# Ratings this far apart (or as far as a rating's deviation) are paired at once; the
# window widens by WIDENING points a second of the longer wait, to at most WIDEST.
WINDOW = 100.0
WIDENING = 10.0
WIDEST = 600.0
# How often the queue looks for pairs again (the windows widen in between).
TICK = 1.0
# The computer levels and the ratings they are offered at: the level whose rating is
# nearest the player's is offered. First estimates (levels are not rated here yet).
LEVEL_RATINGS = {"easy": 1000.0, "medium": 1300.0, "hard": 1700.0, "expert": 2000.0}


def nearest_level(rating: float) -> str:
    """The computer level offered to a player rated `rating`."""
    return min(LEVEL_RATINGS, key=lambda level: abs(LEVEL_RATINGS[level] - rating))


def pairs(
    waiting: list[Seeker], fits: Callable[[Seeker, Seeker], bool]
) -> list[tuple[Seeker, Seeker]]:
    """The pairs to seat among `waiting`: the longest waiting first, each with the
    nearest rating that fits; in each pair, the longer waiting first."""
    left = sorted(waiting, key=lambda seeker: seeker.since)
    found: list[tuple[Seeker, Seeker]] = []
    while left:
        one = left.pop(0)
        fitting = [other for other in left if fits(one, other)]
        if fitting:
            other = min(fitting, key=lambda other: abs(other.rating - one.rating))
            left.remove(other)
            found.append((one, other))
    return found


def window(seeker: Seeker, now: float) -> float:
    """How far from `seeker`'s rating an opponent may be rated at `now`: as far as the
    rating may be off (its deviation, at least WINDOW), widened by their wait."""
    unsure = max(WINDOW, seeker.deviation)
    return min(unsure + WIDENING * (now - seeker.since), WIDEST)


def fits(one: Seeker, other: Seeker, now: float) -> bool:
    """True if `one` and `other` may be paired at `now`."""
    if one.name == other.name or (one.variant, one.clock) != (other.variant, other.clock):
        return False
    if one.guest != other.guest and not (one.allows_guests or other.allows_guests):
        return False
    return abs(one.rating - other.rating) <= max(window(one, now), window(other, now))


class PairingQueue:
    """This node's part in the pairing queue: join(), leave(); close() at the end.
    Its seekers are kept in `store` (SQLite's: in memory), and `fleet` tells the
    other nodes (none for a server alone)."""

    def __init__(
        self,
        tables: Tables,
        store: Store,
        fleet: Fleet,
        log: Callable[[str], None],
        now: Callable[[], float] = time.monotonic,
        apart: Callable[[str, str], bool] = lambda _one, _other: False,
    ) -> None:
        self.tables = tables
        self.store = store
        self.fleet = fleet
        self._log = log
        self._now = now
        # This node's seekers, by id, in the order they joined, and what each is told.
        self._here: dict[str, Waiting] = {}
        self._unwritten: dict[str, Seeker] = {}  # joined, not in the store yet
        self._leaving: list[str] = []  # left, still in the store
        self._woken = asyncio.Event()
        self._pairing: asyncio.Task[None] | None = None
        self._closed = False  # (the server stops: a leave then writes nothing)
        # True for two names of which one blocks the other (moderation_watch.py's).
        self.apart = apart

        fleet.handle(told.QueueJoined, lambda _node, _joined: self.joined_elsewhere())
        fleet.handle(told.Requeue, lambda _node, message: self.requeue(message.seeker))
        fleet.handle(told.Paired, self._heard_paired)
        fleet.handle(told.Rejoined, lambda _node, _back: self.rejoined())

    async def close(self) -> None:
        self._closed = True
        if self._pairing is not None:
            self._pairing.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._pairing

    @property
    def book(self) -> SeekerBook:
        """Where the queue's seekers are kept."""
        return self.store

    @property
    def node(self) -> str:
        return self.store.node

    @property
    def seekers(self) -> list[Seeker]:
        """The players waiting on this node, in the order they joined."""
        return [waiting.seeker for waiting in self._here.values()]

    def join(self, seeker: Seeker, paired: Paired, barred: Barred = lambda _why: None) -> None:
        """Put `seeker` in the queue; paired(secret, code) once seated, or barred(why)
        once out of it for a playban."""
        seeker.since, seeker.node = self._now(), self.node
        self._here[seeker.id] = Waiting(seeker, paired, barred)
        self._unwritten[seeker.id] = seeker
        self._wake()

    def leave(self, seeker: Seeker) -> None:
        """Take `seeker` out of the queue (gone, or left it)."""
        if self._here.pop(seeker.id, None) is None:
            return
        if self._unwritten.pop(seeker.id, None) is None:
            self._leaving.append(seeker.id)
            self._wake()

    def fits(self, one: Seeker, other: Seeker) -> bool:
        """True if `one` and `other` may be paired now."""
        return fits(one, other, self._now()) and not self.apart(one.name, other.name)

    # -- from the fleet (fleet_port.py) ------------------------------------------------------

    def _heard_paired(self, node: str, message: told.Paired) -> None:
        if not self.paired_elsewhere(node, message.seeker, message.secret, message.table):
            self.fleet.tell(node, told.Unseat(message.secret, left=True))

    def joined_elsewhere(self) -> None:
        if self._here:
            self._wake()

    def paired_elsewhere(self, node: str, seeker: str, secret: str, view: TableView) -> bool:
        entry = self._here.pop(seeker, None)
        if entry is None:
            return False
        waiting, paired, _ = entry
        if self._unwritten.pop(seeker, None) is None:
            self._leaving.append(seeker)  # (claimed: gone already, unless written again since)
            self._wake()
        here = self.tables.seat_from(node, secret, view, waiting.name)
        self._log(f"pairing: {waiting.name} at table {view.code} on node {node}")
        paired(here, view.code)
        return True

    def requeue(self, seeker: str) -> None:
        entry = self._here.get(seeker)
        if entry is not None:
            self._unwritten[seeker] = entry.seeker
            self._wake()

    def rejoined(self) -> None:
        self._unwritten.update(
            (waiting.seeker.id, waiting.seeker) for waiting in self._here.values()
        )
        self._wake()

    # -- pairing ---------------------------------------------------------------------------

    def _wake(self) -> None:
        self._woken.set()
        if self._closed:
            return
        if self._pairing is None or self._pairing.done():
            self._pairing = asyncio.create_task(self._pair_while_waiting())

    async def _pair_while_waiting(self) -> None:
        """Write the joins and leaves to the store and seat the pairs that fit; again
        each TICK (the windows widen) or when woken, while anyone here waits."""
        again = False  # a claim missed: look again at once, but once
        while True:
            self._woken.clear()
            missed = False
            try:
                # (The database away: the fleet says when it is back, and rejoined() wakes.)
                if not self.fleet.down:
                    missed = await self.pair()
            except StorageError as error:
                self._log(f"pairing: the queue cannot be read or written: {error}")
            if not (self._here or self._leaving or self._unwritten):
                return
            again = missed and not again
            if again:
                continue
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._woken.wait(), TICK)

    async def _write(self) -> None:
        """The joins and leaves not in the store yet, in the order they came (what
        cannot be written is tried again at the next pass)."""
        joined, self._unwritten = list(self._unwritten.values()), {}
        leaving, self._leaving = self._leaving, []
        if not joined and not leaving:
            return
        try:
            if joined:
                await self.book.seek(joined, self._now())
                joined = []
            while leaving:
                await self.book.unseek(leaving[0])
                leaving.pop(0)
        except StorageError:
            self._unwritten.update((s.id, s) for s in joined if s.id in self._here)
            self._leaving = leaving + self._leaving
            raise

    async def pair(self) -> bool:
        """Write the joins and leaves, then seat the pairs the queue holds whose
        longer-waiting seeker is here; True if a claim missed (a seeker claimed by
        another node, or gone, meanwhile). Raises StorageError."""
        await self._write()
        if not self._here:
            return False
        book = self.book
        waiting = await book.seekers(self._now())
        bars = await read_bars(self.store, {seeker.name for seeker in waiting}, time.time())
        self._take_out_playbanned(bars)
        free = [seeker for seeker in waiting if not bars.keep_out(seeker.name)]
        plan = [
            (one, other)
            for one, other in pairs(free, self.fits)
            if one.node == self.node and self._waiting(one, other)
        ]  # (the others are other nodes' to seat)
        if not plan:
            return False
        asked = [(one.id, other.id) for one, other in plan]
        taken = set(await book.claim_pairs(asked))
        for one, other in plan:
            if (one.id, other.id) not in taken:
                continue
            if not self._waiting(one, other) or not self._seat(one, other):
                self._put_back(one, other)  # (one here left meanwhile; or refused)
        return len(taken) < len(plan)

    def _take_out_playbanned(self, bars: Bars) -> None:
        """This node's seekers with a playban out of the queue, each told how long it
        lasts (one banned from the server waits for its session to end: not seated)."""
        now = time.time()
        for waiting in list(self._here.values()):
            ban = bars.playbans.get(waiting.seeker.name)
            if ban is not None:
                self._log(f"pairing: {waiting.seeker.name} out of the queue for a playban")
                self.leave(waiting.seeker)
                waiting.barred(ban.sentence(now))

    def _waiting(self, *seekers: Seeker) -> bool:
        """True unless one of `seekers` is this node's and has left the queue."""
        return all(seeker.node != self.node or seeker.id in self._here for seeker in seekers)

    def _put_back(self, *seekers: Seeker) -> None:
        """Back in the queue, as they were, the `seekers` claimed but not seated (each
        by their node: one that has left meanwhile is not)."""
        for seeker in seekers:
            if seeker.node != self.node:
                self.fleet.tell(seeker.node, told.Requeue(seeker.id))
            elif seeker.id in self._here:
                self._unwritten[seeker.id] = self._here[seeker.id].seeker

    def _seat(self, one: Seeker, other: Seeker) -> bool:
        """A new table here for the two, colours drawn; each told their seat (`other`
        through their node if it is not this one). False if the tables refuse."""
        colour = secrets.choice((Color.BLACK, Color.WHITE))
        try:
            table, one_secret = self.tables.open(one.name, one.variant, one.clock, colour)
        except TableRefused as refusal:  # (at their limit of tables): both wait on
            self._log(f"pairing {one.name} with {other.name} refused: {refusal}")
            return False
        try:
            _, other_secret = self.tables.sit(table.code, other.name)
        except TableRefused as refusal:
            self.tables.leave(one_secret)  # (the table goes with its only seat)
            self._log(f"pairing {one.name} with {other.name} refused: {refusal}")
            return False
        self._log(f"pairing: {one.name} and {other.name} at table {table.code}")
        self._here.pop(one.id).paired(one_secret, table.code)
        other_here = self._here.pop(other.id, None)
        if other_here is not None:
            other_here.paired(other_secret, table.code)
        else:  # (a seeker on another node: a fleet's)
            self.fleet.seat_seeker(other.node, other.id, other_secret)
        return True
