"""A tournament as pages of rows for the app (lobby_host.py answers `tournaments`
and `tournament ID` on the lobby's line with them: net/lobby_link.py's pages):
the list, each row opening its tournament; one tournament's, the player in it
first (its next row joins it, if they may), then its standings, each row
opening a profile."""

from __future__ import annotations

import time

from ..ledger.store import Store
from ..ledger.tournament_standings import standings
from ..ledger.tournaments import FINISHED, PAUSED
from .tournament_joining import CommandMistake, tournament_id
from .tournament_pages import list_lines, listed_line, standings_lines, state_text, you_lines

# The standings' lines a page (and `tournament ID`) shows.
STANDINGS_SHOWN = 50
# How a player joins (or comes back to) a tournament from its page: that row, chosen.
JOIN_HERE = "⏎ on this line (your game waits, saved)"

# A page for the app (lobby_host.py): its title and rows, (key or None, text).
Rows = list[tuple[str | None, str]]


async def tournament_page(
    store: Store, command: str, rest: str, name: str, ssh: str
) -> tuple[str, Rows]:
    """The app's page for `tournaments` or `tournament ID`: the list, each row opening
    its tournament; or one tournament's, its first row `name` in it (the time left,
    their place, their next game), then its standings, each row opening a profile.
    Raises CommandMistake, StorageError."""
    now = time.time()
    if command == "tournaments" and not rest:
        listed = [(t, len(await store.entries(t.id))) for t in await store.tournaments()]
        if not listed:
            return "Tournaments", [(None, line) for line in list_lines(listed, now, ssh)]
        return "Tournaments", [
            (f"tournament:{t.id}", listed_line(t, players, now)) for t, players in listed
        ]
    number = tournament_id(rest) if command == "tournament" else None
    if number is None:
        raise CommandMistake("tournament takes a tournament's number.")
    tournament = await store.tournament(number)
    if tournament is None:
        raise CommandMistake(f"There is no tournament {number} here.")
    entries = await store.entries(number)
    games = await store.tournament_games(number)
    lines = standings(tournament, entries, games)
    place, next_game = you_lines(tournament, lines, entries, games, name, JOIN_HERE)
    shown = standings_lines(tournament, lines, STANDINGS_SHOWN)
    rows: Rows = [(f"standings-of:{number}", f"{state_text(tournament, now)} · {place}")]
    entry = next((entry for entry in entries if entry.name == name), None)
    may_join = tournament.state != FINISHED and (entry is None or entry.state == PAUSED)
    rows.append((f"join-tournament:{number}" if may_join else None, next_game))
    named = {f"  {line.rank:>3}  ": line.name for line in lines}
    for text in shown[1:]:
        key = next((f"player:{n}" for start, n in named.items() if text.startswith(start)), None)
        rows.append((key, text))
    return shown[0], rows
