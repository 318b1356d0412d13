"""A session's game, one process at a time on the player's pty (ssh_session.py's
`GameSession` runs each through here): started in the player's folder with
their environment (a table's seat, the lobby a key away, an archived game to
review), hung up when it must go, its crash report taken to the log, and its
end told to the player.
"""

from __future__ import annotations

import os
from collections.abc import Awaitable, Callable
from pathlib import Path

from ...crash import REPORT_VARIABLE, TEST_CRASH_VARIABLE
from ...net.lobby_link import REPLAY_VARIABLE
from ...net.remote import shown_name
from ...net.ssh_command import SSH_COMMAND_VARIABLE
from ..config import player_environment, player_user_name
from ..ledger.store import TableView
from .game_run import (
    BAD_INPUT_STATUS,
    TERMINAL_RESET,
    amount,
    crash_report_path,
    log_crash_report,
    player_home,
    signal_name,
)
from .pty_process import PtyProcess
from .session_edge import Allowance
from .session_limits import SessionLimits
from .session_owner import Owner, ssh_line
from .session_phases import Playing
from .session_terminal import PlayerTerminal
from .table_seat import TableSeat


class SessionGame:
    """The session's games as processes: `run` one (the keys of the `playing`
    phase go to it), `hang_up` it, `finish` by telling how the last one ended.
    `ending` says the message the server ends the session with, if it does."""

    def __init__(
        self,
        owner: Owner,
        terminal: PlayerTerminal,
        playing: Playing,
        table_seat: TableSeat,
        limits: SessionLimits,
        allowance: Allowance,
        *,
        ending: Callable[[], str | None],
    ) -> None:
        self._owner = owner
        self._config = owner.arcade.config
        self._terminal = terminal
        self._playing = playing
        self._table_seat = table_seat
        self._limits = limits
        self._allowance = allowance
        self._ending = ending
        self._crash_report: Path | None = None
        # The archived game (its GGF) the game opens for review: `replay ID`, or the lobby's.
        self.replay: str | None = None

    async def run(self, options: list[str], lobby_secret: str | None) -> int:
        """Start the game with `options` (the lobby a key away if `lobby_secret`)
        and wait for it to end: its exit status (negative: killed by that signal)."""
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
        env[SSH_COMMAND_VARIABLE] = ssh_line(owner, own_name=False)  # (a friend's, for its hints)
        env.update(self._table_seat.environment())
        if lobby_secret is not None:
            env.update(owner.arcade.lobby.environment(lobby_secret))
        if self.replay is not None:
            env[REPLAY_VARIABLE] = self.replay
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
        self._playing.process = process
        owner.game_pid = process.pid
        typed_ahead = self._playing.take_pending()
        if not self._terminal.open:
            process.discard_output()
            process.hang_up(self._config.hangup_grace)
        elif self._ending():
            process.hang_up(self._config.hangup_grace)
        else:
            process.resize(*self._terminal.size)
            process.write(typed_ahead)
            self._limits.start()
        return await process.wait()

    def hang_up(self) -> bool:
        """The game's board is hung up (True) if it still runs."""
        process = self._playing.process
        if process is None or not process.running:
            return False
        process.hang_up(self._config.hangup_grace)
        return True

    def log_crash_report(self) -> None:
        """The report a crashed game left, into the log, whole: an event a line."""
        log_crash_report(self._owner.arcade.events, self._crash_report, self._owner.user)

    async def finish(
        self, status: int, adjourned: Callable[[], Awaitable[list[TableView]]]
    ) -> None:
        """The last game ended with `status`: why, for the log; and, if the player
        is still there, what they read (dropped input, a table's game adjourned,
        the server's message) and the exit status their client gets."""
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
        self.log_crash_report()  # whatever ended the game after it wrote one
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
        codes = {view.code for view in await adjourned()}
        end_message = self._ending()
        if self._table_seat.code in codes and (status != 0 or end_message):
            self._terminal.send(TERMINAL_RESET)  # (a crashed game may have left it in any state)
            said = end_message or "your game stopped unexpectedly."
            code, hint = self._table_seat.code, ssh_line(owner)
            self._terminal.say(f"\r\ntui-reversi: {said}")
            self._terminal.say(f"Table {code}'s game is adjourned; to go on with it:")
            self._terminal.say(f"  {hint} resume")
            self._terminal.exit(1)
        elif end_message:
            self._terminal.say(f"\r\ntui-reversi: {end_message}")
            self._terminal.exit(1)
        elif status < 0:
            self._terminal.exit_with_signal(signal_name(-status))
        else:
            self._terminal.exit(status)
