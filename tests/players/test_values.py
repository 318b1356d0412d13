"""One number for one position: the hints, the review and NBoard's hint and
analyze take a position's value from players/values.py, so the same position
at the same depth shows the same value wherever it is shown."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from tui_reversi.core import Game, Move, Position, Variant
from tui_reversi.core.bitboard import symmetries
from tui_reversi.nboard import NBoardSession
from tui_reversi.players import Limit, analyse
from tui_reversi.players.analysis import analyse_move
from tui_reversi.players.values import position_value

START = "---------------------------O*------*O---------------------------"


def _midgame(seed: int, plies: int) -> Game:
    rng = random.Random(seed)
    game = Game(Variant.OTHELLO)
    while game.length < plies and not game.is_over:
        game.play(rng.choice(game.position.legal_moves()))
    return game


@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 10**6), plies=st.integers(4, 30), depth=st.integers(1, 4))
def test_a_hint_shows_each_move_as_the_value_of_the_position_it_leads_to(
    seed: int, plies: int, depth: int
) -> None:
    position = _midgame(seed, plies).position
    if position.is_game_over() or position.must_pass:
        return
    for scored in analyse(position, limit=Limit(depth=depth)):
        after = position_value(
            position.play(scored.move.square), Variant.OTHELLO, depth - 1, None, None
        )
        assert scored.score == -after.discs


def test_the_review_values_a_move_as_the_hint_does() -> None:
    position = _midgame(5, 16).position
    ranked = analyse(position, limit=Limit(depth=5))
    worst = ranked[-1]
    judged = analyse_move(position, worst.move, 16, Limit(depth=4))
    assert judged.played_score == worst.score  # the position after it, at depth 4 from there
    best = next(s for s in ranked if s.move == judged.best)
    assert judged.best_score == best.score


def test_no_first_move_loses_anything_in_review() -> None:
    start = Position.initial()
    for square in start.legal_moves():
        judged = analyse_move(start, Move.of(square), 0, Limit(depth=6))
        assert judged.loss == 0, judged


def test_a_position_s_images_have_one_value() -> None:
    position = _midgame(11, 24).position
    values = {
        position_value(
            Position(black, white, position.to_move), Variant.OTHELLO, 6, None, None
        ).discs
        for black, white in zip(symmetries(position.black), symmetries(position.white), strict=True)
    }
    assert len(values) == 1


def test_nboard_s_hint_and_analyze_give_one_number_for_one_position() -> None:
    said: list[str] = []
    session = NBoardSession(said.append, lambda _: None)
    game = _midgame(3, 12)
    moves = "".join(
        f"{'BW'[game.positions[i].to_move]}[{m.name.upper()}]" for i, m in enumerate(game.played)
    )
    ggf = f"(;GM[Othello]PC[NBoard]PB[a]PW[b]RE[?]TI[0]TY[8]BO[8 {START} *]{moves};)"

    def run(line: str) -> list[str]:
        before = len(said)
        job = session.receive(line)
        if job is not None:
            job(lambda: False)
        return said[before:]

    run("nboard 2")
    run("set depth 4")
    run(f"set game {ggf}")
    hinted = [
        line.split()
        for line in run("hint 1")
        if line.startswith("search ") and line.split()[4] == "4"
    ]
    move, score = hinted[0][1], float(hinted[0][2])
    # The position after the hint's best move, analysed at the depth the hint searched it to.
    run("set depth 3")
    run(f"move {move}")
    last = next(line.split() for line in run("analyze") if line.startswith("analysis "))
    assert float(last[2]) == -score
