"""The player's end of a session: the channel their terminal is reached through,
whether their client is still there, and the terminal it asked for.

Everything a session writes to its player goes through here, and only while the
client is connected: after `lost`, writes are dropped rather than raising.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

import asyncssh

from .session_edge import Channel

# A terminal's size as SSH gives it: columns, rows, then the size in pixels.
Size = tuple[int, int, int, int]


class PlayerTerminal:
    """The channel to one player and what their client asked for: a pty (its
    type, size and erase key) or none, for a command's plain lines."""

    def __init__(self, closed: Callable[[], None]) -> None:
        self._chan: Channel | None = None
        self._closed = closed  # (the connection is told once the session has exited)
        self.open = False  # True from the channel's opening until the client has gone
        self.term: str | None = None  # the terminal type asked for; None without a pty
        self.size: Size = (80, 24, 0, 0)
        self.erase: int | None = None  # the erase key of the client's terminal, if it said

    def connected(self, chan: Channel) -> None:
        self._chan = chan
        self.open = True

    def pty(self, term_type: str, size: Size, modes: Mapping[int, int]) -> None:
        """The client asked for a terminal."""
        self.term = term_type
        self.size = size
        self.erase = modes.get(asyncssh.PTY_VERASE)

    def lost(self) -> None:
        """The client has gone: nothing more is written."""
        self.open = False

    def environment(self) -> Mapping[str, str]:
        """What the client sent to set in its session's environment."""
        return self._chan.get_environment() if self._chan is not None else {}

    def send(self, data: bytes) -> None:
        """The game's output, as it comes."""
        if self.open and self._chan is not None:
            self._chan.write(data)

    def say(self, line: str) -> None:
        """One line for the player: on the terminal if they have one, else on stderr."""
        if not self.open or self._chan is None:
            return
        if self.term is not None:
            self._chan.write(f"{line}\r\n".encode())
        else:
            self._chan.write_stderr(f"{line}\n".encode())

    def print(self, lines: list[str]) -> None:
        """Plain lines on the channel's output (a command's answer)."""
        end = "\r\n" if self.term is not None else "\n"
        for text in lines:
            self.send(f"{text}{end}".encode())

    def pause_reading(self) -> None:
        """No more input for now: the game has more than it can take."""
        if self._chan is not None:
            self._chan.pause_reading()

    def resume_reading(self) -> None:
        """The game has taken its input: the client's may come again."""
        if self.open and self._chan is not None:
            self._chan.resume_reading()

    def exit(self, status: int) -> None:
        """The session ends with `status` (the client told, if still there)."""
        if self.open and self._chan is not None:
            self._chan.exit(status)
        self._closed()

    def exit_with_signal(self, name: str) -> None:
        """The session ends as its game did, killed by signal `name` (SIGKILL: 'KILL')."""
        if self._chan is not None:
            self._chan.exit_with_signal(name)
        self._closed()
