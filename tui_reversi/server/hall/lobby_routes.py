"""Where the in-app lobby (lobby_host.py) sends a player from their own game, and
the way back: a seat at a table (an invitation accepted, a table taken, or a
take-over's seat), an archived game to review, or a tournament's games. Their
game is told to end (it saves; hung up after GO_GRACE if it does not), the
session plays where they were sent, then their own game again.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from .lobby_host import GO_GRACE
from .pty_process import PtyProcess
from .session_command import look_options
from .session_game import SessionGame
from .session_phases import Playing
from .table_seat import TableSeat
from .tables import Tables


@dataclass(frozen=True, slots=True)
class ToTable:
    """The lobby found the player a seat at a table (an invitation accepted, a table
    taken), or a take-over brought theirs: `secret` is the seat's."""

    secret: str


@dataclass(frozen=True, slots=True)
class ToReplay:
    """The player chose an archived game in the lobby (its GGF), to review."""

    ggf: str


@dataclass(frozen=True, slots=True)
class ToTournament:
    """The player joined tournament `number` from the lobby: its games, then theirs."""

    number: int


class LobbyRoutes:
    """Where the session's player is sent next, if anywhere: `seat`, `replay` and
    `tournament` are the lobby's answers (False if the player's game has gone
    already), `follow` goes there and back home once their game has ended.
    `run_game` plays one game, `in_tournament` a tournament's games; `still_here`
    is False once the player has gone or the server ends the session."""

    def __init__(
        self,
        game: SessionGame,
        playing: Playing,
        table_seat: TableSeat,
        tables: Tables,
        hangup_grace: float,
        *,
        run_game: Callable[[list[str]], Awaitable[int]],
        in_tournament: Callable[[int, list[str]], Awaitable[int]],
        still_here: Callable[[], bool],
    ) -> None:
        self._game = game
        self._playing = playing
        self._table_seat = table_seat
        self._tables = tables
        self._hangup_grace = hangup_grace
        self._run_game, self._in_tournament = run_game, in_tournament
        self._still_here = still_here
        # Where the lobby (or a take-over) sends the player once their game has ended.
        self._sent_to: ToTable | ToReplay | ToTournament | None = None
        # The lobby's grace for the player's game to end.
        self._go: asyncio.TimerHandle | None = None

    def seat(self, secret: str) -> bool:
        """The lobby has a seat at a table for this player: their game is told to
        end (and hung up if it does not), and the table's game starts next."""
        return self._send(ToTable(secret))

    def replay(self, ggf: str) -> bool:
        """The player chose an archived game in the lobby: their game is told to end
        (it is saved), the archived game opens for review next, then their game again."""
        return self._send(ToReplay(ggf))

    def tournament(self, number: int) -> bool:
        """The player joined tournament `number` in the lobby: their game is told to
        end (it is saved), the tournament's games follow, then their game again."""
        return self._send(ToTournament(number))

    def taken_over(self, secret: str | None) -> None:
        """A take-over brought the player's seat at a table (`secret`), if any: their
        first game is there."""
        self._sent_to = ToTable(secret) if secret is not None else None

    def arrived(self) -> None:
        """A game starts: the grace for the last one to end is over."""
        self.stop()

    def stop(self) -> None:
        """No game is hurried to its end any more (the session ends)."""
        if self._go is not None:
            self._go.cancel()
            self._go = None

    async def follow(self, status: int, options: list[str]) -> int:
        """Where the player was sent meanwhile, in turn, and each time back to their
        own game: the exit status of the last game (`status` if sent nowhere)."""
        while self._sent_to is not None and self._still_here():
            sent_to, self._sent_to = self._sent_to, None
            if isinstance(sent_to, ToTable):
                status = await self._table(sent_to.secret, options)
            elif isinstance(sent_to, ToReplay):
                status = await self._review(sent_to.ggf, options)
            else:
                status = await self._tournament(sent_to.number, options)
        return status

    def _send(self, to: ToTable | ToReplay | ToTournament) -> bool:
        """The player's game is to end for where the lobby sends them: hung up in
        GO_GRACE if it does not end itself; False if it has gone already."""
        process = self._playing.process
        if not self._still_here() or process is None or not process.running:
            return False
        loop = asyncio.get_running_loop()
        self._go = loop.call_later(GO_GRACE, self._hurry, process)
        self._sent_to = to
        return True

    def _hurry(self, process: PtyProcess) -> None:
        if process is self._playing.process and process.running:
            process.hang_up(self._hangup_grace)

    async def _table(self, secret: str, options: list[str]) -> int:
        """Play at the table the lobby found (the seat `secret` stands for), then
        back to the player's own game."""
        look = look_options(options)
        seat = self._tables.seat_of(secret)
        self._table_seat.take(secret, seat.table.code if seat is not None else None)
        try:
            status = await self._run_game(look)
        finally:
            self._table_seat.leave()
        if status != 0 or not self._still_here():
            return status  # hung up (the seat is held), or crashed (adjourned): it ends
        self._table_seat.forget()
        return await self._run_game(look)

    async def _review(self, ggf: str, options: list[str]) -> int:
        """Review the archived game the lobby chose, then back to the player's own game."""
        look = look_options(options)
        self._game.replay = ggf
        try:
            status = await self._run_game(look)
        finally:
            self._game.replay = None
        if status != 0 or not self._still_here():
            return status
        return await self._run_game(look)

    async def _tournament(self, number: int, options: list[str]) -> int:
        """Wait in tournament `number` and play its games (joined in the lobby), then
        back to the player's own game once they leave it or it ends."""
        look = look_options(options)
        status = await self._in_tournament(number, look)
        if status != 0 or not self._still_here():
            return status
        self._table_seat.forget()
        return await self._run_game(look)
