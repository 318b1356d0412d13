"""The web server of the page: the page itself, textual-serve's static files
(its terminal script, stylesheet and font), and a WebSocket per visitor that
drives that visitor's own game process (web/visitor.py)."""

from __future__ import annotations

import asyncio
import contextlib
import html
import ipaddress
import json
import os
import socket
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from importlib.resources import files
from pathlib import Path
from string import Template
from typing import NamedTuple, Protocol
from urllib.parse import urlencode, urlsplit

import textual_serve
from aiohttp import WSCloseCode, WSMsgType, web

from ..core import ReversiError
from . import PASS_COOKIE, PASS_COOKIE_AGE, page_address
from .page_guard import (
    KEEPALIVE_TIMEOUT,
    MAX_HEADERS,
    MAX_LINE,
    GuardedSite,
    SocketGuard,
    SocketLimits,
)
from .visitor import Visitor

STATIC = Path(textual_serve.__file__).parent / "static"
# Names under which this machine reaches a server bound to a loopback address:
# a page there answers no other Host (a DNS-rebinding site cannot reach it).
LOOPBACK_NAMES = frozenset({"127.0.0.1", "localhost", "::1"})
# The terminal's size a visitor's page asks for, where it asks for nothing sensible.
DEFAULT_SIZE = (80, 24)
LARGEST_SIZE = 1000
# The largest message a page may send (a paste is one; a game takes 16 KB at once):
# past it the socket is closed.
LARGEST_MESSAGE = 64 * 1024


class PageRefusal(ReversiError):
    """Why a request from a page is not answered, in a sentence for the page."""


class PageVisitor(Protocol):
    """One page's game, as the page server drives it (web/visitor.py's `Visitor`;
    a public server's is server/edge/browser.py's)."""

    @property
    def pid(self) -> int | None: ...
    async def start(self, width: int, height: int) -> None: ...
    async def arrived(self, size: int) -> bool:
        """A message of `size` bytes from the page has come (a websocket frame of
        any kind), not yet decoded: charged to its budget (waiting out a hold
        first, so a flood waits in its socket); False if it is to be dropped unread."""

    def pinged(self) -> bool:
        """A ping from the page: True if it may be answered."""

    async def send_bytes(self, data: bytes) -> bool: ...
    async def set_terminal_size(self, width: int, height: int) -> None: ...
    async def blur(self) -> None: ...
    async def focus(self) -> None: ...
    async def stop(self) -> None: ...


class Binding(Protocol):
    """A public server's one-time codes (`ssh host keys web`), each binding a browser
    to a player's name (server/edge/browser_passes.py's `BrowserPasses`)."""

    @property
    def lifetime(self) -> str:
        """How long a bound browser stays bound without being played in ('30 days')."""

    async def holder(self, code: str, address: str) -> str | None:
        """The name `code` binds a browser to, if it is current; nothing is spent.
        A code that is not current counts as a wrong guess from `address`:
        PageRefusal once it has guessed wrong too often; ReversiError (one
        sentence) if the codes cannot be asked now."""

    async def trade(self, code: str, address: str) -> str | None:
        """The pass (PASS_COOKIE's value) `code` is traded for, the code spent; None
        if it is not current (a wrong guess from `address`). PageRefusal once the
        address has guessed wrong too often; ReversiError (one sentence) if it
        cannot be done now."""


class Visit(NamedTuple):
    """Who is visiting: their address, the host name they reached the page at, what
    the page asked to play (`?play=`, the words after `ssh host`), how to reach
    their page (and let it go at once), and the pass their browser shows
    (PASS_COOKIE), if any."""

    address: str
    host: str
    play: str
    send: Callable[[bytes], Awaitable[object]]
    close: Callable[[], Awaitable[None]]
    browser_pass: str | None
    abort: Callable[[], None]


@dataclass
class PageConfig:
    """What the page serves: the game's command line (and environment) each
    visitor's process runs, or `visitor` making each visitor's game another way;
    the page's title, the least terminal the app needs, which Host names are
    answered (None: any; with `ip_hosts`, any IP address too), and whether a
    visitor's address is the one the reverse proxy in front says (X-Forwarded-For)."""

    argv: Sequence[str] = ()
    environment: Mapping[str, str] = field(default_factory=dict)
    title: str = "tui-reversi"
    least_size: tuple[int, int] = DEFAULT_SIZE
    hosts: frozenset[str] | None = None
    ip_hosts: bool = False
    visitor: Callable[[Visit], PageVisitor] | None = None
    forwarded: bool = False
    # A public server's one-time codes (`?code=`) that bind a browser; None: not one.
    binding: Binding | None = None
    # A public server's: why a page's socket from an address may not open now, or None.
    socket_refusal: Callable[[str], str | None] | None = None
    # How many connections the port holds, per address and in all.
    sockets: SocketLimits = field(default_factory=SocketLimits)


