"""`tui-reversi arena A B`: play two opponents against each other and report.

Each side is a level (easy, medium, hard, expert) or an outside engine,
`cmd:COMMAND`, that speaks the line protocol in docs/engine.md. Games start from
a seeded set of distinct, roughly balanced opening positions (random plies
from the start, one per symmetry class), each played twice with the colours
swapped. Prints W/D/L for A, its score and the Elo difference with a 95 %
interval, the average disc margin, and each side's average and longest
time per move.
"""

from __future__ import annotations

import argparse
import math
import random
import time
from dataclasses import dataclass, field

from ..core import ReversiError

Z95 = 1.959964  # two-sided 95 % normal quantile


# -- statistics (pure, unit-tested) ---------------------------------------------


def elo_from_score(score: float) -> float:
    """The Elo difference that predicts `score` (0..1) for the first player."""
    if score <= 0:
        return -math.inf
    if score >= 1:
        return math.inf
    return -400 * math.log10(1 / score - 1)


def score_interval(wins: int, draws: int, losses: int, z: float = Z95) -> tuple[float, float]:
    """Confidence interval of the expected score per game.

    Normal approximation with the games' own variance (draws count half);
    when every game had the same result that variance is zero, so the
    Wilson interval is used instead, which stays honest at 0 % and 100 %.
    """
    n = wins + draws + losses
    if n == 0:
        return 0.0, 1.0
    p = (wins + draws / 2) / n
    variance = (wins * (1 - p) ** 2 + draws * (0.5 - p) ** 2 + losses * p**2) / n
    if variance > 0:
        half = z * math.sqrt(variance / n)
        return max(0.0, p - half), min(1.0, p + half)
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def elo_interval(wins: int, draws: int, losses: int, z: float = Z95) -> tuple[float, float]:
    """The score interval as Elo differences."""
    low, high = score_interval(wins, draws, losses, z)
    return elo_from_score(low), elo_from_score(high)


def format_elo(elo: float) -> str:
    if math.isinf(elo):
        return "+inf" if elo > 0 else "-inf"
    return f"{round(elo):+d}"  # an even score is +0, never -0


# -- openings --------------------------------------------------------------------


def canonical(black: int, white: int, to_move: int) -> tuple[int, int, int]:
    """One representative of a position's eight symmetric images."""
    from ..core.bitboard import symmetries

    return (*min(zip(symmetries(black), symmetries(white), strict=True)), to_move)


def make_openings(count: int, plies: int, seed: int, variant, balance: float = 2.0) -> list[str]:
    """`count` transcripts of `plies` random moves from the variant's start,
    distinct up to symmetry, whose shallow search score is within `balance`
    discs of even. Seeded: the same arguments give the same openings."""
    from ..core import Game
    from ..players.alphabeta_player import engine_for

    rng = random.Random(seed)
    engine = engine_for(variant)
    seen: set[tuple[int, int, int]] = set()
    openings: list[str] = []
    attempts = 0
    while len(openings) < count:
        attempts += 1
        if attempts > 200 * count + 1000:
            raise ReversiError(
                f"could not find {count} distinct balanced openings of {plies} plies; "
                "try more --opening-plies or fewer games"
            )
        game = Game(variant)
        while game.length < plies and not game.is_over:
            game.play(rng.choice(game.position.legal_moves()))
        position = game.position
        if game.is_over or position.in_opening_placement:
            continue
        key = canonical(position.black, position.white, int(position.to_move))
        if key in seen:
            continue
        seen.add(key)
        result = engine.search(position.own, position.opp, max_depth=4, exact_empties=0)
        if abs(result.score) <= balance * 100:
            openings.append(game.transcript())
    return openings


# -- one game --------------------------------------------------------------------


