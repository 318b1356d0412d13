"""`ssh -p 2222 host lobby`: who is on the server and what they are doing,
the tables in progress and the open ones, and the asker's own record, as
plain lines (no terminal needed)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Protocol

from ...core import Color
from ...net.remote import GUEST_UNRATED, is_guest, shown_name, with_rating
from ...storage import StorageError
from ..config import ServeConfig, player_directory_name
from ..ledger.store import Presence, Store, TableView
from ..ledger.table_phase import Phase
from .fleet_port import Fleet
from .lobby_guest import Doing
from .lobby_host import LobbyHost
from .moderation_watch import Moderation
from .sessions import HallSession
from .table_store import last_game_lines, named_ratings
from .tables import Tables


class Entrant(Protocol):
    """Someone let in at the door, as the roster reads them (edge/connection.py's `Client`)."""

    @property
    def user(self) -> str | None:
        """The name it plays under, once it asked for one."""

    @property
    def authenticated(self) -> bool:
        """True once it is let in."""

    @property
    def session(self) -> HallSession | None:
        """Its game session, if it opened one."""


class Server(Protocol):
    """The running server as the roster reads it (edge/arcade.py's `Arcade`)."""

    @property
    def connections(self) -> Iterable[Entrant]:
        """Every connection counted in at the door."""

    @property
    def tables(self) -> Tables:
        """This node's tables."""

    @property
    def lobby(self) -> LobbyHost:
        """The in-app lobby."""

    @property
    def fleet(self) -> Fleet:
        """The other nodes of the fleet (none for a server alone)."""

    @property
    def store(self) -> Store:
        """What the server keeps (opened by its start): SQLite, or a fleet's PostgreSQL."""

    @property
    def moderation(self) -> Moderation:
        """Bans, mutes, blocks and moderators as this node knows them."""

    @property
    def config(self) -> ServeConfig:
        """How the server was started (`mod rename` reads --auth)."""


def who_is_here(arcade: Server, everywhere: bool = True) -> dict[str, Doing]:
    """Everyone with a game open on the server (by player name), and what they do;
    in a fleet, on every node unless not `everywhere` (this node's people only)."""
    tables = arcade.tables
    doing: dict[str, Doing] = {}
    for connection in arcade.connections:
        session = connection.session
        if connection.user is None or not connection.authenticated or session is None:
            continue
        who = player_directory_name(connection.user)
        seat = tables.seat_of(session.table_secret) if session.table_secret else None
        if seat is None:
            if session.task is not None:  # (not a lobby look like this one)
                doing.setdefault(who, Doing("free", "playing on their own"))
            continue
        code = seat.table.code
        if seat.table.phase is Phase.ENDED:  # another session of theirs may say more
            doing.setdefault(who, Doing("finished", f"looking at table {code}'s finished game"))
        elif seat.color is None:
            doing[who] = Doing("watching", f"watching table {code}", code)
        else:
            other = seat.table.shown(seat.color.other)
            against = f"against {other}" if other else "waiting for someone to join"
            where = f"at table {code} ({seat.color.label}), {against}"
            doing[who] = Doing("playing" if other else "waiting", where, code)
    if everywhere:
        for person in arcade.fleet.others[0]:
            doing.setdefault(person.name, Doing(person.state, person.text, person.code))
    return doing


def presence(arcade: Server) -> list[Presence]:
    """This node's people, as it shares them with the fleet's other nodes."""
    in_lobby = {guest.name for guest in arcade.lobby.guests}
    node = arcade.store.node
    return [
        Presence(name, doing.state, doing.text, doing.code, node, name in in_lobby)
        for name, doing in sorted(who_is_here(arcade, everywhere=False).items())
    ]


async def lobby_lines(arcade: Server, name: str, join_hint: str) -> list[str]:
    """The lobby as `name` sees it; `join_hint` is the ssh command before `join CODE`."""
    views = arcade.tables.views(everywhere=True)
    doing = {who: what.text for who, what in who_is_here(arcade).items()}
    seated = {who for view in views for who in (view.black, view.white) if who}
    rated = await named_ratings(arcade.store, set(doing) | seated)
    lines = [f"tui-reversi: {len(doing)} here"]
    lines += [
        f"  {shown_name(who):<16} {rated[who]:>5}  {what}" for who, what in sorted(doing.items())
    ]
    headings = {
        Phase.PLAYING: "Tables in progress (watch CODE to watch one):",
        Phase.ADJOURNED: f"Adjourned games (a player resumes one with {join_hint} resume CODE):",
    }
    for phase, heading in headings.items():
        in_phase = [view for view in views if view.phase is phase]
        if in_phase:
            lines.append(heading)
            lines += [f"  {view.code}  {_players(view, rated)}, {_how(view)}" for view in in_phase]
    waiting = [view for view in views if view.phase is Phase.OPEN]
    if waiting:
        lines.append(f"Open tables (anyone may sit down: {join_hint} join CODE):")
        for view in waiting:
            colour, host = (Color.BLACK, view.black) if view.black else (Color.WHITE, view.white)
            waits = f"{with_rating(host, rated[host])} waits ({colour.label})"
            lines.append(f"  {view.code}  {waits}, {_how(view)}")
    store = arcade.store
    if is_guest(name):
        lines.append(GUEST_UNRATED)
    else:
        try:
            rating = await store.rating(name)
            results = await store.results(name)
            games = rating.games
            lines.append(
                f"Your record here: {results}; rating {rating.shown} "
                f"after {games} rated {'game' if games == 1 else 'games'}."
            )
            lines += await last_game_lines(store, name)
        except StorageError as error:
            lines.append(f"Your record cannot be read just now: {error}")
    return lines


def adjourned_lines(games: list[TableView], name: str, hint: str) -> list[str]:
    """`ssh host resume`: `name`'s adjourned games and how to resume each; `hint`
    is the ssh command before `resume CODE`."""
    if not games:
        return [f"tui-reversi: {shown_name(name)} has no adjourned games on this server."]
    lines = [
        f"tui-reversi: {shown_name(name)}'s adjourned games (resume one with {hint} resume CODE):"
    ]
    for view in games:
        you, other = (Color.BLACK, view.white) if view.black == name else (Color.WHITE, view.black)
        lines.append(f"  {view.code}  you ({you.label}) against {shown_name(other)}, {_how(view)}")
    return lines


def _players(view: TableView, rated: dict[str, str]) -> str:
    """'alice 1516 (Black) against guest-7f3a9c (White)'."""
    black, white = (
        with_rating(view.black, rated[view.black]),
        with_rating(view.white, rated[view.white]),
    )
    return f"{black} (Black) against {white} (White)"


def _how(view: TableView) -> str:
    clock = f", clock {view.clock}" if view.clock else ""
    return f"{view.variant}{clock}, move {view.move}"
