"""What a player asks for after the host, as a value read once before anything
starts (commands.py's `read_command` reads it): their own game with options
from a short list (`ssh -t host ascii black hard`), a new table and its terms,
a seat at a table by its code (`join`, `watch`, `resume`), quick pairing
(`play`), an archived game to review (`replay`), a tournament's games
(`tournament join ID`), or a command that prints lines.
Anything else is refused in one sentence (`SessionRefused`); nothing a client
sends is ever run.
"""

from __future__ import annotations

import shlex
from dataclasses import dataclass

from ...core import ReversiError, Variant
from ...net.terms import USAGE, TableTerms, TermsRefused, TimeControl

# Game options a player may add after the host, `ssh -t host ascii black hard` or
# `ssh -t host -- --ascii --black hard`: flag -> what its value is, if it takes one.
GAME_OPTIONS = {
    "--ascii": None,
    "--no-mouse": None,
    "--no-animation": None,
    "--resume": None,
    "--new": None,
    "--black": "LEVEL",
    "--white": "LEVEL",
    "--variant": "NAME",
    "--theme": "NAME",
}

# At a table (`ssh -t host table`, `join CODE`), only options about the look apply.
TABLE_OPTIONS = ("--ascii", "--no-mouse", "--no-animation", "--theme")
_LOOKS = tuple(option.removeprefix("--") for option in TABLE_OPTIONS)


