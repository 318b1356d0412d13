"""Who asks for a command that prints lines (commands.py), as the command is
given it: their name, the running server, and how they reach it again for a
hint. A value the session makes once, so that a command's module needs
nothing of the session's and imports nothing above it.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from .roster import Server


@dataclass(frozen=True, slots=True)
class Asker:
    """The player asking: `player` as the store knows them, the `server` they asked."""

    player: str
    server: Server
    # 'ssh -t -p 2222 alice@host' and the same without -t, for hints ready to paste.
    reach_with_terminal: str
    reach_without_terminal: str
    # What `keys ...` (the words after `keys`) says, and the exit status (edge/key_commands.py).
    keys: Callable[[list[str]], Awaitable[tuple[list[str], int]]]

    def ssh(self, *, terminal: bool = True) -> str:
        """How the asker reaches the server (no -t without `terminal`), for a hint."""
        return self.reach_with_terminal if terminal else self.reach_without_terminal
