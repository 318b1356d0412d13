"""How what a player asked for is let start (ssh_session.py): back to a seat
held for them after a drop, a terminal required, a playban refused before
anything is taken, one of the server's places taken (`ServerPlace`), a
tournament's entry checked, and a seat taken at a table. A refusal is one
sentence (`SessionRefused`).
"""

from __future__ import annotations

from .session_answers import SessionAnswers
from .session_command import (
    AT_TABLE,
    Join,
    JoinTournament,
    NewTable,
    OwnGame,
    Play,
    Resume,
    SessionRefused,
    Started,
    Watch,
    look_only,
)
from .session_game import SessionGame
from .session_owner import Owner
from .session_terminal import PlayerTerminal
from .table_seat import TableSeat
from .tables import TableRefused
from .tournament_games import TournamentGames


class ServerPlace:
    """One of the server's places (--max-sessions) while the session holds it:
    taken once, given back once."""

    def __init__(self, owner: Owner) -> None:
        self._owner = owner
        self._held = False

    def take(self) -> None:
        """Take a place for the player; SessionRefused if none is left for them."""
        owner = self._owner
        full = owner.arcade.take_place(owner.address, guest=owner.guest)
        if full is not None:
            reason = "server full" + (" for guests" if owner.guest else "")
            raise SessionRefused(full, 1, reason)
        self._held = True

    def leave(self) -> None:
        """Give the place back, if it is held."""
        if self._held:
            self._held = False
            self._owner.arcade.leave_place(self._owner.address, guest=self._owner.guest)


class Admission:
    """`admit` what the player asked for: the session's place taken and, for a
    table, its seat there."""

    def __init__(
        self,
        owner: Owner,
        terminal: PlayerTerminal,
        place: ServerPlace,
        table_seat: TableSeat,
        game: SessionGame,
        answers: SessionAnswers,
        tournament: TournamentGames,
    ) -> None:
        self._owner = owner
        self._terminal = terminal
        self._place = place
        self._table_seat = table_seat
        self._game = game
        self._answers = answers
        self._tournament = tournament

    async def admit(self, asked: Started, player: str, command: str | None) -> list[str]:
        """The session's place on the server taken and, for a table, its seat there:
        the options its games start with. SessionRefused if it cannot start
        (`command`, what the client sent, for the log)."""
        arcade = self._owner.arcade
        if isinstance(asked, OwnGame) and self._game.replay is None:
            code = arcade.tables.held_for(player)
            if code is not None:  # back after a drop: to the held seat
                try:
                    asked = Join(code, look_only(list(asked.options), AT_TABLE))
                except SessionRefused as refusal:
                    refusal.reason = f"bad game options {command!r}"
                    raise
        if self._terminal.term is None:  # after the command: a wrong one is told what is wrong
            raise SessionRefused(
                "this is a full-screen game and needs a terminal: connect with ssh -t",
                1,
                "no terminal requested",
            )
        if isinstance(
            asked, Play | NewTable | Join | JoinTournament
        ):  # (a playban, made on any node: conduct.py)
            banned = await arcade.playbans.refusal(player)
            if banned is not None:
                raise SessionRefused(banned, 1, "playban")
        self._place.take()
        if isinstance(asked, OwnGame):
            return list(asked.options)
        if isinstance(asked, JoinTournament):
            await self._tournament.may_join(asked.number, player)
        if isinstance(asked, NewTable | Join | Watch | Resume):
            await self._sit_at_table(asked, player)
        return list(asked.look)

    async def _sit_at_table(self, asked: NewTable | Join | Watch | Resume, player: str) -> None:
        tables = self._owner.arcade.tables
        address = self._owner.address
        try:
            if isinstance(asked, Resume):
                code = asked.code
                if code is None:  # their one adjourned game
                    views = await self._answers.adjourned_views(player)
                    code = next((view.code for view in views), None)
                    if code is None:
                        raise TableRefused("you have no adjourned games on this server.")
                table, secret = await tables.resume(code, player)
            elif isinstance(asked, NewTable):
                terms = asked.terms
                colour = terms.colour.resolve()  # (random: drawn now, shown with the code)
                table, secret = tables.open(player, terms.variant, terms.clock, colour, address)
            elif isinstance(asked, Watch):
                table, secret = await tables.watch(asked.code, player, address)
            else:
                table, secret = await tables.join(asked.code, player, address)
        except TableRefused as refusal:
            self._place.leave()
            raise SessionRefused(str(refusal), 1, f"table refused: {refusal}") from None
        self._table_seat.take(secret, table.code)
