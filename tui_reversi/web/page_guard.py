"""The page port's socket guard, as nginx guards a port: connections counted per
address and in all at accept time (past either, closed at once, before a byte
is read), and a connection that has not sent a whole request within the header
timeout closed. Idle keep-alive and the sizes of a request's lines are aiohttp's
own settings, given these numbers (page.py's `start_page`). So sockets left idle by a few addresses
hold a few descriptors each, never all of the server's."""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

from aiohttp import web
from aiohttp.web_protocol import RequestHandler

# A connection that has not sent a whole request this long after it opened is closed.
HEADER_TIMEOUT = 10.0
# An open connection between requests is closed after this long (a page's socket,
# once upgraded, is kept by its own heartbeat instead).
KEEPALIVE_TIMEOUT = 15.0
# Connections from one address at once (a browser opens six or so to a site).
CONNECTIONS_PER_ADDRESS = 10
# The request line and each header field: a page's are a few hundred bytes.
MAX_LINE = 4096
# Header fields a request may have (a browser's have a dozen or two).
MAX_HEADERS = 64


@dataclass(frozen=True)
class SocketLimits:
    """How many connections the page port holds: per address and in all, and how
    long a new one has to send its request."""

    per_address: int = CONNECTIONS_PER_ADDRESS
    total: int = 256
    header_timeout: float = HEADER_TIMEOUT


class SocketGuard:
    """The page port's counts of open connections, per address and in all."""

    def __init__(self, limits: SocketLimits) -> None:
        self.limits = limits
        self.open: Counter[str] = Counter()
        # A connection's transport -> its guard, until its first request arrives.
        self._waiting: dict[asyncio.BaseTransport, _Guarded] = {}

    def arrive(self, address: str) -> bool:
        """Count a connection from `address` in; False (not counted) if there is no room."""
        limits = self.limits
        if self.open[address] >= limits.per_address or self.open.total() >= limits.total:
            return False
        self.open[address] += 1
        return True

    def leave(self, address: str) -> None:
        self.open[address] -= 1
        if self.open[address] <= 0:
            del self.open[address]

    def request_began(self, transport: asyncio.BaseTransport | None) -> None:
        """The connection has sent a whole request: its header timeout is over."""
        guarded = self._waiting.pop(transport, None) if transport is not None else None
        if guarded is not None:
            guarded.in_time()

    def protocol_factory(self, handlers: Callable[[], RequestHandler]) -> Callable[[], _Guarded]:
        """aiohttp's handler for each connection, behind this guard."""
        return lambda: _Guarded(handlers(), self)

    def _waits(self, transport: asyncio.BaseTransport, guarded: _Guarded) -> None:
        self._waiting[transport] = guarded

    def _done(self, transport: asyncio.BaseTransport) -> None:
        self._waiting.pop(transport, None)


class _Guarded(asyncio.Protocol):
    """One connection: counted in at accept, handed to aiohttp's handler if it
    fits, and closed if its first request does not come in time."""

    def __init__(self, handler: RequestHandler, guard: SocketGuard) -> None:
        self._handler: RequestHandler | None = handler
        self._guard = guard
        self._address = ""
        self._timer: asyncio.TimerHandle | None = None
        self._transport: asyncio.Transport | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        peer = transport.get_extra_info("peername")
        address = str(peer[0]) if isinstance(peer, tuple) and peer else "?"
        if not self._guard.arrive(address):
            self._handler = None
            transport.abort()  # (before a byte is read: it costs its descriptor a moment)
            return
        self._address = address
        self._transport = transport
        timeout = self._guard.limits.header_timeout
        self._timer = asyncio.get_running_loop().call_later(timeout, self._too_slow)
        self._guard._waits(transport, self)
        assert self._handler is not None
        self._handler.connection_made(transport)

    def in_time(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def _too_slow(self) -> None:
        self._timer = None
        if self._transport is not None:
            self._transport.abort()

    def data_received(self, data: bytes) -> None:
        if self._handler is not None:
            self._handler.data_received(data)

    def eof_received(self) -> None:
        if self._handler is not None:
            self._handler.eof_received()

    def pause_writing(self) -> None:
        if self._handler is not None:
            self._handler.pause_writing()

    def resume_writing(self) -> None:
        if self._handler is not None:
            self._handler.resume_writing()

    def connection_lost(self, exc: Exception | None) -> None:
        handler, self._handler = self._handler, None
        if handler is None:
            return
        self.in_time()
        if self._transport is not None:
            self._guard._done(self._transport)
        self._guard.leave(self._address)
        handler.connection_lost(exc)


class GuardedSite(web.SockSite):
    """aiohttp's site on a listening socket, each connection behind `guard`."""

    def __init__(self, runner: web.BaseRunner, sock, guard: SocketGuard) -> None:
        super().__init__(runner, sock)
        self._guard = guard
        self._listening = sock

    async def start(self) -> None:
        await web.BaseSite.start(self)
        server = self._runner.server
        assert server is not None
        loop = asyncio.get_running_loop()
        self._server = await loop.create_server(
            self._guard.protocol_factory(server), sock=self._listening, backlog=self._backlog
        )