_PAGE = Template(files(__package__).joinpath("page.html").read_text("utf-8"))
_BIND = Template(files(__package__).joinpath("bind.html").read_text("utf-8"))
_CONFIG = web.AppKey("config", PageConfig)
_VISITORS = web.AppKey("visitors", dict)  # PageVisitor -> its page's socket
_GUARD = web.AppKey("guard", SocketGuard)


def page_application(config: PageConfig) -> web.Application:
    """The aiohttp application serving the page; its shutdown ends every visitor's game."""
    app = web.Application(middlewares=[_request_began, _host_check])
    app[_CONFIG] = config
    app[_VISITORS] = {}
    app[_GUARD] = SocketGuard(config.sockets)
    app.add_routes(
        [
            web.get("/", _index),
            web.post("/", _bind),
            web.get("/ws", _websocket),
            web.get("/ws/{play}", _websocket),
            web.static("/static", STATIC),
        ]
    )
    app.on_shutdown.append(_stop_visitors)
    return app


@web.middleware
async def _request_began(request: web.Request, handler):
    request.app[_GUARD].request_began(request.transport)
    return await handler(request)


@web.middleware
async def _host_check(request: web.Request, handler):
    config = request.app[_CONFIG]
    if config.hosts is not None and not _answered(_host_name(request.host), config):
        raise web.HTTPMisdirectedRequest(text="This server answers on its own address only.\n")
    return await handler(request)


def _answered(host: str, config: PageConfig) -> bool:
    """Whether the page answers under the Host name `host`."""
    if config.hosts is None or host in config.hosts:
        return True
    if not config.ip_hosts:
        return False
    try:
        ipaddress.ip_address(host)
    except ValueError:
        return False
    return True


def bound_names(host: str) -> frozenset[str]:
    """The Host names of an address the page is bound to: itself, unless it is
    every address of the machine (0.0.0.0, ::), which has no one name."""
    name = host.strip("[]").lower()
    return frozenset() if name in ("", "0.0.0.0", "::") else frozenset({name})


def _host_name(host: str) -> str:
    """'127.0.0.1:8000' -> '127.0.0.1'; '[::1]:8000' -> '::1'."""
    return urlsplit(f"//{host}").hostname or ""


async def _index(request: web.Request) -> web.Response:
    config = request.app[_CONFIG]
    code = request.query.get("code")
    if code is not None and config.binding is not None:
        return await _binding_page(request, config.binding, code[:CODE_LENGTH])
    columns, rows = config.least_size
    text = _PAGE.substitute(title=html.escape(config.title), min_columns=columns, min_rows=rows)
    return web.Response(text=text, content_type="text/html", headers=_PAGE_HEADERS)


# The longest one-time code looked at (theirs are 9 characters: 'ABCD-EF23').
CODE_LENGTH = 64
_NOT_A_CODE = (
    "That code is not one this server gave, or it was used or has lapsed: "
    "ask for a new one with  keys web  over ssh.\n"
)
_NOT_NOW = "The server cannot bind browsers just now; try the same address again in a minute.\n"

# The page loads nothing from elsewhere; the browser is told to hold it to that.
_PAGE_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'self'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; "
        "connect-src 'self' ws: wss:; img-src 'self' data:; font-src 'self'"
    ),
    "Cache-Control": "no-store",
}
# The binding page: no script at all, never inside another site's frame (its button
# must not be pressed through one), and its form sent back here only.
_BIND_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'none'; style-src 'unsafe-inline'; img-src data:; "
        "form-action 'self'; frame-ancestors 'none'; base-uri 'none'"
    ),
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "same-origin",  # (no-referrer would send the form's Origin as null)
    "Cache-Control": "no-store",
}


