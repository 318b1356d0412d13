"""One SSH session channel bound to one game process on its own pty.

The session never runs what the client asks for: a shell request starts the
game, an exec request is read once into what the player asks for
(commands.py's `read_command`), and subsystems (sftp and the like) are
refused. What the session is doing is one phase at a time
(session_phases.py): playing, asking about a game open elsewhere, queued for
a pairing, in a tournament between its games, or ended.
"""

from __future__ import annotations

import asyncio
import time
import traceback
from collections.abc import Mapping

import asyncssh

from ...core import ReversiError
from ..config import gone_reason, player_directory_name
from .commands import CommandRefused, Printed, read_command
from .live_game import LiveGame
from .lobby_routes import LobbyRoutes
from .quick_pairing import QuickPairing
from .session_admission import Admission, ServerPlace
from .session_answers import SessionAnswers
from .session_command import (
    JoinTournament,
    Play,
    Replay,
    Resume,
    SessionRefused,
    Started,
)
from .session_edge import Allowance, Channel, Requests
from .session_game import SessionGame
from .session_limits import SessionLimits
from .session_owner import Owner, ssh_line
from .session_phases import ENDED, InTournament, Phase, Playing, Queued
from .session_terminal import PlayerTerminal
from .sessions import HallSession, taken_over
from .table_seat import TableSeat
from .take_over_elsewhere import GameElsewhere
from .tournament_games import TournamentGames
from .window_changes import WindowChanges


