"""What a player may ask for after the host, as one table (`COMMANDS`): the
session reads its SSH command once through it (`read_command`, into one of
session_command.py's kinds or a `Printed`), and `ssh host help` lists it, so
the two cannot drift apart.

A command with an `answer` prints plain lines and ends (no terminal, no seat):
`help`, `lobby`, `top`, `player`, `replay`, `keys`, `tournaments`. One with a
`read` starts a game on the player's terminal (`table`, `join`, `watch`,
`resume`, `play`); `replay ID` has both: with a terminal the game opens the
archived game, to review and analyse; and `tournament`, whose `join ID` with a
terminal waits in the tournament between its games. Nothing, or only game
options, is the player's own game; anything else gets `help`'s list after one
sentence naming the mistake.

A new command that prints lines is one row of `COMMANDS` whose `answer` (in a
module of its own, given an `Asker`) returns its lines and exit status.
"""

from __future__ import annotations

import difflib
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from ...core import ReversiError
from ...net.terms import USAGE as TABLE_USAGE
from ...net.terms import USUAL_CLOCKS
from ...net.typed_number import typed_number
from ...storage import StorageError
from ..ledger.moderation import REPORT_REASONS
from .asker import Asker
from .mod_commands import mod
from .roster import lobby_lines
from .safety_commands import block, blocks, report, unblock
from .session_command import (
    GAME_OPTIONS,
    PLAY_USAGE,
    TABLE_OPTIONS,
    Join,
    JoinTournament,
    NewTable,
    OwnGame,
    Play,
    Replay,
    Resume,
    Started,
    Watch,
    game_options,
    read_join,
    read_play,
    read_replay,
    read_resume,
    read_table,
    read_watch,
)
from .standings_pages import (
    GAME_ID_DIGITS,
    PROFILE_GAMES,
    TOP_COUNT,
    leaderboard_lines,
    profile_lines,
)
from .tournament_commands import (
    TOURNAMENT_TERMS,
    read_tournament,
    tournament_answer,
    tournaments_answer,
)

# How wide help's column of commands and their terms is (longer ones get a line of their own).
HELP_COLUMN = 28
# `top N` lists at most this many (TOP_COUNT without a number); N is read from at
# most TOP_DIGITS digits (leading zeros allowed).
TOP_MOST = 200
TOP_DIGITS = 6


# What a command prints, and its exit status (awaited: most ask the store).
Answer = Callable[[Asker, list[str]], Awaitable[tuple[list[str], int]]]


# What starts a game on the player's terminal, read from the words after the
# command's name and the hint 'ssh -t -p 2222 alice@host' for its refusals; None
# if those words ask for its printed lines (`tournament ID`, with a terminal too).
Reader = Callable[[str, str], Started | None]


@dataclass(frozen=True, slots=True)
class Command:
    """One thing a player may ask for: `ssh [-t] host NAME TERMS`."""

    name: str
    terms: str  # what may follow the name, as help shows it
    says: str  # one line: what it does
    answer: Answer | None = None  # its plain lines
    # What it starts on a terminal; with an answer too (replay), only with ssh -t.
    read: Reader | None = None


@dataclass(frozen=True, slots=True)
class Printed:
    """A command that prints lines and ends, with the words after its name."""

    command: Command
    words: tuple[str, ...]


# What a session is asked for: one of these, read once by read_command.
Asked = OwnGame | NewTable | Join | Watch | Resume | Play | Replay | JoinTournament | Printed


class CommandRefused(ReversiError):
    """A command asked for wrongly, in one sentence; help's list follows it."""


async def _help(asker: Asker, words: list[str]) -> tuple[list[str], int]:
    return help_lines(asker), 0


async def _lobby(asker: Asker, words: list[str]) -> tuple[list[str], int]:
    if words:
        return [f"tui-reversi: lobby takes nothing after it: {asker.ssh(terminal=False)} lobby"], 2
    return await lobby_lines(asker.server, asker.player, asker.ssh()), 0


async def _keys(asker: Asker, words: list[str]) -> tuple[list[str], int]:
    return await asker.keys(words)


async def _top(asker: Asker, words: list[str]) -> tuple[list[str], int]:
    count = typed_number(words[0], TOP_DIGITS) if len(words) == 1 else TOP_COUNT
    if len(words) > 1 or count is None or not 1 <= count <= TOP_MOST:
        usage = f"{asker.ssh(terminal=False)} top 50"
        return [f"tui-reversi: top takes a number of players (1-{TOP_MOST}): {usage}"], 2
    store = asker.server.store
    try:
        standings = await store.leaderboard(count)
    except StorageError as error:
        return [f"tui-reversi: the leaderboard cannot be read: {error}"], 1
    return leaderboard_lines(standings), 0


async def _player(asker: Asker, words: list[str]) -> tuple[list[str], int]:
    if len(words) != 1:
        return [f"tui-reversi: player takes one name: {asker.ssh(terminal=False)} player NAME"], 2
    name = words[0][:40]
    store = asker.server.store
    try:
        profile = await store.profile(name, PROFILE_GAMES)
    except StorageError as error:
        return [f"tui-reversi: {name}'s games cannot be read: {error}"], 1
    if profile is None:
        return [f"tui-reversi: nobody called {name!r} has finished a game here."], 1
    return profile_lines(profile, asker.ssh()), 0


async def _replay(asker: Asker, words: list[str]) -> tuple[list[str], int]:
    ggf, refusal, status = await replay_ggf(asker, words)
    return [ggf] if ggf is not None else [refusal], status