async def _websocket(request: web.Request) -> web.StreamResponse:
    origin = request.headers.get("Origin")
    if origin is not None and urlsplit(origin).netloc != request.host:
        # Another site's page in the player's browser must not drive the game.
        raise web.HTTPForbidden(text="The game answers its own page only.\n")
    config = request.app[_CONFIG]
    address = _address(request, config)
    refusal = config.socket_refusal(address) if config.socket_refusal is not None else None
    if refusal is not None:
        raise web.HTTPTooManyRequests(text=f"{refusal}\n")
    page_socket = web.WebSocketResponse(heartbeat=15, max_msg_size=LARGEST_MESSAGE, autoping=False)
    await page_socket.prepare(request)
    visitor: PageVisitor
    if config.visitor is not None:
        play = request.match_info.get("play", "")
        visit = Visit(
            address,
            _host_name(request.host),
            play,
            page_socket.send_bytes,
            partial(_close, page_socket),
            request.cookies.get(PASS_COOKIE),
            partial(_abort, request),
        )
        visitor = config.visitor(visit)
    else:
        visitor = Visitor(
            config.argv,
            environment=config.environment,
            write_bytes=page_socket.send_bytes,
            write_str=page_socket.send_str,
            close=partial(_close, page_socket),
        )
    visitors = request.app[_VISITORS]
    visitors[visitor] = page_socket
    try:
        await visitor.start(*_size(request))
        await _relay(page_socket, visitor)
    finally:
        await visitor.stop()
        await page_socket.close()
        visitors.pop(visitor, None)
    return page_socket


async def _binding_page(request: web.Request, binding: Binding, code: str) -> web.Response:
    """`/?code=CODE` from `ssh host keys web`: a page that names whom the code binds
    this browser to, with a button (a POST, _bind) and Cancel. Nothing is spent here,
    so a link alone binds no one's browser to another name (login CSRF)."""
    config = request.app[_CONFIG]
    name = await _code_answer(binding.holder(code, _address(request, config)))
    without_code = _here_without_code(request)
    text = _BIND.substitute(
        title=html.escape(config.title),
        name=html.escape(name),
        idle=html.escape(binding.lifetime),
        code=html.escape(code),
        action=html.escape(without_code),
        cancel=html.escape(without_code),
    )
    return web.Response(text=text, content_type="text/html", headers=_BIND_HEADERS)


async def _code_answer(asked: Awaitable[str | None]) -> str:
    """What the codes answered (a name, a pass); else the page's one sentence: not
    a code (403), too many wrong ones from the address (429), or not now (503)."""
    try:
        answer = await asked
    except PageRefusal as refusal:
        raise web.HTTPTooManyRequests(text=f"{refusal}\n") from None
    except ReversiError:
        raise web.HTTPServiceUnavailable(text=_NOT_NOW) from None
    if answer is None:
        raise web.HTTPForbidden(text=_NOT_A_CODE)
    return answer


async def _bind(request: web.Request) -> web.Response:
    """The binding page's button, from this server's own page only (Origin): the code
    is traded for a pass (a cookie), and the page comes back without the code."""
    binding = request.app[_CONFIG].binding
    origin = request.headers.get("Origin")
    if binding is None or origin is None or urlsplit(origin).netloc != request.host:
        raise web.HTTPForbidden(text="A browser is bound from this server's own page only.\n")
    code = (await request.post()).get("code")
    if not isinstance(code, str):
        raise web.HTTPForbidden(text=_NOT_A_CODE)
    address = _address(request, request.app[_CONFIG])
    browser_pass = await _code_answer(binding.trade(code[:CODE_LENGTH], address))
    found = web.HTTPSeeOther(_here_without_code(request))
    https = request.secure or (
        request.app[_CONFIG].forwarded and request.headers.get("X-Forwarded-Proto") == "https"
    )
    found.set_cookie(
        PASS_COOKIE,
        browser_pass,
        max_age=PASS_COOKIE_AGE,
        httponly=True,
        samesite="Strict",
        secure=https,
        path="/",
    )
    return found


def _here_without_code(request: web.Request) -> str:
    """The page's address without the one-time code ('./?play=table'), relative, so
    a proxy serving the page under a path (`/reversi/`) keeps it."""
    query = {key: value for key, value in request.query.items() if key != "code"}
    return f"./?{urlencode(query)}" if query else "./"


def _address(request: web.Request, config: PageConfig) -> str:
    """The visitor's address: the peer's, or the last the proxy in front added."""
    if config.forwarded:
        forwarded = request.headers.getall("X-Forwarded-For", [])
        hops = [hop.strip() for line in forwarded for hop in line.split(",") if hop.strip()]
        if hops:
            return hops[-1]
    return request.remote or "?"


