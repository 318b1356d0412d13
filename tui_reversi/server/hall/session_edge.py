"""What a session is given by the edge for its player (server/edge/): the log it
writes to, the channel it writes the player's terminal through, the input
allowance of its game, and the budget of what else the client may send.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Protocol


class EventWriter(Protocol):
    """The server's log (edge/event_log.py's `EventLog`)."""

    def write(self, event: str, /, address: str | None = None, **fields: object) -> None:
        """Log `event` with `fields`, charged to `address` if given."""


class Channel(Protocol):
    """What a session writes its player's terminal through: asyncssh's channel, or a
    browser page's (edge/browser.py's `BrowserChannel`)."""

    def write(self, data: bytes) -> None: ...
    def write_stderr(self, data: bytes) -> None: ...
    def get_environment(self) -> Mapping[str, str]: ...
    def pause_reading(self) -> None: ...
    def resume_reading(self) -> None: ...
    def exit(self, status: int) -> None: ...
    def exit_with_signal(self, signal: str) -> None: ...


class Allowance(Protocol):
    """How much input a game is given (edge/input_allowance.py's `InputAllowance`)."""

    @property
    def dropped(self) -> int:
        """Bytes dropped so far."""

    @property
    def burst(self) -> int:
        """The most it takes at once, in bytes."""

    def admit(self, data: bytes) -> bytes:
        """What of `data` the game gets."""


class Requests(Protocol):
    """What the client may send besides input, charged to its connection and address
    (edge/budgets.py's `ConnectionBudget`): False means drop it."""

    def packet(self) -> bool:
        """One SSH packet (input, a window change, a request)."""

    def window_change(self) -> bool:
        """One window change applied to the game."""

    def window_change_wait(self) -> float:
        """Seconds until one more window change may be applied."""

    def channel_request(self) -> bool:
        """One request on the session's channel (pty, shell, exec, a signal)."""
