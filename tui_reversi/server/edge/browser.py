"""A browser page's way in (`serve --web-port`): the page's terminal (xterm.js
in textual-serve's page, tui_reversi/web/) is one more terminal of the hall's,
so the visitor gets what `ssh host` gives: the same `GameSession` on a pty, the
server's own game processes (preloaded where SSH's are), counted at the door and
in the seats as SSH's are, hung up with the server. A browser visitor is a guest
(unrated, under the guest rules), or the player whose pass it shows
(browser_passes.py); a server without guests turns a browser without one away."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

from ..hall.ssh_session import GameSession
from .budgets import FLOODED, InputAllowance

if TYPE_CHECKING:
    from .arcade import Arcade

# The terminal the page is (xterm.js): 256 colours and true colour, the mouse.
BROWSER_TERMINAL = "xterm-256color"
BROWSER_ENVIRONMENT = {"COLORTERM": "truecolor"}


class BrowserChannel:
    """What a `GameSession` writes to, for a page's socket: its bytes in order."""

    def __init__(
        self, send: Callable[[bytes], Awaitable[object]], close: Callable[[], Awaitable[None]]
    ) -> None:
        self._queue: asyncio.Queue[bytes | None] = asyncio.Queue()
        self._send = send
        self._close = close
        self.pump = asyncio.create_task(self._pump())

    async def _pump(self) -> None:
        # One sender, so frames leave in the order the game wrote them.
        with contextlib.suppress(ConnectionError, RuntimeError):
            while (data := await self._queue.get()) is not None:
                await self._send(data)
        await self._close()

    def write(self, data: bytes) -> None:
        self._queue.put_nowait(bytes(data))

    def write_stderr(self, data: bytes) -> None:
        self.write(bytes(data).replace(b"\n", b"\r\n"))

    def get_environment(self) -> dict[str, str]:
        return dict(BROWSER_ENVIRONMENT)

    def pause_reading(self) -> None:
        """(The page's input is metered by the session's allowance.)"""

    def resume_reading(self) -> None:
        """(See pause_reading.)"""

    def exit(self, status: int) -> None:
        self._queue.put_nowait(None)

    def exit_with_signal(self, name: str, *args: object) -> None:
        self._queue.put_nowait(None)


