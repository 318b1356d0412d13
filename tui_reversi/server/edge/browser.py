"""A browser page's way in (`serve --web-port`): the page's terminal (xterm.js
in textual-serve's page, tui_reversi/web/) is one more terminal of the hall's,
so the visitor gets what `ssh host` gives: the same `GameSession` on a pty, the
server's own game processes (preloaded where SSH's are), counted at the door and
in the places as SSH's are, hung up with the server. A browser visitor is a guest
(unrated, under the guest rules), or the player whose pass it shows
(browser_passes.py); a server without guests turns a browser without one away.

The page's socket is a door like the SSH port (docs/hosting.md, "The page's
door"): a visit comes in at the page's first message, through the same door,
places and session budget as an SSH login, before any name is drawn or game
started; every message is charged as SSH's packets are, before it is read;
the game's output waits in a bounded queue, the game paused past it as SSH's
flow control pauses it. What the page server is given for a public server
(its hosts, sockets and `?code=` trades) is public_page.py's."""

from __future__ import annotations

import asyncio
import collections
import contextlib
import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

from ...net.ssh_command import ssh_command
from ...web.page import Visit
from ..hall.ssh_session import GameSession
from ..tally import LOGINS, TALLY
from .budgets import FLOODED, PINGS, SESSIONS, ConnectionBudget, InputAllowance

if TYPE_CHECKING:
    from .arcade import Arcade

# The terminal the page is (xterm.js): 256 colours and true colour, the mouse.
BROWSER_TERMINAL = "xterm-256color"
BROWSER_ENVIRONMENT = {"COLORTERM": "truecolor"}
# The game's output waiting for a page: past HIGH_WATER the game is paused (as
# SSH's channel pauses it), and it goes on once the queue is down to LOW_WATER.
HIGH_WATER = 1 << 20
LOW_WATER = 256 * 1024
# Why a page that took nothing for ServeConfig.page_unwritable seconds was closed.
UNWRITABLE = "the page took nothing for too long"


class BrowserChannel:
    """What a `GameSession` writes to, for a page's socket: its bytes in order,
    at most HIGH_WATER of them waiting (then the game is paused); a page that
    takes nothing for `patience` seconds is let go (its socket aborted)."""

    def __init__(
        self,
        page: tuple[Callable[[bytes], Awaitable[object]], Callable[[], Awaitable[None]]],
        abort: Callable[[], None],
        game: GameSession,
        patience: float,
    ) -> None:
        self._send, self._close = page
        self._abort = abort
        self._game = game
        self._patience = patience
        self._waiting: collections.deque[bytes] = collections.deque()
        self._queued = 0  # bytes waiting
        self._paused = False
        self._ending = False
        self._wake = asyncio.Event()
        self.unwritable = False  # it took nothing for `patience` seconds, and was let go
        self.pump = asyncio.create_task(self._pump())

    async def _pump(self) -> None:
        # One sender, so frames leave in the order the game wrote them.
        try:
            await self._send_all()
        except (ConnectionError, RuntimeError):
            pass  # (the page went: what was left for it goes with it)
        finally:
            self._ending = True
            self._waiting.clear()
        if not self.unwritable:
            with contextlib.suppress(ConnectionError, RuntimeError):
                await self._close()

    async def _send_all(self) -> None:
        """Send what the game writes until it exits (or the page stops taking it)."""
        while True:
            if not self._waiting:
                if self._ending:
                    break
                self._wake.clear()
                await self._wake.wait()
                continue
            data = self._waiting.popleft()
            try:
                await asyncio.wait_for(self._send(data), self._patience)
            except TimeoutError:
                self.unwritable = True
                self._abort()
                return
            self._queued -= len(data)
            if self._paused and self._queued <= LOW_WATER:
                self._paused = False
                self._game.resume_writing()

    def write(self, data: bytes) -> None:
        if self._ending:
            return
        self._waiting.append(bytes(data))
        self._queued += len(data)
        self._wake.set()
        if not self._paused and self._queued > HIGH_WATER:
            self._paused = True
            self._game.pause_writing()

    def write_stderr(self, data: bytes) -> None:
        self.write(bytes(data).replace(b"\n", b"\r\n"))

    def get_environment(self) -> dict[str, str]:
        return dict(BROWSER_ENVIRONMENT)

    def pause_reading(self) -> None:
        """(The page's input is metered by the session's allowance.)"""

    def resume_reading(self) -> None:
        """(See pause_reading.)"""

    def exit(self, status: int) -> None:
        self._ending = True
        self._wake.set()

    def exit_with_signal(self, name: str, *args: object) -> None:
        self.exit(0)

    def let_go(self) -> None:
        """Close the page now: what it has not taken yet is dropped, and a page
        that takes nothing is not waited for (its socket is aborted)."""
        self.exit(0)
        if not self.pump.done():
            self._waiting.clear()
            self._abort()

    async def finish(self) -> None:
        """The page has gone: nothing more is sent, and the pump is over when this returns."""
        self._ending = True
        self._waiting.clear()
        self.pump.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self.pump


