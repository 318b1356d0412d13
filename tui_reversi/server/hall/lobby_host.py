"""The lobby inside the app, on the server's side: who is here, the tables,
and invitations from one player to another.

Every game `tui-reversi serve` starts for a player on their own reaches this
over a local socket of its own, in a directory only the server's user may
enter, and proves which game it is with the secret the server put in its
environment (the line protocol is described in net/lobby_link.py). The name
is the one SSH authenticated; every line is checked here, and a game that
breaks the protocol is cut off. An accepted invitation opens a table with
the invitation's colours, variant and clock (tables.py) and tells both games
to go there: each session then starts its player's game at that table.

Each game's line to the lobby is a `Guest` (lobby_guest.py); what the games
looking at the lobby are sent, and when, is lobby_view.py's.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from ...core import ReversiError
from ...core.errors import capitalised, sentence
from ...net.lobby_link import LOBBY_SECRET_VARIABLE, LOBBY_SOCKET_VARIABLE
from ...net.remote import shown_name
from ...net.server_line import line, words
from ...net.terms import TableRefused, TableTerms
from ...net.typed_number import typed_number
from ...storage import StorageError
from ..bucket import Limit, Limiter, per_minute
from ..config import format_duration
from ..ledger.fleet_messages import Answer, Gone, LobbyLine, Seat, Take, Unseat
from ..ledger.store import Store, TableView
from .conduct import Playbans
from .fleet_port import Fleet
from .fleet_take_overs import Given
from .games_socket import GamesSocket, hello
from .lobby_guest import Doing, Guest
from .lobby_view import LobbyView
from .safety import Refused, block_name, file_report, take_notices, unblock_name
from .standings_pages import (
    GAME_ID_DIGITS,
    PROFILE_GAMES,
    TOP_COUNT,
    leaderboard_rows,
    profile_rows,
)
from .table_store import named_ratings, rated_lines
from .tables import Tables
from .tournament_joining import CommandMistake, may_join, tournament_id
from .tournament_rows import tournament_page
from .tournaments import TournamentDirector

# How long an invitation waits for its answer.
INVITATION_TIMEOUT = 60.0
# The most digits of an invitation's number as a game or a node sends it.
INVITATION_DIGITS = 18
# Invitations one player (by name) may send at once and a minute (the server's
# --invitations-per-minute sets it), and the names of one address together, as
# many as the people it stands for (so a guest that connects again, a new guest,
# does not start afresh).
INVITATIONS_PER_MINUTE = 5


def invitations(count: int) -> Limit:
    """The limit on invitations, `count` a minute."""
    return Limit(per_minute(count), per_minute(count), "invitations", "try again shortly")


# Longer than this, what an invitation names is nobody's name (player_directory_name's are
# at most 42 characters).
NAME_LIMIT = 64
# A game told to go to its table that has not ended by then is hung up.
GO_GRACE = 5.0


# What admit() keeps for a game until it reaches the lobby: its name, where its
# session may be sent (a table, a replay, a tournament), its address and ssh hint.
Admitted = tuple[str, Callable[[str], bool], Callable[[str], bool], Callable[[int], bool], str, str]


@dataclass(eq=False)
class Invitation:
    """One player's invitation to another, waiting for its answer."""

    number: int
    inviter: Guest
    invitee: Guest
    terms: TableTerms  # the colour is the inviter's (random: drawn on acceptance)
    timer: asyncio.TimerHandle | None = field(default=None, repr=False)


