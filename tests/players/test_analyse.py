"""analyse(): the hint scores every legal move, best first."""

from tui_reversi.core import Game, Position, Variant
from tui_reversi.players import Limit, analyse, create_player

from ..engine.positions import position_with_empties


def test_every_legal_move_is_scored_best_first():
    position = position_with_empties(40, 21)
    scored = analyse(position, limit=Limit(time=0.3))
    assert sorted(s.move.square for s in scored) == sorted(position.legal_moves())
    assert [s.score for s in scored] == sorted((s.score for s in scored), reverse=True)
    assert not any(s.exact for s in scored)


def test_solved_endgames_give_exact_disc_margins():
    position = position_with_empties(8, 22)
    scored = analyse(position, limit=Limit())
    assert all(s.exact and s.score == int(s.score) for s in scored)
    assert scored[0].move == create_player("hard").choose_move(position, Limit()) or (
        scored[0].score == scored[1].score
    )


def test_the_hint_is_cancellable_and_still_scores_every_move():
    position = position_with_empties(36, 23)
    scored = analyse(position, limit=Limit(), cancelled=lambda: True)
    assert len(scored) == len(position.legal_moves())


def test_a_side_that_must_pass_has_no_hint():
    position = Position.from_string("XXXXXXO-" + "X" * 56 + " O")
    assert analyse(position) == []


def test_the_reversi_placements_and_anti_are_scored_too():
    placements = analyse(Game(Variant.REVERSI).position, variant="reversi", limit=Limit(time=0.2))
    assert sorted(str(s.move) for s in placements) == ["d4", "d5", "e4", "e5"]
    anti = analyse(position_with_empties(6, 24), variant=Variant.ANTI, limit=Limit())
    assert anti and all(s.exact for s in anti)
