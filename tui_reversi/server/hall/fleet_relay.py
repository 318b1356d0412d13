"""What the fleet's port (fleet_port.py) asks of this node's tables to relay a
game between nodes, as a Protocol that tables.py's `Tables` meets (the port
cannot import the tables: they hold the port); and the transport the tables
write a game relayed from another node through, which sends it on there in
pieces. The lobby and the pairing queue ask nothing of the port's: they
handle their own messages (Fleet.handle).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Protocol

from ..ledger.table_view import TableView

# A relayed write goes in pieces of at most this many bytes (a NOTIFY takes 8000).
PIECE = 4096
# What a take-over across nodes is given: a seat at a table there (its secret and the
# table), the player's own game (its autosave's bytes), or nothing.
Given = tuple[str, TableView] | bytes | None


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

    def sit(self, code: str, name: str) -> tuple[object, str]:
        """Sit `name` at table `code` here; the table and the seat's secret."""

    def watch_here(self, code: str, name: str) -> tuple[object, str]:
        """`name` watches table `code` here; the table and the place's secret."""

    def resume_here(self, code: str, name: str) -> tuple[object, str]:
        """`name` sits back down at adjourned table `code` here; the table and the secret."""

    def connected_from(self, secret: str, address: str) -> None:
        """The player of this seat connected from `address`: its requests are charged to it."""

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

    def store_back(self) -> None:
        """The database can be reached again: write what could not be written."""

    def kept_here(self) -> list[str]:
        """The codes of the games the store keeps as this node's, as far as it knows."""

    def yield_to(self, code: str, node: str | None) -> str | None:
        """Table `code`'s game was taken over by `node` (None: and ended there) while
        this node could not reach the store: its people here sit down at it there.
        The moves it had here (None if it was not here)."""

    def played_meanwhile(self, code: str, moves: str) -> None:
        """Table `code`, taken over here, went on on the node it was taken from while
        that node was cut off (`moves`: all of them there): the moves after those
        kept are played here too, if the game has had none here since."""