@dataclass
class Side:
    """How to build one contestant, picklable for worker processes."""

    spec: str  # a level or "cmd:COMMAND"
    time_limit: float | None

    @property
    def label(self) -> str:
        return self.spec if self.time_limit is None else f"{self.spec}@{self.time_limit:g}s"

    @property
    def limit(self):
        """How far it thinks about each move: the time asked for, else its
        level's own (an outside engine's is one second)."""
        from ..players.base import Limit
        from ..players.kinds import player_kind

        if self.time_limit is not None:
            return Limit(time=self.time_limit)
        if self.spec.startswith("cmd:"):
            return Limit()
        return player_kind(self.spec.partition(":")[0]).limit

    def build(self, variant, seed: int):
        from ..players import create_player
        from ..players.external import ExternalPlayer

        if self.spec.startswith("cmd:"):
            key = (self.spec, variant)
            if key not in _external:
                _external[key] = ExternalPlayer(self.spec[4:], variant)
            return _external[key]
        level, _, evaluation = self.spec.partition(":")
        return create_player(level, variant=variant, seed=seed, evaluation=evaluation or None)

    def discard(self, variant) -> None:
        """After a forfeit: an outside engine is stopped, and the next game
        starts a fresh one. An answer it sends late, or a second answer to
        one request, would otherwise be read as its first move there."""
        engine = _external.pop((self.spec, variant), None)
        if engine is not None:
            engine.close()


_external: dict = {}  # outside engines, one per worker process, kept between games


@dataclass
class GameTask:
    number: int
    opening: str
    a_is_black: bool
    a: Side
    b: Side
    variant: str
    seed: int


@dataclass
class GameRecord:
    number: int
    opening: str
    a_is_black: bool
    transcript: str = ""
    result: str = ""
    score_a: float = 0.0  # 1 win, 0.5 draw, 0 loss
    margin_a: int = 0  # A's final margin (WOF); in anti, how many fewer discs
    black_discs: int = 0
    white_discs: int = 0
    times_a: list[float] = field(default_factory=list)
    times_b: list[float] = field(default_factory=list)
    forfeit: str = ""


def play_game(task: GameTask) -> GameRecord:
    """Play one game from its opening; a side that fails loses the game."""
    from ..core import Color, Game, Variant

    variant = Variant.parse(task.variant)
    game = Game.from_transcript(task.opening, variant)
    a = task.a.build(variant, task.seed)
    b = task.b.build(variant, task.seed + 1)
    record = GameRecord(task.number, task.opening, task.a_is_black)
    a_colour = Color.BLACK if task.a_is_black else Color.WHITE
    while not game.is_over:
        mover_is_a = game.position.to_move == a_colour
        player, limit = (a, task.a.limit) if mover_is_a else (b, task.b.limit)
        started = time.perf_counter()
        try:
            move = player.choose_move(game.position, limit)
            (record.times_a if mover_is_a else record.times_b).append(time.perf_counter() - started)
            if not move:
                raise ReversiError("it passed with a legal move")
            game.play(move)
        except ReversiError as error:
            (task.a if mover_is_a else task.b).discard(variant)
            record.forfeit = f"{'A' if mover_is_a else 'B'} forfeits: {error}"
            record.score_a = 0.0 if mover_is_a else 1.0
            record.margin_a = -64 if mover_is_a else 64
            record.transcript = game.transcript()
            record.result = record.forfeit
            return record
    result = variant.result(game.position)
    record.transcript = game.transcript()
    record.result = str(result)
    record.black_discs = result.black_discs
    record.white_discs = result.white_discs
    margin = result.margin if task.a_is_black else -result.margin
    if variant.fewer_discs_win:
        # WOF scores give the empties to the winner; count the margin as
        # "how many fewer discs A has", positive when A wins.
        lead = result.white_discs - result.black_discs
        if not task.a_is_black:
            lead = -lead
        empties = 64 - result.black_discs - result.white_discs
        margin = lead + (empties if lead > 0 else -empties if lead < 0 else 0)
    record.margin_a = margin
    winner_a = result.winner == a_colour
    record.score_a = 0.5 if result.winner is None else 1.0 if winner_a else 0.0
    return record


