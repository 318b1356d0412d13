"""The tournaments' commands after the host (two rows of commands.py's table):
`tournaments`, `tournament new arena MINUTES CLOCK [VARIANT] [rated|casual]`,
`tournament new swiss ROUNDS CLOCK [VARIANT] [rated|casual] [in MINUTES]`,
`tournament ID` (its standings) and `tournament join ID` (with ssh -t, read once
into a `JoinTournament`: the session waits in it between its games, the phase
in a tournament of session_phases.py). Each printed one answers plain lines and
an exit status; a mistake is one sentence with the usage."""

from __future__ import annotations

import time
from dataclasses import dataclass

from ...core import Variant
from ...net.remote import is_guest
from ...net.terms import TermsRefused, TimeControl
from ...net.typed_number import typed_number
from ...storage import StorageError
from ..ledger.store import Store
from ..ledger.tournament_standings import standings
from ..ledger.tournaments import ARENA, COMING, FINISHED, RUNNING, SWISS, Tournament
from .asker import Asker
from .session_command import AT_TABLE, JoinTournament, SessionRefused, game_options, look_only
from .tournament_joining import CommandMistake, tournament_id
from .tournament_pages import list_lines, standings_lines, title
from .tournament_rows import STANDINGS_SHOWN

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


async def tournaments_answer(asker: Asker, words: list[str]) -> tuple[list[str], int]:
    """`tournaments`: those coming, running and lately finished."""
    if words:
        usage = f"{asker.ssh(terminal=False)} tournaments"
        return [f"tui-reversi: tournaments takes nothing after it: {usage}"], 2
    store = asker.server.store
    try:
        listed = [(t, len(await store.entries(t.id))) for t in await store.tournaments()]
    except StorageError as error:
        return [f"tui-reversi: the tournaments cannot be read: {error}"], 1
    return list_lines(listed, time.time(), asker.ssh()), 0


async def tournament_answer(asker: Asker, words: list[str]) -> tuple[list[str], int]:
    """`tournament new ...`, `tournament ID`, and `tournament join ID` without a terminal."""
    usage = f"{asker.ssh(terminal=False)} tournament {TOURNAMENT_TERMS}"
    if not words:
        return [f"tui-reversi: tournament needs what to do: {usage}"], 2
    store = asker.server.store
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


async def _new(asker: Asker, store: Store, words: list[str]) -> tuple[list[str], int]:
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


def read_tournament(rest: str, ssh: str) -> JoinTournament | None:
    """`tournament join ID` and look options, with a terminal; None for the others,
    which print their lines. Raises SessionRefused."""
    join, _, after = rest.strip().partition(" ")
    if join != "join":
        return None
    word, _, after = after.strip().partition(" ")
    number = tournament_id(word)
    if number is None:
        raise SessionRefused(f"tournament join needs its number: {ssh} tournament join ID", 2)
    return JoinTournament(number, look_only(game_options(after), AT_TABLE))