class _ChargedAtTheSocket:
    """A page's requests as its session sees them: every message was charged as
    a packet when it came (`BrowserConnection.arrived`), so none is charged twice."""

    def __init__(self, budget: ConnectionBudget) -> None:
        self._budget = budget

    def packet(self) -> bool:
        return True

    def window_change(self) -> bool:
        return self._budget.window_change()

    def window_change_wait(self) -> float:
        return self._budget.window_change_wait()

    def channel_request(self) -> bool:
        return self._budget.channel_request()


class BrowserConnection:
    """One page's visit, as the hall sees a connection (ssh_session's `Connection`)."""

    way_in = "web"

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
        self.gone = False  # the page went (or was let go)
        self._channel: BrowserChannel | None = None
        self._held_until = 0.0  # (loop time) its messages are not read before then
        self.budget = arcade.budgets.for_connection(
            (address, self.peer), lambda: self.user, self._hold, self._flooded
        )

    def _ssh(self) -> str:
        """'ssh -p 2222 games.example.org': how this visitor reaches the server's SSH."""
        host, port = self.arcade.config.address_for(self.ssh_connection)
        return ssh_command(host, port, terminal=False)

    async def come_in(self, browser_pass: str | None) -> str | None:
        """Count the visit in at the door, as the player its pass names or as a
        guest, before anything is drawn or kept for it; a sentence if it may not
        come in."""
        arcade = self.arcade
        if not arcade.admit(self):
            self.end_reason = "no room at the door"
            return "the server is full from your address; try again later."
        name = await arcade.browser_passes.name_of(browser_pass) if browser_pass else None
        self.guest = name is None
        refusal = self._refusal()
        if refusal is None:
            in_use = {c.user for c in arcade.connections if c.authenticated and c.user}
            self.user = name or await arcade.accounts.guest_name(in_use)
            if self.gone:  # (it went while the store was asked)
                refusal = "the page has gone."
        if refusal is not None:
            self.end_reason = refusal.split(";")[0].rstrip(".").lower()
            TALLY.count(LOGINS, "web", "refused")
            arcade.forget(self)
            return refusal
        self.asked = name or self.asked
        arcade.door.enter(self.address, guest=self.guest)
        self.authenticated = True
        arcade.log_connect(self)
        return None

    def _refusal(self) -> str | None:
        """Why this visit, at the door now, may not come in (a sentence), or None."""
        arcade = self.arcade
        if self.guest and arcade.config.auth != "none":
            return (
                "this server lets in only its own players: bind this browser to your "
                f"name with  {self._ssh()} keys web, or play with ssh."
            )
        refusal = arcade.door.room_inside(self.address, guest=self.guest)
        if refusal is None and not self.budget.allow(SESSIONS):
            refusal = "too many sessions from your address; please wait a minute."
        return refusal

    def play(
        self,
        command: str,
        size: tuple[int, int],
        page: tuple[Callable[[bytes], Awaitable[object]], Callable[[], Awaitable[None]]],
        abort: Callable[[], None],
    ) -> GameSession:
        """Start the session the page's terminal is: `command` as after `ssh host`."""
        session = self.session = GameSession(
            self, InputAllowance(), _ChargedAtTheSocket(self.budget)
        )
        patience = self.arcade.config.page_unwritable
        self._channel = BrowserChannel(page, abort, session, patience)
        session.connection_made(self._channel)
        session.pty_requested(BROWSER_TERMINAL, (size[0], size[1], 0, 0), {})
        if command:
            session.exec_requested(command)
        session.session_started()
        return session

    async def arrived(self, size: int) -> bool:
        """A message of `size` bytes from the page, charged as a packet (a large one
        as several) before it is decoded: False to drop it. Past the budget the
        page is held: nothing more is read from it for a while (what it sends
        meanwhile waits in its socket)."""
        allowed = self.budget.packet(size)
        wait = self._held_until - asyncio.get_running_loop().time()
        if wait > 0:
            await asyncio.sleep(wait)
        return allowed and not self.gone

    def pinged(self) -> bool:
        return self.budget.allow(PINGS)

    def _hold(self, seconds: float) -> None:
        now = asyncio.get_running_loop().time()
        self._held_until = max(self._held_until, now + seconds)

    def _flooded(self) -> None:
        self.end(FLOODED, "this page sent far more than anyone types, for too long.")
        self.end_reason = FLOODED

    async def keys(self, words: list[str], ssh: str) -> tuple[list[str], int]:
        return [f"tui-reversi: keys are looked after over ssh ({self._ssh()} keys)."], 1

    async def let_in(self) -> bool:
        return self.authenticated  # (come_in settled it before the session began)

    def session_closed(self) -> None:
        if self._channel is not None:
            self._channel.exit(0)

    def left(self) -> None:
        """The page went (closed, reloaded, the network gone, or let go)."""
        self.gone = True
        if self._channel is not None and self._channel.unwritable:
            self.end_reason = self.end_reason or UNWRITABLE
        if self.session is not None:
            self.session.connection_lost(None)
        self.end_reason = self.end_reason or "page closed"
        self.arcade.forget(self)

    def end(self, reason: str, message: str) -> None:
        if self.session is not None and self.session.task is not None:
            self.session.end(reason, message)
        else:
            self.end_reason = self.end_reason or reason
            self.session_closed()

    def close(self) -> None:
        """Close the page now, whatever it has not taken yet (the server is stopping)."""
        if self._channel is not None:
            self._channel.let_go()

    async def wait_closed(self) -> None:
        if self._channel is not None:
            await asyncio.shield(self._channel.pump)

    async def finish(self) -> None:
        """Nothing more goes to the page; its pump is over."""
        if self._channel is not None:
            await self._channel.finish()