# -- the command ------------------------------------------------------------------


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "a",
        metavar="A",
        help="first side: easy, medium, hard, expert (hard:trained or hard:handmade picks "
        "the evaluation) or cmd:COMMAND",
    )
    parser.add_argument("b", metavar="B", help="second side, likewise")
    parser.add_argument(
        "-n", "--games", type=int, default=100, help="games to play, even (default 100)"
    )
    parser.add_argument(
        "-j", "--jobs", type=int, default=1, help="games played at once, in processes (default 1)"
    )
    parser.add_argument("--variant", default="othello", help="othello, reversi or anti")
    parser.add_argument("--seed", type=int, default=1, help="seed for openings and players")
    parser.add_argument("--time", type=float, default=None, help="seconds per move for both sides")
    parser.add_argument("--time-a", type=float, default=None, help="seconds per move for A")
    parser.add_argument("--time-b", type=float, default=None, help="seconds per move for B")
    parser.add_argument(
        "--opening-plies", type=int, default=6, help="random plies in each opening (default 6)"
    )
    parser.add_argument(
        "--json", metavar="FILE", help="write one JSON line per game (transcript, result) to FILE"
    )
    parser.add_argument("--quiet", action="store_true", help="no progress bar")


def _check(args: argparse.Namespace):
    from ..core import Variant
    from ..players import LEVELS
    from ..players.alphabeta_player import EVALUATIONS

    variant = Variant.parse(args.variant)
    for spec in (args.a, args.b):
        if spec.startswith("cmd:"):
            continue
        level, colon, evaluation = spec.strip().lower().partition(":")
        if level not in LEVELS:
            raise ReversiError(f"unknown side {spec!r}: use {', '.join(LEVELS)} or cmd:COMMAND")
        if colon and (level not in ("hard", "expert") or evaluation not in EVALUATIONS):
            raise ReversiError(
                f"unknown side {spec!r}: only hard and expert take an evaluation, "
                f"{' or '.join(EVALUATIONS)} (e.g. hard:trained)"
            )
        if spec.startswith("cmd:") and not spec[4:].strip():
            raise ReversiError("cmd: needs a command, e.g. 'cmd:python my_engine.py'")
    if args.games < 2 or args.games % 2:
        raise ReversiError(
            f"--games must be an even number of at least 2 (each opening is played "
            f"twice, colours swapped), not {args.games}"
        )
    if not 1 <= args.jobs <= 64:
        raise ReversiError(f"--jobs must be between 1 and 64, not {args.jobs}")
    if not 0 <= args.opening_plies <= 20:
        raise ReversiError(f"--opening-plies must be between 0 and 20, not {args.opening_plies}")
    for name in ("time", "time_a", "time_b"):
        value = getattr(args, name)
        if value is not None and not value > 0:
            raise ReversiError(f"--{name.replace('_', '-')} must be a positive number of seconds")
    if args.opening_plies == 0 and args.games > 2:
        raise ReversiError("with --opening-plies 0 there is one opening: use --games 2")
    return variant


