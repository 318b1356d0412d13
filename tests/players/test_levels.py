"""Every level answers every position legally, passes when it must, and
plays the Reversi placements and the anti variant."""

import math

import pytest

from tui_reversi.core import Game, Position, ReversiError, Variant, parse_square
from tui_reversi.players import LEVELS, create_player

from ..engine.positions import random_games

# Bounded so that the suite stays quick; the real budgets are exercised below.
FAST = {"max_depth": 3, "time_limit": math.inf}


def make(level, variant, seed=1):
    limits = FAST if level in ("hard", "expert") else {}
    if level == "medium":
        limits = {"max_depth": 2}
    return create_player(level, variant=variant, seed=seed, **limits)


@pytest.mark.parametrize("variant", list(Variant))
@pytest.mark.parametrize("level", LEVELS)
def test_every_level_plays_only_legal_moves_and_passes_only_when_it_must(level, variant):
    player = make(level, variant)
    for game in random_games(variant, 25, seed=hash((level, variant.value)) % 1000):
        position = game.position
        move = player.choose_move(position)
        if position.legal_mask():
            assert move is not None, str(position)
            assert position.is_legal(parse_square(move)), (str(position), move)
        else:
            assert move is None


@pytest.mark.parametrize("level", LEVELS)
def test_a_level_passes_when_it_has_no_move(level):
    # White has no move here; Black still has h1.
    position = Position.from_string("XXXXXXO-" + "X" * 56 + " O")
    assert position.must_pass
    assert make(level, Variant.OTHELLO).choose_move(position) is None


@pytest.mark.parametrize("level", LEVELS)
def test_classic_reversi_placements_then_normal_play(level):
    game = Game(Variant.REVERSI)
    players = [make(level, Variant.REVERSI, seed=s) for s in (1, 2)]
    for ply in range(12):
        position = game.position
        move = players[ply % 2].choose_move(position)
        if ply < 4:
            assert move in ("d4", "e4", "d5", "e5")
        game.play(move)
    assert 64 - game.position.empty_count == 12  # 4 placements, then 8 moves


@pytest.mark.parametrize("level", ["medium", "hard"])
def test_full_games_with_the_real_clock_end_in_a_result(level):
    # One real game per variant with the level's own budget shortened.
    for variant in Variant:
        game = Game(variant)
        me = create_player(level, variant=variant, seed=3, time_limit=0.05)
        other = create_player("easy", variant=variant, seed=4)
        while not game.is_over:
            player = me if game.position.to_move == game.start.to_move else other
            game.play(player.choose_move(game.position))
        assert game.result is not None


def test_unknown_levels_and_bad_limits_are_one_sentence_errors():
    with pytest.raises(ReversiError, match="unknown level 'grandmaster'"):
        create_player("grandmaster")
    with pytest.raises(ReversiError, match="time limit"):
        create_player("hard", time_limit=0)
    with pytest.raises(ReversiError, match="depth limit"):
        create_player("hard", max_depth=0)


def test_players_describe_themselves():
    for level in LEVELS:
        player = create_player(level, variant="anti")
        assert player.level == level
        assert player.variant is Variant.ANTI
    assert create_player("hard").time_limit == 1.0
    assert create_player("expert").time_limit == 5.0
    assert create_player("hard", time_limit=0.3).time_limit == 0.3