class GameSession(asyncssh.SSHServerSession):
    """Starts the game when the client asks for a shell; pumps bytes; ends it cleanly."""

    def __init__(self, owner: Owner, allowance: Allowance, requests: Requests) -> None:
        self._owner = owner
        self._requests = requests
        self._config = owner.arcade.config
        self._terminal = PlayerTerminal(owner.session_closed)
        self._command: str | None = None
        self._allowance = allowance
        self._limits = SessionLimits(self._config, self.end)
        self._end_message: str | None = None
        self._place = ServerPlace(owner)
        self._table_seat = TableSeat(owner.arcade.tables, owner.address)
        self._playing = Playing(
            allowance,
            dropped=self._log_dropped,
            full=self._terminal.pause_reading,
            gone=self._gone_from_game,
        )
        self._answers = SessionAnswers(owner, self._terminal)
        self._window = WindowChanges(requests, self._terminal, self._playing)
        self._game = SessionGame(
            owner,
            self._terminal,
            self._playing,
            self._table_seat,
            self._limits,
            allowance,
            ending=lambda: self._end_message,
        )
        self._routes = LobbyRoutes(
            self._game,
            self._playing,
            self._table_seat,
            owner.arcade.tables,
            self._config.hangup_grace,
            run_game=self._run_game,
            in_tournament=self._in_tournament,
            still_here=self._still_here,
        )
        self._tournament = TournamentGames(
            owner,
            self._terminal,
            self._game,
            self._playing,
            self._table_seat,
            run_game=self._run_game,
            enter=self._enter,
            gone=self._gone_while_waiting,
            still_here=self._still_here,
        )
        self._admission = Admission(
            owner,
            self._terminal,
            self._place,
            self._table_seat,
            self._game,
            self._answers,
            self._tournament,
        )
        self._live = LiveGame(
            owner,
            self,
            self._terminal,
            begin=self._begin,
            enter=self._enter,
            cancel_timers=self._cancel_timers,
            gone=self._gone_while_waiting,
            goodbye=self._goodbye,
        )
        self._pairing = QuickPairing(
            owner,
            self._terminal,
            self._table_seat,
            begin=lambda options, separate: self._begin(options, separate=separate),
            enter=self._enter,
            gone=self._gone_while_waiting,
            leave_place=self._place.leave,
            goodbye=self._goodbye,
            live_game=lambda: self._live.find() is not None,
        )
        # Keys typed before anything is decided are the first game's.
        self._phase: Phase = self._playing
        self.started = time.monotonic()
        self.task: asyncio.Task[None] | None = None
        self._starting: asyncio.Task[None] | None = None  # (session_started's)

    # asyncssh callbacks, in the order a client drives them.

    def connection_made(self, chan: Channel) -> None:
        self._terminal.connected(chan)

    def pty_requested(
        self, term_type: str, term_size: tuple[int, int, int, int], term_modes: Mapping[int, int]
    ) -> bool:
        if not self._requests.channel_request():
            return False
        self._terminal.pty(term_type, term_size, term_modes)
        return True

    def shell_requested(self) -> bool:
        return self._requests.channel_request()

    def exec_requested(self, command: str) -> bool:
        # Never executed: read once, as what the player asks for, in session_started.
        self._command = command
        return self._requests.channel_request()

    def subsystem_requested(self, subsystem: str) -> bool:
        self._requests.channel_request()
        return False

    def signal_received(self, signal: str) -> None:
        self._requests.channel_request()  # (charged; a game takes no signal from a client)

    def break_received(self, msec: int) -> bool:
        self._requests.channel_request()
        return False

    @property
    def table_secret(self) -> str | None:
        """The secret of this session's seat at a table, if it has one."""
        return self._table_seat.secret

    def session_started(self) -> None:
        # What the player asked for may need the store: asked by a task of its own.
        self._starting = asyncio.create_task(self._start())

    async def _start(self) -> None:
        """Answer what the player asked for (a command, or a game to start); a bug
        meanwhile ends the session in one sentence, never leaves it hanging."""
        try:
            await self._asked()
        except Exception as error:
            self._failed(error, "could not answer its command", "the server could not answer that")

    async def _asked(self) -> None:
        if not await self._owner.let_in() or not self._terminal.open:
            return
        asked: Printed | Started | ReversiError
        try:
            terminal = self._terminal.term is not None
            asked = read_command(self._command, terminal=terminal, ssh=ssh_line(self._owner))
        except (CommandRefused, SessionRefused) as refusal:
            asked = refusal
        if self._answers.beyond_keys_add(asked):
            return
        await self._answers.told_news(self.player)
        if isinstance(asked, CommandRefused):
            self._answers.refused(asked, self._command, self.player)
            return
        if isinstance(asked, SessionRefused):
            asked.reason = f"bad game options {self._command!r}"
            self._refused(asked)
            return
        if isinstance(asked, Printed):
            self._phase = ENDED
            await self._answers.print(asked, self.player)
            return
        if isinstance(asked, Replay):
            ggf = await self._answers.replay(asked, self.player)
            if ggf is None:
                self._phase = ENDED
                return
            self._game.replay = ggf
        resumes_unnamed = isinstance(asked, Resume) and asked.code is None
        if resumes_unnamed and await self._answers.lists_adjourned(self.player):
            return
        assert not isinstance(asked, ReversiError)  # (both kinds answered above)
        try:
            options = await self._admission.admit(asked, self.player, self._command)
        except SessionRefused as refusal:
            self._refused(refusal)
            return
        if not self._terminal.open:  # (it went while the store was asked)
            self._place.leave()
            self._table_seat.leave()
            return
        if isinstance(asked, Play):
            await self._pairing.seek(asked.terms, self.player, options)
            return
        if isinstance(asked, JoinTournament):
            self._begin(options, separate=True, tournament=asked.number)
            return
        other = self._live.find()
        if self._table_seat.secret is not None or self._game.replay is not None:
            self._begin(options, separate=True)  # not the player's own game
        elif other is None:
            self._begin(options)
        elif not other.client_connected:
            self._begin(options, take_over=other)  # its player left: it is ending, then ours
        else:
            self._live.ask(other, options)

    def _refused(self, refusal: SessionRefused) -> None:
        """The session cannot start: the player reads why, and it ends (its place
        on the server given back, if it took one)."""
        self._phase = ENDED
        self._place.leave()
        self._owner.end_reason = refusal.reason
        self._terminal.say(f"tui-reversi: {refusal}")
        self._terminal.exit(refusal.status)

    def data_received(self, data: bytes, datatype: int | None) -> None:
        if not self._requests.packet():
            return
        self._limits.input()
        self._phase.key(data)

    def _log_dropped(self) -> None:
        """Once a session, the log hears that input past the allowance was dropped;
        the player is told when the game is over (not over the board, which the
        game would not know to draw again)."""
        owner = self._owner
        owner.arcade.events.write(
            "input-dropped",
            address=owner.address,
            user=owner.user,
            why="sent input faster than a game takes",
        )

    def eof_received(self) -> bool:
        return True  # keep the channel open: the game still has things to show

    def terminal_size_changed(self, width: int, height: int, pixwidth: int, pixheight: int) -> None:
        self._requests.packet()
        self._window.changed((width, height, pixwidth, pixheight))

    def pause_writing(self) -> None:
        if self._playing.process is not None:
            self._playing.process.pause_output()

    def resume_writing(self) -> None:
        if self._playing.process is not None:
            self._playing.process.resume_output()

    def connection_lost(self, exc: Exception | None) -> None:
        self._terminal.lost()
        self._cancel_timers()
        self._dropped_from_table()
        self._phase.lost(exc)

    def _gone_while_waiting(self, exc: Exception | None) -> None:
        """The player went while asked a question or queued: their place is given back."""
        self._owner.end_reason = self._owner.end_reason or gone_reason(exc)
        self._place.leave()

    def _gone_from_game(self, exc: Exception | None) -> None:
        """The player went while their game runs: it is hung up (it saves first)."""
        process = self._playing.process
        assert process is not None  # (Playing tells only while one runs)
        self._owner.end_reason = self._owner.end_reason or gone_reason(exc)
        process.discard_output()
        process.hang_up(self._config.hangup_grace)

    # Ending on the server's side.

    def end(self, reason: str, message: str) -> None:
        """Hang up the game for `reason` (logged) and tell the player `message` once it is gone."""
        process = self._playing.process
        between_games = isinstance(self._phase, InTournament)
        if self._end_message or (process is not None and not process.running and not between_games):
            return
        self._owner.end_reason = reason
        self._end_message = message
        if isinstance(self._phase, Queued):  # (no game yet: the wait ends, and says why)
            self._phase.out(message)
            return
        if reason == "banned":
            self._table_seat.banned()  # (no seat held for a banned player: a forfeit)
        self._dropped_from_table()
        if between_games:
            self._phase.stop()  # (no game to hang up: the tournament's wait ends)
        elif process is not None:
            process.hang_up(self._config.hangup_grace)
        # else: _run_game hangs the game up as soon as it has started.

    @property
    def in_play(self) -> bool:
        """True while a game runs or the player waits for one (end() ends either)."""
        running = self.task is not None and not self.task.done()
        return running or isinstance(self._phase, Queued)

    def _dropped_from_table(self) -> None:
        """The game is going because its player went or was hung up: at a table,
        that is a dropped player (the seat is held), not a crashed game."""
        self._table_seat.dropped()

    # One live game per player name.

    @property
    def client_connected(self) -> bool:
        return self._terminal.open

    @property
    def player(self) -> str:
        """The player's name as their files know it (one directory, one autosave)."""
        return player_directory_name(self._owner.user or "")

    @property
    def address(self) -> str:
        """Where the player connected from."""
        return self._owner.address

    @property
    def playing_at_table(self) -> bool:
        """True while this session's game plays at a player's seat at a table,
        however it sat down there: lobby, join, table or resume."""
        return self._table_seat.playing

    def _begin(
        self,
        options: list[str],
        take_over: HallSession | GameElsewhere | None = None,
        separate: bool = False,
        tournament: int | None = None,
    ) -> None:
        """Start the game: the player's live game (after `take_over` has ended), a
        separate one beside it, or the games of `tournament`."""
        self._phase = self._playing
        self._owner.arcade.sessions.begin(self, own=not separate)
        self.task = asyncio.create_task(self._play(options, take_over, tournament))

    def hand_seat_over(self) -> str | None:
        """The secret of this session's seat at a table for the player's session
        that takes their game over (tables.Tables.hand_over), if it is at one."""
        return self._table_seat.hand_over()

    # The game's life.

    async def _play(
        self,
        options: list[str],
        take_over: HallSession | GameElsewhere | None = None,
        tournament: int | None = None,
    ) -> None:
        try:
            secret = None
            if isinstance(take_over, GameElsewhere):
                secret = await self._live.take_from(take_over)
            elif take_over is not None:
                # At a table there: this session sits back down at it, its game as it was.
                secret = take_over.hand_seat_over()
                await taken_over(take_over, self.address)
            self._routes.taken_over(secret)
            if tournament is not None:
                status = await self._in_tournament(tournament, options)
            else:
                status = 0 if secret is not None else await self._run_game(options)
            status = await self._routes.follow(status, options)
        except Exception as error:
            self._failed(error, "game did not start", "the game could not start")
            return
        finally:
            self._owner.arcade.sessions.gone(self)
            self._place.leave()
            self._table_seat.leave()
        await self._finish(status)

    def _failed(self, error: Exception, reason: str, sorry: str) -> None:
        """`error` stopped the session (`reason`, for the log: 'game did not start'):
        a bug's whole traceback goes to the log, a `bug` event a line; the player
        reads `sorry` ('the game could not start') in one sentence, and the session ends."""
        if not isinstance(error, OSError):  # a bug: the operator needs the whole story
            for line in traceback.format_exc().splitlines():
                self._owner.arcade.events.write("bug", user=self._owner.user, text=line)
        self._owner.end_reason = f"{reason}: {error}"
        self._cancel_timers()
        self._phase.stop()  # (queued: out of the queue, so nobody is paired with a session gone)
        self._phase = ENDED
        self._place.leave()
        self._table_seat.leave()
        self._terminal.say(f"tui-reversi: {sorry}; please tell the server's operator.")
        self._terminal.exit(1)

    async def _run_game(self, options: list[str]) -> int:
        self._routes.arrived()
        owner = self._owner
        lobby = owner.arcade.lobby
        lobby_secret = None
        if self._table_seat.secret is None and self._game.replay is None:
            # The player's own game has the lobby a key away; a table's or a replay's not.
            lobby_secret = lobby.admit(
                self.player,
                self._routes.seat,
                self._routes.replay,
                self._routes.tournament,
                self.address,
                ssh_line(self._owner),
                moderator=self._owner.proved_key is not None
                and owner.arcade.moderation.is_moderator(self.player),
            )
        try:
            return await self._game.run(options, lobby_secret)
        finally:
            if lobby_secret is not None:
                lobby.leave(lobby_secret)

    async def _finish(self, status: int) -> None:
        self._phase = ENDED
        self._cancel_timers()
        await self._game.finish(status, lambda: self._answers.adjourned_views(self.player))

    async def _in_tournament(self, number: int, look: list[str]) -> int:
        return await self._tournament.play(number, look, self.player)

    def _enter(self, phase: Phase) -> None:
        """The session moves on to `phase`."""
        self._phase = phase

    def _goodbye(self, reason: str, said: str, status: int) -> None:
        """The session ends for `reason` (logged): the player reads `said`, its place
        on the server is given back, and their client gets `status`."""
        self._phase = ENDED
        self._owner.end_reason = reason
        self._terminal.say(f"tui-reversi: {said}")
        self._place.leave()
        self._terminal.exit(status)

    def _still_here(self) -> bool:
        """True while the player is connected and the server has not ended the session."""
        return self._terminal.open and not self._end_message

    def _cancel_timers(self) -> None:
        self._limits.stop()
        self._routes.stop()
        self._window.stop()