class LobbyHost:
    """The lobby's socket, its guests and their invitations: start(), admit()
    and environment() for sessions, leave(), close()."""

    def __init__(
        self,
        tables: Tables,
        people: Callable[[], dict[str, Doing]],
        log: Callable[[str], None],
        *,
        store: Store,
        fleet: Fleet,
        playbans: Playbans,
        tournaments: TournamentDirector,
        seat_giver: Callable[[str, str], Awaitable[str | None]],
        own_giver: Callable[[str, str], Awaitable[bytes | None]],
        charged: Callable[[str, str], None] | None = None,
        per_minute: int = INVITATIONS_PER_MINUTE,
        people_per_address: int = 1,
        timeout: float = INVITATION_TIMEOUT,
        now: Callable[[], float] = time.monotonic,
    ) -> None:
        self.tables = tables
        self._store = store
        self._playbans = playbans  # (who may not play now: conduct.py)
        self.tournaments = tournaments  # (joined from the lobby)
        self._people = people  # who is on the server and what they do
        self._log = log
        # A line for the log charged to the address whose request caused it.
        self._charged = charged or (lambda text, _address: log(text))
        # An address has as many names' limit as the people it stands for (a NAT, a balancer).
        self._invitations = Limiter(
            invitations(per_minute),
            self._charged,
            people=people_per_address,
            now=now,
        )
        self.timeout = timeout
        self._now = now
        # secret -> (name, seat, replay, tournament, address, ssh): see admit()
        self._admitted: dict[
            str,
            tuple[
                str, Callable[[str], bool], Callable[[str], bool], Callable[[int], bool], str, str
            ],
        ] = {}
        self._moderating: set[str] = set()  # the secrets admitted for moderators' games
        self.guests: list[Guest] = []
        self.invitations: dict[int, Invitation] = {}
        self._numbers = itertools.count(1)
        variables = (LOBBY_SOCKET_VARIABLE, LOBBY_SECRET_VARIABLE)
        self._socket = GamesSocket("lobby", variables, self._serve)
        # The lobby as each game looking at it sees it, sent when it changes.
        self._view = LobbyView(lambda: self.guests, people, tables, store, now)
        # The other nodes (fleet_port.py): the guests of their lobbies invited from here,
        # by (node, name), and the invitations from them to guests here,
        # (name, number) -> the node that holds the invitation.
        self.fleet = fleet
        # Hands a player's seat here over to their session elsewhere.
        self._seat_giver = seat_giver
        # Hands a player's own game here (its autosave) over likewise.
        self._own_giver = own_giver
        self._proxies: dict[tuple[str, str], Guest] = {}
        self._forwarded: dict[tuple[str, int], str] = {}
        self._giving: set[asyncio.Task[None]] = set()  # (take-overs, answers: while they run)
        fleet.handle(LobbyLine, self._heard_line, lost=self._line_lost)
        fleet.handle(Answer, self._heard_answer, lost=self._answer_lost)
        fleet.handle(Gone, lambda node, gone: self.gone_elsewhere(node, gone.name))
        fleet.handle(Seat, self._heard_seat)
        fleet.handle(Take, self._heard_take)
        fleet.watch(self.refresh)

    async def start(self) -> None:
        await self._socket.start()
        self._view.start()

    async def close(self) -> None:
        self._view.close()
        await self._socket.close()

    def refresh(self) -> asyncio.Task[None]:
        """Send the lobby to every game that shows it, if it changed for that game
        (lobby_view.py); the task, for a caller that waits for the sending."""
        return self._view.refresh()

    # -- for the sessions ---------------------------------------------------------------

    def admit(
        self,
        name: str,
        seat: Callable[[str], bool],
        replay: Callable[[str], bool],
        tournament: Callable[[int], bool],
        address: str,
        ssh: str,
        *,
        moderator: bool = False,
    ) -> str:
        """A secret for `name`'s game (its player connected from `address`, and
        reaching the server with `ssh`) to reach the lobby with; `seat(table_secret)`
        sends the session to a table, `replay(ggf)` to an archived game to review,
        `tournament(number)` to a tournament's games (each False if it cannot go
        any more). A `moderator`'s lobby shows the open reports."""
        secret = self._socket.new_secret()
        self._admitted[secret] = (name, seat, replay, tournament, address, ssh)
        if moderator:
            self._moderating.add(secret)
        return secret

    def environment(self, secret: str) -> dict[str, str]:
        return self._socket.environment(secret)

    def leave(self, secret: str) -> None:
        """The game that held this secret has ended."""
        self._admitted.pop(secret, None)
        self._moderating.discard(secret)

    # -- the games' socket --------------------------------------------------------------

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        secret = await hello(reader)
        admitted = self._admitted.pop(secret, None)
        if admitted is None:
            writer.write(line("refused", "this game has no place in the lobby."))
            return
        name, seat, replay, tournament, address, ssh = admitted
        guest = Guest(name, writer, seat, replay, tournament, address, ssh)
        guest.moderator = secret in self._moderating
        self._moderating.discard(secret)
        self.guests.append(guest)
        try:
            writer.write(line("welcome", guest.name))
            # Their playban, made on any node, read now (and again at each invitation,
            # answer, seat and tournament joined: one made meanwhile holds).
            await self._playbans.refusal(guest.name)
            # The player's notices (a report acted on, a refund), shown as news.
            for said in await take_notices(self.tables.store, name):
                guest.send(line("answered", capitalised(said)))
            self.refresh()
            while data := await reader.readline():
                command, rest = words(data)
                refusal = await self._heard(guest, command, rest)
                if refusal is not None:
                    guest.send(line("refused", refusal))
        finally:
            self._gone(guest)

    async def _heard(self, guest: Guest, command: str, rest: str) -> str | None:
        """Do what a game asked; why not, in one sentence, if it cannot be done."""
        if command in ("look", "away") and not rest:
            guest.looking = command == "look"
            guest.shown = b""
            self.refresh()
            return None
        if command == "invite":
            return await self._invite(guest, rest)
        if command == "withdraw" and not rest:
            return self._withdraw(guest)
        if command in ("accept", "decline"):
            inviter = self._inviter_of(rest)  # (held here: else its node reads them)
            if command == "accept" and inviter:  # (both players' playbans read afresh)
                await self._read_playbans(guest.name, *inviter)
            return self._answer(guest, rest, accepted=command == "accept")
        if command in ("sit", "watch") and rest:
            return await self._go_to(guest, command, rest)
        if command in ("top", "player"):
            return await self._page(guest, command, rest)
        if command in ("block", "unblock") and rest:
            return await self._block(guest, rest, blocks=command == "block")
        if command == "report" and rest:
            return await self._report(guest, rest)
        if command == "tournament" and rest.startswith("join "):
            return await self._join_tournament(guest, rest.removeprefix("join "))
        if command in ("tournaments", "tournament"):
            return await self._tournament_page(guest, command, rest)
        game_id = typed_number(rest, GAME_ID_DIGITS) if command == "replay" else None
        if game_id is not None:
            return await self._replay(guest, game_id)
        return f"{command[:20]!r} is not something the lobby understands."

    # -- invitations ----------------------------------------------------------------------

    async def _invite(self, guest: Guest, rest: str) -> str | None:
        name, *said = rest.split(" ")
        try:
            terms, unread = TableTerms.parse(said)
        except TableRefused as refusal:
            return sentence(str(refusal))
        if not name or unread:
            what = f"{unread[0][:20]!r} is not a term of an invitation" if unread else ""
            return (
                f"{what or 'An invitation names a player, then its terms'}: black, white or "
                "random; variant othello, reversi or anti; clock M+S if any."
            )
        if not (name.isprintable() and len(name) <= NAME_LIMIT):
            return "That is not the name of anyone here."
        if name == guest.name:
            return "You cannot invite yourself: choose someone else."
        # The inviter's playban, made on any node (conduct.py), and their rating, for
        # the invitation to show it beside their name: read at once (a store that fails
        # is waited for once), and first, so that nothing is awaited between the checks
        # below and the sending.
        banned, ratings = await asyncio.gather(
            self._playbans.refusal(guest.name), named_ratings(self._store, [guest.name])
        )
        if banned is not None:
            return capitalised(banned)
        rated = rated_lines(ratings)
        waiting = self._sent_by(guest)
        if waiting is not None:
            invitee_name = shown_name(waiting.invitee.name)
            return f"Your invitation to {invitee_name} is waiting for an answer already."
        invitee = self._guest(name) or self._guest_elsewhere(name)
        if invitee is None:
            return self._not_free(name)
        if self.tables.moderation.apart(guest.name, name):  # (a block: said no more than this)
            return f"Your invitation to {shown_name(name)} cannot be sent."
        if any(i.invitee is invitee or i.inviter is invitee for i in self.invitations.values()):
            return f"{shown_name(name)} is busy with another invitation; try again in a moment."
        if not self._invitations.take(guest.name, guest.address):
            return self._invitations.limit.refusal
        invitation = Invitation(next(self._numbers), guest, invitee, terms)
        self.invitations[invitation.number] = invitation
        loop = asyncio.get_running_loop()
        invitation.timer = loop.call_later(self.timeout, self._lapsed, invitation)
        for rated_line in rated:
            invitee.send(rated_line)
        invitee.send(line("invited", invitation.number, guest.name, *terms.words()))
        guest.send(line("waiting", invitation.number, name))
        self._charged(f"invitation {invitation.number}: {guest.name} invites {name}", guest.address)
        return None

    async def _block(self, guest: Guest, name: str, *, blocks: bool) -> str | None:
        """`block NAME` or `unblock NAME` from the lobby, as `ssh host block NAME`
        and `unblock NAME` (safety_commands.py)."""
        tables = self.tables
        change = block_name if blocks else unblock_name
        changed = change(tables.store, tables.moderation, guest.name, name[:NAME_LIMIT])
        return await self._answer_with(guest, changed, "Your blocks")

    async def _report(self, guest: Guest, rest: str) -> str | None:
        """`report NAME REASON WORDS` from the lobby, as `ssh host report ...`."""
        name, *said = rest.split(" ")
        tables = self.tables
        filed = file_report(
            tables.store, tables.tables.values(), tables.moderation, guest.name, name, said
        )
        return await self._answer_with(guest, filed, "Your report")

    async def _answer_with(self, guest: Guest, work: Awaitable[str], what: str) -> str | None:
        """`work`'s sentence sent as the answer; or its refusal (None: answered)."""
        try:
            said = await work
        except Refused as refusal:
            return capitalised(str(refusal))
        except StorageError:
            return f"{what} cannot be kept just now; try again in a moment."
        guest.send(line("answered", capitalised(said)))
        return None

    def _not_free(self, name: str) -> str:
        """Why `name`, who has no game in the lobby, cannot be invited."""
        doing = self._people().get(name)
        if doing is None:
            return f"{shown_name(name)} is not on this server now."
        if doing.state in ("playing", "waiting"):
            return f"{shown_name(name)} is {doing.text}; invite them when that game is over."
        return (
            f"{shown_name(name)} is {doing.text}; invite them when they are back in their own game."
        )

    def _withdraw(self, guest: Guest) -> str | None:
        invitation = self._sent_by(guest)
        if invitation is None:
            return "You have no invitation waiting."
        self._drop(invitation)
        withdrew = f"{shown_name(guest.name)} withdrew the invitation."
        invitation.invitee.send(line("withdrawn", invitation.number, withdrew))
        guest.send(
            line(
                "answered",
                f"You withdrew your invitation to {shown_name(invitation.invitee.name)}.",
            )
        )
        return None

    def _answer(self, guest: Guest, rest: str, *, accepted: bool) -> str | None:
        number = typed_number(rest, INVITATION_DIGITS)
        node = self._forwarded.pop((guest.name, number), None) if number is not None else None
        if node is not None and number is not None and number not in self.invitations:
            # An invitation from another node's lobby: that node has it.
            self.fleet.tell(node, Answer(guest.name, number, accepted))
            return None
        invitation = self.invitations.get(number) if number is not None else None
        if invitation is None or invitation.invitee is not guest:
            return "That invitation is not waiting for your answer any more."
        self._drop(invitation)
        inviter = invitation.inviter
        if not accepted:
            inviter.send(line("answered", f"{shown_name(guest.name)} declined your invitation."))
            self._charged(f"invitation {invitation.number}: declined", guest.address)
            return None
        terms = invitation.terms
        host = terms.colour.resolve()  # (random: drawn now)
        banned = self._banned(inviter.name, guest.name)
        if banned is not None:  # (a playban: conduct.py)
            inviter.send(line("answered", f"{shown_name(guest.name)} accepted, but {banned}"))
            return f"The table could not be opened: {banned}"
        try:
            table, host_secret = self.tables.open(
                inviter.name, terms.variant, terms.clock, colour=host, address=inviter.address
            )
            _, guest_secret = self.tables.sit(table.code, guest.name, guest.address)
        except TableRefused as refusal:
            why = capitalised(str(refusal))
            inviter.send(line("answered", f"{shown_name(guest.name)} accepted, but: {why}"))
            return f"The table could not be opened: {refusal}"
        self._charged(
            f"invitation {invitation.number}: accepted; table {table.code}", guest.address
        )
        self._send_to_table(inviter, host_secret, table.code)
        self._send_to_table(guest, guest_secret, table.code)
        return None

    def _banned(self, *names: str) -> str | None:
        """Why a table for `names` cannot open, if one of them has a playban this node
        knows of (read afresh as the invitation was answered: _read_playbans): one
        sentence that names them."""
        playbans = self._playbans
        refusals = (playbans.known_refusal(name, shown_name(name)) for name in names)
        return next((refusal for refusal in refusals if refusal is not None), None)

    async def _read_playbans(self, *names: str) -> None:
        """Read `names`' playbans afresh from the store (what _banned() then knows), at
        once (a store that fails is waited for once)."""
        await asyncio.gather(*(self._playbans.refusal(name) for name in names))

    def _inviter_of(self, number_text: str) -> list[str]:
        """The name of the inviter of invitation `number_text` held here, if there is one."""
        number = typed_number(number_text, INVITATION_DIGITS)
        invitation = self.invitations.get(number) if number is not None else None
        return [invitation.inviter.name] if invitation is not None else []

    def _lapsed(self, invitation: Invitation) -> None:
        if self.invitations.get(invitation.number) is not invitation:
            return
        self._drop(invitation)
        wait = format_duration(self.timeout)
        inviter, invitee = invitation.inviter, invitation.invitee
        told = f"{shown_name(invitee.name)} did not answer within {wait}: the invitation lapsed."
        inviter.send(line("answered", told))
        lapsed = f"{inviter.name}'s invitation lapsed after {wait} without an answer."
        invitee.send(line("withdrawn", invitation.number, lapsed))

    def _drop(self, invitation: Invitation) -> None:
        self.invitations.pop(invitation.number, None)
        if invitation.timer is not None:
            invitation.timer.cancel()

    def _sent_by(self, guest: Guest) -> Invitation | None:
        return next((i for i in self.invitations.values() if i.inviter is guest), None)

    def _guest(self, name: str) -> Guest | None:
        """The latest game of `name`'s in the lobby, if any."""
        return next((g for g in reversed(self.guests) if g.name == name), None)

    # -- the standings: the same rows as `ssh host top` and `ssh host player NAME` ----------

    async def _page(self, guest: Guest, command: str, rest: str) -> str | None:
        """Send the leaderboard (`top`) or a profile (`player NAME`) as a page of rows."""
        store = self._store
        if command == "top" and not rest:
            try:
                title, rows = "Leaderboard", leaderboard_rows(await store.leaderboard(TOP_COUNT))
            except StorageError as error:
                return f"The leaderboard cannot be read: {error}"
        elif command == "player" and rest and " " not in rest and len(rest) <= NAME_LIMIT:
            try:
                profile = await store.profile(rest, PROFILE_GAMES)
            except StorageError as error:
                return f"{rest}'s games cannot be read: {error}"
            if profile is None:
                return f"Nobody called {rest} has finished a game here."
            title, rows = rest, profile_rows(profile, guest.ssh)
        else:
            return f"{command} takes {'nothing' if command == 'top' else 'one name'} after it."
        pages = [line("page", title)]
        pages += [line("row", key or "-", text.removeprefix("tui-reversi: ")) for key, text in rows]
        guest.send(b"".join([*pages, line("paged")]))
        return None

    async def _tournament_page(self, guest: Guest, command: str, rest: str) -> str | None:
        """Send the tournaments, or one's page (tournament_rows.py), as a page of rows."""
        try:
            title, rows = await tournament_page(self._store, command, rest, guest.name, guest.ssh)
        except (CommandMistake, StorageError) as refusal:
            return str(refusal)
        pages = [line("page", title)]
        pages += [line("row", key or "-", text) for key, text in rows]
        guest.send(b"".join([*pages, line("paged")]))
        return None

    async def _join_tournament(self, guest: Guest, word: str) -> str | None:
        """Send the player's session to tournament `word`'s games, if they may join it."""
        number = tournament_id(word)
        if number is None:
            return "tournament join takes a tournament's number."
        banned = await self._playbans.refusal(guest.name)  # (made on any node: conduct.py)
        if banned is not None:
            return capitalised(banned)
        try:
            await may_join(self._store, self.tournaments, number, guest.name)
        except (CommandMistake, StorageError) as refusal:
            return capitalised(str(refusal))
        if guest.tournament is not None and guest.tournament(number):
            guest.send(line("go", f"tournament-{number}"))
        return None

    async def _replay(self, guest: Guest, game_id: int) -> str | None:
        """Send the player's session to archived game `game_id`, to review it."""
        try:
            archived = await self._store.archived_game(game_id)
            ggf = archived.ggf() if archived is not None else None
        except (StorageError, ReversiError) as error:
            return f"Game {game_id} cannot be read: {error}"
        if ggf is None:
            return f"There is no game {game_id} in this server's archive."
        if guest.replay is not None and guest.replay(ggf):
            guest.send(line("go", f"game-{game_id}"))
        return None

    # -- seats at tables --------------------------------------------------------------------

    async def _go_to(self, guest: Guest, command: str, code: str) -> str | None:
        try:
            if command == "sit":
                banned = await self._playbans.refusal(guest.name)  # (made on any node)
                if banned is not None:
                    return capitalised(banned)
                table, secret = await self.tables.join(code, guest.name)
            else:
                table, secret = await self.tables.watch(code, guest.name)
        except TableRefused as refusal:
            return capitalised(str(refusal))
        self._send_to_table(guest, secret, table.code)
        return None

    def _send_to_table(self, guest: Guest, secret: str, code: str) -> None:
        if guest.seat(secret):
            guest.send(line("go", code))
        else:
            self.tables.leave(secret)  # its session has gone: the seat is let go

    def _gone(self, guest: Guest) -> None:
        with contextlib.suppress(ValueError):
            self.guests.remove(guest)
        for key, node in list(self._forwarded.items()):
            if key[0] == guest.name:
                del self._forwarded[key]
                self.fleet.tell(node, Gone(guest.name))
        for invitation in list(self.invitations.values()):
            if invitation.inviter is guest:
                self._drop(invitation)
                gone = f"{guest.name} has left the lobby: the invitation is withdrawn."
                invitation.invitee.send(line("withdrawn", invitation.number, gone))
            elif invitation.invitee is guest:
                self._drop(invitation)
                told = f"{shown_name(guest.name)} has left the lobby: the invitation lapsed."
                invitation.inviter.send(line("answered", told))
        self.refresh()

    # -- in a fleet: invitations between nodes' lobbies ---------------------------------------

    def _guest_elsewhere(self, name: str) -> Guest | None:
        """`name` in another node's lobby, as a guest here whose lines go there."""
        fleet = self.fleet
        person = next((p for p in fleet.others[0] if p.name == name and p.in_lobby), None)
        if person is None:
            return None
        key = (person.node, name)
        if key not in self._proxies:
            node = person.node
            self._proxies[key] = Guest(
                name,
                fleet.writer(lambda data: fleet.tell(node, LobbyLine(name, data))),
                lambda secret: fleet.seat_guest(node, name, secret),
            )
        return self._proxies[key]

    def deliver(self, node: str, name: str, data: bytes) -> None:
        """A line for `name`'s game here from the lobby of `node` (an invitation's)."""
        guest = self._guest(name)
        command, rest = words(data)
        number = typed_number(rest.split(" ")[0], INVITATION_DIGITS)
        if command == "invited" and number is not None:
            if guest is None:  # gone meanwhile: the invitation cannot be answered
                self.fleet.tell(node, Gone(name))
                return
            self._forwarded[(name, number)] = node
        elif command == "withdrawn" and number is not None:
            self._forwarded.pop((name, number), None)
        if guest is not None:
            guest.send(data)

    def _heard_line(self, node: str, message: LobbyLine) -> None:
        self.deliver(node, message.name, message.data)

    def _heard_answer(self, node: str, message: Answer) -> None:
        async def answer() -> None:
            if message.accepted:  # (both players' playbans read afresh first)
                await self._read_playbans(message.name, *self._inviter_of(str(message.number)))
            self.answered_elsewhere(node, message.name, message.number, message.accepted)

        task = asyncio.create_task(answer())
        self._giving.add(task)
        task.add_done_callback(self._giving.discard)

    def _heard_seat(self, node: str, message: Seat) -> None:
        if not self.seated_elsewhere(node, message.name, message.secret, message.table):
            self.fleet.tell(node, Unseat(message.secret))

    def _heard_take(self, node: str, message: Take) -> None:
        async def give() -> None:
            self.fleet.take_overs.answer(node, message.ask, await self.give_over(name, address))

        name, address = message.name, message.address
        task = asyncio.create_task(give())
        self._giving.add(task)
        task.add_done_callback(self._giving.discard)

    def _answer_lost(self, _node: str, message: Answer) -> None:
        """An answer to an invitation held elsewhere could not reach it (sent twice:
        fleet_port.py's RESENT): the invitee is told."""
        guest = self._guest(message.name)
        if guest is not None:
            told = "Your answer could not reach the invitation's node of the server; "
            guest.send(line("withdrawn", message.number, f"{told}ask again."))

    def _line_lost(self, node: str, message: LobbyLine) -> None:
        """A line to someone in the lobby of `node` could not be sent: an invitation to
        them is dropped and its inviter told."""
        name = message.name
        try:
            command, rest = words(message.data)
        except ValueError:
            return
        number = typed_number(rest.split(" ")[0], INVITATION_DIGITS)
        invitation = self.invitations.get(number) if number is not None else None
        if command != "invited" or invitation is None:
            return
        if invitation.invitee is not self._proxies.get((node, name)):
            return
        self._drop(invitation)
        invitation.inviter.send(
            line(
                "answered",
                f"Your invitation could not reach {shown_name(name)}: the server's nodes "
                "cannot reach each other just now; try again in a moment.",
            )
        )
        self._log(f"invitation {invitation.number}: could not reach node {node}")

    def answered_elsewhere(self, node: str, name: str, number: int, accepted: bool) -> None:
        """`name`, in the lobby of `node`, answered invitation `number` held here."""
        guest = self._proxies.get((node, name))
        if guest is not None:
            refusal = self._answer(guest, str(number), accepted=accepted)
            if refusal is not None:
                guest.send(line("refused", refusal))

    def gone_elsewhere(self, node: str, name: str) -> None:
        """`name`'s game has left the lobby of `node`: their invitations end."""
        guest = self._proxies.pop((node, name), None)
        if guest is not None:
            self._gone(guest)

    def seated_elsewhere(self, node: str, name: str, secret: str, view: TableView) -> bool:
        """`name`, in the lobby here, has a seat at table `view` on `node` (an invitation
        accepted there), by its `secret` there: their session goes to it. False if it
        cannot (their game has gone)."""
        guest = self._guest(name)
        here = self.tables.seat_from(node, secret, view, name)
        if guest is not None and guest.seat(here):
            return True
        self.tables.leave(here)
        return False

    async def give_over(self, name: str, address: str) -> Given:
        """`name`'s session on another node takes their game here over
        (take_over_elsewhere.py), the session here ended: their seat at a table here
        (its new secret and the table), or else their own game (its autosave)."""
        secret = await self._seat_giver(name, address)
        view = self.tables.view_of(secret) if secret is not None else None
        if secret is not None and view is not None:
            return secret, view
        return await self._own_giver(name, address)
