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
go on, their moves kept until they can be written. Back, it first lets go of
the games another node took over meanwhile (_reconcile): their people here sit
down at them there, and the moves played here meanwhile go there too.

Messages (JSON; each names the node it is from):
  sit {link, secret, address} or {link, how, code, name, address}: a game elsewhere
    sits at a table here (what it asks charged to its player's address, as here)
  line {link, data}: a line (base64) from a relayed game, or for it
  eof {link}: the relayed game's line ended; close {link}: the table let it go
  dropped {link}: that game's player went (a drop, not a crash)
  moves {code, moves}: table code's moves on the node it was taken over from (while
    cut off), for the node that took it over (Tables.played_meanwhile)
  take {name, address, ask}: name's session elsewhere takes their game here over
  own {ask, data}: a piece of the own game given over (its autosave), in order
  taken {ask, secret, table}, {ask, own} or {ask}: the seat given over (its secret
    there), the player's own game (in `own` pieces before), or none
  seat {name, secret, table}: name, in the lobby there, has this seat at a table here
  paired {seeker, secret, table}: that seeker in the queue there was paired, this
    their seat at a new table here (hall/pairing.py)
  unseat {secret, left?}: the seat given is not taken (its player has gone; `left`:
    gone from the queue, so the game ends as if they had left)
  requeue {seeker}: that seeker, claimed for a pairing here, could not be seated:
    back in the queue
  lobby: a node's share of the lobby changed; queue: someone joined the queue there
  handed {game}: a table here from now on, handed by its node, which drains (its game
    as the store keeps it: fleet_handover.py); {code, to}: that node's table is on
    node `to` now
  stopping {link}: the node a relayed game plays from stops (its drain is over)
and from the store itself, never from another node:
  down: this node cannot reach the database; rejoined: it can again, and is in the fleet
