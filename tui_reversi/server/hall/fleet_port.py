"""Several `serve` nodes on one PostgreSQL, behaving as one server.

A table lives on one node, the one it was opened on (or, after its node went,
the one that took its game over): that node's tables.py is its referee, as
on a server alone. A player whose connection lands on another node sits at
it all the same: their game talks to its own node's tables socket as ever,
and that node relays the game's lines to the table's node and back, as
messages through the store (postgres.py: NOTIFY). On the table's node the
relayed game is a game like any other, on a StreamWriter whose transport
sends what is written to it back (`RelayTransport`): the referee does not
know the difference, and the games never know there is a fleet.

Each node also shares its part of the lobby (who is on it, its tables) and
reads the others' (store.share/shared), so everyone sees one lobby. A node
that stops, even killed outright, drops out of the live nodes at once; the
relays to it end, but not the games relayed: their player's node takes the
game over (the store keeps every move) or waits for whoever does, and seats
them again with no command typed (Tables.serve_game).

A node that loses its database is out of the fleet until the store has its
connection back (postgres.py reconnects): meanwhile its relays to other nodes
and the games relayed to it stop the same way, adjourned, and its own games
go on, their moves kept until they can be written. Back, its tables first let
go of the games another node took over meanwhile (Tables._reconcile, on the
`rejoined` message): their people here sit down at them there, and the moves
played here meanwhile go there too.

A node that drains hands its tables to the others at once (table_handover.py:
`hand`, the Handed and HandedOn messages) and says Stopping for its relayed
games when it stops, so that their tables adjourn rather than hold a drop.

The messages are ledger/fleet_messages.py's, one frozen dataclass a kind, sealed
and opened by ledger/fleet_seal.py; the store (the ledger) carries them by
LISTEN/NOTIFY. Each kind is handled by one entry of the port's table
(`handle`): the relays' here, the take-overs' in the port's part of them
(fleet_take_overs.py), the lobby's invitations in lobby_host.py, the pairing
queue's in pairing.py, the moves a table taken over had meanwhile in tables.py.
A server alone is a fleet of one: no other node, no message.
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from typing import Any, TypeVar

from ...net.server_line import MAX_LINE, line, next_line
from ...net.terms import TableRefused
from ...storage import StorageError
from ..ledger.fleet_handover import handed, handed_game
from ..ledger.fleet_messages import (
    Answer,
    Close,
    Down,
    Eof,
    FleetMessage,
    Gone,
    Handed,
    HandedOn,
    Heard,
    Line,
    LobbyChanged,
    NothingTaken,
    OwnPiece,
    Paired,
    PlayerWent,
    Rejoined,
    Seat,
    Sit,
    SitAt,
    Stopping,
    Take,
    TakenOwn,
    TakenSeat,
    Unseat,
)
from ..ledger.store import Presence, Store, TableView, UnfinishedGame
from .fleet_outbox import Outbox, Outgoing
from .fleet_relay import FleetTables, RelayTransport
from .fleet_take_overs import TakeOvers

# How often a node looks at the fleet again (who is up, the others' lobby), and how
# often it looks whether its own share of the lobby changed (shared only if it did).
LOOK_AGAIN = 1.0
SHARE_AGAIN = 0.1
# A node out of the fleet may be one that lost the database with this one: its games
# are taken over only once this node has been in the fleet this long (seconds).
REJOIN_GRACE = 5.0
# Messages sent once more when they could not be (the database away a moment), this
# long after or once it is back: what they say holds however late it comes, and the
# node they go to checks it still applies. The others' losses are told (_not_sent).
RESENT: frozenset[type[FleetMessage]] = frozenset({Answer, Gone, Unseat})
RESEND_WAIT = 1.0

M = TypeVar("M", bound=FleetMessage)
# A kind's handler: told the node a message is from (or, lost, the node it was for) and it.
Handler = Callable[[str, Any], None]


@dataclass(eq=False)
class _Hosted:
    """A game on another node, seated at a table here."""

    node: str
    reader: asyncio.StreamReader
    secret: str = ""
    task: asyncio.Task[None] | None = field(default=None, repr=False)


@dataclass(eq=False)
class _Relayed:
    """A game here, seated at a table on another node."""

    node: str
    writer: asyncio.StreamWriter
    lost: asyncio.Event = field(default_factory=asyncio.Event)


class Fleet:
    """This node's part in the fleet (of one for a server alone): start(), heard() for
    each message, close(). The hall's classes handle their own kinds (handle) and
    hear of a changed fleet (watch)."""

    def __init__(
        self,
        store: Store,
        *,
        people: Callable[[], list[Presence]],
        log: Callable[[str], None],
    ) -> None:
        self.store = store
        # The tables here (tables.py's), which seat the games relayed to this node and
        # share its tables: they give themselves when they are built (host).
        self.tables: FleetTables
        self._people = people  # who is on this node, as the lobby shows them
        self._log = log
        self.others: tuple[list[Presence], list[TableView]] = ([], [])
        self._shared: tuple[list[Presence], list[TableView]] | None = None
        self._live: set[str] = {store.node}
        self._hosted: dict[str, _Hosted] = {}  # link -> a game elsewhere at a table here
        self._playing: dict[str, _Relayed] = {}  # link -> a game here at a table elsewhere
        self._links_of: dict[str, str] = {}  # a relayed seat's secret here -> its link
        self._looking: asyncio.Task[None] | None = None
        # True while the store cannot reach the database (between its down and rejoined).
        self.down = False
        self._in_since = asyncio.get_running_loop().time()  # in the fleet since (loop time)
        self._look_soon = False  # another node's share changed: look at the next turn
        # Seats here given to players on other nodes (an invitation, a pairing) whose
        # game has not sat yet: secret -> their node. Left if that node goes first.
        self._promised: dict[str, str] = {}
        self._outbox = Outbox(store, self._not_sent)
        # A take-over across nodes, asked from here or answered (fleet_take_overs.py).
        self.take_overs = TakeOvers(self.tell)
        self._unsent: list[tuple[str, FleetMessage]] = []  # to be sent once more (RESENT)
        self._watchers: list[Callable[[], object]] = []
        # kind -> its handlers when heard, and when it could not be sent.
        self._heard: dict[type[FleetMessage], list[Handler]] = {}
        self._lost: dict[type[FleetMessage], Handler] = {}
        self.handle(Down, lambda _node, _message: self._went_down())
        self.handle(Rejoined, lambda _node, _message: self._rejoined())
        self.handle(LobbyChanged, self._lobby_changed)
        self.handle(Sit, self._sit)
        self.handle(SitAt, self._sit)
        self.handle(Line, self._line)
        self.handle(Eof, self._eof)
        self.handle(PlayerWent, self._player_went)
        self.handle(Close, lambda _, message: self._let_go(message.link))
        self.handle(Unseat, self._unseat)
        self.handle(OwnPiece, self.take_overs.piece)
        self.handle(TakenSeat, self.take_overs.taken)
        self.handle(TakenOwn, self.take_overs.taken)
        self.handle(NothingTaken, self.take_overs.taken)
        self.handle(Handed, self._handed)
        self.handle(HandedOn, self._handed_on)
        self.handle(Stopping, self._stopping)
        self._lost[Seat] = self._lost[Paired] = self._never_sat
        self._lost[Take] = self.take_overs.lost

    def host(self, tables: FleetTables) -> None:
        """`tables` seat the games relayed here and are this node's share of the lobby's
        tables (tables.py's Tables, when built); they handle their own kinds."""
        self.tables = tables

    @property
    def node(self) -> str:
        return self.store.node

    @property
    def nodes_alive(self) -> int:
        """The nodes up when this one last looked, itself among them."""
        return len(self._live)

    def handle(
        self,
        kind: type[M],
        heard: Callable[[str, M], None],
        lost: Callable[[str, M], None] | None = None,
    ) -> None:
        """heard(node, message) for each message of `kind` from `node`; lost(node,
        message) for each of them this node could not send to `node`."""
        self._heard.setdefault(kind, []).append(heard)
        if lost is not None:
            self._lost[kind] = lost

    def watch(self, changed: Callable[[], object]) -> None:
        """changed() whenever the fleet changed: a node came or went, another's share of
        the lobby changed, or this node lost or found the database."""
        self._watchers.append(changed)

    def _changed(self) -> None:
        for changed in self._watchers:
            changed()

    async def start(self) -> None:
        """Look at the fleet and go on looking; a fleet of one (a store no other node
        shares) has nothing to look at, nor anyone to tell."""
        if self.store.alone:
            return
        await self.look()
        self._outbox.start()
        self._looking = asyncio.create_task(self._look_again())

    async def close(self) -> None:
        if self._looking is not None:
            self._looking.cancel()
        await self._outbox.close()
        tasks = [hosted.task for hosted in self._hosted.values() if hosted.task is not None]
        for link in list(self._hosted):
            self._unhost(link)
        for link in list(self._playing):
            self._let_go(link)
        if tasks:
            await asyncio.wait(tasks)

    # -- the lobby everywhere -------------------------------------------------------------

    async def _look_again(self) -> None:
        loop = asyncio.get_running_loop()
        looked = loop.time()
        while True:
            await asyncio.sleep(SHARE_AGAIN)
            if self.down:  # (the store says when it is back: rejoined)
                continue
            try:
                if self._look_soon or loop.time() - looked >= LOOK_AGAIN:
                    looked, self._look_soon = loop.time(), False
                    self._saw(*await self._fleet_now())
                shared = (self._people(), self.tables.views())
                if shared != self._shared:
                    await self.store.share(*shared)
                    self._shared = shared
            except StorageError as error:
                self._log(f"the fleet cannot be seen or told: {error}")

    async def _fleet_now(self) -> tuple[set[str], tuple[list[Presence], list[TableView]]]:
        return await self.store.live_nodes(), await self.store.shared()

    async def look(self) -> None:
        """Who is up, what the others share, and this node's share (at the start)."""
        try:
            self._saw(*await self._fleet_now())
            shared = (self._people(), self.tables.views())
            await self.store.share(*shared)
            self._shared = shared
        except StorageError as error:
            self._log(f"the fleet cannot be seen: {error}")

    def _saw(self, live: set[str], others: tuple[list[Presence], list[TableView]]) -> None:
        """The fleet as it is now: who is up, and what the others share."""
        changed = others != self.others
        self.others = others
        for link, relayed in list(self._playing.items()):
            if relayed.node not in live:  # that node is gone: its tables with it
                self._strand(link)
        for link, hosted in list(self._hosted.items()):
            if hosted.node not in live:  # (and the games it relayed here)
                self._cut_off(link, "the server's node they play through went")
        for secret, node in list(self._promised.items()):
            if node not in live:  # (and the seats its players had not taken yet)
                del self._promised[secret]
                self.tables.leave(secret, left=True)
        if live != self._live:
            gone = self._live - live
            if gone:
                self._log(f"node {', '.join(sorted(gone))} has gone from the fleet")
            self._live = live
            changed = True
        if changed:
            self._changed()

    async def table_at(self, code: str) -> TableView | None:
        """Table `code` on another live node, as that node last shared it. Raises
        TableRefused if the fleet cannot be asked."""
        if self.down:
            raise TableRefused("the server cannot reach its database just now; try again soon.")
        try:
            self.others = await self.store.shared()
        except StorageError as error:
            self._log(f"the fleet cannot be seen: {error}")
            raise TableRefused("the server cannot find its tables just now; try again.") from None
        return next((view for view in self.others[1] if view.code == code), None)

    # -- a game here at a table elsewhere ---------------------------------------------------

    async def relay(
        self,
        node: str | None,
        secret: str,
        sitting: Callable[[str], Sit | SitAt],
        reader: asyncio.StreamReader,
        writer: asyncio.StreamWriter,
    ) -> bool:
        """Play the seat here by `secret` at a table on `node` by relaying the game's
        lines there; sitting(link) is the message that seats it there (table.py's
        Relay.sitting).
        True if the line to `node` was lost (the node went, or the database) while the
        game's own line is still open: the game is stranded, not over."""
        assert node is not None
        link = secrets.token_urlsafe(9)
        relayed = _Relayed(node, writer)
        self._playing[link] = relayed
        self._links_of[secret] = link
        try:
            if self.down:
                return True
            self.tell(node, sitting(link))
            while (data := await next_line(reader, relayed.lost)) is not None:
                if not data:
                    self.tell(node, Eof(link))
                    return False
                self.tell(node, Line(link, data))
            return True
        finally:
            self._playing.pop(link, None)
            self._links_of.pop(secret, None)

    def dropped(self, secret: str) -> None:
        """The player at a relayed seat (here by `secret`) went: the table's node hears it."""
        link = self._links_of.get(secret)
        if link is not None and link in self._playing:
            self.tell(self._playing[link].node, PlayerWent(link))

    def _let_go(self, link: str) -> None:
        """The relayed game's table let it go: its line ends."""
        relayed = self._playing.pop(link, None)
        if relayed is not None:
            relayed.writer.close()

    def _strand(self, link: str) -> None:
        """The line to the relayed game's table is lost (its node went, or the
        database): relay() returns, and the game waits to be seated again."""
        relayed = self._playing.get(link)
        if relayed is not None:
            relayed.lost.set()

    def may_take_over(self, node: str) -> bool:
        """True if `node`'s games are anyone's: it is out of the fleet, and this node
        has been in it REJOIN_GRACE (a node that lost the database when this one did
        has had the time to come back)."""
        in_for = asyncio.get_running_loop().time() - self._in_since
        return not self.down and node not in self._live and in_for >= REJOIN_GRACE

    # -- a game elsewhere at a table here ---------------------------------------------------

    def _sit(self, node: str, message: Sit | SitAt) -> None:
        link = message.link
        reader = asyncio.StreamReader(limit=MAX_LINE)
        hosted = _Hosted(node, reader)
        try:
            if isinstance(message, Sit):
                self._promised.pop(message.secret, None)
            secret = self.tables.seat_relayed(message)
        except (TableRefused, KeyError) as refusal:
            self.tell(node, Line(link, line("bye", str(refusal))))
            self.tell(node, Close(link))
            return
        hosted.secret = secret
        self._hosted[link] = hosted
        writer = self.writer(
            lambda data: self.tell(node, Line(link, data)),
            lambda: self._unhost(link, tell=True),
        )
        reader.feed_data(line("hello", secret))
        hosted.task = asyncio.create_task(self._host(link, hosted, writer))

    async def _host(self, link: str, hosted: _Hosted, writer: asyncio.StreamWriter) -> None:
        try:
            await self.tables.serve_game(hosted.reader, writer)
        except (OSError, ValueError, asyncio.IncompleteReadError, asyncio.LimitOverrunError):
            pass  # a game that broke the protocol: let go, as on the socket (games_socket.py)
        finally:
            self.tables.leave(hosted.secret)
            self._unhost(link, tell=True)

    def _cut_off(self, link: str, why: str) -> None:
        """A game relayed here can no longer be heard (its node went, or the database):
        its table adjourns, and its line here ends."""
        hosted = self._hosted.get(link)
        if hosted is not None:
            self.tables.cut_off(hosted.secret, why)
            self._unhost(link)

    # -- the database gone and back (from the store, postgres.py) ---------------------------

    def _went_down(self) -> None:
        """This node cannot reach the database: nor, then, the fleet."""
        self.down = True
        self._log("the database cannot be reached: this node is out of the fleet until it is")
        for link in list(self._playing):
            self._strand(link)
        for link in list(self._hosted):
            self._cut_off(link, "the server lost its database")
        self.others = ([], [])
        self._changed()

    def _rejoined(self) -> None:
        """The database is back and this node in the fleet again."""
        self.down = False
        self._shared = None  # (shared again, whatever it was)
        self._in_since = asyncio.get_running_loop().time()
        self._log("the database is back: this node is in the fleet again")
        self._look_soon = True
        self._resend()

    def _unhost(self, link: str, tell: bool = False) -> None:
        hosted = self._hosted.pop(link, None)
        if hosted is None:
            return
        hosted.reader.feed_eof()
        if tell:
            self.tell(hosted.node, Close(link))

    # -- the lobby's invitations between nodes (lobby_host.py) ------------------------------

    def seat_guest(self, node: str, name: str, secret: str) -> bool:
        """`name`, in the lobby of `node`, has the seat `secret` at a table here: that
        node sends their session to it (and lets it go if it cannot)."""
        view = self.tables.view_of(secret)
        if view is None:
            return False
        self._promised[secret] = node
        self.tell(node, Seat(name, secret, view))
        return True

    def seat_seeker(self, node: str, seeker: str, secret: str) -> None:
        """Seeker `seeker`, in the queue of `node`, has the seat `secret` at a new table
        here: that node sends their session to it (and says `unseat` if it cannot)."""
        view = self.tables.view_of(secret)
        assert view is not None  # (the table was opened a moment ago, on the loop)
        self._promised[secret] = node
        self.tell(node, Paired(seeker, secret, view))

    # -- a node that drains hands its tables over (table_handover.py) ----------------------

    def others_alive(self) -> list[str]:
        """The other nodes in the fleet when this one last looked."""
        return [] if self.down else sorted(self._live - {self.node})

    def hosted_from(self) -> dict[str, str]:
        """The games from other nodes seated here: their seats' secrets -> their node."""
        return {hosted.secret: hosted.node for hosted in self._hosted.values()}

    def hand(self, node: str, kept: UnfinishedGame, hosted: Collection[str]) -> None:
        """Table `kept.code` is `node`'s now (kept there by the store already): that
        node brings it back, the nodes of the `hosted` games at it here (their seats'
        secrets) seat them there, and this node lets go of those games, saying nothing."""
        self.tell(node, handed(kept))
        links = [link for link, game in self._hosted.items() if game.secret in hosted]
        for host in sorted({self._hosted[link].node for link in links} - {node}):
            self.tell(host, HandedOn(kept.code, node))
        for link in links:
            self._unhost(link)  # (no Close: their node seats them anew)

    def tell_playing(self, data: bytes) -> None:
        """`data` (a whole line) for every game here seated at a table elsewhere."""
        for relayed in self._playing.values():
            relayed.writer.write(data)

    def stopping(self) -> None:
        """This node stops: the nodes its games play at adjourn those games, rather
        than hold their seats for players who dropped (and may forfeit)."""
        for link, relayed in list(self._playing.items()):
            self.tell(relayed.node, Stopping(link))

    def _handed(self, node: str, message: Handed) -> None:
        kept = handed_game(message)
        if kept is None:
            self._log(f"node {node} handed table {message.code[:40]!r} over unreadable")
            return
        self._log(f"table {kept.code}: handed over by node {node}, which drains")
        self._seated_anew(self.tables.handed_here(kept))

    def _handed_on(self, _node: str, message: HandedOn) -> None:
        self._seated_anew(self.tables.moved_on(message.code, message.to))

    def _seated_anew(self, secrets_here: list[str]) -> None:
        """The relays of these seats' games end: each sits down anew where its table is."""
        for secret in secrets_here:
            link = self._links_of.get(secret)
            if link is not None:
                self._strand(link)

    def _stopping(self, node: str, message: Stopping) -> None:
        hosted = self._hosted.get(message.link)
        if hosted is not None and hosted.node == node:
            self._cut_off(message.link, "their node of the server stopped")

    # -- messages -------------------------------------------------------------------------

    def writer(
        self, send: Callable[[bytes], None], closed: Callable[[], None] = lambda: None
    ) -> asyncio.StreamWriter:
        """A StreamWriter whose writes go to `send` (to another node)."""
        reader = asyncio.StreamReader()
        protocol = asyncio.StreamReaderProtocol(reader)
        loop = asyncio.get_running_loop()
        return asyncio.StreamWriter(RelayTransport(send, closed), protocol, reader, loop)

    def tell(self, node: str, message: FleetMessage) -> None:
        """Send `node` `message`, in order after the ones before (fleet_outbox.py);
        said in the log, and told its kind's `lost` handler, if it cannot be sent."""
        self._outbox.put(node, message)

    def _not_sent(self, node: str, error: str, messages: list[Outgoing]) -> None:
        """Messages to `node` were lost: its relays from here are stranded (relay()),
        the ones RESENT are sent once more, and the others' kinds' handlers told."""
        self._log(f"a message to node {node} failed: {error}")
        for link, relayed in list(self._playing.items()):
            if relayed.node == node:
                self._strand(link)
        for message, again in messages:
            if type(message) in RESENT and not again:
                if not self._unsent:
                    asyncio.get_running_loop().call_later(RESEND_WAIT, self._resend)
                self._unsent.append((node, message))
            elif (lost := self._lost.get(type(message))) is not None:
                lost(node, message)

    def _never_sat(self, _node: str, message: Seat | Paired) -> None:
        """A seat promised to a player there never reached them: let go (a paired
        seeker's as if they had left, and the new table ends)."""
        self._promised.pop(message.secret, None)
        self.tables.leave(message.secret, left=isinstance(message, Paired))

    def _resend(self) -> None:
        """Send the messages kept to be sent once more, unless the database is away
        (then once it is back: _rejoined)."""
        if not self.down:
            unsent, self._unsent = self._unsent, []
            for node, message in unsent:
                self._outbox.put(node, message, again=True)

    def heard(self, heard: Heard) -> None:
        """A message from another node (from this one: Down and Rejoined, from its
        store), to each handler of its kind; one of a kind nobody here handles is said
        in the log."""
        node, message = heard
        if isinstance(message, (Down, Rejoined)) and node != self.node:
            self._log(f"a {message.kind} message from node {node}: only this node says that")
            return
        handlers = self._heard.get(type(message))
        if not handlers:
            self._log(f"a {message.kind} message from node {node} has no handler here: dropped")
            return
        for handler in handlers:
            handler(node, message)

    def _lobby_changed(self, _node: str, _message: LobbyChanged) -> None:
        self._look_soon = True  # (within SHARE_AGAIN)

    def _line(self, node: str, message: Line) -> None:
        hosted = self._hosted.get(message.link)
        if hosted is not None and hosted.node == node:
            hosted.reader.feed_data(message.data)
        elif message.link in self._playing:
            self._playing[message.link].writer.write(message.data)

    def _eof(self, node: str, message: Eof) -> None:
        hosted = self._hosted.get(message.link)
        if hosted is not None and hosted.node == node:
            hosted.reader.feed_eof()

    def _player_went(self, node: str, message: PlayerWent) -> None:
        hosted = self._hosted.get(message.link)
        if hosted is not None and hosted.node == node:
            self.tables.dropped(hosted.secret)

    def _unseat(self, _node: str, message: Unseat) -> None:
        if self._promised.pop(message.secret, None) is not None:
            self.tables.leave(message.secret, left=message.left)
