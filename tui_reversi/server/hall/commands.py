"""What a player may ask for after the host, as one table (`COMMANDS`): the
session's dispatcher (ssh_session.py) reads it to know a command, and
`ssh host help` reads it to list them, so the two cannot drift apart.

A command with an `answer` prints plain lines and ends (no terminal, no seat):
`help`, `lobby`, `top`, `player`, `replay`, `keys`. One without starts a game
on the player's terminal (`table`, `join`, `watch`, `resume`, `play`), read by
session_command.py; `replay ID` with a terminal opens the archived game in
the game, to review and analyse (ssh_session.py gives it its GGF). Anything
else that is not a game option gets `help`'s list after one sentence naming
the mistake.
"""

from __future__ import annotations

import difflib
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Protocol

from ...core import ReversiError
from ...net.terms import USAGE as TABLE_USAGE
from ...net.terms import USUAL_CLOCKS
from ...net.typed_number import typed_number
from ...storage import StorageError
from .roster import Server, lobby_lines
from .session_command import GAME_OPTIONS, PLAY_USAGE, TABLE_OPTIONS
from .standings_pages import (
    GAME_ID_DIGITS,
    PROFILE_GAMES,
    TOP_COUNT,
    leaderboard_lines,
    profile_lines,
)
from .tournament_commands import TOURNAMENT_TERMS, tournament_answer, tournaments_answer

# How wide help's column of commands and their terms is (longer ones get a line of their own).
HELP_COLUMN = 28
# `top N` lists at most this many (TOP_COUNT without a number); N is read from at
# most TOP_DIGITS digits (leading zeros allowed).
TOP_MOST = 200
TOP_DIGITS = 6


class Asker(Protocol):
    """The session a command answers (ssh_session.py's `GameSession`)."""

    @property
    def player(self) -> str:
        """The asker's name as the store knows it."""

    @property
    def server(self) -> Server:
        """The running server."""

    def ssh(self, *, terminal: bool = True) -> str:
        """'ssh -t -p 2222 alice@host': how the asker reaches the server (no -t without
        `terminal`), for a hint ready to paste."""

    async def keys(self, words: list[str]) -> tuple[list[str], int]:
        """What `keys ...` (`words` after `keys`) says, and the exit status."""


# What a command prints, and its exit status (awaited: most ask the store).
Answer = Callable[[Asker, list[str]], Awaitable[tuple[list[str], int]]]


@dataclass(frozen=True, slots=True)
class Command:
    """One thing a player may ask for: `ssh [-t] host NAME TERMS`."""

    name: str
    terms: str  # what may follow the name, as help shows it
    says: str  # one line: what it does
    answer: Answer | None  # its plain lines; None: it starts a game (needs ssh -t)
    # With a terminal, it opens a game's screen instead of printing (replay: the
    # archived game, to review); answer's lines are for ssh without -t.
    screen: bool = False


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
    store = asker.server.archive
    if store is None:
        return ["tui-reversi: this server keeps no ratings."], 1
    try:
        standings = await store.leaderboard(count)
    except StorageError as error:
        return [f"tui-reversi: the leaderboard cannot be read: {error}"], 1
    return leaderboard_lines(standings), 0


async def _player(asker: Asker, words: list[str]) -> tuple[list[str], int]:
    if len(words) != 1:
        return [f"tui-reversi: player takes one name: {asker.ssh(terminal=False)} player NAME"], 2
    name = words[0][:40]
    store = asker.server.archive
    if store is None:
        return ["tui-reversi: this server keeps no games."], 1
    try:
        profile = await store.profile(name, PROFILE_GAMES)
    except StorageError as error:
        return [f"tui-reversi: {name}'s games cannot be read: {error}"], 1
    if profile is None:
        return [f"tui-reversi: nobody called {name!r} has finished a game here."], 1
    return profile_lines(profile, asker.ssh()), 0


async def _tournaments(asker: Asker, words: list[str]) -> tuple[list[str], int]:
    return await tournaments_answer(asker, asker.server.archive, words)


async def _tournament(asker: Asker, words: list[str]) -> tuple[list[str], int]:
    return await tournament_answer(asker, asker.server.archive, words)


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
    store = asker.server.archive
    if store is None:
        return None, "tui-reversi: this server keeps no games.", 1
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
        None,
    ),
    Command("join", "CODE", "sit down at an open table, or back at your seat", None),
    Command("watch", "CODE", "watch a table's game", None),
    Command("resume", "[CODE]", "go on with an adjourned game (no ssh -t: list them)", None),
    Command(
        "play",
        PLAY_USAGE.removeprefix("play ").removesuffix(", then look options"),
        "be paired with someone rated close, at a new table",
        None,
    ),
    Command("lobby", "", "who is here, the tables, and your record", _lobby),
    Command("top", "[N]", f"the leaderboard, the best N (default {TOP_COUNT})", _top),
    Command("player", "NAME", "a player's rating, its history, record and last games", _player),
    Command(
        "replay", "ID", "an archived game to review (no ssh -t: its GGF)", _replay, screen=True
    ),
    Command(
        "keys",
        "[add [CODE] | remove FINGERPRINT | web [list | remove ID]]",
        "your SSH keys; web: a link to bind a browser to you",
        _keys,
    ),
    Command("tournaments", "", "the tournaments coming, running and finished", _tournaments),
    Command(
        "tournament",
        TOURNAMENT_TERMS,
        "make an arena or a Swiss, join one (ssh -t), or see its standings",
        _tournament,
    ),
    Command("help", "", "this list", _help),
)


def command_named(name: str) -> Command | None:
    """The command called `name`, if there is one."""
    return next((command for command in COMMANDS if command.name == name), None)


def check_command(command: str | None) -> None:
    """Raise CommandRefused unless `command` is empty, starts with a command's name,
    or is game options (which session_command.game_options reads)."""
    first = (command or "").split()[:1]
    if not first or command_named(first[0]) is not None:
        return
    word = first[0]
    name = word.partition("=")[0]
    if f"--{name.removeprefix('--')}" in GAME_OPTIONS:
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