"""

from __future__ import annotations

import asyncio
import base64
import secrets
from collections.abc import Callable, Collection
from dataclasses import astuple, dataclass, field
from typing import Any

from ...net.server_line import MAX_LINE, line, next_line
from ...net.terms import TableRefused
from ...storage import StorageError
from .fleet_handover import handed_game, handed_row
from .fleet_host import PIECE, Given, HostLobby, HostQueue, RelayTransport
from .fleet_outbox import Outbox
from .store import Message, Presence, Store, TableView, UnfinishedGame

# How often a node looks at the fleet again (who is up, the others' lobby), and how
# often it looks whether its own share of the lobby changed (shared only if it did).
LOOK_AGAIN = 1.0
SHARE_AGAIN = 0.1
# A node out of the fleet may be one that lost the database with this one: its games
# are taken over only once this node has been in the fleet this long (seconds).
REJOIN_GRACE = 5.0
# How long a take-over waits for the node the game is on to answer (seconds).
TAKE_WAIT = 10.0
# Messages sent once more when they could not be (the database away a moment), this
# long after or once it is back: what they say holds however late it comes, and the
# node they go to checks it still applies. The others' losses are told (_not_sent).
RESENT = frozenset({"answer", "gone", "unseat"})
RESEND_WAIT = 1.0


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
    """This node's part in the fleet: start(), heard() for each message, close()."""

    def __init__(
        self,
        store: Store,
        lobby: HostLobby,
        *,
        queue: HostQueue,
        people: Callable[[], list[Presence]],
        log: Callable[[str], None],
    ) -> None:
        self.store = store
        self.lobby = lobby
        self.queue = queue
        self.tables = lobby.tables
        self._people = people  # who is on this node, as the lobby shows them
        self._changed = lobby.refresh  # the lobby changed elsewhere: show it again
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
        self._asked: dict[str, asyncio.Future[Given]] = {}  # take_from
        self._own_pieces: dict[str, list[bytes]] = {}  # an own game given over, so far
        # Seats given over to other nodes, and the reconciling after being cut off.
        self._giving: set[asyncio.Task[None]] = set()
        # Seats here given to players on other nodes (an invitation, a pairing) whose
        # game has not sat yet: secret -> their node. Left if that node goes first.
        self._promised: dict[str, str] = {}
        self._outbox = Outbox(store, self._not_sent)
        self._unsent: list[tuple[str, Message]] = []  # to be sent once more (RESENT)

    @property
    def node(self) -> str:
        return self.store.node

    @property
    def nodes_alive(self) -> int:
        """The nodes up when this one last looked, itself among them."""
        return len(self._live)

    async def start(self) -> None:
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
        code: str,
        secret: str,
        sitting: dict[str, str],
        address: str,
        reader: asyncio.StreamReader,
        writer: asyncio.StreamWriter,
    ) -> bool:
        """Play the seat here by `secret` at table `code` on `node` by relaying the
        game's lines there; `sitting` says how to sit there ({secret} or {how, code, name}),
        `address` where its player connected from.
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
            self.tell(node, "sit", link=link, address=address, **sitting)
            while (data := await next_line(reader, relayed.lost)) is not None:
                if not data:
                    self.tell(node, "eof", link=link)
                    return False
                self.tell(node, "line", link=link, data=data)
            return True
        finally:
            self._playing.pop(link, None)
            self._links_of.pop(secret, None)

    def dropped(self, secret: str) -> None:
        """The player at a relayed seat (here by `secret`) went: the table's node hears it."""
        link = self._links_of.get(secret)
        if link is not None and link in self._playing:
            self.tell(self._playing[link].node, "dropped", link=link)

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

    def _sit(self, node: str, link: str, message: Message) -> None:
        reader = asyncio.StreamReader(limit=MAX_LINE)
        hosted = _Hosted(node, reader)
        try:
            if "secret" in message:
                secret = str(message["secret"])
                self._promised.pop(secret, None)
            else:
                how, code, name = (str(message[key]) for key in ("how", "code", "name"))
                sit = {
                    "join": self.tables.sit,
                    "watch": self.tables.watch_here,
                    "resume": self.tables.resume_here,
                }[how]
                _, secret = sit(code, name)
        except (TableRefused, KeyError) as refusal:
            self.tell(node, "line", link=link, data=line("bye", str(refusal)))
            self.tell(node, "close", link=link)
            return
        self.tables.connected_from(secret, str(message.get("address", "")))
        hosted.secret = secret
        self._hosted[link] = hosted
        writer = self.writer(
            lambda data: self.tell(node, "line", link=link, data=data),
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
        task = asyncio.create_task(self._reconcile())
        self._giving.add(task)
        task.add_done_callback(self._giving.discard)
        self.queue.rejoined()
        self._look_soon = True
        self._resend()

    async def _reconcile(self) -> None:
        """Back from being cut off: the games another node took over meanwhile are
        yielded to it (one owner each, and this node writes nothing more of them);
        then what the others could not have is written."""
        codes = self.tables.kept_here()
        try:
            holders = await self.store.holders(codes)
        except StorageError as error:
            self._log(f"who keeps this node's games cannot be asked: {error}")
            return  # (down again: asked again when it is back)
        for code in codes:
            holder = holders.get(code)
            if holder == self.node:
                continue
            moves = self.tables.yield_to(code, holder)
            if holder is not None and moves is not None:  # (any played here meanwhile)
                self.tell(holder, "moves", code=code, moves=moves)
        self.tables.store_back()

    def _unhost(self, link: str, tell: bool = False) -> None:
        hosted = self._hosted.pop(link, None)
        if hosted is None:
            return
        hosted.reader.feed_eof()
        if tell:
            self.tell(hosted.node, "close", link=link)

    # -- the lobby's invitations between nodes (lobby_host.py) ------------------------------

    def seat_guest(self, node: str, name: str, secret: str) -> bool:
        """`name`, in the lobby of `node`, has the seat `secret` at a table here: that
        node sends their session to it (and lets it go if it cannot)."""
        view = self.tables.view_of(secret)
        if view is None:
            return False
        self._promised[secret] = node
        self.tell(node, "seat", name=name, secret=secret, table=list(astuple(view)))
        return True

    def seat_seeker(self, node: str, seeker: str, secret: str) -> None:
        """Seeker `seeker`, in the queue of `node`, has the seat `secret` at a new table
        here: that node sends their session to it (and says `unseat` if it cannot)."""
        view = self.tables.view_of(secret)
        assert view is not None  # (the table was opened a moment ago, on the loop)
        self._promised[secret] = node
        self.tell(node, "paired", seeker=seeker, secret=secret, table=list(astuple(view)))

    # -- a take-over across nodes (hall/take_over_elsewhere.py) ------------------------------

    async def take_from(self, node: str, name: str, address: str) -> Given:
        """Take `name`'s game over from their session on `node`: a seat at a table
        (its secret there and the table), or their own game (its autosave's bytes);
        None if there is neither (or `node` does not answer)."""
        ask = secrets.token_urlsafe(6)
        answer: asyncio.Future[Given] = asyncio.get_running_loop().create_future()
        self._asked[ask] = answer
        self._own_pieces[ask] = []
        try:
            self.tell(node, "take", name=name, address=address, ask=ask)
            return await asyncio.wait_for(answer, TAKE_WAIT)
        except TimeoutError:
            return None
        finally:
            self._asked.pop(ask, None)
            self._own_pieces.pop(ask, None)

    async def _give(self, node: str, message: Message) -> None:
        given = await self.lobby.give_over(str(message.get("name")), str(message.get("address")))
        ask = str(message.get("ask"))
        if given is None:
            self.tell(node, "taken", ask=ask)
        elif isinstance(given, bytes):
            for start in range(0, len(given), PIECE):
                self.tell(node, "own", ask=ask, data=given[start : start + PIECE])
            self.tell(node, "taken", ask=ask, own=-(-len(given) // PIECE))
        else:
            self.tell(node, "taken", ask=ask, secret=given[0], table=list(astuple(given[1])))

    def _taken(self, message: Message) -> None:
        answer = self._asked.get(str(message.get("ask")))
        if answer is None or answer.done():
            return
        if "own" in message:
            pieces = self._own_pieces.get(str(message.get("ask")), [])
            whole = len(pieces) == int(message.get("own", -1))
            answer.set_result(b"".join(pieces) if whole else None)
            return
        if "secret" not in message:
            answer.set_result(None)
            return
        answer.set_result((str(message["secret"]), _view(message["table"])))

    # -- a node that drains hands its tables over (hall/table_handover.py) ------------------

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
        self.tell(node, "handed", game=handed_row(kept))
        links = [link for link, game in self._hosted.items() if game.secret in hosted]
        for host in sorted({self._hosted[link].node for link in links} - {node}):
            self.tell(host, "handed", code=kept.code, to=node)
        for link in links:
            self._unhost(link)  # (no `close`: their node seats them anew)

    def tell_playing(self, data: bytes) -> None:
        """`data` (a whole line) for every game here seated at a table elsewhere."""
        for relayed in self._playing.values():
            relayed.writer.write(data)

    def stopping(self) -> None:
        """This node stops: the nodes its games play at adjourn those games, rather
        than hold their seats for players who dropped (and may forfeit)."""
        for link, relayed in list(self._playing.items()):
            self.tell(relayed.node, "stopping", link=link)

    def _handed(self, node: str, message: Message) -> None:
        if "game" in message:
            kept = handed_game(message["game"])
            if kept is None:
                self._log(f"node {node} handed a table over that cannot be read")
                return
            moved = self.tables.handed_here(kept)
            self._log(f"table {kept.code}: handed over by node {node}, which drains")
        else:
            moved = self.tables.moved_on(str(message.get("code")), str(message.get("to")))
        for secret in moved:
            link = self._links_of.get(secret)
            if link is not None:
                self._strand(link)  # (its relay there ends: it sits down anew)

    # -- messages -------------------------------------------------------------------------

    def writer(
        self, send: Callable[[bytes], None], closed: Callable[[], None] = lambda: None
    ) -> asyncio.StreamWriter:
        """A StreamWriter whose writes go to `send` (to another node)."""
        reader = asyncio.StreamReader()
        protocol = asyncio.StreamReaderProtocol(reader)
        loop = asyncio.get_running_loop()
        return asyncio.StreamWriter(RelayTransport(send, closed), protocol, reader, loop)

    def tell(self, node: str, kind: str, **rest: Any) -> None:
        """Send `node` a message of `kind` (bytes go as base64), in order after the
        ones before (fleet_outbox.py); said in the log if it cannot be sent."""
        for key, value in rest.items():
            if isinstance(value, bytes):
                rest[key] = base64.b64encode(value).decode()
        self._outbox.put(node, {"kind": kind, "node": self.node, **rest})

    def _not_sent(self, node: str, error: str, messages: list[Message]) -> None:
        """Messages to `node` were lost: its relays from here are stranded (relay()),
        the ones RESENT are sent once more, and the lobby tells whoever waits on the
        others."""
        self._log(f"a message to node {node} failed: {error}")
        for link, relayed in list(self._playing.items()):
            if relayed.node == node:
                self._strand(link)
        for message in messages:
            if message.get("kind") in RESENT and not message.get("again"):
                if not self._unsent:
                    asyncio.get_running_loop().call_later(RESEND_WAIT, self._resend)
                self._unsent.append((node, {**message, "again": True}))
            elif message.get("kind") in ("seat", "paired"):  # never sat down there: let go
                secret = str(message.get("secret"))
                self._promised.pop(secret, None)
                # (a paired seeker: as if they had left, and the new table ends)
                self.tables.leave(secret, left=message.get("kind") == "paired")
            elif message.get("kind") == "take":  # (not waited for: the game stays there)
                answer = self._asked.get(str(message.get("ask")))
                if answer is not None and not answer.done():
                    answer.set_result(None)
            else:
                self.lobby.undelivered(node, message)

    def _resend(self) -> None:
        """Send the messages kept to be sent once more, unless the database is away
        (then once it is back: _rejoined)."""
        if not self.down:
            unsent, self._unsent = self._unsent, []
            for node, message in unsent:
                self._outbox.put(node, message)

    def heard(self, message: Message) -> None:
        """A message from another node."""
        kind, node, link = message.get("kind"), str(message.get("node")), str(message.get("link"))
        if kind in ("down", "rejoined") and node == self.node:
            (self._went_down if kind == "down" else self._rejoined)()
        elif kind == "lobby":
            self._look_soon = True  # (within SHARE_AGAIN)
        elif kind == "queue":
            self.queue.joined_elsewhere()
        elif kind == "requeue":
            self.queue.requeue(str(message.get("seeker")))
        elif kind == "sit":
            self._sit(node, link, message)
        elif kind == "line":
            data = base64.b64decode(str(message.get("data", "")))
            hosted = self._hosted.get(link)
            if hosted is not None and hosted.node == node:
                hosted.reader.feed_data(data)
            elif link in self._playing:
                self._playing[link].writer.write(data)
        elif kind == "eof":
            hosted = self._hosted.get(link)
            if hosted is not None and hosted.node == node:
                hosted.reader.feed_eof()
        elif kind == "dropped":
            hosted = self._hosted.get(link)
            if hosted is not None and hosted.node == node:
                self.tables.dropped(hosted.secret)
        elif kind == "close":
            self._let_go(link)
        elif kind == "handed":
            self._handed(node, message)
        elif kind == "stopping":
            hosted = self._hosted.get(link)
            if hosted is not None and hosted.node == node:
                self._cut_off(link, "their node of the server stopped")
        elif kind == "moves":
            self.tables.played_meanwhile(str(message.get("code")), str(message.get("moves")))
        else:
            self._heard_lobby(str(kind), node, message)

    def _heard_lobby(self, kind: str, node: str, message: Message) -> None:
        name = str(message.get("name"))
        if kind == "guest":
            self.lobby.deliver(node, name, base64.b64decode(str(message.get("data", ""))))
        elif kind == "answer":
            number, accepted = int(message.get("number", 0)), bool(message.get("accepted"))
            self.lobby.answered_elsewhere(node, name, number, accepted)
        elif kind == "gone":
            self.lobby.gone_elsewhere(node, name)
        elif kind == "seat":
            secret = str(message.get("secret"))
            if not self.lobby.seated_elsewhere(node, name, secret, _view(message["table"])):
                self.tell(node, "unseat", secret=secret)
        elif kind == "paired":
            secret, seeker = str(message.get("secret")), str(message.get("seeker"))
            if not self.queue.paired_elsewhere(node, seeker, secret, _view(message["table"])):
                self.tell(node, "unseat", secret=secret, left=True)
        elif kind == "unseat":
            secret = str(message.get("secret"))
            if self._promised.pop(secret, None) is not None:
                self.tables.leave(secret, left=bool(message.get("left")))
        elif kind == "take":
            task = asyncio.create_task(self._give(node, message))
            self._giving.add(task)
            task.add_done_callback(self._giving.discard)
        elif kind == "own":
            pieces = self._own_pieces.get(str(message.get("ask")))
            if pieces is not None:
                pieces.append(base64.b64decode(str(message.get("data", ""))))
        elif kind == "taken":
            self._taken(message)


def _view(fields: list[Any]) -> TableView:
    """A table as a message carries it (a list of TableView's fields)."""
    code, state, black, white, variant, clock, move, at, waiting = fields
    return TableView(code, state, black, white, variant, clock, move, at, tuple(waiting))
