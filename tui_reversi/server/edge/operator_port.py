"""The operator's port (`serve --metrics-port [ADDRESS:]P`): `/metrics` for
Prometheus, `/livez` and `/readyz` for a balancer or a supervisor, served by
aiohttp on the server's own event loop (so a scrape reads the server's state
between two of its steps, and `/livez` answers only while that loop does)."""

from __future__ import annotations

import errno
import socket

from aiohttp import web
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest

from ...core.errors import reason
from ..config import ServeError
from .arcade import Arcade
from .metrics import server_registry


class OperatorPort:
    """The listening operator port: `address` (host, port), then `close()`."""

    def __init__(self, runner: web.AppRunner, sock: socket.socket) -> None:
        self._runner = runner
        self._socket = sock

    @property
    def address(self) -> tuple[str, int]:
        host, port = self._socket.getsockname()[:2]
        return str(host), int(port)

    async def close(self) -> None:
        await self._runner.cleanup()


async def start_operator_port(arcade: Arcade, host: str, port: int) -> OperatorPort:
    """Listen on `host`:`port` for the operator's three paths; ServeError if it cannot."""
    registry = server_registry(arcade)

    async def metrics(request: web.Request) -> web.Response:
        body = generate_latest(registry)
        return web.Response(body=body, headers={"Content-Type": CONTENT_TYPE_LATEST})

    async def livez(request: web.Request) -> web.Response:
        return web.Response(text="alive\n")

    async def readyz(request: web.Request) -> web.Response:
        if arcade.health.listening:  # (the store and the fleet are put together by then)
            why = await arcade.health.unready(arcade.store, arcade.fleet)
        else:
            why = arcade.health.said()
        if why is None:
            return web.Response(text="ready\n")
        return web.Response(status=503, text=f"not ready: {why}\n")

    try:
        family, *_rest, address = socket.getaddrinfo(
            host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
        )[0]
        sock = socket.create_server(address, family=family)
    except OSError as error:
        hint = "; choose another with --metrics-port" if error.errno == errno.EADDRINUSE else ""
        raise ServeError(
            f"cannot listen on {host}:{port} for the metrics: {reason(error)}{hint}"
        ) from None
    app = web.Application()
    app.router.add_get("/metrics", metrics)
    app.router.add_get("/livez", livez)
    app.router.add_get("/readyz", readyz)
    runner = web.AppRunner(app, access_log=None, handle_signals=False)
    await runner.setup()
    await web.SockSite(runner, sock).start()
    return OperatorPort(runner, sock)
