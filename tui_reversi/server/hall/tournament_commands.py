"""The tournaments' commands after the host (commands.py lists them):
`tournaments`, `tournament new arena MINUTES CLOCK [VARIANT] [rated|casual]`,
`tournament new swiss ROUNDS CLOCK [VARIANT] [rated|casual] [in MINUTES]`,
`tournament ID` (its standings) and `tournament join ID` (with ssh -t: the
session waits in it, ssh_session.py and tournament_wait.py). Each answers
plain lines and an exit status; a mistake is one sentence with the usage."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Protocol

from ...core import ReversiError, Variant
from ...net.remote import is_guest
from ...net.terms import TermsRefused, TimeControl
from ...net.typed_number import typed_number
from ...storage import StorageError
from ..ledger.store import Store
from ..ledger.tournament_standings import standings
from ..ledger.tournaments import ARENA, COMING, FINISHED, RUNNING, SWISS, Tournament
from .tournament_pages import (
    list_lines,
    listed_line,
    standings_lines,
    state_text,
    title,
    you_lines,
)

TOURNAMENT_TERMS = "new arena|swiss ... | join ID | ID"
NEW_USAGE = (
    "tournament new arena MINUTES CLOCK [anti] [rated|casual], or "
    "tournament new swiss ROUNDS CLOCK [anti] [rated|casual] [in MINUTES]"
)
# An arena lasts 1 to ARENA_LONGEST minutes; a Swiss has 1 to SWISS_MOST rounds and
# starts SWISS_JOIN minutes after it is made unless `in MINUTES` says otherwise.
ARENA_LONGEST = 720
SWISS_MOST = 15
SWISS_JOIN = 5
SWISS_LATEST = 1440
STANDINGS_SHOWN = 50


class Asking(Protocol):
    """Who asks (commands.py's `Asker`), as these commands use them."""

    @property
    def player(self) -> str: ...

    def ssh(self, *, terminal: bool = True) -> str: ...


class CommandMistake(ReversiError):
    """A tournament command asked for wrongly: its one sentence."""


@dataclass(frozen=True, slots=True)
class Made:
    """What `tournament new` asks for."""

    kind: str
    length: int  # an arena's minutes, a Swiss's rounds
    clock: TimeControl
    variant: Variant
    rated: bool
    starts_in: int  # minutes (a Swiss's)


def read_new(words: list[str]) -> Made:
    """`new`'s words after `tournament new`. Raises CommandMistake."""
    if len(words) < 3 or words[0] not in (ARENA, SWISS):
        raise CommandMistake(f"say which and how: {NEW_USAGE}")
    kind = words[0]
    most = ARENA_LONGEST if kind == ARENA else SWISS_MOST
    length = typed_number(words[1], 4)
    if length is None or not 1 <= length <= most:
        what = "minutes (1-720)" if kind == ARENA else f"rounds (1-{SWISS_MOST})"
        raise CommandMistake(f"{words[1][:20]!r} is not a number of {what}: {NEW_USAGE}")
    try:
        clock = TimeControl.parse(words[2])
    except TermsRefused as refusal:
        raise CommandMistake(str(refusal)) from None
    variant, rated, starts_in = Variant.OTHELLO, True, SWISS_JOIN if kind == SWISS else 0
    rest = words[3:]
    while rest:
        word = rest.pop(0)
        if word in (v.value for v in Variant):
            variant = Variant(word)
        elif word in ("rated", "casual"):
            rated = word == "rated"
        elif word == "in" and kind == SWISS and rest:
            minutes = typed_number(rest.pop(0), 4)
            if minutes is None or minutes > SWISS_LATEST:
                raise CommandMistake(f"a Swiss starts in 0 to {SWISS_LATEST} minutes")
            starts_in = minutes
        else:
            raise CommandMistake(f"{word[:20]!r} is not a term of a tournament: {NEW_USAGE}")
    return Made(kind, length, clock, variant, rated, starts_in)


def made_tournament(made: Made, by: str, now: float) -> Tournament:
    """The tournament `made` asks for, made by `by` at `now` (an arena starts at once)."""
    starts = now + 60.0 * made.starts_in
    ends = starts + 60.0 * made.length if made.kind == ARENA else None
    rounds = made.length if made.kind == SWISS else 0
    state = COMING if made.kind == SWISS and made.starts_in > 0 else RUNNING
    return Tournament(
        0,
        made.kind,
        made.variant.value,
        str(made.clock),
        made.rated,
        rounds,
        0,
        starts,
        ends,
        state,
        by,
    )


def tournament_id(word: str) -> int | None:
    return typed_number(word, 9)


async def tournaments_answer(
    asker: Asking, store: Store | None, words: list[str]
) -> tuple[list[str], int]:
    """`tournaments`: those coming, running and lately finished."""
    if words:
        usage = f"{asker.ssh(terminal=False)} tournaments"
        return [f"tui-reversi: tournaments takes nothing after it: {usage}"], 2
    if store is None:
        return ["tui-reversi: this server keeps no tournaments."], 1
    try:
        listed = [(t, len(await store.entries(t.id))) for t in await store.tournaments()]
    except StorageError as error:
        return [f"tui-reversi: the tournaments cannot be read: {error}"], 1
    return list_lines(listed, time.time(), asker.ssh()), 0


async def tournament_answer(
    asker: Asking, store: Store | None, words: list[str]
) -> tuple[list[str], int]:
    """`tournament new ...`, `tournament ID`, and `tournament join ID` without a terminal."""
    usage = f"{asker.ssh(terminal=False)} tournament {TOURNAMENT_TERMS}"
    if not words:
        return [f"tui-reversi: tournament needs what to do: {usage}"], 2
    if store is None:
        return ["tui-reversi: this server keeps no tournaments."], 1
    try:
        if words[0] == "new":
            return await _new(asker, store, words[1:])
        if words[0] == "join":
            join = f"{asker.ssh()} tournament join ID"
            return [f"tui-reversi: a tournament's games need a terminal: {join}"], 1
        number = tournament_id(words[0]) if len(words) == 1 else None
        if number is None:
            return [f"tui-reversi: {words[0][:20]!r} is not a tournament's number: {usage}"], 2
        return await _standings(store, number)
    except CommandMistake as mistake:
        return [f"tui-reversi: {mistake}"], 2
    except StorageError as error:
        return [f"tui-reversi: the tournaments cannot be read or kept: {error}"], 1


async def _new(asker: Asking, store: Store, words: list[str]) -> tuple[list[str], int]:
    if is_guest(asker.player):
        return ["tui-reversi: a guest cannot make a tournament; come back with a key."], 1
    made = read_new(words)
    tournament = made_tournament(made, asker.player, time.time())
    number = await store.new_tournament(tournament)
    when = "now" if tournament.state == RUNNING else f"in {made.starts_in} min"
    return [
        f"tui-reversi: {tournament.kind.capitalize()} {number} made; it starts {when}.",
        f"Join it: {asker.ssh()} tournament join {number}",
    ], 0


async def _standings(store: Store, number: int) -> tuple[list[str], int]:
    tournament = await store.tournament(number)
    if tournament is None:
        return [f"tui-reversi: there is no tournament {number} here."], 1
    entries = await store.entries(number)
    games = await store.tournament_games(number)
    lines = standings(tournament, entries, games)
    shown = standings_lines(tournament, lines, STANDINGS_SHOWN)
    if tournament.state == FINISHED:
        shown.append(f"{title(tournament)} is over.")
    return shown, 0


async def joinable(store: Store, number: int) -> Tournament:
    """Tournament `number`, if a player may join it now. Raises CommandMistake."""
    tournament = await store.tournament(number)
    if tournament is None:
        raise CommandMistake(f"there is no tournament {number} here.")
    if tournament.state == FINISHED:
        raise CommandMistake(f"{title(tournament)} is over; see it with: tournament {number}")
    if (
        tournament.kind == SWISS
        and tournament.state == RUNNING
        and tournament.round >= tournament.rounds
    ):
        raise CommandMistake(f"{title(tournament)} is in its last round; too late to join.")
    return tournament


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
    join = f"{ssh} tournament join {number}"
    place, next_game = you_lines(tournament, lines, entries, games, name, join)
    shown = standings_lines(tournament, lines, STANDINGS_SHOWN)
    rows: Rows = [(f"standings-of:{number}", f"{state_text(tournament, now)} · {place}")]
    rows.append((None, next_game))
    named = {f"  {line.rank:>3}  ": line.name for line in lines}
    for text in shown[1:]:
        key = next((f"player:{n}" for start, n in named.items() if text.startswith(start)), None)
        rows.append((key, text))
    return shown[0], rows
