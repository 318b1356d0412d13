"""`ssh -p 2222 host lobby`: who is on the server and what they are doing,
the tables in progress and the open ones, and the asker's own record, as
plain lines (no terminal needed)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..core import Color
from .accounts import is_guest
from .config import player_directory_name

if TYPE_CHECKING:
    from .arcade import Arcade
    from .table import Table


@dataclass(frozen=True, slots=True)
class Doing:
    """What one person on the server is doing: a word for the lobby's column
    (free, playing, waiting, watching, finished) and a phrase to read."""

    state: str
    text: str
    code: str | None = None  # the table it is at, if any


def who_is_here(arcade: Arcade) -> dict[str, Doing]:
    """Everyone with a game open on the server (by player name), and what they do."""
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
        if seat.table.ended is not None:  # another session of theirs may say more
            doing.setdefault(who, Doing("finished", f"looking at table {code}'s finished game"))
        elif seat.color is None:
            doing[who] = Doing("watching", f"watching table {code}", code)
        else:
            other = seat.table.name(seat.color.other)
            against = f"against {other}" if other else "waiting for someone to join"
            where = f"at table {code} ({seat.color.label}), {against}"
            doing[who] = Doing("playing" if other else "waiting", where, code)
    return doing


def lobby_lines(arcade: Arcade, name: str, join_hint: str) -> list[str]:
    """The lobby as `name` sees it; `join_hint` is the ssh command before `join CODE`."""
    tables = arcade.tables
    doing = {who: what.text for who, what in who_is_here(arcade).items()}
    lines = [f"tui-reversi: {len(doing)} here"]
    lines += [f"  {who:<16} {what}" for who, what in sorted(doing.items())]
    playing = [
        t
        for t in tables.tables.values()
        if len(t.names) == 2 and t.ended is None and not t.adjourned
    ]
    if playing:
        lines.append("Tables in progress (watch CODE to watch one):")
        for table in playing:
            black, white = table.name(Color.BLACK), table.name(Color.WHITE)
            lines.append(f"  {table.code}  {black} (Black) against {white} (White), {_how(table)}")
    adjourned = [t for t in tables.tables.values() if t.adjourned and t.ended is None]
    if adjourned:
        lines.append(f"Adjourned games (a player resumes one with {join_hint} resume CODE):")
        for table in adjourned:
            black, white = table.name(Color.BLACK), table.name(Color.WHITE)
            lines.append(f"  {table.code}  {black} (Black) against {white} (White), {_how(table)}")
    waiting = [t for t in tables.tables.values() if len(t.names) == 1 and t.ended is None]
    if waiting:
        lines.append(f"Open tables (anyone may sit down: {join_hint} join CODE):")
        for table in waiting:
            ((colour, host),) = table.names.items()
            lines.append(f"  {table.code}  {host} waits ({colour.label}), {_how(table)}")
    archive = arcade.archive
    if is_guest(name):
        lines.append("You play as a guest here: unrated; connect with an SSH key to claim a name.")
    elif archive is not None:
        rating, games = archive.rating(name)
        lines.append(
            f"Your record here: {archive.results(name)}; rating {round(rating)} "
            f"after {games} rated games."
        )
    return lines


def adjourned_lines(games: list[Table], name: str, hint: str) -> list[str]:
    """`ssh host resume`: `name`'s adjourned games and how to resume each; `hint`
    is the ssh command before `resume CODE`."""
    if not games:
        return [f"tui-reversi: {name} has no adjourned games on this server."]
    lines = [f"tui-reversi: {name}'s adjourned games (resume one with {hint} resume CODE):"]
    for table in games:
        you = next(color for color, sitting in table.names.items() if sitting == name)
        other = table.name(you.other)
        lines.append(f"  {table.code}  you ({you.label}) against {other}, {_how(table)}")
    return lines


def _how(table: Table) -> str:
    clock = f", clock {table.time_control}" if table.time_control else ""
    return f"{table.variant.value}{clock}, move {table.game.move_number() + 1}"
