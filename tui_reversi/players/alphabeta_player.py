"""Hard and expert: the alpha-beta engine (search.py) behind the Player API."""

from __future__ import annotations

import os
import random
import time
from dataclasses import dataclass
from pathlib import Path

from ..core import Move, Position, ReversiError, Variant
from ..core.bitboard import NATIVE_WORDS
from ..engine.evaluation import SCALE, WIN
from ..engine.placement import placement_scores
from ..engine.search import Engine, SearchResult
from .base import CancelCheck, Limit, ProgressCallback, SearchInfo


@dataclass(frozen=True)
class Level:
    """What distinguishes hard from expert besides their time (their
    Limit, in kinds.py)."""

    name: str
    exact_empties: int  # solve exactly from this many empty squares down
    wdl_empties: int = 0  # above exact_empties: solve for win/draw/loss from here down
    # Multi-ProbCut's t (engine/probcut.py): a node is cut when a shallow
    # search puts its deep score this many deviations beyond the window;
    # smaller cuts more. Only with the trained evaluation.
    selectivity: float | None = None


# Hard cuts more than expert, whose five seconds go deep anyway; the
# analysis (analysis.py) and the hints are the most careful.
HARD_SELECTIVITY = 1.5
EXPERT_SELECTIVITY = 2.0
ANALYSIS_SELECTIVITY = 3.0

if NATIVE_WORDS:
    # Judged by the solver, hard's moves at 20-23 empties gave away 0.13
    # discs a move when it solves exactly from 20 empties and for win, draw
    # or loss from 22, against 0.28 from 18 and 20, and neither turned an
    # outcome (bench/endgame_choice.py, 93 positions, 1 s a move; a solve
    # the second cannot finish leaves the move to what it had proven, or to
    # the midgame search run first). Expert's five seconds make the same
    # solves surer.
    HARD = Level("hard", 20, 22, HARD_SELECTIVITY)
    EXPERT = Level("expert", 20, 22, EXPERT_SELECTIVITY)
else:
    HARD = Level("hard", 13, selectivity=HARD_SELECTIVITY)
    EXPERT = Level("expert", 16, 20, EXPERT_SELECTIVITY)

# A fixed-depth look at each centre shape during the Reversi placements.
PLACEMENT_DEPTH = 4

# The static evaluations hard and expert can search with: the fitted
# patterns (engine/patterns.py) or the hand-made features (evaluation.py).
# The fitted ones are the default: with them and the book, hard beat hard
# with the hand-made evaluation by +228 Elo [+174, +293] at 1 s a move,
# 200 games (docs/engine.md).
EVALUATIONS = ("trained", "handmade")
DEFAULT_EVALUATION = "trained"
EVALUATION_VARIABLE = "TUI_REVERSI_EVALUATION"  # overrides the default when set

_engines: dict[tuple[bool, bool, float | None], Engine] = {}


def engine_for(
    variant: Variant, evaluation: str = "handmade", selectivity: float | None = None
) -> Engine:
    """The shared engine for a variant, evaluation and ProbCut selectivity
    (its tables are built once). ProbCut applies only with the trained
    evaluation its parameters were fitted with: None, or another
    evaluation, searches every node to its full depth."""
    key = (variant.fewer_discs_win, evaluation == "trained", selectivity)
    if key not in _engines:
        anti, trained, _ = key
        evaluator = None
        probcut = None
        if trained:
            # Imported here: the weights are read on first use, off the start-up path.
            from ..engine.pattern_weights import trained_evaluator

            evaluator = trained_evaluator(anti)
            if evaluator is not None and selectivity is not None:
                from ..engine.probcut import load_probcut

                fit = load_probcut()
                probcut = fit.at(selectivity) if fit is not None else None
        _engines[key] = Engine(anti, evaluator, probcut)
    return _engines[key]


def chosen_evaluation(evaluation: str | None = None) -> str:
    """`evaluation`, else $TUI_REVERSI_EVALUATION, else the default;
    ReversiError for a name that is not one of EVALUATIONS."""
    if evaluation is None:
        evaluation = os.environ.get(EVALUATION_VARIABLE) or DEFAULT_EVALUATION
    name = evaluation.strip().lower()
    if name not in EVALUATIONS:
        raise ReversiError(
            f"unknown evaluation {evaluation!r}: choose one of {', '.join(EVALUATIONS)}"
        )
    return name


