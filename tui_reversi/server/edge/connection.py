"""One SSH connection: asyncssh's per-connection handler.

It authenticates (login.py decides, this answers asyncssh's hooks), opens at
most one game session, and refuses everything else (port forwarding,
tunnels, agents, X11, sftp). The `Arcade` (arcade.py) makes one for each
connection and keeps the counts.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import socket
import time
from collections.abc import Callable
from typing import Protocol

import asyncssh

from ...core.errors import capitalised, sentence
from ...storage import StorageError
from ..config import format_duration, gone_reason
from ..hall.session_owner import SessionServer
from ..hall.ssh_session import GameSession
from ..tally import LOGINS, TALLY
from .accounts import key_text
from .browser_passes import BrowserPasses
from .budgets import CHANNEL_REQUESTS, FLOODED, SESSIONS, Budgets, InputAllowance
from .door import SHUT_FIRST, Door
from .event_log import NAME_LENGTH, log_value
from .guessing import TOO_MANY_GUESSES, PasswordGuesses
from .key_commands import keys_command
from .login import Accounts, Login
from .sanction_door import ban_refusal

# After its session has ended, a connection gets this long to close by itself.
LINGER_AFTER_SESSION = 5.0
# A held connection's socket receive buffer, in bytes (the kernel doubles it).
HELD_RECEIVE_BUFFER = 16 * 1024


class Client(Protocol):
    """One client let in at the door: an SSH connection (`PlayerConnection`) or a
    browser page's visit (browser.py's `BrowserConnection`)."""

    address: str
    peer: str
    # The door it came through: "ssh" or "web" (the page's).
    way_in: str
    user: str | None
    authenticated: bool
    started: float
    end_reason: str | None
    session: GameSession | None

    @property
    def guest(self) -> bool:
        """True if it came in as a guest (guests have a share of the places)."""

    @property
    def proved_key(self) -> str | None:
        """The key it proved that is its name's (None: a guest, a password, a browser)."""

    def end(self, reason: str, message: str) -> None: ...
    def turn_away(self, why: str) -> None: ...
    def close(self) -> None: ...
    async def wait_closed(self) -> None: ...


class Listener(SessionServer, Protocol):
    """The running server as a connection uses it (arcade.py's `Arcade`): what a
    session uses, and the door, the counts and the accounts. (A protocol, so this
    module need not import arcade.py, which imports it.)"""

    @property
    def accounts(self) -> Accounts:
        """Who may log in, and with which keys (login.py)."""

    @property
    def budgets(self) -> Budgets:
        """What each connection and each address may send (budgets.py)."""

    @property
    def door(self) -> Door:
        """The connections at the door and the ones let in, per address (door.py)."""

    @property
    def penalties(self) -> PasswordGuesses:
        """Wrong passwords and what they cost (guessing.py)."""

    @property
    def connections(self) -> set[Client]:
        """Every client let in at the door."""

    @property
    def browser_passes(self) -> BrowserPasses:
        """Keyed players' browsers bound to their names (browser_passes.py)."""

    @property
    def page_address(self) -> Callable[[str], str] | None:
        """Where a browser finds the page, given the host a player reached; None: no page."""

    def admit(self, connection: Client) -> bool:
        """Count a new connection in at the door; False (not counted) if there is no room."""

    def forget(self, connection: Client) -> None:
        """A connection gone: no longer counted."""

    def log_connect(self, connection: Client) -> None:
        """Write the connection's `connect` line to the server's log."""


