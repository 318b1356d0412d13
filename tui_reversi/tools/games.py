"""`tui-reversi games`: the saved games from the shell.

    tui-reversi games list                       name, date, players, result, moves
    tui-reversi games export NAME [--format ggf|transcript|board|json]
    tui-reversi games export --autosave          the game in progress
    tui-reversi games import FILE|- --name NAME [--replace]

Export writes to stdout (GGF by default, which NBoard and Edax open); import
reads any format `--load` reads. A bad name or file: one line, exit status 2.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from ..storage import (
    Autosave,
    SavedGame,
    SavedGames,
    StorageError,
    export_ggf,
    export_position,
    export_transcript,
    load_game_argument,
)

FORMATS = {
    "ggf": export_ggf,
    "transcript": export_transcript,
    "board": export_position,
    "json": lambda record: record.to_json().rstrip("\n"),
}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    actions.add_parser("list", help="list the saved games", description="List the saved games.")
    export = actions.add_parser(
        "export", help="print a saved game", description="Print a saved game to stdout."
    )
    export.add_argument("name", nargs="?", help="the saved game's name")
    export.add_argument(
        "--autosave", action="store_true", help="export the game in progress instead"
    )
    export.add_argument(
        "--format", choices=sorted(FORMATS), default="ggf", help="ggf (default), transcript, ..."
    )
    imported = actions.add_parser(
        "import",
        help="save a game file under a name",
        description="Save a game (GGF, transcript, board string, saved game) under a name.",
    )
    imported.add_argument("file", metavar="FILE|-", help="the file, or - for standard input")
    imported.add_argument("--name", required=True, help="the name to save it under")
    imported.add_argument("--replace", action="store_true", help="replace a game of that name")


def run(args: argparse.Namespace) -> int:
    games = SavedGames()
    if args.action == "list":
        return _list(games)
    if args.action == "export":
        record = _chosen(args, games)
        _say_unread(record)
        print(FORMATS[args.format](record))
        return 0
    record = load_game_argument(args.file)
    _say_unread(record)
    entry = games.save(record, args.name, replace=args.replace)
    print(f"saved {entry.name!r} ({entry.moves} moves) as {entry.path}")
    return 0


def _say_unread(record: SavedGame) -> None:
    """What the reader left out of the game's analysis, on stderr: the rest goes on."""
    if record.analysis.unread:
        print(f"tui-reversi games: {record.analysis.unread}.", file=sys.stderr)


def _chosen(args: argparse.Namespace, games: SavedGames) -> SavedGame:
    if args.autosave and args.name is not None:
        raise StorageError("export takes a saved game's name or --autosave, not both")
    if not args.autosave and args.name is None:
        raise StorageError(
            "export needs a saved game's name (games list shows them), "
            "or --autosave for the game in progress"
        )
    if args.name is not None:
        return games.load(args.name)
    outcome = Autosave().load()
    if outcome.problem:
        raise StorageError(outcome.problem)
    if outcome.record is None:
        raise StorageError("there is no autosaved game")
    return outcome.record


def _list(games: SavedGames) -> int:
    entries = games.list()
    if not entries:
        print(f"no saved games in {games.directory}", file=sys.stderr)
        return 0
    from rich.table import Table

    from .console import ToolConsole

    rows = [
        (
            entry.name,
            entry.updated.astimezone().strftime("%Y-%m-%d %H:%M"),
            entry.players if entry.readable else "",
            str(entry.moves) if entry.readable else "",
            entry.status,
        )
        for entry in entries
    ]
    # No markup: names are shown as written.
    console = ToolConsole(markup=False, emoji=False, highlight=False)
    name, players, result = _fitted_widths(rows, console.width)
    # A game a line, as wide as the terminal: what does not fit is cut with an
    # ellipsis (the name last), rather than folded onto more lines.
    table = Table(box=None, pad_edge=False, header_style="bold", expand=False)
    table.add_column("Name", no_wrap=True, overflow="ellipsis", width=name)
    table.add_column("Saved", no_wrap=True)
    table.add_column("Players", no_wrap=True, overflow="ellipsis", width=players)
    table.add_column("Moves", justify="right", no_wrap=True)
    table.add_column("Result", no_wrap=True, overflow="ellipsis", width=result)
    for row in rows:
        table.add_row(*row)
    console.print(table)
    return 0


# The list's columns: the date and the moves always whole; the players and the
# result give way down to SHORTEST before the name goes below NAME_ROOM.
SAVED_WIDTH = len("2026-12-07 12:00")
MOVES_WIDTH = len("Moves")
GAPS = 2 * 4  # between the five columns
SHORTEST = 9
NAME_ROOM = 16


def _fitted_widths(rows: Sequence[tuple[str, ...]], width: int) -> tuple[int, int, int]:
    """The widths of the name, players and result columns in `width` columns:
    each as its longest text where they fit."""
    name, players, result = (
        max(len(heading), *(len(row[column]) for row in rows))
        for heading, column in (("Name", 0), ("Players", 2), ("Result", 4))
    )
    room = width - SAVED_WIDTH - MOVES_WIDTH - GAPS
    for _ in range(2):  # the players first, then the result, as far as needed
        over = players + result + min(name, NAME_ROOM) - room
        if over <= 0:
            break
        if players > SHORTEST:
            players = max(SHORTEST, players - over)
        else:
            result = max(SHORTEST, result - over)
    return max(4, min(name, room - players - result)), players, result
