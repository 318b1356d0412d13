"""The tournaments as lines: `tournaments` (those coming, running and finished),
`tournament ID` (one's standings) and the standings a player waiting in one
sees between games (tournament_wait.py). Names are the store's, shown as
typed; every line fits 60 columns."""

from __future__ import annotations

from collections.abc import Sequence

from ...net.remote import shown_name
from ..ledger.tournament_standings import Standing
from ..ledger.tournaments import (
    ARENA,
    COMING,
    FINISHED,
    OVER,
    PAUSED,
    PLAYING,
    Entry,
    Tournament,
    TournamentGame,
)

NAME_WIDTH = 16


def title(tournament: Tournament) -> str:
    """'Arena 3', 'Swiss 4'."""
    return f"{tournament.kind.capitalize()} {tournament.id}"


def over_text(tournament: Tournament) -> str:
    """'Arena 3 is over, won by alice.': what its players are told at its end."""
    won = shown_name(tournament.winner) if tournament.winner else "nobody"
    return f"{title(tournament)} is over, won by {won}."


def clock_left(seconds: float) -> str:
    """`750` -> '12:30' (minutes and seconds; hours as minutes)."""
    minutes, secs = divmod(max(0, round(seconds)), 60)
    return f"{minutes}:{secs:02}"


def terms(tournament: Tournament, *, rounds_too: bool = True) -> str:
    """'othello, 3+2, rated' (a Swiss: and its rounds, unless not `rounds_too`)."""
    rated = "rated" if tournament.rated else "casual"
    shown = rounds_too and tournament.kind != ARENA
    rounds = f", {tournament.rounds} rounds" if shown else ""
    return f"{tournament.variant}, {tournament.clock}, {rated}{rounds}"


def state_text(tournament: Tournament, now: float) -> str:
    """'12:30 left', 'starts in 4:10' (a Swiss: '3 rounds in 4:10'), 'round 2 of 3',
    'over, won by alice'."""
    if tournament.state == COMING:
        rounds = f"{tournament.rounds} rounds " if tournament.kind != ARENA else "starts "
        return f"{rounds}in {clock_left(tournament.starts - now)}"
    if tournament.state == FINISHED:
        won = shown_name(tournament.winner) if tournament.winner else "nobody"
        return f"over, won by {won}"
    if tournament.ends is not None:
        return f"{clock_left(tournament.ends - now)} left"
    return f"round {max(tournament.round, 1)} of {tournament.rounds}"


def list_lines(listed: Sequence[tuple[Tournament, int]], now: float, ssh: str) -> list[str]:
    """`tournaments`: each (tournament, how many entered) on a line."""
    if not listed:
        return [
            "tui-reversi: no tournaments here yet. Make one:",
            f"  {ssh} tournament new arena 30 3+2",
        ]
    lines = ["tui-reversi: tournaments here"]
    lines += [f"  {listed_line(tournament, players, now)}" for tournament, players in listed]
    lines.append(f"Join one: {ssh} tournament join ID")
    return lines


def listed_line(tournament: Tournament, players: int, now: float) -> str:
    """'Arena 3   othello, 3+2, rated; running, 12:30 left; 5 players'."""
    count = f"{players} {'player' if players == 1 else 'players'}"
    shown = f"{terms(tournament, rounds_too=False)}; {state_text(tournament, now)}"
    return f"{title(tournament):<9} {shown}; {count}"


def standings_lines(tournament: Tournament, standings: Sequence[Standing], count: int) -> list[str]:
    """A tournament's title and its first `count` standings."""
    lines = [f"{title(tournament)} ({terms(tournament)})"]
    if not standings:
        return [*lines, "  nobody has joined yet."]
    if tournament.kind == ARENA:
        lines.append(f"  {'#':>3}  {'player':<{NAME_WIDTH}} {'points':>6} {'games':>5}")
        for line in standings[:count]:
            fire = " *" if line.fire else ""
            name = shown_name(line.name)[:NAME_WIDTH]
            lines.append(
                f"  {line.rank:>3}  {name:<{NAME_WIDTH}} {line.score:>6g} {line.games:>5}{fire}"
            )
        if any(line.fire for line in standings[:count]):
            lines.append("  * on fire: the next game scores double")
    else:
        lines.append(
            f"  {'#':>3}  {'player':<{NAME_WIDTH}} {'points':>6} {'Buchholz':>8} {'S-B':>5}"
        )
        for line in standings[:count]:
            name = shown_name(line.name)[:NAME_WIDTH]
            lines.append(
                f"  {line.rank:>3}  {name:<{NAME_WIDTH}} {line.score:>6g} "
                f"{line.buchholz:>8g} {line.sonneborn_berger:>5g}"
            )
    if len(standings) > count:
        lines.append(f"  ... and {len(standings) - count} more")
    return lines


def you_lines(
    tournament: Tournament,
    lines: Sequence[Standing],
    entries: Sequence[Entry],
    games: Sequence[TournamentGame],
    name: str,
    join: str,
) -> tuple[str, str]:
    """`name` in the tournament: their place ('you: #2, 6 points'), and their next
    game (or how to join), each short enough for a line of 60 columns."""
    entry = next((entry for entry in entries if entry.name == name), None)
    mine = next((line for line in lines if line.name == name), None)
    place = f"you: #{mine.rank}, {mine.score:g} points" if mine is not None else "you are not in it"
    if tournament.state == FINISHED:
        return place, "It is over."
    if entry is None:
        return place, f"Join: {join}"
    game = next((g for g in reversed(games) if name in (g.black, g.white)), None)
    if entry.state == PLAYING and game is not None and game.code:
        other = game.white if game.black == name else game.black
        return place, f"Your game: against {shown_name(other)} at table {game.code}"
    if entry.state == PAUSED:
        return place, f"Paused; back: {join}"
    if entry.state == OVER:
        return place, "Your game is over; the next comes."
    return place, "Your next game: waiting to be paired."
