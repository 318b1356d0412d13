"""`ssh -p 2222 host lobby`: who is on the server and what they are doing,
the tables in progress and the open ones, and the asker's own record, as
plain lines (no terminal needed)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..core import Color
from .config import player_directory_name

if TYPE_CHECKING:
    from .arcade import Arcade
    from .tables import Table


def lobby_lines(arcade: Arcade, name: str, join_hint: str) -> list[str]:
    """The lobby as `name` sees it; `join_hint` is the ssh command before `join CODE`."""
    tables = arcade.tables
    doing: dict[str, str] = {}
    for connection in arcade.connections:
        session = connection.session
        if connection.user is None or not connection.authenticated or session is None:
            continue
        who = player_directory_name(connection.user)
        seat = tables.seat_of(session.table_secret) if session.table_secret else None
        if seat is None:
            if session.task is not None:  # (not a lobby look like this one)
                doing.setdefault(who, "playing on their own")
        elif seat.table.ended is not None:  # another session of theirs may say more
            doing.setdefault(who, f"looking at table {seat.table.code}'s finished game")
        elif seat.color is None:
            doing[who] = f"watching table {seat.table.code}"
        else:
            other = seat.table.name(seat.color.other)
            against = f"against {other}" if other else "waiting for someone to join"
            doing[who] = f"at table {seat.table.code} ({seat.color.label}), {against}"
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
        lines.append(f"Adjourned games (a player resumes one with {join_hint} join CODE):")
        for table in adjourned:
            black, white = table.name(Color.BLACK), table.name(Color.WHITE)
            lines.append(f"  {table.code}  {black} (Black) against {white} (White), {_how(table)}")
    waiting = [t for t in tables.tables.values() if len(t.names) == 1 and t.ended is None]
    if waiting:
        lines.append(f"Open tables (anyone may sit down: {join_hint} join CODE):")
        for table in waiting:
            host = next(iter(table.names.values()))
            lines.append(f"  {table.code}  {host} waits, {_how(table)}")
    archive = arcade.archive
    if archive is not None:
        rating, games = archive.rating(name)
        lines.append(
            f"Your record here: {archive.results(name)}; rating {round(rating)} "
            f"after {games} rated games (ratings mean something only with --auth keys "
            "or password)."
        )
    return lines


def _how(table: Table) -> str:
    clock = f", clock {table.time_control}" if table.time_control else ""
    return f"{table.variant.value}{clock}, move {table.game.ply + 1}"
