"""A take-over across a fleet's nodes, as the port carries it: a player's session
on one node takes their game over from their session on another
(take_over_elsewhere.py), which answers with what it gives over (lobby_host.py's
`give_over`): a seat at a table there, or the player's own game in pieces, or
nothing.

Both ends are here: the asking (`take_from`, which waits TAKE_WAIT for the
answer) and the answering (`answer`, which sends an own game in pieces of PIECE
bytes and says how many). The port (fleet_port.py) holds one and hands it the
answers' messages.
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Callable

from ..ledger.fleet_messages import FleetMessage, NothingTaken, OwnPiece, Take, TakenOwn, TakenSeat
from ..ledger.table_view import TableView
from .fleet_relay import PIECE

# How long a take-over waits for the node the game is on to answer (seconds).
TAKE_WAIT = 10.0
# What a take-over across nodes is given: a seat at a table there (its secret and the
# table), the player's own game (its autosave's bytes), or nothing.
Given = tuple[str, TableView] | bytes | None


class TakeOvers:
    """The take-overs this node asks of others and answers: take_from(), answer(),
    and the answers' messages as they are heard (piece, taken) or lost (lost)."""

    def __init__(self, tell: Callable[[str, FleetMessage], None]) -> None:
        self._tell = tell  # (the port's: in order, after the messages before)
        self._asked: dict[str, asyncio.Future[Given]] = {}  # take_from's, by its ask
        self._own_pieces: dict[str, list[bytes]] = {}  # an own game given over, so far

    async def take_from(self, node: str, name: str, address: str) -> Given:
        """Take `name`'s game over from their session on `node`: a seat at a table
        (its secret there and the table), or their own game (its autosave's bytes);
        None if there is neither (or `node` does not answer)."""
        ask = secrets.token_urlsafe(6)
        answer: asyncio.Future[Given] = asyncio.get_running_loop().create_future()
        self._asked[ask] = answer
        self._own_pieces[ask] = []
        try:
            self._tell(node, Take(name, address, ask))
            return await asyncio.wait_for(answer, TAKE_WAIT)
        except TimeoutError:
            return None
        finally:
            self._asked.pop(ask, None)
            self._own_pieces.pop(ask, None)

    def answer(self, node: str, ask: str, given: Given) -> None:
        """Answer `node`'s Take `ask` with what is given over (an own game in pieces)."""
        if given is None:
            self._tell(node, NothingTaken(ask))
        elif isinstance(given, bytes):
            for start in range(0, len(given), PIECE):
                self._tell(node, OwnPiece(ask, given[start : start + PIECE]))
            self._tell(node, TakenOwn(ask, -(-len(given) // PIECE)))
        else:
            self._tell(node, TakenSeat(ask, *given))

    def piece(self, _node: str, message: OwnPiece) -> None:
        """A piece of the own game a take-over asked for, in order."""
        pieces = self._own_pieces.get(message.ask)
        if pieces is not None:
            pieces.append(message.data)

    def taken(self, _node: str, message: TakenSeat | TakenOwn | NothingTaken) -> None:
        """The answer to a take-over asked from here (an own game whole, or None)."""
        answer = self._asked.get(message.ask)
        if answer is None or answer.done():
            return
        if isinstance(message, TakenOwn):
            pieces = self._own_pieces.get(message.ask, [])
            whole = len(pieces) == message.pieces
            answer.set_result(b"".join(pieces) if whole else None)
        elif isinstance(message, TakenSeat):
            answer.set_result((message.secret, message.table))
        else:
            answer.set_result(None)

    def lost(self, _node: str, message: Take) -> None:
        """A take-over's ask never reached its node: not waited for, the game stays there."""
        answer = self._asked.get(message.ask)
        if answer is not None and not answer.done():
            answer.set_result(None)
