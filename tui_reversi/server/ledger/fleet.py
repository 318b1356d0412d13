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
relays to it end (the games there are kept: their players resume them on
any node, which takes the game over: Tables.resume).

Messages (JSON; each names the node it is from):
  sit {link, secret} or {link, how, code, name}: a game elsewhere sits at a table here
  line {link, data}: a line (base64) from a relayed game, or for it
  eof {link}: the relayed game's line ended; close {link}: the table let it go
  dropped {link}: that game's player went (a drop, not a crash)
  lobby: a node's share of the lobby changed
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import secrets
from collections.abc import Callable
from dataclasses import astuple, dataclass, field
from typing import Any, Protocol

from ...net.server_line import MAX_LINE, line
from ...net.terms import TableRefused
from ...storage import StorageError
from .store import Message, Presence, Store, TableView

# How often a node looks at the fleet again (who is up, the others' lobby), and how
# often it looks whether its own share of the lobby changed (shared only if it did).
LOOK_AGAIN = 1.0
SHARE_AGAIN = 0.1
# A relayed write goes in pieces of at most this many bytes (a NOTIFY takes 8000).
PIECE = 4096


class RelayTransport(asyncio.Transport):
    """What the tables write to a relayed game: sent on to the node it plays on."""

    def __init__(self, send: Callable[[bytes], None], closed: Callable[[], None]) -> None:
        super().__init__()
        self._send = send
        self._closed = closed
        self._closing = False

    def write(self, data: bytes | bytearray | memoryview) -> None:
        if self._closing:
            return
        data = bytes(data)
        for start in range(0, len(data), PIECE):
            self._send(data[start : start + PIECE])

    def get_write_buffer_size(self) -> int:
        return 0  # (sent at once: nothing waits here)

    def is_closing(self) -> bool:
        return self._closing

    def close(self) -> None:
        if not self._closing:
            self._closing = True
            self._closed()

    def abort(self) -> None:
        self.close()