class SessionRefused(ReversiError):
    """Why a session cannot start, in one sentence for the player, and its exit status."""

    def __init__(self, message: str, status: int = 1, reason: str | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.reason = reason or message


def game_options(command: str | None) -> list[str]:
    """The game arguments a player asked for in their SSH command, checked against a short list."""
    if not command or not command.strip():
        return []
    try:
        words = shlex.split(command)
    except ValueError as error:
        raise SessionRefused(f"cannot read the options {command!r}: {error}", 2) from None
    options: list[str] = []
    index = 0
    while index < len(words):
        word = words[index]
        name, has_value, value = word.partition("=")
        if not name.startswith("-"):
            name = f"--{name}"  # `ssh -t host ascii`: OpenSSH reads `--ascii` there as its own
        if name not in GAME_OPTIONS:
            allowed = ", ".join(
                f"{flag[2:]} {value}" if value else flag[2:] for flag, value in GAME_OPTIONS.items()
            )
            raise SessionRefused(f"{word!r} is not a game option here; try: {allowed}", 2)
        takes_value = GAME_OPTIONS[name] is not None
        if takes_value and not has_value:
            index += 1
            if index == len(words):
                raise SessionRefused(f"{name} needs a value", 2)
            value = words[index]
        elif not takes_value and has_value:
            raise SessionRefused(f"{name} takes no value", 2)
        if takes_value and not (value.replace("-", "").isalnum() and len(value) <= 32):
            raise SessionRefused(f"{value!r} is not a value for {name}", 2)
        options += [name, value] if takes_value else [name]
        index += 1
    return options


def table_terms(command: str | None) -> tuple[TableTerms, str]:
    """The terms of a `table` command (colour, clock, variant: net/terms.py) and the
    look options after them. Raises SessionRefused for anything else."""
    terms_words = (command or "").split()
    try:
        terms, rest = TableTerms.parse(terms_words)
    except TermsRefused as refusal:
        raise SessionRefused(f"{refusal}; {USAGE}", 2) from None
    index = 0
    while index < len(rest):
        word = rest[index]
        name, equals, _ = word.removeprefix("--").partition("=")
        if name not in _LOOKS:
            raise SessionRefused(f"{word[:20]!r} is not a term of a table: {USAGE}", 2)
        index += 2 if name == "theme" and not equals else 1  # (its value: checked later)
    return terms, " ".join(rest)


@dataclass(frozen=True, slots=True)
class PlayTerms:
    """What `play` asks for: the variant, the clock, and whether a guest may be the
    opponent of a player with a name."""

    variant: Variant
    clock: TimeControl | None
    allows_guests: bool


PLAY_USAGE = "play [5+3] [variant othello|reversi|anti] [guests], then look options"


def play_terms(command: str | None) -> tuple[PlayTerms, str]:
    """The terms of a `play` command and the look options after them. Raises
    SessionRefused for a colour (drawn for both) or anything else."""
    words = (command or "").split()
    allows_guests = "guests" in words
    words = [word for word in words if word != "guests"]
    if any(word in ("black", "white", "random") for word in words):
        raise SessionRefused(f"play draws the colours: {PLAY_USAGE}", 2)
    try:
        terms, rest = table_terms(" ".join(words))
    except SessionRefused as refusal:  # (said of a table's terms: said again of play's)
        said = str(refusal).replace(USAGE, PLAY_USAGE).replace("term of a table", "term of play")
        raise SessionRefused(said, 2) from None
    return PlayTerms(terms.variant, terms.clock, allows_guests), rest


def look_options(options: list[str]) -> list[str]:
    """The options about the look only (TABLE_OPTIONS), with their values."""
    look: list[str] = []
    for index, option in enumerate(options):
        if option in TABLE_OPTIONS:
            look.append(option)
            if GAME_OPTIONS[option] is not None and index + 1 < len(options):
                look.append(options[index + 1])
    return look


def look_only(options: list[str], where: str) -> tuple[str, ...]:
    """`options` if they are all about the look (TABLE_OPTIONS); else SessionRefused
    naming the first that is not, `where` it may not be chosen ('at a table')."""
    for option in options:
        if option.startswith("--") and option not in TABLE_OPTIONS:
            names = ", ".join(name[2:] for name in TABLE_OPTIONS)
            raise SessionRefused(f"{where} only {names} may be chosen, not {option[2:]}", 2)
    return tuple(options)


# What a session may be asked for: each kind a value, read once from the SSH command.


@dataclass(frozen=True, slots=True)
class OwnGame:
    """The player's own game (nothing, or only game options, after the host)."""

    options: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class NewTable:
    """`table [terms]`: a new table that others join."""

    terms: TableTerms
    look: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Join:
    """`join CODE`: a seat at an open table, or back at the player's own."""

    code: str
    look: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Watch:
    """`watch CODE`: a spectator's chair at a table."""

    code: str
    look: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Resume:
    """`resume [CODE]`: an adjourned game (None: the player's one, or a list of them)."""

    code: str | None
    look: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Play:
    """`play [terms]`: quick pairing, then a game at a new table."""

    terms: PlayTerms
    look: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Replay:
    """`replay ID` with a terminal: the archived game (`game`: the ID as typed, if
    one was) opened in the game for review."""

    game: tuple[str, ...]
    look: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class JoinTournament:
    """`tournament join ID` with a terminal: the player waits in tournament `number`
    between its games, and plays each (tournament_commands.py reads it)."""

    number: int
    look: tuple[str, ...]


# The kinds that start a game on the player's terminal.
Started = OwnGame | NewTable | Join | Watch | Resume | Play | Replay | JoinTournament

AT_TABLE = "at a table"


def read_table(rest: str, ssh: str) -> NewTable:
    """`table`'s terms and look options."""
    terms, look = table_terms(rest)
    return NewTable(terms, look_only(game_options(look), AT_TABLE))


def _code_and_look(name: str, rest: str, ssh: str) -> tuple[str, tuple[str, ...]]:
    code, _, after = rest.strip().partition(" ")
    if not code:
        raise SessionRefused(f"{name} needs the table's code: {ssh} {name} CODE", 2)
    return code, look_only(game_options(after), AT_TABLE)


def read_join(rest: str, ssh: str) -> Join:
    """`join CODE` and look options."""
    return Join(*_code_and_look("join", rest, ssh))


def read_watch(rest: str, ssh: str) -> Watch:
    """`watch CODE` and look options."""
    return Watch(*_code_and_look("watch", rest, ssh))


def read_resume(rest: str, ssh: str) -> Resume:
    """`resume [CODE]` and look options: a word that is no look option is the code."""
    code, _, after = rest.strip().partition(" ")
    if not code or code.startswith("-") or code in _LOOKS:
        code, after = "", rest
    return Resume(code or None, look_only(game_options(after), AT_TABLE))


def read_play(rest: str, ssh: str) -> Play:
    """`play`'s terms and look options."""
    terms, look = play_terms(rest)
    return Play(terms, look_only(game_options(look), AT_TABLE))


def read_replay(rest: str, ssh: str) -> Replay:
    """`replay ID` and look options (with a terminal)."""
    game, _, after = rest.strip().partition(" ")
    return Replay((game,) if game else (), look_only(game_options(after), "in a replay"))
