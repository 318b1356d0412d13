"""Game analysis: every move of a game scored against the engine's best.

    for scored in analyse_game(game, Limit(time=0.8), cancelled=stop.is_set):
        print(scored.ply, scored.move, scored.best, scored.loss, scored.label)

`analyse_game` yields one `MoveAnalysis` per move played (passes have no
choice to judge), in game order, as soon as it is scored, so a caller can
show results while the rest is still being searched and stop at any time.
Every position of the game gets one value (values.py, the number hints and
NBoard show too): a search by hard's engine to ANALYSIS_DEPTH plies, or from
EXACT_EMPTIES empty squares down an exact solve to the end. A move's loss is
the value of the position the best move leads to minus the value of the one
the move played leads to, both from the mover's side and searched alike: a
move as good as the best (its symmetric twin among the first moves, say)
loses nothing, and what the search's depth adds or takes between plies is
charged to no one. The searches stop at a depth and a node budget, never at
the clock, so the same game analysed twice gets the same verdicts.

`GameAnalysis` keeps a game's results together (saved with the game), and
`summarise` / `turning_point` / `evaluations` read them as a player wants to:
per side, where the result was decided, and as one curve.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

from ..core import Color, Game, Move, Position, Result, Variant, square_name
from ..core.bitboard import CORNERS, NATIVE_WORDS, legal_moves
from .base import CancelCheck, Limit
from .values import EXACT_EMPTIES, PositionValue, move_values, position_value, value_engine

DEFAULT_TIME = 0.8  # budget per position, in seconds of the compiled engine's search
# Compiled (bench/analysis.py): depth 10 takes 0.2-0.45 s of CPU in the
# midgame, an exact solve from 18 empties at most 0.22 s; a 60-move game is
# analysed in well under a minute.
ANALYSIS_DEPTH = 10 if NATIVE_WORDS else 6
# A budget is spent as nodes, never as time: NODES_PER_SECOND per second of
# it (the compiled search's rate with the trained evaluation), so that a
# busy machine changes how long the analysis takes but not what it says.
NODES_PER_SECOND = 2_500_000 if NATIVE_WORDS else 250_000
PER_POSITION = Limit(time=DEFAULT_TIME)
PV_PLIES = 6  # moves of the principal variation kept per position

# Disc losses from which a move gets a label; why these, in docs/playing.md.
INACCURACY = 3.0
MISTAKE = 6.0
BLUNDER = 10.0
LABELS = ("inaccuracy", "mistake", "blunder")
# A lead the winner never again falls below decides the game (the turning
# point): a blunder's worth, so that no single blunder could give it back.
DECIDED = BLUNDER
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

    `limit` is the budget per position: its time is spent as a node count
    (NODES_PER_SECOND per second; no time and no nodes: none), its depth the
    midgame depth (ANALYSIS_DEPTH by default): the verdicts are the same every time.
    Moves already analysed in full in `skip` are not searched again. Stops,
    without yielding a half-searched position, once `cancelled()` is true.
    """
    values: dict[Position, PositionValue] = {}  # each position is searched once
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
            values=values,
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
    values: dict[Position, PositionValue] | None = None,
) -> MoveAnalysis:
    """The move `move` played in `position` (at `ply`) against the best one:
    the value before it and the value after it, from the mover's side.
    `values` keeps positions already searched (analyse_game passes one, so
    that the position after a move is searched once for both moves)."""
    side = position.to_move
    if position.in_opening_placement:
        # Reversi's centre placements: the hint's small search over the shapes.
        ranked = move_values(position, variant, limit, cancelled)
        scores = {s.move: round(s.score, 1) + 0.0 for s in ranked}
        top = ranked[0].move
        if scores[move] >= scores[top]:
            top = move  # equally good: the move played was best
        return MoveAnalysis(ply, side, move, scores[move], top, scores[top], pv=(top,))
    depth = limit.depth if limit.depth is not None else ANALYSIS_DEPTH
    nodes = limit.nodes
    if nodes is None and limit.clock is not None:
        nodes = max(1, int(limit.clock * NODES_PER_SECOND))
    known = values if values is not None else {}

    def value(of: Position) -> PositionValue:
        if of not in known:
            known[of] = position_value(of, variant, depth, nodes, cancelled)
        return known[of]

    # The search of the position finds its best move; both moves are then
    # valued alike, by the positions they lead to (values.py), so that a move
    # as good as the best (its symmetric twin, say) loses nothing.
    best_square = value(position).best
    if best_square is None:
        best_square = move.square
    after = value(position.play(move.square))
    played = -after.discs  # the side to move after the move is the opponent (a pass included)
    after_best = value(position.play(best_square))
    best = -after_best.discs
    exact = after.exact and after_best.exact
    if not exact and after_best.proven and after.proven and _sign(played) == _sign(best) != 0:
        # The same forced result before and after: a margin the midgame search
        # proves is only a bound (the first forced end it finds), so no loss.
        played = best
    if played >= best:
        best_square, best = move.square, played  # as good as the best: the move played was best
    pv = _principal_variation(position.play(best_square), variant, depth - 1, exact, nodes)
    best_move = Move.of(best_square)
    return MoveAnalysis(ply, side, move, played, best_move, best, exact, (best_move, *pv))


