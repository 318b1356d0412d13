"""A session's time in a tournament (`ssh -t host tournament join ID`, or the
app's lobby): whether the player may join it, then the wait between its games
(session_phases.py's `InTournament`, tournament_wait.py) and each game the
director seats them at, until they leave it, it ends, or the session does.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from ...storage import StorageError
from ..ledger.ratings import FIRST
from .game_run import TERMINAL_RESET
from .session_command import SessionRefused
from .session_game import SessionGame
from .session_owner import Owner
from .session_phases import Gone, InTournament, Left, Phase, Playing
from .session_terminal import PlayerTerminal
from .table_seat import TableSeat
from .tournament_joining import CommandMistake, may_join


class TournamentGames:
    """A session's tournaments: `may_join` one, then `play` it. The session gives
    it how to run a game (`run_game`), to `enter` a phase, what to do when the
    player goes while waiting (`gone`), and whether they are `still_here`
    (connected, and not ended by the server)."""

    def __init__(
        self,
        owner: Owner,
        terminal: PlayerTerminal,
        game: SessionGame,
        playing: Playing,
        table_seat: TableSeat,
        *,
        run_game: Callable[[list[str]], Awaitable[int]],
        enter: Callable[[Phase], None],
        gone: Gone,
        still_here: Callable[[], bool],
    ) -> None:
        self._owner = owner
        self._terminal = terminal
        self._game = game
        self._playing = playing
        self._table_seat = table_seat
        self._run_game, self._enter, self._gone = run_game, enter, gone
        self._still_here = still_here

    async def may_join(self, number: int, player: str) -> None:
        """SessionRefused unless `player` may join tournament `number` now."""
        arcade = self._owner.arcade
        try:
            await may_join(arcade.store, arcade.tournaments, number, player)
        except (CommandMistake, StorageError) as refusal:
            raise SessionRefused(str(refusal), 1, f"tournament refused: {refusal}") from None

    async def play(self, number: int, look: list[str], player: str) -> int:
        """Wait in tournament `number` between its games and play each, until the
        player leaves it, it ends, or the session does: the exit status of a game
        that did not end as a game does (crashed, hung up), else 0."""
        arcade = self._owner.arcade
        rating = FIRST
        try:
            rating = await arcade.store.rating(player)
        except StorageError as error:  # (paired as a newcomer would be)
            arcade.note(str(error))
        phase = InTournament(
            arcade.tournaments,
            number,
            player,
            rating.rating,
            say=self._terminal.say,
            send=self._terminal.send,
            hang_up=self._game.hang_up,
            gone=self._gone,
        )
        self._enter(phase)
        try:
            await phase.wait.start()
        except StorageError as error:
            self._enter(self._playing)
            self._owner.end_reason = f"tournament refused: {error}"
            self._terminal.say(f"tui-reversi: tournament {number} cannot be joined: {error}")
            return 1
        try:
            while True:
                happened = await phase.next()
                if isinstance(happened, Left):
                    self._enter(self._playing)
                    if happened.said is not None:
                        self._owner.end_reason = "left the tournament"
                        self._terminal.say(f"tui-reversi: {happened.said}")
                    return 0
                self._table_seat.take(happened.secret, happened.code)
                self._terminal.say(f"tui-reversi: your next game is at table {happened.code}.")
                self._enter(self._playing)
                phase.hurried = False
                try:
                    status = await self._run_game(look)
                finally:
                    self._table_seat.leave()
                if not self._still_here() or (status != 0 and not phase.hurried):
                    phase.wait.stop()
                    return status
                self._terminal.send(TERMINAL_RESET)
                self._enter(phase)
                await phase.wait.back()
        except BaseException:  # (a bug, or the task cancelled): out of it, paused
            phase.wait.stop()
            raise