class HostTables(Protocol):
    """What the fleet asks of this node's tables (hall/tables.py's `Tables`)."""

    def join(self, code: str, name: str) -> tuple[object, str]:
        """Sit `name` at table `code` here; the table and the seat's secret."""

    def watch(self, code: str, name: str) -> tuple[object, str]:
        """`name` watches table `code` here; the table and the place's secret."""

    def resume(self, code: str, name: str) -> tuple[object, str]:
        """`name` sits back down at adjourned table `code`; the table and the secret."""

    def views(self) -> list[TableView]:
        """This node's tables not over, as the lobby shows them."""

    def view_of(self, secret: str) -> TableView | None:
        """The table `secret` has a seat at, as the lobby shows it, while it has."""

    async def serve_game(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        """Talk with one game from its hello on."""

    def leave(self, secret: str) -> None:
        """The session that held this seat has ended."""

    def dropped(self, secret: str) -> None:
        """The player at this seat went (a drop, not a crash)."""


class HostLobby(Protocol):
    """What the fleet asks of this node's in-app lobby (hall/lobby_host.py's `LobbyHost`)."""

    @property
    def tables(self) -> HostTables:
        """This node's tables."""

    def refresh(self) -> None:
        """Show the lobby again to every game that shows it."""

    def deliver(self, node: str, name: str, data: bytes) -> None:
        """A line for `name`'s game here from the lobby of `node`."""

    def answered_elsewhere(self, node: str, name: str, number: int, accepted: bool) -> None:
        """`name`, in the lobby of `node`, answered invitation `number` held here."""

    def gone_elsewhere(self, node: str, name: str) -> None:
        """`name`'s game has left the lobby of `node`."""

    def seated_elsewhere(self, node: str, name: str, secret: str, view: TableView) -> bool:
        """`name`, in the lobby here, has a seat at table `view` on `node`."""


@dataclass(eq=False)
class _Hosted:
    """A game on another node, seated at a table here."""

    node: str
    reader: asyncio.StreamReader
    secret: str = ""
    task: asyncio.Task[None] | None = field(default=None, repr=False)


class Fleet:
    """This node's part in the fleet: start(), heard() for each message, close()."""

    def __init__(
        self,
        store: Store,
        lobby: HostLobby,
        *,
        people: Callable[[], list[Presence]],
        log: Callable[[str], None],
    ) -> None:
        self.store = store
        self.lobby = lobby
        self.tables = lobby.tables
        self._people = people  # who is on this node, as the lobby shows them
        self._changed = lobby.refresh  # the lobby changed elsewhere: show it again
        self._log = log
        self.others: tuple[list[Presence], list[TableView]] = ([], [])
        self._shared: tuple[list[Presence], list[TableView]] | None = None
        self._live: set[str] = {store.node}
        self._hosted: dict[str, _Hosted] = {}  # link -> a game elsewhere at a table here
        self._playing: dict[str, tuple[str, asyncio.StreamWriter]] = {}  # link -> (node, game)
        self._links_of: dict[str, str] = {}  # a relayed seat's secret here -> its link
        self._looking: asyncio.Task[None] | None = None

    @property
    def node(self) -> str:
        return self.store.node

    async def start(self) -> None:
        self.look()
        self._looking = asyncio.create_task(self._look_again())

    async def close(self) -> None:
        if self._looking is not None:
            self._looking.cancel()
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
            if loop.time() - looked >= LOOK_AGAIN:
                looked = loop.time()
                self.look()
                continue
            try:
                self.share()
            except StorageError as error:
                self._log(f"the fleet cannot be told: {error}")

    def look(self) -> None:
        """Who is up, what the others share, and this node's share if it changed."""
        try:
            live = self.store.live_nodes()
            self.others = self.store.shared()
            self.share()
        except StorageError as error:
            self._log(f"the fleet cannot be seen: {error}")
            return
        for link, (node, _) in list(self._playing.items()):
            if node not in live:  # that node is gone: its tables with it
                self._let_go(link)
        if live != self._live:
            gone = self._live - live
            if gone:
                self._log(f"node {', '.join(sorted(gone))} has gone from the fleet")
            self._live = live
            self._changed()

    def share(self) -> None:
        """Share this node's part of the lobby, if it changed since last time."""
        shared = (self._people(), self.tables.views())
        if shared != self._shared:
            self.store.share(*shared)
            self._shared = shared

    def table_at(self, code: str) -> TableView | None:
        """Table `code` on another live node, as that node last shared it. Raises
        TableRefused if the fleet cannot be asked."""
        try:
            self.others = self.store.shared()
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
        reader: asyncio.StreamReader,
        writer: asyncio.StreamWriter,
    ) -> None:
        """Play the seat here by `secret` at table `code` on `node` by relaying the
        game's lines there; `sitting` says how to sit there ({secret} or {how, code, name})."""
        assert node is not None
        link = secrets.token_urlsafe(9)
        self._playing[link] = (node, writer)
        self._links_of[secret] = link
        try:
            self._send(node, "sit", link=link, **sitting)
            while data := await reader.readline():
                self._send(node, "line", link=link, data=data)
            self._send(node, "eof", link=link)
        except StorageError as error:
            self._log(f"table {code}: the relay to node {node} failed: {error}")
        finally:
            self._playing.pop(link, None)
            self._links_of.pop(secret, None)

    def dropped(self, secret: str) -> None:
        """The player at a relayed seat (here by `secret`) went: the table's node hears it."""
        link = self._links_of.get(secret)
        if link is not None and link in self._playing:
            node, _ = self._playing[link]
            self.tell(node, "dropped", link=link)

    def _let_go(self, link: str) -> None:
        """The relayed game's table let it go (or its node went): its line ends."""
        _, writer = self._playing.pop(link, (None, None))
        if writer is not None:
            writer.close()

    # -- a game elsewhere at a table here ---------------------------------------------------

    def _sit(self, node: str, link: str, message: Message) -> None:
        reader = asyncio.StreamReader(limit=MAX_LINE)
        hosted = _Hosted(node, reader)
        try:
            if "secret" in message:
                secret = str(message["secret"])
            else:
                how, code, name = (str(message[key]) for key in ("how", "code", "name"))
                sit = {
                    "join": self.tables.join,
                    "watch": self.tables.watch,
                    "resume": self.tables.resume,
                }[how]
                _, secret = sit(code, name)
        except (TableRefused, KeyError) as refusal:
            self.tell(node, "line", link=link, data=line("bye", str(refusal)))
            self.tell(node, "close", link=link)
            return
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
        self.tell(node, "seat", name=name, secret=secret, table=list(astuple(view)))
        return True

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
        """Send `node` a message of `kind`; said in the log if it cannot be sent."""
        try:
            self._send(node, kind, **rest)
        except StorageError as error:
            self._log(f"a message to node {node} failed: {error}")

    def _send(self, node: str, kind: str, **rest: Any) -> None:
        """Send `node` a message of `kind` (bytes go as base64). Raises StorageError."""
        for key, value in rest.items():
            if isinstance(value, bytes):
                rest[key] = base64.b64encode(value).decode()
        self.store.send(node, {"kind": kind, "node": self.node, **rest})

    def heard(self, message: Message) -> None:
        """A message from another node."""
        kind, node, link = message.get("kind"), str(message.get("node")), str(message.get("link"))
        if kind == "lobby":
            with contextlib.suppress(StorageError):  # (the next look tells)
                self.others = self.store.shared()
            self._changed()
        elif kind == "sit":
            self._sit(node, link, message)
        elif kind == "line":
            data = base64.b64decode(str(message.get("data", "")))
            hosted = self._hosted.get(link)
            if hosted is not None and hosted.node == node:
                hosted.reader.feed_data(data)
            elif link in self._playing:
                self._playing[link][1].write(data)
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
            code, state, black, white, variant, clock, move, at, waiting = message["table"]
            view = TableView(code, state, black, white, variant, clock, move, at, tuple(waiting))
            if not self.lobby.seated_elsewhere(node, name, secret, view):
                self.tell(node, "unseat", secret=secret)
        elif kind == "unseat":
            self.tables.leave(str(message.get("secret")))