class PlayerConnection(asyncssh.SSHServer):
    """One SSH connection: authentication, then at most one game session."""

    way_in = "ssh"

    def __init__(self, arcade: Listener) -> None:
        self.arcade = arcade
        self.config = arcade.config
        self.started = time.monotonic()
        self.user: str | None = None
        self.address = "?"
        self.peer = "?"
        self.ssh_connection = ""
        self.end_reason: str | None = None
        self.authenticated = False
        self.login = Login(arcade.accounts, self.config.auth, "?")
        self._told = False  # the client was told why a key was refused
        self.session: GameSession | None = None
        self.game_pid: int | None = None
        self._conn: asyncssh.SSHServerConnection | None = None
        self._timer: asyncio.TimerHandle | None = None
        self._held: asyncio.TimerHandle | None = None  # (not read until it fires)
        self._shut_door = False  # it outstayed its time at the door (counted once)
        self._settling: asyncio.Task[None] | None = None  # (auth_completed's)
        self._lost = False  # (connection_lost came)
        self.budget = arcade.budgets.for_connection(
            ("?", "?"), self._who, self._hold, self._flooded
        )

    def connection_made(self, conn: asyncssh.SSHServerConnection) -> None:
        self._conn = conn
        peer = conn.get_extra_info("peername") or ("?", 0)
        local = conn.get_extra_info("sockname") or ("?", 0)
        self.address = str(peer[0])
        self.peer = f"[{peer[0]}]:{peer[1]}" if ":" in self.address else f"{peer[0]}:{peer[1]}"
        self.ssh_connection = f"{peer[0]} {peer[1]} {local[0]} {local[1]}"
        self.login = Login(self.arcade.accounts, self.config.auth, self.address)
        peer_of = (self.address, self.peer)
        self.budget = self.arcade.budgets.for_connection(
            peer_of, self._who, self._hold, self._flooded
        )
        if not self.arcade.admit(self):
            # No room at the door: not counted, not kept, not told (it has not even said hello).
            self.end_reason = "no room at the door"
            asyncio.get_running_loop().call_soon(conn.abort)

    def connection_lost(self, exc: Exception | None) -> None:
        self._lost = True
        if self._timer is not None:
            self._timer.cancel()
        if self._held is not None:
            self._held.cancel()
        if not self.authenticated and "timeout" in str(exc).lower():
            self.timed_out_at_door()
        if self.end_reason is None:
            if self.user is not None and not self.authenticated:
                self.end_reason = "not authenticated"
            elif exc is not None:
                self.end_reason = gone_reason(exc)
        self.arcade.forget(self)

    @property
    def asked(self) -> str:
        """The name the client asked for (a guest plays under another)."""
        return self.login.asked

    def begin_auth(self, username: str) -> bool:
        self.user = username
        self.login.asked = username
        refusal = self.arcade.door.room_inside(self.address)
        if refusal is not None:
            # Said here, after the key exchange, because clients read it only from then on.
            self._refuse(refusal, asyncssh.DISC_TOO_MANY_CONNECTIONS)
        banned = ban_refusal(self.arcade.moderation, self.login.name, None, self.address)
        if banned is not None:
            self._refuse(banned)  # (by name or address: said before any key is tried)
        return True  # in every mode: the key a client offers says who it is

    def public_key_auth_supported(self) -> bool:
        return True

    async def validate_public_key(self, username: str, key: asyncssh.SSHKey) -> bool:
        banned = ban_refusal(self.arcade.moderation, self.login.name, key_text(key), self.address)
        if banned is not None:
            self._refuse(banned)
            return False
        if await self.login.key_allowed(key):
            return True
        refusal = self.login.refusal
        if refusal is not None and not self._told and self._conn is not None:
            # Shown by OpenSSH as it comes; the client may still have the right key.
            self._told = True
            self._conn.send_auth_banner(f"tui-reversi: {refusal}\r\n")
        return False

    def kbdint_auth_supported(self) -> bool:
        # Under --auth password, asyncssh asks for the password this way too.
        return NotImplemented if self.config.auth == "password" else True  # type: ignore[no-any-return]

    async def get_kbdint_challenge(self, username: str, lang: str, submethods: str) -> bool:
        """No key, or none that may be this name: a guest under the open default
        (let in without a prompt), else refused with the sentence that says why."""
        if await self.login.guest_allowed():
            refusal = self.arcade.door.room_inside(self.address, guest=True)
            if refusal is None:
                return True
            # Said now, while the client still listens (after login it may not).
            self._refuse(refusal, asyncssh.DISC_TOO_MANY_CONNECTIONS)
            return False
        if not self._told:  # (else the banner said why)
            self._refuse(self.login.refusal or "connect with your SSH key.")
        return False

    def password_auth_supported(self) -> bool:
        return self.config.auth == "password"

    async def validate_password(self, username: str, password: str) -> bool:
        refusal = await self.login.password_refusal()
        if refusal is not None:
            self._refuse(refusal)
            return False
        penalties = self.arcade.penalties
        # However the guesses come (pipelined, on many connections, from many addresses),
        # one is compared at a time per address and per name, a few a second in all,
        # after a wait that grows with their wrong ones (guessing.py).
        try:
            if not await penalties.turn(self.address, username):
                self._refuse(TOO_MANY_GUESSES, asyncssh.DISC_TOO_MANY_CONNECTIONS)
                return False
            expected = (self.config.password or "").encode()
            if expected and hmac.compare_digest(password.encode(), expected):
                await penalties.passed(self.address, username)
                return True
            self.end_reason = "wrong password"
            TALLY.count(LOGINS, "ssh", "wrong-password")
            await penalties.failed(self.address, username, log_value(username, NAME_LENGTH))
        except StorageError as error:
            self.arcade.note(str(error))
            self._refuse("the server cannot check passwords now; please try again later.")
        return False

    def auth_completed(self) -> None:
        # Settled by a task: the store may be slow, and asyncssh calls this without
        # awaiting it (2.14); a session asked for meanwhile waits for it (let_in).
        self._settling = asyncio.create_task(self._settle())

    async def let_in(self) -> bool:
        """Wait until the login has settled who this is: True if let in."""
        if self._settling is not None:
            await asyncio.shield(self._settling)
        return self.authenticated

    async def _settle(self) -> None:
        """Let the client in under the name it plays as, or turn it away."""
        refusal = self.arcade.door.room_inside(self.address, guest=self.login.guest)
        if refusal is not None:
            self._refuse(refusal, asyncssh.DISC_TOO_MANY_CONNECTIONS)
            return
        in_use = {c.user for c in self.arcade.connections if c.authenticated and c.user}
        name, problem = await self.login.settle(in_use)
        moderation = self.arcade.moderation
        problem = problem or ban_refusal(moderation, name, self.login.key, self.address)
        if self._lost:
            return  # (it went while the store was asked: the door has let it go)
        if problem is not None:
            self._refuse(problem)
            return
        self.user = name
        self.arcade.door.enter(self.address, guest=self.login.guest)
        self.authenticated = True
        self.end_reason = None
        self.arcade.log_connect(self)
        # A connection that never asks for a game does not keep its place for long.
        if self.session is None:
            self._linger(self.config.login_timeout, "no game requested")

    def _refuse(
        self, sentence: str, code: int = asyncssh.DISC_NO_MORE_AUTH_METHODS_AVAILABLE
    ) -> None:
        """Turn the client away with one sentence (OpenSSH prints it)."""
        TALLY.count(LOGINS, "ssh", "refused")
        self.end_reason = sentence.split(";")[0].split(":")[0].rstrip(".").lower()
        if self._conn is not None:
            self._conn.disconnect(code, capitalised(sentence))

    def session_requested(self) -> GameSession | bool:
        if not self.budget.allow(CHANNEL_REQUESTS) or self.session is not None:
            return False  # one game per connection
        if not self.budget.allow(SESSIONS):
            raise asyncssh.ChannelOpenError(
                asyncssh.OPEN_ADMINISTRATIVELY_PROHIBITED,
                "Too many sessions from your address; please wait a minute.",
            )
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        self.session = GameSession(self, InputAllowance(), self.budget)
        return self.session

    # The budgets' (budgets.py).

    @property
    def guest(self) -> bool:
        """True if it came in as a guest."""
        return self.login.guest

    def _who(self) -> str | None:
        return self.user

    def _hold(self, seconds: float) -> None:
        """Read nothing more from the client for `seconds`: what it sends meanwhile
        waits in its own TCP buffers. asyncssh (2.24) has no public way to stop
        reading a connection, so its transport is asked directly. Its socket's
        receive buffer is made small too: what is read at once after a hold
        (asyncssh handles a whole read before anything else) is a short while's."""
        transport = getattr(self._conn, "_transport", None)
        if self._held is not None or transport is None or not hasattr(transport, "pause_reading"):
            return
        sock = transport.get_extra_info("socket")
        if sock is not None:
            with contextlib.suppress(OSError):
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, HELD_RECEIVE_BUFFER)
        transport.pause_reading()
        self._held = asyncio.get_running_loop().call_later(seconds, self._let_go, transport)

    def _flooded(self) -> None:
        """It sent past its budgets for half a minute and more: it is ended (its game
        hung up, saved, and the player told)."""
        self.end(FLOODED, "this connection sent far more than anyone types, for too long.")
        self.end_reason = FLOODED

    def _let_go(self, transport: asyncio.ReadTransport) -> None:
        self._held = None
        if not transport.is_closing():
            transport.resume_reading()

    def timed_out_at_door(self) -> None:
        """It outstayed its time at the door: the door shuts to its address a while."""
        if not self._shut_door and not self.authenticated and self.address != "?":
            self._shut_door = True
            shut = self.arcade.door.timed_out(self.address)
            if shut <= SHUT_FIRST:  # (after that, it is no news)
                self.arcade.events.write(
                    "door-shut",
                    address=self.address,
                    peer=self.peer,
                    why="a connection outstayed its time at the door",
                    wait=format_duration(shut),
                )

    # Asked by the session (hall/ssh_session.py's `Connection`).

    @property
    def adding_key(self) -> bool:
        """True if let in only to run  keys add CODE  (login.py)."""
        return self.login.adding_key

    @property
    def proved_key(self) -> str | None:
        """The key it logged in with, if that key is its name's (login.py)."""
        login = self.login
        keyed = self.authenticated and not login.guest and not login.adding_key
        return login.key if keyed else None

    def turn_away(self, why: str) -> None:
        """End it for a ban: its game hung up (saved) and `why` told after, or,
        with no game running, the connection closed with it."""
        session = self.session
        if session is not None and session.in_play:
            session.end("banned", sentence(why))
        else:
            self._refuse(why)

    async def keys(self, words: list[str], ssh: str) -> tuple[list[str], int]:
        """What `keys ...` says, and the exit status (key_commands.py)."""
        accounts = self.arcade.accounts
        return await keys_command(
            self.login,
            accounts,
            self.user or "",
            self.config.auth,
            words,
            ssh,
            passes=self.arcade.browser_passes,
            page=self._page_address(),
        )

    def _page_address(self) -> str | None:
        """Where this player's browser finds the page: the host they reached the server
        at (or --public-address's), the page's port; None if there is no page."""
        if self.arcade.page_address is None:
            return None
        host, _port = self.config.address_for(self.ssh_connection)
        return self.arcade.page_address(host)

    # Everything else a client may ask for is refused.

    def connection_requested(self, *args: object) -> bool:
        return self._refused()

    def server_requested(self, *args: object) -> bool:
        return self._refused()

    def unix_connection_requested(self, *args: object) -> bool:
        return self._refused()

    def unix_server_requested(self, *args: object) -> bool:
        return self._refused()

    def tun_requested(self, *args: object) -> bool:
        return self._refused()

    def tap_requested(self, *args: object) -> bool:
        return self._refused()

    def _refused(self) -> bool:
        """Refused, and charged: asking again and again costs the asker."""
        self.budget.allow(CHANNEL_REQUESTS)
        return False

    # Called by the session and the arcade.

    def session_closed(self) -> None:
        """The game is over and the client told: let the client close, or close it soon."""
        self._linger(LINGER_AFTER_SESSION, "game over, client stayed")

    def end(self, reason: str, message: str) -> None:
        if self.session is not None and self.session.task is not None:
            self.session.end(reason, message)
        else:
            self.end_reason = self.end_reason or reason
            self.close()

    def close(self) -> None:
        if self._conn is not None:
            self._conn.close()

    def abort(self) -> None:
        """Drop the connection at once, without a word (it has not logged in)."""
        if self._conn is not None:
            self._conn.abort()

    async def wait_closed(self) -> None:
        if self._conn is not None:
            await self._conn.wait_closed()

    def _linger(self, seconds: float, reason: str) -> None:
        """Close the connection in `seconds` unless something cancels the timer first."""
        if self._timer is not None:
            self._timer.cancel()
        if seconds > 0:
            self._timer = asyncio.get_running_loop().call_later(seconds, self._time_out, reason)

    def _time_out(self, reason: str) -> None:
        self.end_reason = self.end_reason or reason
        self.close()
