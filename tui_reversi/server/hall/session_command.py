"""What a player asks for after the host, read before any game starts: the game
options from a short list (`ssh -t host ascii black hard`), a table's command
(`table`, `join CODE`, `watch CODE`, `resume [CODE]`) and a table's terms.
Anything else is refused in one sentence (`SessionRefused`); nothing a client
sends is ever run.
"""

from __future__ import annotations

import shlex
from collections.abc import Callable
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


def table_command(
    command: str | None, ssh: Callable[..., str]
) -> tuple[str | None, str | None, str | None]:
    """`table ...` -> ('table', None, the rest); `join CODE ...` -> ('join', CODE, the
    rest), and `watch CODE ...` likewise; `resume [CODE] ...` -> ('resume', CODE or
    None, the rest); anything else -> (None, None, command), for game_options. `ssh`
    writes how the player reaches the server ('ssh -t -p 2222 alice@host'; with
    terminal=False, no -t), for the sentence that says how to ask."""
    first, _, rest = (command or "").strip().partition(" ")
    if first == "table":
        return "table", None, rest  # its terms (colour, clock, variant) are read by table_terms
    if first == "resume":
        return ("resume", *resume_code(rest))
    if first == "play":
        return "play", None, rest  # its terms (clock, variant, guests) are read by play_terms
    if first in ("join", "watch"):
        code, _, rest = rest.strip().partition(" ")
        if not code:
            raise SessionRefused(f"{first} needs the table's code: {ssh()} {first} CODE", 2)
        return first, code, rest
    return None, None, command


def resume_code(rest: str) -> tuple[str | None, str]:
    """`resume`'s code, if one is named (else None: the player's one adjourned game),
    and the look options after it."""
    code, _, after = rest.strip().partition(" ")
    if code and not code.startswith("-") and code not in _LOOKS:
        return code, after
    return None, rest


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
