"""The person at this keyboard: their move comes from the board and the keys."""

from __future__ import annotations

from ..core import Move
from .base import Allows, MoveRequest, PlayResult, Turn


class HumanPlayer:
    """A seat whose moves the screen submits. A refused move leaves the
    request open, so the player simply tries another square."""

    kind = "human"
    allows = Allows(hints=True, takebacks=True, pausing=False, local_input=True)

    def __init__(self) -> None:
        self._request: MoveRequest | None = None

    @property
    def waiting(self) -> Turn | None:
        """The turn this player is asked to move at, or None."""
        return self._request.turn if self._request is not None else None

    def request(self, request: MoveRequest) -> None:
        self._request = request

    def submit(self, move: Move) -> bool:
        """Answer the open request with `move`; False when nothing was asked."""
        request = self._request
        if request is None:
            return False
        request.reply(PlayResult(request.turn, move))
        return True

    def cancel(self) -> None:
        self._request = None

    def close(self) -> None:
        self._request = None
