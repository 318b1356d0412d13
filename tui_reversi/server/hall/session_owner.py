"""What a game session is given to run on (ssh_session.py's `GameSession`): the
connection it belongs to (`Owner`: the edge's SSH connection, or a browser
page's visit) and the running server as a session uses it (`SessionServer`).
The hall's session pieces read them through these, never the edge's classes.
"""

from __future__ import annotations

from typing import Protocol

from ...net.ssh_command import ssh_command
from ..config import ServeConfig
from .conduct import Playbans
from .pairing import PairingQueue
from .pty_process import Spawn
from .roster import Server
from .session_edge import EventWriter
from .sessions import Sessions
from .tournaments import TournamentDirector


class SessionServer(Server, Protocol):
    """The running server as a session uses it (edge/arcade.py's `Arcade`)."""

    @property
    def pairing(self) -> PairingQueue:
        """The players waiting to be paired (`play`)."""

    @property
    def events(self) -> EventWriter:
        """The server's log, an event a line."""

    @property
    def tournaments(self) -> TournamentDirector:
        """This node's part in running the tournaments."""

    @property
    def config(self) -> ServeConfig:
        """What the operator chose."""

    @property
    def sessions(self) -> Sessions:
        """This node's sessions with a game running, and each player's own game."""

    @property
    def playbans(self) -> Playbans:
        """Who may not play now (conduct.py): refused `play` and new tables."""

    def note(self, text: str) -> None:
        """A line for the operator's log."""

    def take_place(self, address: str, *, guest: bool) -> str | None:
        """Take one of the server's places for a player from `address`; why not (a
        sentence) if none is left for them (guests have a share of the places)."""

    def leave_place(self, address: str, *, guest: bool) -> None:
        """Give a place taken back."""

    async def spawner(self, argv: list[str]) -> Spawn | None:
        """How to start `argv`: by the preloaded parent, or None for a new process."""


class Owner(Protocol):
    """The connection a session belongs to (edge/connection.py's `PlayerConnection`,
    or a browser page's visit)."""

    end_reason: str | None  # why it ended, for the log (the session says it as it goes)
    game_pid: int | None  # its game's process, once started (a host's, shared, with K > 1)

    @property
    def arcade(self) -> SessionServer:
        """The running server."""

    @property
    def user(self) -> str | None:
        """The name it plays under (set at authentication, before any session)."""

    @property
    def asked(self) -> str:
        """The name its client asked for (a guest's is not the one it plays under)."""

    @property
    def address(self) -> str:
        """Where it connected from."""

    @property
    def guest(self) -> bool:
        """True if it came in as a guest."""

    @property
    def ssh_connection(self) -> str:
        """SSH_CONNECTION's value for its games: 'client port server port'."""

    @property
    def adding_key(self) -> bool:
        """True if it was let in only to run  keys add CODE."""

    @property
    def proved_key(self) -> str | None:
        """The key it logged in with that is its name's (None: a guest, a password...)."""

    async def keys(self, words: list[str], ssh: str) -> tuple[list[str], int]:
        """What `keys ...` (`words` after `keys`) says, and the exit status."""

    async def let_in(self) -> bool:
        """Wait until its login has settled who it is: True if it was let in."""

    def session_closed(self) -> None:
        """The game is over and the client told."""


def ssh_line(owner: Owner, *, terminal: bool = True, own_name: bool = True, key: str = "") -> str:
    """'ssh -t -p 2222 alice@games.example.org': how `owner`'s player (or, without
    `own_name`, anyone) reaches the server again, for a hint."""
    host, port = owner.arcade.config.address_for(owner.ssh_connection)
    # (a guest's: the name it asked for, which lands it as a guest again)
    user = owner.asked if own_name else None
    return ssh_command(host, port, user, terminal=terminal, key=key)
