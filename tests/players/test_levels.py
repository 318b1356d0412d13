"""Every level answers every position legally, passes when it must, and
plays the Reversi placements and the anti variant."""

import pytest

from tui_reversi.core import Game, Move, Position, ReversiError, Variant
from tui_reversi.players import LEVELS, Limit, create_player
from tui_reversi.players.computer import ComputerPlayer
from tui_reversi.players.kinds import KINDS, player_kind, seat

from ..engine.positions import random_games

# Bounded so that the suite stays quick; the real budgets are exercised below.
FAST = {"easy": Limit(), "medium": Limit(depth=2), "hard": Limit(depth=3), "expert": Limit(depth=3)}


def make(level, variant, seed=1):
    return create_player(level, variant=variant, seed=seed)


@pytest.mark.parametrize("variant", list(Variant))
@pytest.mark.parametrize("level", LEVELS)
def test_every_level_plays_only_legal_moves_and_passes_only_when_it_must(level, variant):
    player = make(level, variant)
    for game in random_games(variant, 25, seed=hash((level, variant.value)) % 1000):
        position = game.position
        move = player.choose_move(position, FAST[level])
        if position.legal_mask():
            assert move, str(position)
            assert position.is_legal(move.square), (str(position), move)
        else:
            assert move == Move.null()


@pytest.mark.parametrize("level", LEVELS)
def test_a_level_passes_when_it_has_no_move(level):
    # White has no move here; Black still has h1.
    position = Position.from_string("XXXXXXO-" + "X" * 56 + " O")
    assert position.must_pass
    assert make(level, Variant.OTHELLO).choose_move(position, FAST[level]) == Move.null()


@pytest.mark.parametrize("level", LEVELS)
def test_classic_reversi_placements_then_normal_play(level):
    game = Game(Variant.REVERSI)
    players = [make(level, Variant.REVERSI, seed=s) for s in (1, 2)]
    for ply in range(12):
        position = game.position
        move = players[ply % 2].choose_move(position, FAST[level])
        if ply < 4:
            assert str(move) in ("d4", "e4", "d5", "e5")
        game.play(move)
    assert 64 - game.position.empty_count == 12  # 4 placements, then 8 moves


@pytest.mark.parametrize("level", ["medium", "hard"])
def test_full_games_with_the_real_clock_end_in_a_result(level):
    # One real game per variant with the level's own budget shortened.
    for variant in Variant:
        game = Game(variant)
        me = create_player(level, variant=variant, seed=3)
        other = create_player("easy", variant=variant, seed=4)
        while not game.is_over:
            player = me if game.position.to_move == game.start.to_move else other
            game.play(player.choose_move(game.position, Limit(time=0.05)))
        assert game.result is not None


def test_unknown_levels_and_bad_limits_are_one_sentence_errors():
    with pytest.raises(ReversiError, match="unknown level 'grandmaster'"):
        create_player("grandmaster")
    with pytest.raises(ReversiError, match="unknown level 'human'"):
        create_player("human")
    with pytest.raises(ReversiError, match=r"^a time limit must be a positive number of seconds"):
        Limit(time=0)
    with pytest.raises(ReversiError, match=r"^a depth limit must be at least 1, not 0$"):
        Limit(depth=0)
    with pytest.raises(ReversiError, match=r"^a node limit must be at least 1, not 0$"):
        Limit(nodes=0)


def test_players_describe_themselves():
    for level in LEVELS:
        player = create_player(level, variant="anti")
        assert player.level == level
        assert player.variant is Variant.ANTI


def test_each_level_thinks_within_its_own_limit_unless_a_seat_is_given_another():
    assert [(kind.name, kind.limit) for kind in KINDS if kind.computer] == [
        ("easy", Limit()),
        ("medium", Limit()),
        ("hard", Limit(time=1.0)),
        ("expert", Limit(time=5.0)),
    ]
    computer = seat("hard", Variant.OTHELLO, lambda level, variant: create_player(level))
    assert isinstance(computer, ComputerPlayer) and computer.limit == player_kind("hard").limit
    quick = seat("expert", Variant.OTHELLO, lambda level, v: create_player(level), Limit(depth=2))
    assert isinstance(quick, ComputerPlayer) and quick.limit == Limit(depth=2)


def test_a_request_limit_bounds_the_search():
    position = Game.from_transcript("f5d6c3d3c4f4c5b3c2").position
    seen = []
    create_player("hard", evaluation="handmade").choose_move(
        position, Limit(depth=3), progress=seen.append
    )
    assert [info.depth for info in seen] == [1, 2, 3]
    shallow = []
    create_player("medium").choose_move(position, Limit(depth=1), progress=shallow.append)
    assert [info.depth for info in shallow] == [1]
