"""The engine: exact endgame scores, tactics, determinism, limits, progress."""

import itertools
import threading
import time

import pytest

from tui_reversi.core import Move, Position, Variant, parse_square
from tui_reversi.core.bitboard import flips, legal_moves, native
from tui_reversi.engine.evaluation import terminal_score
from tui_reversi.engine.pattern_weights import trained_evaluator
from tui_reversi.engine.search import CHECK_EVERY, WIN, Engine, _terminal
from tui_reversi.players import Limit, create_player
from tui_reversi.players.base import SearchInfo

from .positions import position_with_empties


def minimax(own, opp, anti):
    """Brute force: the exact final margin for the side to move, no pruning."""
    moves = legal_moves(own, opp)
    if not moves:
        if not legal_moves(opp, own):
            return terminal_score(own, opp, anti)
        return -minimax(opp, own, anti)
    best = -65
    for sq in range(64):
        if moves >> sq & 1:
            f = flips(own, opp, sq)
            best = max(best, -minimax(opp ^ f, own | f | 1 << sq, anti))
    return best


def depth_limited(own, opp, depth, evaluator):
    """Brute force: the negamax value `depth` plies deep (a pass is no ply),
    scored by `evaluator`, no pruning, no table."""
    moves = legal_moves(own, opp)
    if not moves:
        if not legal_moves(opp, own):
            return _terminal(native(own), native(opp), False)
        return -depth_limited(opp, own, depth, evaluator)
    if depth == 0:
        return evaluator.evaluate(native(own), native(opp))
    best = None
    for sq in range(64):
        if moves >> sq & 1:
            f = flips(own, opp, sq)
            value = -depth_limited(opp ^ f, own | f | 1 << sq, depth - 1, evaluator)
            best = value if best is None else max(best, value)
    return best


def move_values(position, anti):
    """Exact margin after each legal move, by brute force."""
    values = {}
    for sq in position.legal_moves():
        child = position.play(sq)
        values[Move.of(sq)] = -minimax(child.own, child.opp, anti)
    return values


@pytest.mark.parametrize("anti", [False, True])
def test_the_solver_agrees_with_brute_force_minimax(anti):
    engine = Engine(anti)
    for seed in range(30):
        position = position_with_empties(2 + seed % 7, seed)
        exact = minimax(position.own, position.opp, anti)
        assert engine.solve(position.own, position.opp) == exact, str(position)
        # Null windows (how PVS asks) give bounds on the right side.
        for bound in (exact - 2, exact, exact + 1):
            value = engine.solve(position.own, position.opp, bound, bound + 1)
            assert (value > bound) == (exact > bound), (str(position), bound)


@pytest.mark.parametrize("evaluation", ["handmade", "trained"])
def test_the_midgame_search_agrees_with_brute_force_at_its_depth(evaluation):
    # The transposition table packs bounds and moves into ints; whatever it
    # keeps, a search to a fixed depth must find the brute-force value.
    evaluator = trained_evaluator(False) if evaluation == "trained" else None
    engine = Engine(False, evaluator)
    for seed in range(6):
        position = position_with_empties(20 + 3 * seed, seed)
        depth = 3 if seed % 2 else 4
        result = engine.search(position.own, position.opp, max_depth=depth)
        if abs(result.score) < WIN:
            assert result.depth == depth, str(position)
        expected = depth_limited(position.own, position.opp, result.depth, engine.evaluator)
        assert result.score == expected, (str(position), depth)


def test_every_midgame_score_packs_into_a_table_entry():
    from tui_reversi.engine.search import INF
    from tui_reversi.engine.transposition import (
        SCORE_BIAS,
        entry_bound,
        entry_depth,
        entry_move,
        entry_score,
        midgame_entry,
    )

    assert INF < SCORE_BIAS
    for score in (-INF + 1, -WIN - 64 * 100, -1, 0, 1, WIN + 64 * 100, INF - 1):
        entry = midgame_entry(score, 2, 60, 63)
        assert (entry_score(entry), entry_bound(entry), entry_depth(entry)) == (score, 2, 60)
        assert entry_move(entry) == 63


@pytest.mark.parametrize("variant", [Variant.OTHELLO, Variant.ANTI])
def test_hard_plays_a_best_move_in_solved_endgames(variant):
    anti = variant is Variant.ANTI
    for seed in range(12):
        position = position_with_empties(4 + seed % 6, 100 + seed)
        player = create_player("hard", variant=variant)
        move = player.choose_move(position, Limit())
        values = move_values(position, anti)
        assert values[move] == max(values.values()), (str(position), move, values)


def disagreeing_endgames(empties, count):
    """Positions where the best move for most discs and for fewest differ."""
    found = []
    for seed in range(1000):
        position = position_with_empties(empties, 500 + seed)
        most, fewest = move_values(position, False), move_values(position, True)
        best_most = {m for m, v in most.items() if v == max(most.values())}
        best_fewest = {m for m, v in fewest.items() if v == max(fewest.values())}
        if not best_most & best_fewest:
            found.append((position, best_most, best_fewest))
            if len(found) == count:
                return found
    raise AssertionError("no such positions")


