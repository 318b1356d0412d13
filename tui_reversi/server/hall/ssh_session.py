"""One SSH session channel bound to one game process on its own pty.

The session never runs what the client asks for: a shell request starts the
game, an exec request is read as game options from a short list, and
subsystems (sftp and the like) are refused.
"""

from __future__ import annotations

import asyncio
import os
import time
import traceback
from collections.abc import Mapping
from pathlib import Path
from typing import Protocol

import asyncssh

from ...crash import REPORT_VARIABLE, TEST_CRASH_VARIABLE
from ...net.lobby_link import REPLAY_VARIABLE
from ...net.remote import is_guest, shown_name
from ...net.ssh_command import SSH_COMMAND_VARIABLE, ssh_command
from ...net.terms import TableTerms
from ...storage import StorageError
from ..config import (
    ServeConfig,
    format_duration,
    gone_reason,
    player_directory_name,
    player_environment,
    player_user_name,
)
from ..ledger.account_keys import ADDING_SUFFIX
from ..ledger.ratings import FIRST_RATING
from ..ledger.store import TableView
from .commands import CommandRefused, check_command, command_named, help_lines, replay_ggf
from .game_run import (
    BAD_INPUT_STATUS,
    TERMINAL_RESET,
    amount,
    crash_report_path,
    log_crash_report,
    player_home,
    signal_name,
)
from .lobby_host import GO_GRACE
from .pairing import PairingQueue, Seeker
from .pty_process import INPUT_HIGH_WATER, PtyProcess, Spawn
from .queue_wait import QueueWait
from .roster import Server, adjourned_lines
from .session_command import (
    TABLE_OPTIONS,
    PlayTerms,
    SessionRefused,
    game_options,
    look_options,
    play_terms,
    resume_code,
    table_command,
    table_terms,
)
from .session_edge import Allowance, Channel, EventWriter, Requests
from .session_limits import AGAIN, SessionLimits
from .session_terminal import PlayerTerminal
from .table_seat import TableSeat
from .tables import TableRefused
from .take_over_elsewhere import GameElsewhere, game_on_other_node, take_game_from, taken_over
from .take_over_question import TakeOverQuestion
from .tournament_commands import CommandMistake, joinable, tournament_id
from .tournament_wait import TournamentWait
from .tournaments import TournamentDirector


class SessionServer(Server, Protocol):
    """The running server as a session uses it (edge/arcade.py's `Arcade`)."""

    @property
    def pairing(self) -> PairingQueue:
        """The players waiting to be paired (`play`)."""

    @property
    def events(self) -> EventWriter:
        """The server's log, an event a line."""

    @property
    def tournaments(self) -> TournamentDirector:
        """This node's part in running the tournaments."""

    @property
    def config(self) -> ServeConfig:
        """What the operator chose."""

    @property
    def live_games(self) -> dict[str, GameSession]:
        """Player (directory) name -> the session whose game is that player's live game."""

    @property
    def games(self) -> set[GameSession]:
        """Every session with a game running, its connection still there or gone."""

    def note(self, text: str) -> None:
        """A line for the operator's log."""

    def take_seat(self, address: str, *, guest: bool) -> str | None:
        """Take one of the server's seats for a player from `address`; why not (a
        sentence) if none is left for them (guests have a share of the seats)."""

    def leave_seat(self, address: str, *, guest: bool) -> None:
        """Give a seat taken back."""

    async def spawner(self, argv: list[str]) -> Spawn | None:
        """How to start `argv`: by the preloaded parent, or None for a new process."""


class Connection(Protocol):
    """The SSH connection a session belongs to (edge/arcade.py's `PlayerConnection`)."""

    end_reason: str | None  # why it ended, for the log (the session says it as it goes)
    game_pid: int | None  # its game's process, once started

    @property
    def arcade(self) -> SessionServer:
        """The running server."""

    @property
    def user(self) -> str | None:
        """The name it plays under (set at authentication, before any session)."""

    @property
    def asked(self) -> str:
        """The name its client asked for (a guest's is not the one it plays under)."""

    @property
    def address(self) -> str:
        """Where it connected from."""

    @property
    def guest(self) -> bool:
        """True if it came in as a guest."""

    @property
    def ssh_connection(self) -> str:
        """SSH_CONNECTION's value for its games: 'client port server port'."""

    @property
    def adding_key(self) -> bool:
        """True if it was let in only to run  keys add CODE."""

    async def keys(self, words: list[str], ssh: str) -> tuple[list[str], int]:
        """What `keys ...` (`words` after `keys`) says, and the exit status."""

    async def let_in(self) -> bool:
        """Wait until its login has settled who it is: True if it was let in."""

    def session_closed(self) -> None:
        """The game is over and the client told."""


