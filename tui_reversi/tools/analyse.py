"""`tui-reversi analyse FILE`: every move of a game scored, mistakes marked.

    tui-reversi analyse game.ggf                  a table, a summary per player
    tui-reversi analyse game.ggf --format json    one object per move played
    tui-reversi analyse - --time 2 < game.txt     two seconds per position

Reads any file the game loads (GGF, transcript, board string, saved game);
moves a saved game already has an analysis of are not searched again.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import TextIO

from ..core import Color, Game, ReversiError, Variant
from ..core.openings import game_opening
from ..players.analysis import (
    DEFAULT_TIME,
    GameAnalysis,
    MoveAnalysis,
    analyse_game,
    costliest_moves,
    deciding_moves,
    summarise,
    turning_point,
)
from ..players.base import Limit
from ..storage import load_game_argument

FORMATS = ("table", "json")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", metavar="FILE|-", help="the game, or - for standard input")
    parser.add_argument(
        "--time",
        type=float,
        default=DEFAULT_TIME,
        metavar="S",
        help=f"seconds per position (default {DEFAULT_TIME})",
    )
    parser.add_argument(
        "--format", choices=FORMATS, default="table", help="table (default) or json"
    )
    parser.add_argument(
        "--variant",
        choices=[v.value for v in Variant],
        help="the variant of a transcript (default othello)",
    )


def run(args: argparse.Namespace) -> int:
    if not args.time > 0 or args.time == float("inf"):
        raise ReversiError(f"--time must be a positive number of seconds, not {args.time}")
    record = load_game_argument(args.file, variant=args.variant)
    game = record.to_game()
    game.go_to(game.length)
    analysis = record.analysis.kept_for(game)
    if analysis.unread:
        print(f"tui-reversi analyse: {analysis.unread}; searched again.", file=sys.stderr)
    progress = sys.stderr if sys.stderr.isatty() else None
    total = sum(1 for move in game.played if move)
    for scored in analyse_game(game, Limit(time=args.time), skip=analysis):
        analysis = analysis.with_move(scored)
        if progress is not None:
            done = sum(1 for m in analysis.moves if m.complete)
            progress.write(f"\ranalysing: {done} of {total} moves")
            progress.flush()
    if progress is not None:
        progress.write("\r\033[K")
    if args.format == "json":
        rows = [m.as_json(game.move_number(m.ply)) for m in analysis.moves if m.complete]
        print(json.dumps(rows, indent=1))
    elif not total:
        print("The game has no moves to analyse.")
    else:
        print_table(game, analysis, sys.stdout)
    return 0


def _score(value: float | None, exact: bool) -> str:
    if value is None:
        return ""
    return f"{value:+.0f}" if exact else f"{value:+.1f}"


def print_table(game: Game, analysis: GameAnalysis, out: TextIO) -> None:
    """The annotated game as a rich table, then the opening, the summary per
    player and the turning point."""
    from rich.table import Table
    from rich.text import Text

    from .console import ToolConsole

    table = Table(title="Every move scored (disc margins for the side that moved; = exact)")
    for heading, justify in (
        ("no.", "right"),
        ("side", "left"),
        ("move", "left"),
        ("score", "right"),
        ("best", "left"),
        ("its score", "right"),
        ("loss", "right"),
        ("", "left"),
    ):
        table.add_column(heading, justify=justify)  # type: ignore[arg-type]
    styles = {"inaccuracy": "yellow", "mistake": "dark_orange", "blunder": "bold red"}
    for scored in analysis.moves:
        label = scored.label or ""
        exact = "=" if scored.exact else ""
        table.add_row(
            str(game.move_number(scored.ply)),
            scored.side.label,
            str(scored.move),
            _score(scored.played_score, scored.exact) + exact,
            "" if scored.best is None or scored.best == scored.move else str(scored.best),
            _score(scored.best_score, scored.exact) + exact,
            ""
            if not scored.loss
            else f"{scored.loss:.0f}"
            if scored.exact
            else f"{scored.loss:.1f}",
            Text(label, style=styles.get(label, "")),
        )
    console = ToolConsole(file=out, highlight=False)
    console.print(table)
    found = game_opening(game)
    if found is not None:
        console.print(Text(f"Opening: {found.name}"))
    for side in Color:
        console.print(Text(summarise(analysis, side).describe()))
    turning = turning_point(analysis, game.result)
    if turning is not None:
        console.print(Text(describe_turning_point(game, turning)))
    for scored, reason in deciding_moves(analysis, game, game.result):
        console.print(Text(f"Deciding: {describe_mistake(game, scored, reason)}"))
    for side in Color:
        costliest = costliest_moves(analysis, game, side)
        if costliest:
            console.print(Text(f"{side.label}'s costliest moves:"))
        for scored, reason in costliest:
            console.print(Text(f"  {describe_mistake(game, scored, reason)}"))


def describe_mistake(game: Game, scored: MoveAnalysis, reason: str | None) -> str:
    """'move 10, White g2 (blunder, 13.6 discs): an X-square next to the empty
    h1 corner.', numbered as the move log numbers the moves of `game`."""
    number = game.move_number(scored.ply)
    text = f"move {number}, {scored.side.label} {scored.move}"
    text += f" ({scored.label}, {scored.loss:g} discs)"
    return f"{text}: {reason}." if reason else f"{text}."


def describe_turning_point(game: Game, turning: MoveAnalysis) -> str:
    """'Turning point: move 23, White b2 (best was g6, 8.5 discs better)',
    numbered as the move log numbers the moves of `game`."""
    number = game.move_number(turning.ply)
    text = f"Turning point: move {number}, {turning.side.label} {turning.move}"
    if turning.best is not None and turning.best != turning.move and turning.loss:
        return f"{text} (best was {turning.best}, {turning.loss:g} discs better)."
    return f"{text}."
