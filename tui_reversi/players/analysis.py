"""Game analysis: every move of a game scored against the engine's best.

    for scored in analyse_game(game, Limit(time=0.8), cancelled=stop.is_set):
        print(scored.ply, scored.move, scored.best, scored.loss, scored.label)

`analyse_game` yields one `MoveAnalysis` per move played (passes have no
choice to judge), in game order, as soon as it is scored, so a caller can
show results while the rest is still being searched and stop at any time.
Each position is searched by the hard engine with every legal move in a full
window, so the played move and the best move are scored by the same search
at the same depth; from EXACT_EMPTIES empty squares down the position is
solved to the end instead and the scores are exact final disc margins.

`GameAnalysis` keeps a game's results together (saved with the game), and
`summarise` / `turning_point` / `evaluations` read them as a player wants to:
per side, where the result was decided, and as one curve.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass

from ..core import Color, Game, Move, Position, Result, Variant
from ..engine.evaluation import SCALE
from .alphabeta_player import analyse_position, engine_for, score_in_discs
from .base import CancelCheck, Limit

DEFAULT_TIME = 0.8  # seconds per position: a 60-move game in well under a minute
PER_POSITION = Limit(time=DEFAULT_TIME)
EXACT_EMPTIES = 14  # solved to the end from this many empty squares down
PV_PLIES = 6  # moves of the principal variation kept per position
PV_SHARE = 0.2  # of a position's budget, for following the principal variation

# Disc losses from which a move gets a label; why these, in docs/playing.md.
INACCURACY = 2.0
MISTAKE = 4.0
BLUNDER = 8.0
LABELS = ("inaccuracy", "mistake", "blunder")
MAX_MARGIN = 64.0  # no game ends with a wider disc margin


def label_for(loss: float, played: float, best: float, exact: bool) -> str | None:
    """'inaccuracy', 'mistake', 'blunder' or None for a move that lost
    `loss` discs. When both scores are exact, a move that changes the result
    is at least a mistake (a won game drawn, a drawn one lost) or a blunder
    (a won game lost), whatever the margin."""
    rank = 3 if loss >= BLUNDER else 2 if loss >= MISTAKE else 1 if loss >= INACCURACY else 0
    if exact and loss > 0:
        before, after = _sign(best), _sign(played)
        if before > 0 > after:
            rank = 3
        elif before > after:
            rank = max(rank, 2)
    return LABELS[rank - 1] if rank else None


def _sign(value: float) -> int:
    return (value > 0) - (value < 0)


def _margin(score: float) -> float:
    return max(-MAX_MARGIN, min(MAX_MARGIN, score))


@dataclass(frozen=True, slots=True)
class MoveAnalysis:
    """One move played and how it compares with the engine's best.

    Scores are disc margins for the side that moved (final margins when
    `exact`), never beyond MAX_MARGIN either way. `best` and `best_score`
    are None when only the played move's evaluation is known (as read back
    from a GGF file).
    """

    ply: int  # 1-based, counting passes as the game record does
    side: Color
    move: Move
    played_score: float
    best: Move | None = None
    best_score: float | None = None
    exact: bool = False
    pv: tuple[Move, ...] = ()  # the best line from the position, starting with `best`

    def __post_init__(self) -> None:
        # A heuristic estimate can run past what a board allows (+71.3 was
        # stored once): every score is clamped where a MoveAnalysis is made.
        object.__setattr__(self, "played_score", _margin(self.played_score))
        if self.best_score is not None:
            object.__setattr__(self, "best_score", _margin(self.best_score))

    @property
    def complete(self) -> bool:
        """True when the best move is known (not just the played move's score)."""
        return self.best is not None and self.best_score is not None

    @property
    def loss(self) -> float | None:
        """Discs the move gave away against the best move (never negative)."""
        if self.best_score is None:
            return None
        return max(0.0, round(self.best_score - self.played_score, 1))

    @property
    def label(self) -> str | None:
        loss = self.loss
        if loss is None or self.best_score is None:
            return None
        return label_for(loss, self.played_score, self.best_score, self.exact)

    @property
    def black_score(self) -> float:
        """The position after the move, as a margin for Black."""
        return self.played_score if self.side is Color.BLACK else -self.played_score

    def as_json(self, number: int) -> dict[str, object]:
        """The fields `tui-reversi analyse --format json` prints, in its order;
        `number` is the move's number as the move log writes it."""
        return {
            "number": number,
            "side": self.side.name.lower(),
            "move": str(self.move),
            "best": None if self.best is None else str(self.best),
            "played_score": self.played_score,
            "best_score": self.best_score,
            "loss": self.loss,
            "label": self.label,
            "exact": self.exact,
        }


@dataclass(frozen=True, slots=True)
class GameAnalysis:
    """What is known about a game's moves, by ply; grows as results arrive.
    `unread` is one sentence on what a reader left out of a stored analysis
    ('' when nothing): those moves are analysed again."""

    moves: tuple[MoveAnalysis, ...] = ()
    unread: str = ""

    def at(self, ply: int) -> MoveAnalysis | None:
        """The analysis of the move played at `ply` (1-based), if any."""
        for scored in self.moves:
            if scored.ply == ply:
                return scored
        return None

    def with_move(self, scored: MoveAnalysis) -> GameAnalysis:
        """This analysis with `scored` added (replacing one for the same ply)."""
        kept = [m for m in self.moves if m.ply != scored.ply]
        kept.append(scored)
        return GameAnalysis(tuple(sorted(kept, key=lambda m: m.ply)))

    def covers(self, game: Game) -> bool:
        """True when every move of `game` is analysed in full."""
        wanted = {ply for ply, move in enumerate(game.played, start=1) if move}
        return wanted <= {m.ply for m in self.moves if m.complete}

    def matches(self, game: Game) -> bool:
        """True when every analysed ply is a move `game` played, as recorded."""
        played = game.played
        return all(m.ply <= len(played) and played[m.ply - 1] == m.move for m in self.moves)

    def kept_for(self, game: Game) -> GameAnalysis:
        """The part of this analysis that is about moves `game` played (all of
        it, unless the game was cut short and played on differently)."""
        if self.matches(game):
            return self
        played = game.played
        return GameAnalysis(
            tuple(m for m in self.moves if m.ply <= len(played) and played[m.ply - 1] == m.move)
        )


def analyse_game(
    game: Game,
    limit: Limit = PER_POSITION,
    *,
    cancelled: CancelCheck | None = None,
    skip: GameAnalysis | None = None,
    from_the_end: bool = False,
) -> Iterator[MoveAnalysis]:
    """Score every move played in `game`, in order (or from the last move
    back), yielding each as it is done.

    `limit` bounds the search of each position (with no clock its depth
    bounds the midgame search and the result is repeatable). Moves already
    analysed in full in `skip` are not searched again. Stops, without
    yielding a half-searched position, once `cancelled()` is true.
    """
    known = {m.ply for m in skip.moves if m.complete} if skip is not None else set()
    plies = list(enumerate(game.played, start=1))
    for ply, move in reversed(plies) if from_the_end else plies:
        if move.is_pass or ply in known:
            continue
        if cancelled is not None and cancelled():
            return
        scored = analyse_move(
            game.positions[ply - 1],
            move,
            ply,
            limit,
            variant=game.variant,
            cancelled=cancelled,
        )
        if cancelled is not None and cancelled():
            return
        yield scored


def analyse_move(
    position: Position,
    move: Move,
    ply: int,
    limit: Limit = PER_POSITION,
    *,
    variant: Variant = Variant.OTHELLO,
    cancelled: CancelCheck | None = None,
) -> MoveAnalysis:
    """The move `move` played in `position` (at `ply`) against the best one,
    searched within `limit`."""
    started = time.perf_counter()
    side = position.to_move
    if position.in_opening_placement:
        # Reversi's centre placements: the hint's small search over the shapes.
        ranked = analyse_position(position, variant, limit, cancelled)
        scores = {s.move: round(s.score, 1) + 0.0 for s in ranked}
        top = ranked[0].move
        if scores[move] >= scores[top]:
            top = move  # equally good: the move played was best
        return MoveAnalysis(ply, side, move, scores[move], top, scores[top], pv=(top,))
    seconds = limit.clock
    clock = None if seconds is None else seconds * (1 - PV_SHARE)
    engine = engine_for(variant)
    result = engine.search(
        position.own,
        position.opp,
        time_limit=clock,
        max_depth=limit.depth if limit.depth is not None else 60,
        max_nodes=limit.nodes,
        exact_empties=EXACT_EMPTIES,
        cancelled=cancelled,
        analyse=True,
        started=started,
    )
    if not result.scores:
        # Stopped before one full iteration: a one-ply look is still honest.
        result = engine.search(position.own, position.opp, max_depth=1, analyse=True)
    square = move.square  # the engine speaks in square indices
    best_square = max(result.scores, key=lambda sq: result.scores[sq])
    # Exact when solved, or when the search saw both moves to the end of the game.
    exact = result.exact or (
        score_in_discs(result.scores[square])[1] and score_in_discs(result.scores[best_square])[1]
    )
    played = _discs(result.scores[square], result.exact)
    best = _discs(result.scores[best_square], result.exact)
    if played >= best:
        best_square, best = square, played  # equally good: the move played was best
    pv = _principal_variation(
        position.play(best_square),
        variant,
        result.depth - 1,
        exact,
        None if seconds is None else started + seconds,
        cancelled,
    )
    best_move = Move.of(best_square)
    return MoveAnalysis(ply, side, move, played, best_move, best, exact, (best_move, *pv))


def _discs(score: int, exact: bool) -> float:
    if exact:
        return float(score // SCALE)
    discs, _ = score_in_discs(score)
    return round(discs, 1) + 0.0  # never -0.0


def _principal_variation(
    position: Position,
    variant: Variant,
    depth: int,
    exact: bool,
    deadline: float | None,
    cancelled: CancelCheck | None,
) -> list[Move]:
    """The engine's best line from `position`, a shallower search per move."""
    line: list[Move] = []
    engine = engine_for(variant)
    while len(line) < PV_PLIES - 1 and (depth > 0 or exact):
        if position.is_game_over():
            break
        if position.must_pass:
            line.append(Move.null())
            position = position.pass_turn()
            continue
        left = None if deadline is None else deadline - time.perf_counter()
        if (left is not None and left <= 0) or (cancelled is not None and cancelled()):
            break
        result = engine.search(
            position.own,
            position.opp,
            time_limit=left,
            max_depth=max(depth, 1),
            exact_empties=EXACT_EMPTIES if exact else 0,
            cancelled=cancelled,
        )
        if result.move is None or not result.completed:
            break
        line.append(Move.of(result.move))
        position = position.play(result.move)
        depth -= 1
    return line


@dataclass(frozen=True, slots=True)
class PlayerSummary:
    """How one side played: its analysed moves, average loss, labels."""

    side: Color
    moves: int
    average_loss: float
    counts: dict[str, int]

    def describe(self) -> str:
        """'Black: 28 moves, 1.9 discs lost a move; 2 inaccuracies, 1 blunder'."""
        parts = [
            f"{self.counts[label]} {_plural(label, self.counts[label])}"
            for label in LABELS
            if self.counts[label]
        ]
        head = f"{self.side.label}: average loss {self.average_loss:.1f}"
        return f"{head}; " + ", ".join(parts) if parts else f"{head}; no mistakes"


def _plural(label: str, count: int) -> str:
    if count == 1:
        return label
    return label[:-1] + "ies" if label.endswith("y") else label + "s"


def summarise(analysis: GameAnalysis, side: Color) -> PlayerSummary:
    """`side`'s moves in `analysis` (fully analysed ones only)."""
    losses = [m.loss for m in analysis.moves if m.side is side and m.loss is not None]
    counts = dict.fromkeys(LABELS, 0)
    for scored in analysis.moves:
        label = scored.label
        if scored.side is side and label is not None:
            counts[label] += 1
    average = sum(losses) / len(losses) if losses else 0.0
    return PlayerSummary(side, len(losses), round(average, 1), counts)


def turning_point(analysis: GameAnalysis, result: Result | None) -> MoveAnalysis | None:
    """The move after which the result was decided: the first move of the
    last unbroken run of positions the eventual winner was ahead in, by
    either side (usually the loser's mistake). None for a draw or an
    unfinished game."""
    if result is None or result.winner is None:
        return None
    sign = 1 if result.winner is Color.BLACK else -1
    turning: MoveAnalysis | None = None
    for scored in analysis.moves:
        if scored.black_score * sign > 0:
            if turning is None:
                turning = scored
        else:
            turning = None
    return turning


def evaluations(analysis: GameAnalysis, game: Game) -> list[float | None]:
    """Black's margin after each ply of `game` (None where not analysed; a
    pass keeps the evaluation before it)."""
    by_ply = {m.ply: m.black_score for m in analysis.moves}
    curve: list[float | None] = []
    for ply, move in enumerate(game.played, start=1):
        if move.is_pass:
            curve.append(curve[-1] if curve else None)
        else:
            curve.append(by_ply.get(ply))
    return curve


__all__ = [
    "BLUNDER",
    "DEFAULT_TIME",
    "EXACT_EMPTIES",
    "INACCURACY",
    "LABELS",
    "MISTAKE",
    "GameAnalysis",
    "MoveAnalysis",
    "PlayerSummary",
    "analyse_game",
    "analyse_move",
    "evaluations",
    "label_for",
    "summarise",
    "turning_point",
]