class BrowserConnection:
    """One page's visit, as the hall sees a connection (ssh_session's `Connection`)."""

    def __init__(self, arcade: Arcade, address: str, reached: str) -> None:
        self.arcade = arcade
        self.address = address
        self.peer = f"web:{address}"
        # As SSH_CONNECTION reads (the hints' `ssh` names the host the page was reached
        # at, and the server's SSH port).
        self.ssh_connection = f"{address} 0 {reached} {arcade.port}"
        self.started = time.monotonic()
        self.user: str | None = None
        self.authenticated = False
        self.end_reason: str | None = None
        self.game_pid: int | None = None
        self.session: GameSession | None = None
        self.adding_key = False
        # The name a hint's `ssh` asks for: a guest's lands as a guest again.
        self.asked = "guest"
        self.guest = True  # (until a pass names the player)
        self._channel: BrowserChannel | None = None
        # (A page's socket is not held as an SSH connection is: what is past a budget
        # is dropped, and a page that floods too long is ended.)
        self.budget = arcade.budgets.for_connection(
            (address, self.peer), lambda: self.user, lambda seconds: None, self._flooded
        )

    async def come_in(self, browser_pass: str | None) -> str | None:
        """Count the visit in at the door, as the player its pass names or as a
        guest; a sentence if it may not come in."""
        arcade = self.arcade
        name = await arcade.browser_passes.name_of(browser_pass) if browser_pass else None
        if name is None and arcade.config.auth != "none":
            return (
                "this server lets in only its own players: bind this browser to your "
                "name with  ssh HOST keys web, or play with ssh."
            )
        in_use = {c.user for c in arcade.connections if c.authenticated and c.user}
        user = name or await arcade.accounts.guest_name(in_use)  # (before it is counted in)
        if not arcade.admit(self):
            return "the server is full from your address; try again later."
        self.guest = name is None
        refusal = arcade.door.room_inside(self.address, guest=self.guest)
        if refusal is not None:
            arcade.forget(self)
            return refusal
        self.user = user
        self.asked = name or self.asked
        arcade.door.enter(self.address, guest=self.guest)
        self.authenticated = True
        arcade.log_connect(self)
        return None

    def play(
        self,
        command: str,
        size: tuple[int, int],
        send: Callable[[bytes], Awaitable[object]],
        close: Callable[[], Awaitable[None]],
    ) -> GameSession:
        """Start the session the page's terminal is: `command` as after `ssh host`."""
        self._channel = BrowserChannel(send, close)
        session = self.session = GameSession(self, InputAllowance(), self.budget)
        session.connection_made(self._channel)
        session.pty_requested(BROWSER_TERMINAL, (size[0], size[1], 0, 0), {})
        if command:
            session.exec_requested(command)
        session.session_started()
        return session

    def _flooded(self) -> None:
        self.end(FLOODED, "this page sent far more than anyone types, for too long.")
        self.end_reason = FLOODED

    async def keys(self, words: list[str], ssh: str) -> tuple[list[str], int]:
        return ["tui-reversi: keys are looked after over ssh (ssh HOST keys)."], 1

    async def let_in(self) -> bool:
        return self.authenticated  # (come_in settled it before the session began)

    def session_closed(self) -> None:
        if self._channel is not None:
            self._channel.exit(0)

    def left(self) -> None:
        """The page went (closed, reloaded, the network gone)."""
        if self.session is not None:
            self.session.connection_lost(None)
        self.end_reason = self.end_reason or "page closed"
        self.arcade.forget(self)

    def end(self, reason: str, message: str) -> None:
        if self.session is not None and self.session.task is not None:
            self.session.end(reason, message)
        else:
            self.end_reason = self.end_reason or reason
            self.close()

    def close(self) -> None:
        if self._channel is not None:
            self._channel.exit(0)

    async def wait_closed(self) -> None:
        if self._channel is not None:
            await self._channel.pump


class BrowserVisitor:
    """The page server's visitor (tui_reversi/web/page.py's `PageVisitor`) for a
    public server: the page's socket bridged to a `BrowserConnection`."""

    def __init__(
        self,
        arcade: Arcade,
        address: str,
        reached: str,
        command: str,
        send: Callable[[bytes], Awaitable[object]],
        close: Callable[[], Awaitable[None]],
        browser_pass: str | None = None,
    ) -> None:
        self._connection = BrowserConnection(arcade, address, reached)
        self._pass = browser_pass
        self._command = command
        self._send = send
        self._close = close
        self._came_in = False

    @property
    def pid(self) -> int | None:
        """The game process's id while it runs."""
        session = self._connection.session
        return self._connection.game_pid if session is not None and session.task else None

    async def start(self, width: int, height: int) -> None:
        refusal = await self._connection.come_in(self._pass)
        if refusal is not None:
            await self._send(f"tui-reversi: {refusal}\r\n".encode())
            await self._close()
            return
        self._came_in = True
        self._connection.play(self._command, (width, height), self._send, self._close)

    async def send_bytes(self, data: bytes) -> bool:
        session = self._connection.session
        if session is None:
            return False
        session.data_received(data, None)
        return True

    async def set_terminal_size(self, width: int, height: int) -> None:
        if self._connection.session is not None:
            self._connection.session.terminal_size_changed(width, height, 0, 0)

    async def blur(self) -> None:
        """(A terminal has no focus events to give the game here.)"""

    async def focus(self) -> None:
        """(See blur.)"""

    async def stop(self) -> None:
        """The page went: the game is hung up as for a dropped SSH connection."""
        if not self._came_in:
            return
        self._came_in = False
        self._connection.left()
        session = self._connection.session
        if session is not None and session.task is not None:
            await asyncio.shield(session.task)
