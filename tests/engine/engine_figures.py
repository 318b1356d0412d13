"""What the engine computes for fixed positions, as one JSON object on stdout:
perft counts, fixed-depth searches (move, score, nodes), exact endgame
scores and solver nodes, static evaluations, the hand-made and the trained
(pattern) one, stable discs, and searches with the trained one, with and without ProbCut.
test_engine_build.py runs this in two processes, compiled and interpreted
(TUI_REVERSI_PURE=1), and compares: the same source must give the same
figures.

    python -c "from tests.engine.engine_figures import main; main()"
"""

import json
import random

from tui_reversi.core import Position, Variant, perft
from tui_reversi.core.bitboard import native, unsigned
from tui_reversi.engine.build import engine_build
from tui_reversi.engine.evaluation import make_evaluator, make_stable_edge_counter
from tui_reversi.engine.pattern_weights import trained_evaluator
from tui_reversi.engine.probcut import load_probcut
from tui_reversi.engine.search import Engine
from tui_reversi.engine.stability import shared_stability

from .positions import position_with_empties

# h8 and the other corners taken: the sign bit of a compiled word in play.
CORNERS_TAKEN = "X------O-XXXXXO--OXXOXO--OOXXXO--OXOXXO--OOOXXO--XXXXXO-O------X X"


def figures() -> dict:
    out: dict = {"engine": str(engine_build())}
    start = Position.initial()
    out["perft"] = [perft(start, depth) for depth in range(1, 8)]
    out["perft_counted"] = perft(start, 8, make_leaves=False)
    out["perft_corners"] = perft(Position.from_string(CORNERS_TAKEN), 4)
    searches = []
    for variant in (Variant.OTHELLO, Variant.ANTI):
        engine = Engine(variant.fewer_discs_win)
        for empties, seed in ((44, 1), (36, 2), (30, 3), (24, 4)):
            position = position_with_empties(empties, seed, variant)
            result = engine.search(position.own, position.opp, max_depth=5)
            searches.append([str(position), result.move, result.score, result.nodes])
        corners = Position.from_string(CORNERS_TAKEN)
        result = engine.search(corners.own, corners.opp, max_depth=5)
        searches.append([CORNERS_TAKEN, result.move, result.score, result.nodes])
    out["searches"] = searches
    solves = []
    for anti in (False, True):
        engine = Engine(anti)
        variant = Variant.ANTI if anti else Variant.OTHELLO
        for empties, seed in ((10, 5), (12, 6), (14, 7)):
            position = position_with_empties(empties, seed, variant)
            exact = engine.search(position.own, position.opp, exact_empties=64)
            solves.append(
                [str(position), engine.solve(position.own, position.opp), exact.move, exact.nodes]
            )
    out["solves"] = solves
    rng = random.Random(8)
    evaluate, anti_evaluate = make_evaluator(False), make_evaluator(True)
    stable = make_stable_edge_counter()
    stability = shared_stability()
    evaluations = []
    for _ in range(200):
        own = rng.getrandbits(64)
        opp = rng.getrandbits(64) & ~own
        discs = unsigned(stability.discs(native(own), native(opp)))
        evaluations.append([evaluate(own, opp), anti_evaluate(own, opp), stable(own, opp), discs])
    out["evaluations"] = evaluations
    out["trained"] = trained_figures()
    return out


def trained_figures() -> dict:
    """Searches and static evaluations with the shipped pattern weights."""
    trained = trained_evaluator(False)
    assert trained is not None, "the shipped pattern weights do not load"
    engine = Engine(False, trained)
    searches = []
    for empties, seed in ((52, 9), (42, 10), (22, 11), (16, 12)):
        position = position_with_empties(empties, seed, Variant.OTHELLO)
        result = engine.search(position.own, position.opp, max_depth=5)
        searches.append([str(position), result.move, result.score, result.nodes])
    corners = Position.from_string(CORNERS_TAKEN)
    result = engine.search(corners.own, corners.opp, max_depth=5)
    searches.append([CORNERS_TAKEN, result.move, result.score, result.nodes])
    rng = random.Random(13)
    evaluations = []
    for _ in range(200):
        own = rng.getrandbits(64)
        opp = rng.getrandbits(64) & ~own
        evaluations.append(trained(own, opp))  # every pattern, h8's sign bit included
    fit = load_probcut()
    assert fit is not None, "the shipped ProbCut parameters do not load"
    cutting = Engine(False, trained, fit.at(1.5))
    probcut = []
    for empties, seed in ((40, 14), (32, 15), (24, 16)):
        position = position_with_empties(empties, seed, Variant.OTHELLO)
        result = cutting.search(position.own, position.opp, max_depth=7)
        probcut.append([str(position), result.move, result.score, result.nodes])
    return {"searches": searches, "evaluations": evaluations, "probcut": probcut}


def main() -> None:
    print(json.dumps(figures()))
