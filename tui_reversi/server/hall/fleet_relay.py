"""What the fleet's port (fleet_port.py) asks of this node's tables to relay a
game between nodes, as a Protocol that tables.py's `Tables` meets (the port
cannot import the tables: they hold the port); and the transport the tables
write a game relayed from another node through, which sends it on there in
pieces. What the port asks is only a relayed game's seat and this node's share
of the tables: the lobby, the pairing queue and the tables' own kinds (a taken
over table's moves, the reconciling once rejoined) handle their own messages
(Fleet.handle).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Protocol

from ..ledger.fleet_messages import Sit, SitAt
from ..ledger.store import UnfinishedGame
from ..ledger.table_view import TableView

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


class FleetTables(Protocol):
    """What the fleet's port asks of this node's tables (tables.py's `Tables`)."""

    def seat_relayed(self, message: Sit | SitAt) -> str:
        """The seat here a game on another node asks for: the one promised it (Sit), or
        one at a table by its code (SitAt: join, watch or resume); its secret, its
        requests charged to the message's address. Raises TableRefused (KeyError for
        a `how` it does not know)."""

    def views(self) -> list[TableView]:
        """This node's tables not over, as the lobby shows them."""

    def view_of(self, secret: str) -> TableView | None:
        """The table `secret` has a seat at, as the lobby shows it, while it has."""

    async def serve_game(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        """Talk with one game from its hello on."""

    def leave(self, secret: str, *, left: bool = False) -> None:
        """The session that held this seat has ended (`left`: its player never sat)."""

    def dropped(self, secret: str) -> None:
        """The player at this seat went (a drop, not a crash)."""

    def cut_off(self, secret: str, why: str) -> None:
        """The game at this seat can no longer be heard (`why`: 'the server lost its
        database'): its game is adjourned, kept for its player to come back to."""

    def handed_here(self, kept: UnfinishedGame) -> list[str]:
        """Table `kept.code`, handed here by its node (which drains): brought back, and
        this node's seats at it there sit at it here. Their secrets."""

    def moved_on(self, code: str, node: str) -> list[str]:
        """Table `code` on another node is on `node` now: this node's seats at it sit
        at it there. Their secrets."""