async def replay_ggf(asker: Asker, words: list[str]) -> tuple[str | None, str, int]:
    """`replay ID`'s game as GGF (`words`: the ID), or None, why not (one sentence)
    and the exit status."""
    game_id = typed_number(words[0], GAME_ID_DIGITS) if len(words) == 1 else None
    if game_id is None:
        usage = f"{asker.ssh(terminal=False)} replay 1234"
        return None, f"tui-reversi: replay takes a game's number: {usage}", 2
    store = asker.server.store
    try:
        archived = await store.archived_game(game_id)
    except StorageError as error:
        return None, f"tui-reversi: game {words[0]} cannot be read: {error}", 1
    if archived is None:
        return None, f"tui-reversi: there is no game {words[0]} in this server's archive.", 1
    try:
        return archived.ggf(), "", 0
    except ReversiError as error:
        return None, f"tui-reversi: game {archived.id} cannot be read back: {error}", 1


COMMANDS: tuple[Command, ...] = (
    Command(
        "table",
        TABLE_USAGE.removeprefix("table ").partition(", then")[0],
        "open a table; others join it",
        read=read_table,
    ),
    Command("join", "CODE", "sit down at an open table, or back at your seat", read=read_join),
    Command("watch", "CODE", "watch a table's game", read=read_watch),
    Command(
        "resume", "[CODE]", "go on with an adjourned game (no ssh -t: list them)", read=read_resume
    ),
    Command(
        "play",
        PLAY_USAGE.removeprefix("play ").removesuffix(", then look options"),
        "be paired with someone rated close, at a new table",
        read=read_play,
    ),
    Command("lobby", "", "who is here, the tables, and your record", _lobby),
    Command("top", "[N]", f"the leaderboard, the best N (default {TOP_COUNT})", _top),
    Command("player", "NAME", "a player's rating, its history, record and last games", _player),
    Command(
        "replay",
        "ID",
        "an archived game to review (no ssh -t: its GGF)",
        _replay,
        read=read_replay,
    ),
    Command(
        "keys",
        "[add [CODE] | remove FINGERPRINT | web [list | remove ID]]",
        "your SSH keys; web: a link to bind a browser to you",
        _keys,
    ),
    Command("tournaments", "", "the tournaments coming, running and finished", tournaments_answer),
    Command(
        "tournament",
        TOURNAMENT_TERMS,
        "make an arena or a Swiss, join one (ssh -t), or see its standings",
        tournament_answer,
        read=read_tournament,
    ),
    Command("block", "NAME", "no invitations, chat or pairing between you and NAME", block),
    Command("unblock", "NAME", "take a block back", unblock),
    Command("blocks", "", "the names you block", blocks),
    Command(
        "report",
        f"NAME {'|'.join(REPORT_REASONS)} [words]",
        "tell the server's moderators, with a reason",
        report,
    ),
    Command("mod", "WHAT ...", "for moderators: reports, ban, mute, log... (mod help)", mod),
    Command("help", "", "this list", _help),
)


def command_named(name: str) -> Command | None:
    """The command called `name`, if there is one."""
    return next((command for command in COMMANDS if command.name == name), None)


def read_command(command: str | None, *, terminal: bool, ssh: str) -> Asked:
    """What the SSH command `command` asks for, read once: a game to start (with
    `terminal`, the player asked for one) or lines to print. `ssh` is how the
    player reaches the server ('ssh -t -p 2222 alice@host'), for a refusal that
    says how to ask. A mistake raises SessionRefused (a word of a known command,
    or an option) or CommandRefused (an unknown command), in one sentence."""
    text = (command or "").strip()
    first = text.split()[:1]
    named = command_named(first[0]) if first else None
    if named is None:
        _check_options(first[0] if first else "")
        return OwnGame(tuple(game_options(text)))
    rest = text[len(first[0]) :]
    started = named.read(rest, ssh) if named.read and (terminal or not named.answer) else None
    return started if started is not None else Printed(named, tuple(rest.split()))


def _check_options(word: str) -> None:
    """Raise CommandRefused unless `word`, the first of the command, is nothing or a
    game option, with the closest command or option named."""
    name = word.partition("=")[0]
    if not word or f"--{name.removeprefix('--')}" in GAME_OPTIONS:
        return
    known = [command.name for command in COMMANDS] + [flag[2:] for flag in GAME_OPTIONS]
    close = difflib.get_close_matches(name.removeprefix("--"), known, n=1)
    guess = f"; did you mean {close[0]}?" if close else "."
    raise CommandRefused(f"{word[:20]!r} is neither a command nor a game option here{guess}")


def help_lines(asker: Asker) -> list[str]:
    """`ssh host help`: every command with its terms and one line, then the options."""
    lines = ["tui-reversi: what you may ask for after the host"]
    for command in COMMANDS:
        call = f"{command.name} {command.terms}".strip()
        if len(call) <= HELP_COLUMN:
            lines.append(f"  {call:<{HELP_COLUMN}}  {command.says}")
        else:  # (long terms: what it does under them, in its column)
            lines += [f"  {call}", f"  {'':<{HELP_COLUMN}}  {command.says}"]
    looks = ", ".join(
        f"{flag[2:]} {GAME_OPTIONS[flag]}" if GAME_OPTIONS[flag] else flag[2:]
        for flag in TABLE_OPTIONS
    )
    own = ", ".join(
        f"{flag[2:]} {value}" if value else flag[2:]
        for flag, value in GAME_OPTIONS.items()
        if flag not in TABLE_OPTIONS
    )
    lines += [
        f"Clocks: minutes each + seconds a move: {' '.join(USUAL_CLOCKS)}, or none",
        f"Look options (after any game's command): {looks}",
        f"Nothing, or only options, starts your own game: {own}",
        f"A game needs a terminal: {asker.ssh()} table; the rest prints lines: "
        f"{asker.ssh(terminal=False)} top",
    ]
    return lines