def run(args: argparse.Namespace) -> int:
    import json
    import multiprocessing

    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
    from rich.table import Table

    from ..engine.build import engine_build
    from .console import ToolConsole

    variant = _check(args)
    console = ToolConsole(stderr=False)
    # Which engine our own levels run on (cmd: sides bring their own).
    console.print(f"tui-reversi arena, engine: {engine_build()}", highlight=False)
    a = Side(args.a.strip() if not args.a.startswith("cmd:") else args.a, args.time_a or args.time)
    b = Side(args.b.strip() if not args.b.startswith("cmd:") else args.b, args.time_b or args.time)
    openings = make_openings(args.games // 2, args.opening_plies, args.seed, variant)
    tasks = [
        GameTask(2 * i + swap, opening, swap == 0, a, b, variant.value, args.seed * 1000 + 2 * i)
        for i, opening in enumerate(openings)
        for swap in (0, 1)
    ]
    json_file = open(args.json, "w") if args.json else None  # noqa: SIM115 - kept open for the run
    records: list[GameRecord] = []
    pool = multiprocessing.get_context("fork").Pool(args.jobs) if args.jobs > 1 else None
    try:
        results = pool.imap_unordered(play_game, tasks) if pool else map(play_game, tasks)
        with Progress(
            TextColumn("[bold]{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            console=console,
            disable=args.quiet,
        ) as progress:
            bar = progress.add_task(f"{a.label} vs {b.label}", total=len(tasks))
            for record in results:
                records.append(record)
                if json_file:
                    json_file.write(json.dumps(_json_line(record, a, b, variant.value)) + "\n")
                    json_file.flush()
                w = sum(r.score_a == 1 for r in records)
                d = sum(r.score_a == 0.5 for r in records)
                lost = len(records) - w - d
                progress.update(
                    bar, advance=1, description=f"{a.label} vs {b.label}  +{w} ={d} -{lost}"
                )
    finally:
        if pool:
            pool.terminate()
        if json_file:
            json_file.close()
        for player in _external.values():
            player.close()
    _report(console, Table, records, a, b, variant.value, args)
    return 0


def _json_line(record: GameRecord, a: Side, b: Side, variant: str) -> dict:
    black, white = (a, b) if record.a_is_black else (b, a)
    return {
        "game": record.number,
        "variant": variant,
        "black": black.label,
        "white": white.label,
        "opening": record.opening,
        "transcript": record.transcript,
        "result": record.result,
        "black_discs": record.black_discs,
        "white_discs": record.white_discs,
        "score_a": record.score_a,
        "margin_a": record.margin_a,
        "forfeit": record.forfeit or None,
        # Thinking time, for bench/arena_tally.py's averages.
        "moves_a": len(record.times_a),
        "seconds_a": round(sum(record.times_a), 3),
        "longest_a": round(max(record.times_a, default=0.0), 3),
        "moves_b": len(record.times_b),
        "seconds_b": round(sum(record.times_b), 3),
        "longest_b": round(max(record.times_b, default=0.0), 3),
    }


def _report(console, Table, records, a, b, variant, args) -> None:
    wins = sum(r.score_a == 1 for r in records)
    draws = sum(r.score_a == 0.5 for r in records)
    losses = len(records) - wins - draws
    n = len(records)
    score = (wins + draws / 2) / n
    low, high = elo_interval(wins, draws, losses)
    times_a = [t for r in records for t in r.times_a]
    times_b = [t for r in records for t in r.times_b]
    table = Table(title=f"{a.label} vs {b.label}: {n} games of {variant}, seed {args.seed}")
    table.add_column("")
    table.add_column(f"A = {a.label}", justify="right")
    table.add_column(f"B = {b.label}", justify="right")
    table.add_row(
        "wins / draws / losses", f"{wins} / {draws} / {losses}", f"{losses} / {draws} / {wins}"
    )
    table.add_row("score", f"{100 * score:.1f} %", f"{100 * (1 - score):.1f} %")
    table.add_row(
        "Elo difference (95 %)",
        f"{format_elo(elo_from_score(score))} [{format_elo(low)}, {format_elo(high)}]",
        f"{format_elo(-elo_from_score(score))} [{format_elo(-high)}, {format_elo(-low)}]",
    )
    margin = sum(r.margin_a for r in records) / n
    table.add_row("average disc margin", f"{margin:+.1f}", f"{-margin:+.1f}")
    for label, times in (("average time per move", None), ("longest move", max)):
        cells = []
        for ts in (times_a, times_b):
            if not ts:
                cells.append("-")
            elif times is None:
                cells.append(f"{sum(ts) / len(ts):.3f} s")
            else:
                cells.append(f"{max(ts):.3f} s")
        table.add_row(label, *cells)
    forfeits = [r.forfeit for r in records if r.forfeit]
    console.print(table)
    for line in forfeits:
        console.print(f"[yellow]{line}[/]")
    # One plain summary line for scripts and notes.
    console.print(
        f"{a.label} vs {b.label}: +{wins} ={draws} -{losses}, score {100 * score:.1f} %, "
        f"Elo {format_elo(elo_from_score(score))} [{format_elo(low)}, {format_elo(high)}], "
        f"margin {margin:+.1f}, time/move A avg {_avg(times_a)} max {_max(times_a)}, "
        f"B avg {_avg(times_b)} max {_max(times_b)}",
        highlight=False,
        soft_wrap=True,
    )


def _avg(times: list[float]) -> str:
    return f"{sum(times) / len(times):.3f}s" if times else "-"


def _max(times: list[float]) -> str:
    return f"{max(times):.3f}s" if times else "-"
