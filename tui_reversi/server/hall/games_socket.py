"""The socket the games reach one part of the server by (the tables, the lobby).

Each part listens on a Unix socket of its own, in a fresh directory only the
server's user may enter (mkdtemp makes it 0700, the socket is 0600), short
enough for a socket's path wherever the data directory is. A game proves
which game it is by its first line, `hello SECRET`, with the secret the
server put in its environment; the name it plays under comes from SSH, never
from what it says. Every game's line is a task of its own, all ended by close().
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import secrets
import shutil
import tempfile
from collections.abc import Awaitable, Callable
from pathlib import Path

from ...net.server_line import MAX_LINE, words

# A game that connects and says nothing is let go after this long.
HELLO_TIMEOUT = 10.0
# A game that does not read what it is sent is cut off beyond this much unsent.
MAX_UNSENT = 64 * 1024

Serve = Callable[[asyncio.StreamReader, asyncio.StreamWriter], Awaitable[None]]


class GamesSocket:
    """One part's socket: start(), environment() for each game, close()."""

    def __init__(self, name: str, variables: tuple[str, str], serve: Serve) -> None:
        self._name = name  # the part's ('tables', 'lobby'): in the socket's path
        self._variables = variables  # the environment's names for the path and the secret
        self._serve = serve  # talks with one game, from its hello on
        self._directory: Path | None = None
        self._server: asyncio.AbstractServer | None = None
        self._lines: set[asyncio.Task[None]] = set()

    @property
    def path(self) -> Path:
        assert self._directory is not None
        return self._directory / f"{self._name}.sock"

    async def start(self) -> None:
        self._directory = Path(tempfile.mkdtemp(prefix=f"tui-reversi-{self._name}-"))
        self._server = await asyncio.start_unix_server(self._line, str(self.path), limit=MAX_LINE)
        os.chmod(self.path, 0o600)

    async def close(self) -> None:
        """Stop listening and end every game's line (each part hears of it as it ends)."""
        if self._server is not None:
            self._server.close()
        for task in list(self._lines):
            task.cancel()
        if self._lines:
            await asyncio.wait(self._lines)
        if self._server is not None:
            await self._server.wait_closed()
        if self._directory is not None:
            shutil.rmtree(self._directory, ignore_errors=True)

    @staticmethod
    def new_secret() -> str:
        """A secret for one game: what it proves itself with."""
        return secrets.token_urlsafe(24)

    def environment(self, secret: str) -> dict[str, str]:
        """What a game needs in its environment to reach this socket as `secret`'s."""
        socket_variable, secret_variable = self._variables
        return {socket_variable: str(self.path), secret_variable: secret}

    async def _line(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        assert task is not None
        self._lines.add(task)
        try:
            await self._serve(reader, writer)
        except (
            OSError,
            ValueError,
            TimeoutError,
            asyncio.IncompleteReadError,
            asyncio.LimitOverrunError,
        ):
            pass  # a game that broke the protocol or went away: it is let go
        except asyncio.CancelledError:
            # Only close() cancels: the line ends with the server. Not raised on, as
            # asyncio's server would log a cancelled handler as an error with a traceback.
            pass
        finally:
            self._lines.discard(task)
            writer.close()


async def hello(reader: asyncio.StreamReader) -> str:
    """The secret a game's first line gives (`hello SECRET`), '' for any other line.
    Raises TimeoutError when none comes within HELLO_TIMEOUT, ValueError for one
    that is not text."""
    command, secret = words(await asyncio.wait_for(reader.readline(), HELLO_TIMEOUT))
    return secret if command == "hello" else ""


def tell(writer: asyncio.StreamWriter, data: bytes) -> None:
    """Write `data` down a game's line; a game that stopped reading (more than
    MAX_UNSENT waiting to go) is cut off instead."""
    if writer.transport.get_write_buffer_size() > MAX_UNSENT:
        writer.transport.abort()
        return
    with contextlib.suppress(OSError):
        writer.write(data)