def score_in_discs(score: int) -> tuple[float, bool]:
    """An engine score as a disc margin, and whether it is a proven result."""
    if score >= WIN:
        return (score - WIN) / SCALE, True
    if score <= -WIN:
        return (score + WIN) / SCALE, True
    return score / SCALE, False


class AlphaBetaPlayer:
    """The engine within each request's Limit: its time, depth (plies) and
    nodes; with no clock the choice is a pure function of the position and
    these bounds. With the trained evaluation the first plies come from the
    opening book, `seed` choosing among its near-equal moves; the search
    itself uses no randomness.
    """

    def __init__(
        self,
        level: Level = HARD,
        variant: Variant = Variant.OTHELLO,
        seed: int | None = None,
        *,
        evaluation: str | None = None,
    ):
        self.level = level.name
        self._selectivity = level.selectivity
        self._exact_empties, self._wdl_empties = level.exact_empties, level.wdl_empties
        self.evaluation = chosen_evaluation(evaluation)
        self._rng = random.Random(seed)  # picks among the book's near-equal moves
        self.variant = variant
        self.seed = seed
        self.last_result: SearchResult | None = None
        # A learned book read with the shipped one (NBoard's `learn` writes it).
        self.learned_book: Path | None = None

    @property
    def exact_empties(self) -> int:
        """From how many empty squares down this level solves to the end (a
        request's depth bounds it too)."""
        return self._exact_empties

    @property
    def notice(self) -> str | None:
        """Why this level plays without its trained evaluation or its book,
        once either has failed to load (never before: it reads nothing)."""
        if self.evaluation != "trained" or self.variant.fewer_discs_win:
            return None
        # Imported here: both are read on first use, off the start-up path.
        from ..engine.book import book_problem
        from ..engine.pattern_weights import weights_problem

        problem = weights_problem()
        if problem is not None:
            return f"{problem}; {self.level} plays with the hand-made evaluation"
        problem = book_problem()
        if problem is not None:
            return f"{problem}; {self.level} searches its opening moves"
        return None

    def choose_move(
        self,
        position: Position,
        limit: Limit,
        *,
        cancelled: CancelCheck | None = None,
        progress: ProgressCallback | None = None,
    ) -> Move:
        entered = time.perf_counter()  # the budget counts from here
        moves = position.legal_moves()
        if not moves:
            return Move.null()
        if len(moves) == 1:
            return Move.of(moves[0])
        if position.in_opening_placement:
            scores = placement_scores(position, self._placement_leaf)
            return Move.of(max(scores, key=lambda sq: scores[sq]))
        if self.evaluation == "trained" and not self.variant.fewer_discs_win:
            from ..engine.book import book_move  # read on first use, off the start-up path

            square = book_move(position.own, position.opp, self._rng, self.learned_book)
            if square is not None and position.is_legal(square):
                self.last_result = None  # not searched
                return Move.of(square)

        def report(result: SearchResult) -> None:
            if progress is not None:
                discs, proven = score_in_discs(result.score)
                progress(
                    SearchInfo(
                        result.depth,
                        result.nodes,
                        Move.of(result.move) if result.move is not None else None,
                        discs,
                        result.exact or proven,
                    )
                )

        max_depth = limit.depth if limit.depth is not None else 60
        result = engine_for(self.variant, self.evaluation, self._selectivity).search(
            position.own,
            position.opp,
            time_limit=limit.clock,
            max_depth=max_depth,
            max_nodes=limit.nodes,
            # Solving exactly is a search to the end: a depth limit bounds it too.
            exact_empties=min(self._exact_empties, max_depth),
            wdl_empties=min(self._wdl_empties, max_depth),
            cancelled=cancelled,
            on_iteration=report,
            started=entered,
        )
        self.last_result = result
        if result.move is None or not position.is_legal(result.move):
            raise RuntimeError(f"engine bug: no legal move chosen in {position}")
        return Move.of(result.move)

    def _placement_leaf(self, position: Position) -> float:
        if not position.legal_mask():
            return 0.0
        result = engine_for(self.variant, self.evaluation).search(
            position.own, position.opp, max_depth=PLACEMENT_DEPTH, exact_empties=0
        )
        return float(result.score)
