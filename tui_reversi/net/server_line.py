"""A game's line to the server under `tui-reversi serve`, whichever part it
reaches (its table, net/remote.py; the lobby, net/lobby_link.py): one line
of UTF-8 at a time, at most `MAX_LINE` bytes, words one space apart; the
first says `hello SECRET`. `ServerLine` is the game's end of it.
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
import threading
from abc import ABC, abstractmethod
from collections.abc import Callable
from typing import BinaryIO, Generic, TypeVar

from ..surroundings import GameThread

MAX_LINE = 1024


def line(*words: object) -> bytes:
    """One protocol line: the words, one space apart, and a newline."""
    text = " ".join(str(word) for word in words)
    data = f"{text}\n".encode()
    if len(data) > MAX_LINE or "\n" in text or "\r" in text:
        raise ValueError(f"not one protocol line: {text[:60]!r}")
    return data


def words(data: bytes) -> tuple[str, str]:
    """A received line as (command, the rest). Raises ValueError for a line that is not text."""
    text = data.decode("utf-8").rstrip("\r\n")
    command, _, rest = text.partition(" ")
    return command, rest


async def next_line(reader: asyncio.StreamReader, stop: asyncio.Event) -> bytes | None:
    """The next line `reader` has (b'' at its end), or None once `stop` is set first
    (a line half read then stays in the reader's buffer)."""
    if stop.is_set():
        return None
    reading = asyncio.ensure_future(reader.readline())
    stopping = asyncio.ensure_future(stop.wait())
    await asyncio.wait({reading, stopping}, return_when=asyncio.FIRST_COMPLETED)
    stopping.cancel()
    if reading.done():
        return reading.result()
    reading.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await reading
    return None


NewsType = TypeVar("NewsType")
Answer = TypeVar("Answer")


class ServerLine(ABC, Generic[NewsType]):
    """A game's line to the server (its table's, or the lobby's): lines out, and
    the server's lines in, read on a thread of the line's own and told as news
    to the listener (held until there is one)."""

    def __init__(self, sock: socket.socket, reader: BinaryIO, thread_name: str) -> None:
        self._sock = sock
        self._reader = reader
        self._thread_name = thread_name
        self._lock = threading.Lock()
        self._held: list[NewsType] = []
        self._listener: Callable[[NewsType], None] | None = None
        self._thread: threading.Thread | None = None

    @staticmethod
    def dial(
        path: str, secret: str, timeout: float, answer: Callable[[BinaryIO], Answer]
    ) -> tuple[socket.socket, BinaryIO, Answer]:
        """Reach the server's socket at `path` and say `hello SECRET`; `answer`
        reads what the server says first, within `timeout`. Raises what that
        raises, or OSError (the socket closed either way)."""
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            sock.settimeout(timeout)
            sock.connect(path)
            sock.sendall(line("hello", secret))
            reader = sock.makefile("rb")
            answered = answer(reader)
            sock.settimeout(None)
        except BaseException:
            sock.close()
            raise
        return sock, reader, answered

    def listen(self, listener: Callable[[NewsType], None]) -> None:
        """Call `listener` (from the line's thread) with every piece of news, from the
        first; starts reading the server's lines."""
        with self._lock:
            self._listener, held = listener, self._held
            self._held = []
        for news in held:
            listener(news)
        if self._thread is None:
            self._thread = GameThread(target=self._read, name=self._thread_name, daemon=True)
            self._thread.start()

    def _tell(self, news: NewsType) -> None:
        with self._lock:
            listener = self._listener
            if listener is None:
                self._held.append(news)
                return
        listener(news)

    def _send(self, data: bytes) -> None:
        try:
            self._sock.sendall(data)
        except OSError:
            self._tell(self._unreachable())

    def _read(self) -> None:
        try:
            for data in self._reader:
                self._receive(data)
        except (OSError, ValueError):
            pass
        ended = self._ended()
        if ended is not None:
            self._tell(ended)

    @abstractmethod
    def _receive(self, data: bytes) -> None:
        """Take one of the server's lines in (telling what it changes). Raises
        ValueError for a line that cannot be read: the line is given up."""

    @abstractmethod
    def _ended(self) -> NewsType | None:
        """What to tell when the server's line has ended, if anything."""

    @abstractmethod
    def _unreachable(self) -> NewsType:
        """What to tell when a line cannot be sent to the server."""

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self._sock.shutdown(socket.SHUT_RDWR)
        self._sock.close()