async def _close(page_socket: web.WebSocketResponse) -> None:
    await page_socket.close()


def _abort(request: web.Request) -> None:
    """Let the page's connection go at once (a page that takes nothing: a close
    would wait on it too)."""
    if request.transport is not None:
        request.transport.abort()


def _size(request: web.Request) -> tuple[int, int]:
    size = []
    for name, default in zip(("width", "height"), DEFAULT_SIZE, strict=True):
        try:
            number = int(request.query.get(name, ""))
        except ValueError:
            number = default
        size.append(number if 1 <= number <= LARGEST_SIZE else default)
    return size[0], size[1]


async def _relay(page_socket: web.WebSocketResponse, visitor: PageVisitor) -> None:
    """The page's messages to the game, until the page goes (or the game closes it)."""
    async for message in page_socket:
        size = len(message.data) if isinstance(message.data, str | bytes) else 0
        if not await visitor.arrived(size):
            continue
        if message.type == WSMsgType.PING and visitor.pinged():
            # (answered here, not by aiohttp, so that a flood of pings is charged too)
            with contextlib.suppress(ConnectionError):
                await page_socket.pong(message.data)
        if message.type != WSMsgType.TEXT:
            continue
        try:
            kind, data = json.loads(message.data)
        except (ValueError, TypeError):
            continue  # not textual-serve's envelope: not from its page
        if kind == "stdin" and isinstance(data, str):
            await visitor.send_bytes(data.encode("utf-8", "replace"))
        elif kind == "resize" and isinstance(data, dict):
            with contextlib.suppress(KeyError, TypeError, ValueError):
                width, height = int(data["width"]), int(data["height"])
                if 1 <= width <= LARGEST_SIZE and 1 <= height <= LARGEST_SIZE:
                    await visitor.set_terminal_size(width, height)
        elif kind == "ping" and isinstance(data, str) and visitor.pinged():
            with contextlib.suppress(ConnectionError):  # (the page is going: no answer)
                await page_socket.send_json(["pong", data[:32]])
        elif kind == "blur":
            await visitor.blur()
        elif kind == "focus":
            await visitor.focus()


async def _stop_visitors(app: web.Application) -> None:
    visitors = list(app[_VISITORS].items())
    for _visitor, page_socket in visitors:
        await page_socket.close(code=WSCloseCode.GOING_AWAY, message=b"server stopping")
    await asyncio.gather(*(visitor.stop() for visitor, _socket in visitors))


class PageSite:
    """The page served on one listening socket, until `close`."""

    def __init__(
        self, app: web.Application, runner: web.AppRunner, site: web.SockSite, sock: socket.socket
    ) -> None:
        self.app = app
        self._runner = runner
        self._site: web.SockSite | None = site
        host, self.port = sock.getsockname()[:2]
        self.address = page_address(host, self.port)
        """Where a browser finds the page."""

    async def stop_listening(self) -> None:
        """Let no one else in; the visitors here play on until `close`."""
        if self._site is not None:
            site, self._site = self._site, None
            await site.stop()

    async def close(self) -> None:
        """Stop listening and end every visitor's game (each saves first)."""
        await self.stop_listening()
        await self._runner.cleanup()


async def start_page(config: PageConfig, host: str, port: int) -> PageSite:
    """Listen on host:port (0: a free port) and serve the page; ReversiError
    in one sentence if the address cannot be had."""
    try:
        sock = _listening_socket(host, port)
    except OSError as error:
        reason = os.strerror(error.errno) if error.errno else str(error)
        raise ReversiError(f"cannot listen on {host} port {port}: {reason}") from None
    app = page_application(config)
    runner = web.AppRunner(
        app,
        handle_signals=False,
        access_log=None,
        keepalive_timeout=KEEPALIVE_TIMEOUT,
        max_line_size=MAX_LINE,
        max_field_size=MAX_LINE,
        max_headers=MAX_HEADERS,
    )
    await runner.setup()
    site = GuardedSite(runner, sock, app[_GUARD])
    await site.start()
    return PageSite(app, runner, site, sock)


def _listening_socket(host: str, port: int) -> socket.socket:
    family, *_rest, address = socket.getaddrinfo(
        host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
    )[0]
    return socket.create_server(address, family=family)