class BrowserVisitor:
    """The page server's visitor (tui_reversi/web/page.py's `PageVisitor`) for a
    public server: the page's socket bridged to a `BrowserConnection`, whose
    visit begins at the page's first message (textual-serve's page sends its
    size at once): a socket opened and closed without one costs no name, no row
    in the store and no game."""

    def __init__(self, arcade: Arcade, visit: Visit) -> None:
        self._connection = BrowserConnection(arcade, visit.address, visit.host)
        self._visit = visit
        self._size = (80, 24)
        self._came_in = False
        self._refused = False

    @property
    def pid(self) -> int | None:
        """The game process's id while it runs."""
        session = self._connection.session
        return self._connection.game_pid if session is not None and session.task else None

    async def start(self, width: int, height: int) -> None:
        self._size = (width, height)

    async def arrived(self, size: int) -> bool:
        if self._refused:
            return False
        if not self._came_in:
            await self._come_in()
            if self._refused:
                return False
        return await self._connection.arrived(size)

    async def _come_in(self) -> None:
        visit = self._visit
        refusal = await self._connection.come_in(visit.browser_pass)
        if refusal is not None:
            self._refused = True
            with contextlib.suppress(ConnectionError, RuntimeError):
                await visit.send(f"tui-reversi: {refusal}\r\n".encode())
                await visit.close()
            return
        self._came_in = True
        self._connection.play(visit.play, self._size, (visit.send, visit.close), visit.abort)

    def pinged(self) -> bool:
        return self._came_in and self._connection.pinged()

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
        """The page went: the game is hung up as for a dropped SSH connection, and
        nothing of the visit is left running."""
        self._connection.gone = True  # (a visit still coming in goes no further)
        if not self._came_in:
            return
        self._came_in = False
        self._connection.left()
        session = self._connection.session
        if session is not None and session.task is not None:
            await asyncio.shield(session.task)
        await self._connection.finish()