class GameSession(asyncssh.SSHServerSession):
    """Starts the game when the client asks for a shell; pumps bytes; ends it cleanly."""

    def __init__(self, owner: Connection, allowance: Allowance, requests: Requests) -> None:
        self._owner = owner
        self._requests = requests
        self._config = owner.arcade.config
        self._terminal = PlayerTerminal(owner.session_closed)
        self._command: str | None = None
        self._process: PtyProcess | None = None
        self._pending_input = bytearray()
        self._allowance = allowance
        self._logged_dropped = False
        self._limits = SessionLimits(self._config, self.end)
        # A window change waiting on the budget, and the lobby's grace for a game to end.
        self._timers: dict[str, asyncio.TimerHandle] = {}
        self._end_message: str | None = None
        self._seated = False
        self._crash_report: Path | None = None
        self._options: list[str] = []
        # While asking what to do about the player's game open elsewhere.
        self._asking: TakeOverQuestion | None = None
        # At a table: this player's seat there.
        self._table_seat = TableSeat(owner.arcade.tables, owner.address)
        # A seat the in-app lobby found for the player (an invitation accepted, a
        # table taken): their game ends, and the next one starts there.
        self._next_table: str | None = None
        # `replay ID` with a terminal: what the game is given to open the archived game.
        self._replay: dict[str, str] = {}
        # An archived game chosen in the in-app lobby (its GGF), opened next for review.
        self._next_replay: str | None = None
        # `play`: what the player asked for, then their place in the queue while they wait.
        self._wanted: PlayTerms | None = None
        self._waiting: QueueWait | None = None
        # `tournament join ID`: its number asked for, then the player's place in it.
        self._joining: str | None = None
        self._tournament: TournamentWait | None = None
        self._hurried = False  # (its game hung up by the server: the tournament's next)
        self._elsewhere: GameElsewhere | None = None  # the player's game on another node
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
        # Never executed: read as game options in session_started.
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
        words = (self._command or "").split()
        if self._owner.adding_key and not (words[:2] == ["keys", "add"] and len(words) == 3):
            name = self._owner.user
            self._owner.end_reason = "a key not the player's yet asked for more than keys add"
            self._terminal.print(
                [f"tui-reversi: this key is not {name}'s yet: it may only run  keys add CODE"]
            )
            self._terminal.exit(1)
            return
        if words[:2] == ["tournament", "join"] and self._terminal.term is not None:
            self._joining, self._command = " ".join(words[2:3]), " ".join(words[3:])
        elif await self._answered(words):
            return
        first, _, rest = (self._command or "").strip().partition(" ")
        if first == "resume" and resume_code(rest)[0] is None and await self._lists_adjourned():
            return
        try:
            options = await self._admit()
        except SessionRefused as refusal:
            self._owner.end_reason = refusal.reason
            self._terminal.say(f"tui-reversi: {refusal}")
            self._terminal.exit(refusal.status)
            return
        if not self._terminal.open:  # (it went while the store was asked)
            self._leave_seat()
            self._table_seat.leave()
            return
        self._options = options
        if self._wanted is not None:
            await self._seek(self._wanted)
            return
        if self._joining is not None:
            await self._wait_in_tournament(self._joining)
            return
        other = self._live_game()
        if self._table_seat.secret is not None or self._replay:
            self._begin(options, separate=True)  # not the player's own game
        elif other is None:
            self._begin(options)
        elif not other.client_connected:
            self._begin(options, take_over=other)  # its player left: it is ending, then ours
        else:
            self._ask_about(other)

    def data_received(self, data: bytes, datatype: int | None) -> None:
        if not self._requests.packet():
            return
        self._limits.input()
        if self._waiting is not None:
            self._waiting.key(data)
            return
        if self._tournament is not None and self._tournament.waiting:
            self._tournament.key(data)
            return
        if self._asking is not None:
            self._answer(data)
            return
        data = self._allowance.admit(data)
        if self._allowance.dropped and not self._logged_dropped:
            self._log_dropped()
        if not data:
            return
        if self._process is None:
            self._pending_input += data
            return
        self._process.write(data)
        if self._process.input_buffered > INPUT_HIGH_WATER:
            self._terminal.pause_reading()

    def _log_dropped(self) -> None:
        """Once a session, the log hears that input past the allowance was dropped;
        the player is told when the game is over (not over the board, which the
        game would not know to draw again)."""
        self._logged_dropped = True
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
        # Only the latest size matters: past the budget a change waits, and any
        # that come meanwhile replace it (a flood of them costs almost nothing).
        self._terminal.size = (width, height, pixwidth, pixheight)
        self._requests.packet()
        self._apply_size()

    def _apply_size(self) -> None:
        """The latest size to the game, now if the budget allows, else when it does."""
        if self._process is None or "resize waits" in self._timers:
            return
        if self._requests.window_change():
            self._process.resize(*self._terminal.size)
            return
        wait = self._requests.window_change_wait()
        loop = asyncio.get_running_loop()
        self._timers["resize waits"] = loop.call_later(wait, self._resize_waited)

    def _resize_waited(self) -> None:
        self._timers.pop("resize waits", None)
        self._apply_size()

    def pause_writing(self) -> None:
        if self._process is not None:
            self._process.pause_output()

    def resume_writing(self) -> None:
        if self._process is not None:
            self._process.resume_output()

    def connection_lost(self, exc: Exception | None) -> None:
        self._terminal.lost()
        self._cancel_timers()
        if self._waiting is not None:
            self._waiting.stop()
            self._waiting = None
            self._owner.end_reason = self._owner.end_reason or gone_reason(exc)
            self._leave_seat()
        if self._tournament is not None:
            if self._tournament.waiting:  # (at a table: the game's end leaves the seat)
                self._leave_seat()
            self._tournament.stop()
            self._tournament = None
        self._dropped_from_table()
        if self._asking is not None:
            self._asking.stop()
            self._asking = None
            self._owner.end_reason = self._owner.end_reason or gone_reason(exc)
            self._leave_seat()
        if self._process is not None and self._process.running:
            self._owner.end_reason = self._owner.end_reason or gone_reason(exc)
            self._process.discard_output()
            self._process.hang_up(self._config.hangup_grace)

    # Ending on the server's side.

    def end(self, reason: str, message: str) -> None:
        """Hang up the game for `reason` (logged) and tell the player `message` once it is gone."""
        if self._end_message or (self._process is not None and not self._process.running):
            return
        self._owner.end_reason = reason
        self._end_message = message
        self._dropped_from_table()
        if self._process is not None:
            self._process.hang_up(self._config.hangup_grace)
        # else: _run_game hangs the game up as soon as it has started.

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

    def _live_game(self) -> GameSession | GameElsewhere | None:
        """The player's game open in another session: their own game, or else a
        seat at a table they sat down at from a command (`join CODE`, `table`,
        `resume`), which a take-over sits back down at; in a fleet, such a seat
        or their own game in a session on another node."""
        arcade = self._owner.arcade
        own = arcade.live_games.get(self.player)
        if own is not None:
            return own
        seats = [
            game
            for game in arcade.games
            if game is not self and game.player == self.player and game.playing_at_table
        ]
        here = min(seats, key=lambda game: game.started, default=None)
        if here is not None or arcade.fleet is None:
            return here
        found = game_on_other_node(arcade.fleet, self.player, self._elsewhere)
        if found is not None:
            self._elsewhere = found
        return found

    def _begin(
        self,
        options: list[str],
        take_over: GameSession | GameElsewhere | None = None,
        separate: bool = False,
    ) -> None:
        """Start the game: the player's live game (after `take_over` has ended), or a
        separate one beside it."""
        if not separate:
            self._owner.arcade.live_games[self.player] = self
        self._owner.arcade.games.add(self)
        self.task = asyncio.create_task(self._play(options, take_over))

    def _ask_about(self, other: GameSession | GameElsewhere) -> None:
        """Tell the player their game is open elsewhere and ask what to do."""
        self._asking = TakeOverQuestion(other, say=self._terminal.say, unanswered=self._no_answer)
        self._asking.start()

    def _answer(self, data: bytes) -> None:
        if self._asking is None:
            return
        other = self._asking.other
        answer = self._asking.key(data)
        if answer is None:
            return
        self._asking = None
        self._cancel_timers()
        options = [option for option in self._options if option not in ("--new", "--resume")]
        live = self._live_game()
        if answer == "leave":
            self._owner.end_reason = "left the game open in another session"
            self._terminal.say("tui-reversi: your game carries on in the other session.")
            self._leave_seat()
            self._terminal.exit(0)
        elif answer == "separate":
            self._terminal.say("tui-reversi: starting a separate game...")
            self._begin([*options, "--new"], separate=True)
        elif live is not None and live is not other:
            self._ask_about(live)  # someone else took it over meanwhile: ask again
        else:
            self._terminal.say("tui-reversi: taking your game over...")
            self._begin([*options, "--resume"], take_over=live)

    def _no_answer(self, wait: float) -> None:
        self._asking = None
        self._owner.end_reason = "no answer about the game open elsewhere"
        self._terminal.say(f"tui-reversi: no answer in {format_duration(wait)}; {AGAIN}")
        self._leave_seat()
        self._terminal.exit(1)

    def _leave_seat(self) -> None:
        if self._seated:
            self._seated = False
            self._owner.arcade.leave_seat(self.address, guest=self._owner.guest)

    def hand_seat_over(self) -> str | None:
        """The secret of this session's seat at a table for the player's session
        that takes their game over (tables.Tables.hand_over), if it is at one."""
        return self._table_seat.hand_over()

    async def _take_over_elsewhere(self, other: GameElsewhere) -> str | None:
        """Take the player's game over from their session on another node: this
        session's secret for its seat at a table there, or None for their own game
        (put in their folder here, to be resumed) or a game gone meanwhile."""
        arcade = self._owner.arcade
        secret, said = await take_game_from(
            arcade.fleet, arcade.tables, self._config.players_dir, other, self.player, self.address
        )
        if said is not None:
            self._terminal.say(f"tui-reversi: {said}")
        return secret

    async def _take_over(self, other: GameSession) -> None:
        """End `other`'s game (it saves on the hang-up) and wait until it has gone."""
        await taken_over(other, self.address)

    # The game's life.

    async def _admit(self) -> list[str]:
        try:
            at_table, code, command = table_command(self._command, self._ssh)
            terms, command = table_terms(command) if at_table == "table" else (None, command)
            if at_table == "play":
                self._wanted, command = play_terms(command)
            if at_table is None and not self._replay:  # back after a drop: to the held seat
                code = self._owner.arcade.tables.held_for(self.player)
                at_table = "join" if code is not None else None
            options = game_options(command)
            if at_table is not None or self._replay:
                self._check_table_options(options)
        except SessionRefused as refusal:
            refusal.reason = f"bad game options {self._command!r}"
            raise
        if self._terminal.term is None:  # after the command: a wrong one is told what is wrong
            raise SessionRefused(
                "this is a full-screen game and needs a terminal: connect with ssh -t",
                1,
                "no terminal requested",
            )
        full = self._owner.arcade.take_seat(self.address, guest=self._owner.guest)
        if full is not None:
            reason = "server full" + (" for guests" if self._owner.guest else "")
            raise SessionRefused(full, 1, reason)
        self._seated = True
        if at_table is not None and at_table != "play":
            await self._sit_at_table(at_table, code, terms)
        return options

    async def _answered(self, words: list[str]) -> bool:
        """A command that prints lines (commands.py) answered, or a command nobody
        knows refused with help's list: True, and the session ends; else False."""
        try:
            check_command(self._command)
        except CommandRefused as refusal:
            self._owner.end_reason = f"bad command {self._command!r}"
            self._terminal.print([f"tui-reversi: {refusal}", *help_lines(self)[1:]])
            self._terminal.exit(2)
            return True
        command = command_named(words[0]) if words else None
        if command is None or command.answer is None:
            return False
        if command.screen and self._terminal.term is not None:
            return await self._open_replay(words[1:])
        lines, status = await command.answer(self, words[1:])
        self._terminal.print(lines)
        self._owner.end_reason = " ".join([command.name, *words[1:2]])[:40]  # ('keys add')
        self._terminal.exit(status)
        return True

    async def _open_replay(self, words: list[str]) -> bool:
        """`ssh -t host replay ID [look options]`: the game opens the archived game
        (False: admitted as a game is); or why not, and the session ends (True)."""
        ggf, refusal, status = await replay_ggf(self, words[:1])
        if ggf is None:
            self._owner.end_reason = f"replay refused: {refusal}"
            self._terminal.print([refusal])
            self._terminal.exit(status)
            return True
        self._replay = {REPLAY_VARIABLE: ggf}
        self._command = " ".join(words[1:])  # the look options, read as any game's
        return False

    # -- `play`: waiting in the queue (pairing.py, queue_wait.py) until paired ------------

    async def _seek(self, wanted: PlayTerms) -> None:
        """Join the queue; the wait is shown, updated each second, until paired."""
        store = self._owner.arcade.archive
        rating = FIRST_RATING
        if store is not None:
            try:
                rating = (await store.rating(self.player))[0]
            except StorageError as error:  # (paired as a newcomer would be)
                self._owner.arcade.note(str(error))
        if not self._terminal.open:
            self._leave_seat()
            return
        guest = is_guest(self.player)
        clock = f", clock {wanted.clock}" if wanted.clock is not None else ""
        who = "a guest" if guest else f"rated {round(rating)}"
        wants = f"{wanted.variant.value}{clock}, {who}"
        self._terminal.say(f"tui-reversi: looking for an opponent ({wants}).")
        seeker = Seeker(
            self.player, rating, wanted.variant, wanted.clock, guest, wanted.allows_guests
        )
        self._waiting = QueueWait(
            self._owner.arcade.pairing,
            seeker,
            say=self._terminal.say,
            send=self._terminal.send,
            seated=self._paired,
            computer=self._against_computer,
            left=self._left_queue,
        )
        self._waiting.start()

    def _paired(self, secret: str, code: str) -> None:
        """The queue found an opponent: the game starts at their new table."""
        self._waiting = None
        self._table_seat.take(secret, code)
        self._terminal.say(f"tui-reversi: an opponent is found: table {code}.")
        self._begin(self._options, separate=True)

    def _against_computer(self, level: str) -> None:
        self._waiting = None
        self._terminal.say(f"tui-reversi: a game against the computer ({level}) on your own...")
        self._begin([*self._options, "--white", level], separate=self._live_game() is not None)

    # -- `tournament join ID`: waiting in it between its games (tournament_wait.py) ------

    async def _wait_in_tournament(self, word: str) -> None:
        """Wait in the tournament (refused in one sentence if it cannot be joined)."""
        arcade, number = self._owner.arcade, tournament_id(word)
        try:
            if number is None:
                raise CommandMistake(
                    f"tournament join needs its number: {self._ssh()} tournament join ID"
                )
            if arcade.archive is None or is_guest(self.player):
                raise CommandMistake("tournaments are for players with a name here (a key).")
            await joinable(arcade.archive, number)
            if arcade.tournaments.present(number, self.player) is not None:
                raise CommandMistake(f"you are in tournament {number} already, in another session.")
            rating = (await arcade.archive.rating(self.player))[0]
            self._tournament = TournamentWait(
                arcade.tournaments,
                number,
                self.player,
                rating,
                say=self._terminal.say,
                send=self._terminal.send,
                seated=self._tournament_seated,
                over=self._tournament_game_over,
                left=self._left_tournament,
            )
            await self._tournament.start()
        except (CommandMistake, StorageError) as refusal:
            self._tournament = None
            self._owner.end_reason = f"tournament refused: {refusal}"
            self._terminal.say(f"tui-reversi: {refusal}")
            self._leave_seat()
            self._terminal.exit(1)

    def _tournament_seated(self, secret: str, code: str) -> None:
        self._table_seat.take(secret, code)
        self._terminal.say(f"tui-reversi: your next game is at table {code}.")
        self.task = asyncio.create_task(self._tournament_game())

    def _tournament_game_over(self) -> None:
        """The tournament's game is over: its board goes, for the wait and the next."""
        if self._process is not None and self._process.running:
            self._hurried = True
            self._process.hang_up(self._config.hangup_grace)

    async def _tournament_game(self) -> None:
        """Play the tournament's game, then back to waiting in it (or the session ends)."""
        games = self._owner.arcade.games
        games.add(self)
        try:
            status = await self._run_game(look_options(self._options))
        except Exception as error:
            self._failed(error, "game did not start", "the game could not start")
            return
        finally:
            games.discard(self)
            self._table_seat.leave()
        hurried, self._hurried = self._hurried, False
        wait = self._tournament
        still_here = self._terminal.open and not self._end_message
        if wait is not None and still_here and (status == 0 or hurried):
            self._terminal.send(TERMINAL_RESET)
            await wait.back()
            return
        if wait is not None:
            wait.stop()
            self._tournament = None
        self._leave_seat()
        await self._finish(status)

    def _left_tournament(self, said: str) -> None:
        self._tournament = None
        self._owner.end_reason = "left the tournament"
        self._terminal.say(f"tui-reversi: {said}")
        self._leave_seat()
        self._terminal.exit(0)

    def _left_queue(self) -> None:
        self._waiting = None
        self._owner.end_reason = "left the queue"
        self._terminal.say("tui-reversi: you left the queue.")
        self._leave_seat()
        self._terminal.exit(0)

    @property
    def server(self) -> SessionServer:
        """The running server (commands.py's `Asker`)."""
        return self._owner.arcade

    async def keys(self, words: list[str]) -> tuple[list[str], int]:
        """What `keys ...` says (edge/key_commands.py), and the exit status."""
        host, port = self._config.address_for(self._owner.ssh_connection)
        new_key_user = f"{self._owner.user or ''}{ADDING_SUFFIX}"  # (keys add CODE from it)
        new_key = ssh_command(host, port, new_key_user, terminal=False, key="NEW-KEY")
        return await self._owner.keys(words, new_key)

    def ssh(self, *, terminal: bool = True) -> str:
        """'ssh -t -p 2222 alice@host': how this player reaches the server (commands.py)."""
        return self._ssh(terminal=terminal)

    async def _lists_adjourned(self) -> bool:
        """`resume` without a terminal, or with several games to choose from: the
        player's adjourned games are listed (True); else False, to resume the one."""
        games = await self._adjourned_views()
        if self._terminal.term is not None and len(games) == 1:
            return False
        self._terminal.print(adjourned_lines(games, self.player, self._ssh()))
        self._owner.end_reason = "looked at their adjourned games"
        self._terminal.exit(0 if games else 1)
        return True

    async def _adjourned_views(self) -> list[TableView]:
        """The player's adjourned games wherever they are (tables.py); those here
        alone while the store cannot say."""
        tables = self._owner.arcade.tables
        try:
            return await tables.adjourned_views(self.player)
        except StorageError as error:
            self._owner.arcade.note(str(error))
            return [tables.view(table) for table in tables.adjourned_for(self.player)]

    def _ssh(self, *, terminal: bool = True, own_name: bool = True, key: str = "") -> str:
        """'ssh -t -p 2222 alice@games.example.org': how this player (or, without
        `own_name`, anyone) reaches the server again, for a hint."""
        host, port = self._config.address_for(self._owner.ssh_connection)
        # (a guest's: the name it asked for, which lands it as a guest again)
        user = self._owner.asked if own_name else None
        return ssh_command(host, port, user, terminal=terminal, key=key)

    def _check_table_options(self, options: list[str]) -> None:
        where = "in a replay" if self._replay else "at a table"
        for option in options:
            if option.startswith("--") and option not in TABLE_OPTIONS:
                names = ", ".join(name[2:] for name in TABLE_OPTIONS)
                raise SessionRefused(f"{where} only {names} may be chosen, not {option[2:]}", 2)

    async def _sit_at_table(
        self, at_table: str, code: str | None, terms: TableTerms | None
    ) -> None:
        tables = self._owner.arcade.tables
        try:
            if at_table == "resume" and code is None:  # their one adjourned game
                views = await self._adjourned_views()
                code = next((view.code for view in views), None)
                if code is None:
                    raise TableRefused("you have no adjourned games on this server.")
            if code is None:
                terms = terms or TableTerms()
                colour = terms.colour.resolve()  # (random: drawn now, shown with the code)
                table, secret = tables.open(
                    self.player, terms.variant, terms.clock, colour, self.address
                )
            elif at_table == "watch":
                table, secret = await tables.watch(code, self.player, self.address)
            elif at_table == "resume":
                table, secret = await tables.resume(code, self.player)
            else:
                table, secret = await tables.join(code, self.player, self.address)
        except TableRefused as refusal:
            self._leave_seat()
            raise SessionRefused(str(refusal), 1, f"table refused: {refusal}") from None
        self._table_seat.take(secret, table.code)

    async def _play(
        self, options: list[str], take_over: GameSession | GameElsewhere | None = None
    ) -> None:
        try:
            if isinstance(take_over, GameElsewhere):
                self._next_table = await self._take_over_elsewhere(take_over)
            elif take_over is not None:
                # At a table there: this session sits back down at it, its game as it was.
                self._next_table = take_over.hand_seat_over()
                await self._take_over(take_over)
            status = 0 if self._next_table is not None else await self._run_game(options)
            while self._from_lobby() and self._terminal.open and not self._end_message:
                if self._next_table is not None:
                    status = await self._table_from_lobby(self._next_table, options)
                else:
                    status = await self._replay_then_home(options)
        except Exception as error:
            self._failed(error, "game did not start", "the game could not start")
            return
        finally:
            self._owner.arcade.games.discard(self)
            self._leave_seat()
            self._table_seat.leave()
            if self._owner.arcade.live_games.get(self.player) is self:
                del self._owner.arcade.live_games[self.player]
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
        if self._waiting is not None:  # (out of the queue: nobody is paired with it)
            self._waiting.stop()
            self._waiting = None
        self._leave_seat()
        self._table_seat.leave()
        self._terminal.say(f"tui-reversi: {sorry}; please tell the server's operator.")
        self._terminal.exit(1)

    # -- from the in-app lobby (server/lobby_host.py) to a table and back --------------

    def _seat_from_lobby(self, secret: str) -> bool:
        """The lobby has a seat at a table for this player: their game is told to
        end (and hung up if it does not), and the table's game starts next."""
        if not self._ending_for_lobby():
            return False
        self._next_table = secret
        return True

    def _from_lobby(self) -> bool:
        """True while the lobby has sent the player somewhere: a table, or a replay."""
        return self._next_table is not None or self._next_replay is not None

    def _replay_from_lobby(self, ggf: str) -> bool:
        """The player chose an archived game in the lobby: their game is told to end
        (it is saved), the archived game opens for review next, then their game again."""
        if not self._ending_for_lobby():
            return False
        self._next_replay = ggf
        return True

    def _ending_for_lobby(self) -> bool:
        """The player's game is to end for where the lobby sends them: hung up in
        GO_GRACE if it does not end itself; False if it has gone already."""
        process = self._process
        if not self._terminal.open or self._end_message or process is None or not process.running:
            return False
        loop = asyncio.get_running_loop()
        self._timers["go"] = loop.call_later(GO_GRACE, self._hurry, process)
        return True

    def _hurry(self, process: PtyProcess) -> None:
        if process is self._process and process.running:
            process.hang_up(self._config.hangup_grace)

    async def _table_from_lobby(self, secret: str, options: list[str]) -> int:
        """Play at the table the lobby found (the seat `secret` stands for), then
        back to the player's own game."""
        look = look_options(options)
        self._next_table = None
        seat = self._owner.arcade.tables.seat_of(secret)
        self._table_seat.take(secret, seat.table.code if seat is not None else None)
        try:
            status = await self._run_game(look)
        finally:
            self._table_seat.leave()
        if status != 0 or not self._terminal.open or self._end_message:
            return status  # hung up (the seat is held), or crashed (adjourned): it ends
        self._table_seat.forget()
        return await self._run_game(look)

    async def _replay_then_home(self, options: list[str]) -> int:
        """Review the archived game the lobby chose, then back to the player's own game."""
        look = look_options(options)
        self._replay, self._next_replay = {REPLAY_VARIABLE: self._next_replay or ""}, None
        try:
            status = await self._run_game(look)
        finally:
            self._replay = {}
        if status != 0 or not self._terminal.open or self._end_message:
            return status
        return await self._run_game(look)

    async def _run_game(self, options: list[str]) -> int:
        timer = self._timers.pop("go", None)
        if timer is not None:
            timer.cancel()
        owner = self._owner
        lobby = owner.arcade.lobby
        lobby_secret = None
        if self._table_seat.secret is None and not self._replay:  # own game: the lobby a key away
            lobby_secret = lobby.admit(
                self.player,
                self._seat_from_lobby,
                self._replay_from_lobby,
                self.address,
                self._ssh(),
            )
        try:
            return await self._start_game(options, lobby_secret)
        finally:
            if lobby_secret is not None:
                lobby.leave(lobby_secret)

    async def _start_game(self, options: list[str], lobby_secret: str | None) -> int:
        owner = self._owner
        user = owner.user or ""  # set at authentication, before any session
        home = player_home(self._config.players_dir, user)
        env = player_environment(
            home=home,
            user=player_user_name(shown_name(user)),
            term=self._terminal.term,
            client_env=self._terminal.environment(),
            ssh_connection=owner.ssh_connection,
        )
        env[SSH_COMMAND_VARIABLE] = self._ssh(own_name=False)  # (a friend's, for its hints)
        env.update(self._table_seat.environment())
        if lobby_secret is not None:
            env.update(owner.arcade.lobby.environment(lobby_secret))
        env.update(self._replay)
        # After a bug the game writes its report here, outside the player's
        # directory: the log gets it, the player only a sentence.
        self._crash_report = crash_report_path(self._config.data_dir, user)
        env[REPORT_VARIABLE] = str(self._crash_report)
        if os.environ.get(TEST_CRASH_VARIABLE):  # tests and bench/fuzz.py only
            env[TEST_CRASH_VARIABLE] = os.environ[TEST_CRASH_VARIABLE]
        argv = [*self._config.game_command, *options]
        process = await PtyProcess.start(
            argv,
            env=env,
            cwd=home,
            size=self._terminal.size,
            on_output=self._terminal.send,
            on_input_drained=self._terminal.resume_reading,
            erase=self._terminal.erase,
            spawn=await owner.arcade.spawner(argv),
        )
        self._process = process
        owner.game_pid = process.pid
        if not self._terminal.open:
            process.discard_output()
            process.hang_up(self._config.hangup_grace)
        elif self._end_message:
            process.hang_up(self._config.hangup_grace)
        else:
            process.resize(*self._terminal.size)
            process.write(bytes(self._pending_input))
            self._limits.start()
        self._pending_input.clear()
        return await process.wait()

    async def _finish(self, status: int) -> None:
        self._cancel_timers()
        owner = self._owner
        if status < 0:
            name = signal_name(-status)
            owner.end_reason = owner.end_reason or f"game killed by SIG{name}"
        elif status == BAD_INPUT_STATUS:
            owner.end_reason = (
                owner.end_reason or f"game refused its options (exit status {status})"
            )
        elif status != 0:
            owner.end_reason = owner.end_reason or f"game crashed (exit status {status})"
        else:
            owner.end_reason = owner.end_reason or "player quit"
        self._log_crash_report()  # whatever ended the game after it wrote one
        if not self._terminal.open:
            return
        if self._allowance.dropped:
            kib = self._allowance.burst // 1024
            self._terminal.say(
                f"\r\ntui-reversi: {amount(self._allowance.dropped)} of input the game could "
                f"not use was dropped (pastes of over {kib} KB, or keys faster than anyone types)."
            )
        if status < 0:
            self._terminal.send(TERMINAL_RESET)
        adjourned = {view.code for view in await self._adjourned_views()}
        if self._table_seat.code in adjourned and (status != 0 or self._end_message):
            self._terminal.send(TERMINAL_RESET)  # (a crashed game may have left it in any state)
            said = self._end_message or "your game stopped unexpectedly."
            code, hint = self._table_seat.code, self._ssh()
            self._terminal.say(f"\r\ntui-reversi: {said}")
            self._terminal.say(f"Table {code}'s game is adjourned; to go on with it:")
            self._terminal.say(f"  {hint} resume")
            self._terminal.exit(1)
        elif self._end_message:
            self._terminal.say(f"\r\ntui-reversi: {self._end_message}")
            self._terminal.exit(1)
        elif status < 0:
            self._terminal.exit_with_signal(signal_name(-status))
        else:
            self._terminal.exit(status)

    def _log_crash_report(self) -> None:
        """The report a crashed game left, into the log, whole: an event a line."""
        log_crash_report(self._owner.arcade.events, self._crash_report, self._owner.user)

    def _cancel_timers(self) -> None:
        self._limits.stop()
        for timer in self._timers.values():
            timer.cancel()
        self._timers.clear()
