"""A session's `ssh -t host play`: the seek made from the player's rating and the
terms they asked for, their wait in the pairing queue (queue_wait.py, held by
session_phases.py's `Queued`), and what follows it: a game at the new table the
queue found, a game against the computer, or goodbye (they left, or a playban
or a ban took them out).
"""

from __future__ import annotations

from collections.abc import Callable

from ...net.remote import is_guest
from ...storage import StorageError
from ..ledger.ratings import FIRST
from .pairing import Seeker
from .queue_wait import QueueWait
from .session_command import PlayTerms
from .session_owner import Owner
from .session_phases import Gone, Goodbye, Phase, Queued
from .session_terminal import PlayerTerminal
from .table_seat import TableSeat


class QuickPairing:
    """A session's `play`: `seek` joins the queue. The session gives it how to
    `begin` a game (its options, and whether it is separate from the player's
    own game), to `enter` a phase, what to do when the player goes while queued
    (`gone`), to `leave_place` on the server, to say `goodbye`, and whether the
    player's own game is open elsewhere (`live_game`)."""

    def __init__(
        self,
        owner: Owner,
        terminal: PlayerTerminal,
        table_seat: TableSeat,
        *,
        begin: Callable[[list[str], bool], None],
        enter: Callable[[Phase], None],
        gone: Gone,
        leave_place: Callable[[], None],
        goodbye: Goodbye,
        live_game: Callable[[], bool],
    ) -> None:
        self._owner = owner
        self._terminal = terminal
        self._table_seat = table_seat
        self._begin, self._enter, self._gone = begin, enter, gone
        self._leave_place, self._goodbye, self._live_game = leave_place, goodbye, live_game
        self._options: list[str] = []

    async def seek(self, wanted: PlayTerms, player: str, options: list[str]) -> None:
        """Join the queue as `player`, wanting `wanted`; the wait is shown, updated each
        second, until paired (the game then starts with `options`)."""
        arcade = self._owner.arcade
        self._options = options
        rating = FIRST
        try:
            rating = await arcade.store.rating(player)
        except StorageError as error:  # (paired as a newcomer would be)
            arcade.note(str(error))
        if not self._terminal.open:
            self._leave_place()
            return
        guest = is_guest(player)
        clock = f", clock {wanted.clock}" if wanted.clock is not None else ""
        who = "a guest" if guest else f"rated {rating.shown}"
        wants = f"{wanted.variant.value}{clock}, {who}"
        self._terminal.say(f"tui-reversi: looking for an opponent ({wants}).")
        seeker = Seeker(
            player,
            rating.rating,
            wanted.variant,
            wanted.clock,
            guest,
            wanted.allows_guests,
            rating.deviation,
        )
        wait = QueueWait(
            arcade.pairing,
            seeker,
            say=self._terminal.say,
            send=self._terminal.send,
            seated=self._paired,
            computer=self._against_computer,
            left=self._left_queue,
            barred=self._out_of_queue,
        )
        self._enter(Queued(wait, gone=self._gone))
        wait.start()  # (paired at once, maybe: the phase is playing then)

    def _paired(self, secret: str, code: str) -> None:
        """The queue found an opponent: the game starts at their new table."""
        self._table_seat.take(secret, code)
        self._terminal.say(f"tui-reversi: an opponent is found: table {code}.")
        self._begin(self._options, True)

    def _against_computer(self, level: str) -> None:
        self._terminal.say(f"tui-reversi: a game against the computer ({level}) on your own...")
        self._begin([*self._options, "--white", level], self._live_game())

    def _left_queue(self) -> None:
        self._goodbye("left the queue", "you left the queue.", 0)

    def _out_of_queue(self, why: str) -> None:
        """Out of the queue while waiting, for a playban (pairing.py found it) or a ban
        (GameSession.end): told why, and the session ends."""
        self._goodbye(self._owner.end_reason or "playban", why, 1)
