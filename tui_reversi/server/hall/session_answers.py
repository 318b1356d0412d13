"""What a session answers in lines rather than a game (ssh_session.py): a command
that prints lines (commands.py) given the player asking (asker.py), the
player's news told first, their adjourned games listed for `resume`, and the
archived game `replay ID` asks for, or why not.
"""

from __future__ import annotations

from ...net.ssh_command import ssh_command
from ...storage import StorageError
from ..ledger.account_keys import ADDING_SUFFIX
from ..ledger.store import TableView
from .asker import Asker
from .commands import CommandRefused, Printed, help_lines, replay_ggf
from .roster import adjourned_lines
from .safety import take_notices
from .session_command import Replay
from .session_owner import Owner, ssh_line
from .session_terminal import PlayerTerminal


class SessionAnswers:
    """The answers in lines to `owner`'s player, written to their `terminal`; each
    is given `player`, their name as their files know it."""

    def __init__(self, owner: Owner, terminal: PlayerTerminal) -> None:
        self._owner = owner
        self._terminal = terminal

    def asker(self, player: str) -> Asker:
        """This player, as a command that prints lines is given them."""
        owner = self._owner
        return Asker(
            player,
            owner.arcade,
            ssh_line(owner),
            ssh_line(owner, terminal=False),
            self._keys,
            key_proved=owner.proved_key is not None,
        )

    def beyond_keys_add(self, asked: object) -> bool:
        """True if the player came in only to run  keys add CODE  (a key not their
        name's yet) and asked for anything else: told so, and the session ended."""
        if not self._owner.adding_key or _adds_key(asked):
            return False
        name = self._owner.user
        self._owner.end_reason = "a key not the player's yet asked for more than keys add"
        self._terminal.print(
            [f"tui-reversi: this key is not {name}'s yet: it may only run  keys add CODE"]
        )
        self._terminal.exit(1)
        return True

    def refused(self, refusal: CommandRefused, command: str | None, player: str) -> None:
        """A command the server does not know (`command`, what the client sent):
        why, the commands there are, and the session ended."""
        self._owner.end_reason = f"bad command {command!r}"
        self._terminal.print([f"tui-reversi: {refusal}", *help_lines(self.asker(player))[1:]])
        self._terminal.exit(2)

    async def print(self, asked: Printed, player: str) -> None:
        """A command that prints lines (commands.py) answered, and the session ended."""
        command, words = asked.command, list(asked.words)
        assert command.answer is not None  # (read_command gives no Printed without one)
        lines, status = await command.answer(self.asker(player), words)
        self._terminal.print(lines)
        self._owner.end_reason = " ".join([command.name, *words[:1]])[:40]  # ('keys add')
        self._terminal.exit(status)

    async def replay(self, asked: Replay, player: str) -> str | None:
        """`ssh -t host replay ID [look options]`: the archived game (its GGF) for
        the game to open; or None, the player told why not and the session ended."""
        ggf, refusal, status = await replay_ggf(self.asker(player), list(asked.game))
        if ggf is None:
            self._owner.end_reason = f"replay refused: {refusal}"
            self._terminal.print([refusal])
            self._terminal.exit(status)
        return ggf

    async def told_news(self, player: str) -> None:
        """The player's blocks known here from now on; and their notices (a report
        acted on, a refund) told first to a command without a terminal: a game's
        are told in its lobby (lobby_host.py), where the screen shows them."""
        await self._owner.arcade.moderation.arrive(player)
        if self._terminal.term is None:
            for said in await take_notices(self._owner.arcade.store, player):
                self._terminal.say(f"tui-reversi: {said}")

    async def lists_adjourned(self, player: str) -> bool:
        """`resume` without a terminal, or with several games to choose from: the
        player's adjourned games are listed (True); else False, to resume the one."""
        games = await self.adjourned_views(player)
        if self._terminal.term is not None and len(games) == 1:
            return False
        self._terminal.print(adjourned_lines(games, player, ssh_line(self._owner)))
        self._owner.end_reason = "looked at their adjourned games"
        self._terminal.exit(0 if games else 1)
        return True

    async def adjourned_views(self, player: str) -> list[TableView]:
        """The player's adjourned games wherever they are (tables.py); those here
        alone while the store cannot say."""
        arcade = self._owner.arcade
        tables = arcade.tables
        try:
            return await tables.adjourned_views(player)
        except StorageError as error:
            arcade.note(str(error))
            return [tables.view(table) for table in tables.adjourned_for(player)]

    async def _keys(self, words: list[str]) -> tuple[list[str], int]:
        """What `keys ...` says (edge/key_commands.py), and the exit status."""
        owner = self._owner
        host, port = owner.arcade.config.address_for(owner.ssh_connection)
        new_key_user = f"{owner.user or ''}{ADDING_SUFFIX}"  # (keys add CODE from it)
        new_key = ssh_command(host, port, new_key_user, terminal=False, key="NEW-KEY")
        return await owner.keys(words, new_key)


def _adds_key(asked: object) -> bool:
    """True if `asked` is `keys add CODE`, all a key not its name's yet may run."""
    if not isinstance(asked, Printed) or asked.command.name != "keys":
        return False
    return asked.words[:1] == ("add",) and len(asked.words) == 2