@pytest.mark.parametrize(
    ("level", "empties"), [("medium", 2), ("hard", 3), ("hard", 6), ("expert", 5)]
)
def test_anti_players_play_for_fewer_discs_at_the_end(level, empties):
    for position, best_most, best_fewest in disagreeing_endgames(empties, 4):
        anti = create_player(level, variant=Variant.ANTI)
        assert anti.choose_move(position, Limit()) in best_fewest, str(position)
        normal = create_player(level, variant=Variant.OTHELLO)
        assert normal.choose_move(position, Limit()) in best_most, str(position)


def test_hard_grabs_a_free_corner():
    # Black can take a8; every other move is worse by 29 discs or more in
    # 10-ply searches with either evaluation.
    position = Position.from_string(
        "-------------O------XO----XOOOO---OXXXX-XOXO-O--OX-------------- X"
    )
    assert position.is_legal(parse_square("a8"))
    assert create_player("hard").choose_move(position, Limit(depth=4)) == Move.parse("a8")


def test_hard_finds_a_forced_win_that_a_greedy_move_misses():
    # White to move, 5 empties: some moves win, some lose; hard must pick a win.
    found = 0
    for seed in range(200):
        position = position_with_empties(7, 300 + seed)
        values = move_values(position, False)
        if max(values.values()) > 0 > min(values.values()):
            player = create_player("hard")
            assert values[player.choose_move(position, Limit(depth=60))] > 0, str(position)
            found += 1
        if found == 5:
            break
    assert found == 5


def test_bounded_searches_are_deterministic():
    position = position_with_empties(40, 7)
    for limit in (Limit(depth=5), Limit(nodes=3000)):
        moves, infos = [], []
        for _ in range(2):
            seen = []
            player = create_player("hard", seed=9)
            moves.append(player.choose_move(position, limit, progress=seen.append))
            infos.append(seen)
        assert moves[0] == moves[1]
        assert infos[0] == infos[1] and infos[0]


def test_seeded_easy_and_medium_repeat_their_choices():
    positions = [position_with_empties(e, e) for e in range(20, 50, 3)]
    for level in ("easy", "medium"):
        runs = []
        for _ in range(2):
            player = create_player(level, seed=42)
            runs.append([player.choose_move(p, Limit()) for p in positions])
        assert runs[0] == runs[1]
    different = [
        create_player("easy", seed=s).choose_move(positions[0], Limit()) for s in range(20)
    ]
    assert len(set(different)) > 1  # the seed really matters


def test_progress_is_reported_after_every_iteration():
    seen: list[SearchInfo] = []
    player = create_player("hard")
    move = player.choose_move(position_with_empties(44, 3), Limit(depth=5), progress=seen.append)
    assert [info.depth for info in seen] == [1, 2, 3, 4, 5]
    assert seen[-1].best == move
    assert all(later.nodes >= earlier.nodes for earlier, later in itertools.pairwise(seen))
    assert all(not info.exact for info in seen)


def test_progress_says_exact_once_the_endgame_is_solved():
    seen: list[SearchInfo] = []
    create_player("hard").choose_move(position_with_empties(9, 5), Limit(), progress=seen.append)
    assert seen[-1].exact and seen[-1].score == int(seen[-1].score)


@pytest.mark.parametrize("level", ["medium", "hard", "expert"])
def test_cancelling_returns_a_legal_move_at_once(level):
    position = position_with_empties(36, 11)
    calls = []

    def cancelled():
        calls.append(1)
        return len(calls) > 2  # cancel a few polls into the search

    player = create_player(level)
    limit = Limit(depth=20 if level != "medium" else 4)
    move = player.choose_move(position, limit, cancelled=cancelled)
    assert position.is_legal(move.square)
    assert len(calls) <= 4  # it stopped at the first poll after the cancel


def test_cancelling_from_another_thread_stops_an_unbounded_search():
    position = position_with_empties(30, 12)
    event = threading.Event()
    answer = []

    def think():
        player = create_player("expert")
        answer.append(player.choose_move(position, Limit(), cancelled=event.is_set))

    worker = threading.Thread(target=think)
    worker.start()
    worker.join(0.3)
    assert worker.is_alive()  # without the cancel it would think for ages
    event.set()
    worker.join(30)
    assert not worker.is_alive()
    assert position.is_legal(answer[0].square)


def test_a_cancel_before_the_first_iteration_still_answers_legally():
    position = position_with_empties(40, 13)
    move = create_player("hard").choose_move(position, Limit(time=1.0), cancelled=lambda: True)
    assert position.is_legal(move.square)


def test_a_time_limited_search_answers_legally_and_reports_depth():
    seen: list[SearchInfo] = []
    player = create_player("hard")
    position = position_with_empties(40, 14)
    move = player.choose_move(position, Limit(time=0.2), progress=seen.append)
    assert position.is_legal(move.square) and seen and seen[-1].depth >= 1


def test_a_budget_spent_before_the_search_starts_stops_it_at_the_first_look():
    # The clock runs from the caller's `started` (choose_move's entry), so
    # set-up time before the search counts against the budget.
    position = position_with_empties(40, 15)
    result = Engine().search(
        position.own, position.opp, time_limit=1.0, started=time.perf_counter() - 5
    )
    assert position.is_legal(result.move)
    assert result.nodes <= 2 * CHECK_EVERY
    unhurried = Engine().search(position.own, position.opp, max_depth=4)
    assert unhurried.nodes > 2 * CHECK_EVERY  # the same search would go further