def _principal_variation(
    position: Position, variant: Variant, depth: int, exact: bool, max_nodes: int | None
) -> list[Move]:
    """The engine's best line from `position`, a shallower search per move."""
    line: list[Move] = []
    while len(line) < PV_PLIES - 1 and (depth > 0 or exact):
        if position.is_game_over():
            break
        if position.must_pass:
            line.append(Move.null())
            position = position.pass_turn()
            continue
        result = value_engine(variant).search(
            position.own,
            position.opp,
            max_depth=max(depth, 1),
            max_nodes=max_nodes,
            exact_empties=EXACT_EMPTIES if exact else 0,
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
    """The move after which the loser never came back, read off the
    evaluation graph (docs/engine.md#the-turning-point).

    On the winner's curve (their margin after each move, starting from the
    first position's value), a move's *lasting gain* is how far it raised
    the winner's floor: the lowest margin from that move to the end. The
    game is *decided* once that floor reaches DECIDED discs (or the final
    margin, if smaller): no single blunder by the winner then gives the
    game back. The turning point is the move with the largest lasting gain
    up to the one that decided it (the earliest of equals); after it the
    loser never again stood as well as before it. None for a draw, an
    unfinished game, or one decided before its first move."""
    if result is None or result.winner is None or not analysis.moves:
        return None
    sign = 1.0 if result.winner is Color.BLACK else -1.0
    decided = min(DECIDED, abs(result.margin))
    first = analysis.moves[0]
    if first.best_score is not None:
        start = first.best_score if first.side is result.winner else -first.best_score
    else:
        start = first.black_score * sign
    # The winner's margin at each position (0: before the first move), and
    # its floor: the lowest margin from that position to the end.
    floors = [start, *(m.black_score * sign for m in analysis.moves)]
    for i in range(len(floors) - 2, -1, -1):
        floors[i] = min(floors[i], floors[i + 1])
    if floors[0] >= decided:
        return None
    turning: MoveAnalysis | None = None
    biggest = 0.0
    for i, scored in enumerate(analysis.moves, start=1):
        gain = floors[i] - floors[i - 1]
        if gain > biggest:
            turning, biggest = scored, gain
        if floors[i] >= decided:
            break
    return turning


# The X-square next to each corner (diagonally inside it).
X_SQUARE_CORNERS = {9: 0, 14: 7, 49: 56, 54: 63}


def why(scored: MoveAnalysis, position: Position) -> str | None:
    """In a club player's words, what the move played in `position` did
    wrong against the best move, when the board shows it: a corner left
    untaken or given, an X-square next to an empty corner, a wall that leaves few moves, an
    even region played into at the end (parity). None when nothing shows."""
    if scored.best is None or scored.best == scored.move or not scored.loss:
        return None
    played_sq, best_sq = scored.move.square, scored.best.square
    played, best = position.play(played_sq), position.play(best_sq)
    if CORNERS >> best_sq & 1 and not CORNERS >> played_sq & 1:
        return f"left the {scored.best} corner untaken"
    given = played.legal_mask() & CORNERS & ~best.legal_mask()
    if given:
        return f"gave the {square_name((given & -given).bit_length() - 1)} corner away"
    corner = X_SQUARE_CORNERS.get(played_sq)
    if corner is not None and not (position.own | position.opp) >> corner & 1:
        return f"an X-square next to the empty {square_name(corner)} corner"
    own_after = _moves_if_to_move_again(played)
    own_best = _moves_if_to_move_again(best)
    if own_after + 3 <= own_best:
        return f"a wall: {own_after} moves left for the next turn against {own_best}"
    if (
        scored.exact
        and _quadrant_empties(position, played_sq) % 2 == 0
        and _quadrant_empties(position, best_sq) % 2 == 1
    ):
        return "played into an even region and lost the parity"
    return None


def _moves_if_to_move_again(after: Position) -> int:
    # `after` has the opponent to move: the mover's own moves, counted as if it were its turn.
    return bin(legal_moves(after.opp, after.own)).count("1")


def _quadrant_empties(position: Position, square: int) -> int:
    row, col = divmod(square, 8)
    empty = ~(position.own | position.opp)
    return sum(
        1
        for r in range(row // 4 * 4, row // 4 * 4 + 4)
        for c in range(col // 4 * 4, col // 4 * 4 + 4)
        if empty >> (r * 8 + c) & 1
    )


def deciding_moves(
    analysis: GameAnalysis, game: Game, result: Result | None, count: int = 3
) -> list[tuple[MoveAnalysis, str | None]]:
    """The loser's `count` costliest mistakes and blunders up to and including
    the turning point, in game order, each with `why` it was one where the
    board shows it: the moves that lost the game. None for a draw, an
    unfinished game or one decided before its first move (the winner's own
    slips, and the loser's after the game was gone, are `costliest_moves`)."""
    turning = turning_point(analysis, result)
    if turning is None or result is None or result.winner is None:
        return []
    loser = result.winner.other
    return _worst(analysis, game, count, lambda m: m.side is loser and m.ply <= turning.ply)


def costliest_moves(
    analysis: GameAnalysis, game: Game, side: Color, count: int = 3
) -> list[tuple[MoveAnalysis, str | None]]:
    """`side`'s `count` costliest mistakes and blunders of the whole game, in
    game order, each with `why` it was one where the board shows it."""
    return _worst(analysis, game, count, lambda m: m.side is side)


def _worst(
    analysis: GameAnalysis, game: Game, count: int, chosen: Callable[[MoveAnalysis], bool]
) -> list[tuple[MoveAnalysis, str | None]]:
    labelled = [
        m for m in analysis.moves if m.label in ("mistake", "blunder") and m.loss and chosen(m)
    ]
    worst = sorted(labelled, key=lambda m: -(m.loss or 0))[:count]
    return [(m, why(m, game.positions[m.ply - 1])) for m in sorted(worst, key=lambda m: m.ply)]


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
    "ANALYSIS_DEPTH",
    "BLUNDER",
    "DECIDED",
    "DEFAULT_TIME",
    "EXACT_EMPTIES",
    "INACCURACY",
    "LABELS",
    "MISTAKE",
    "GameAnalysis",
    "MoveAnalysis",
    "PlayerSummary",
    "PositionValue",
    "analyse_game",
    "analyse_move",
    "costliest_moves",
    "deciding_moves",
    "evaluations",
    "label_for",
    "position_value",
    "summarise",
    "turning_point",
    "why",
]
