"""Who the in-app lobby (lobby_host.py) talks with: each served game's line to
it (`Guest`: its player's name, where its session may be sent, whether it shows
the lobby now and what it was last sent), and what each person on the server is
doing as the lobby lists them (`Doing`, roster.py's).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass

from .games_socket import tell


@dataclass(frozen=True, slots=True)
class Doing:
    """What one person on the server is doing: a word for the lobby's column
    (free, playing, waiting, watching, finished) and a phrase to read."""

    state: str
    text: str
    code: str | None = None  # the table it is at, if any


@dataclass(eq=False)
class Guest:
    """One served game's line to the lobby."""

    name: str
    writer: asyncio.StreamWriter
    # Seats the session at a table (its secret); False if the session has gone.
    seat: Callable[[str], bool]
    # Opens an archived game (its GGF) for review next; False if the session has gone.
    replay: Callable[[str], bool] | None = None
    # Sends the session to a tournament's games (its number); False if it has gone.
    tournament: Callable[[int], bool] | None = None
    address: str = ""  # where its player connected from ('' for another node's)
    # How its player reaches the server, for the hints it is sent ('ssh -t -p 2222
    # alice@host'; '' for another node's, which is sent none).
    ssh: str = ""
    looking: bool = False
    shown: bytes = b""  # the lobby last sent to it
    moderator: bool = False  # its player moderates, by key: its lobby shows the open reports

    def send(self, data: bytes) -> None:
        tell(self.writer, data)
