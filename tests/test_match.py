"""The live game record: who plays what, and undo/redo as a player means it."""

import pytest

from tui_reversi.core import Color, Game, Move, ReversiError
from tui_reversi.match import Match
from tui_reversi.players.kinds import player_kind


def test_levels_are_checked_with_a_sentence():
    assert player_kind(" Hard ").name == "hard"
    with pytest.raises(ReversiError, match="unknown player 'grandmaster'"):
        Match("grandmaster", "easy")


def test_undo_against_the_computer_returns_to_the_humans_previous_turn():
    match = Match("human", "easy", Game.from_transcript("f5d6c3d3"))
    assert match.undo() and match.game.ply == 2 and match.to_move is Color.BLACK
    assert match.undo() and match.game.ply == 0
    assert not match.undo()
    assert match.redo() and match.game.ply == 2
    assert match.redo() and match.game.ply == 4
    assert not match.redo()


def test_undo_while_the_computer_is_to_move_takes_back_the_humans_move():
    match = Match("human", "easy", Game.from_transcript("f5d6c3"))  # White (computer) to move
    assert match.undo() and match.game.ply == 2 and match.is_human(match.to_move)


def test_when_the_computer_opened_there_is_nothing_of_yours_to_undo():
    match = Match("easy", "human", Game.from_transcript("f5"))
    assert not match.undo()
    assert match.game.ply == 1


def test_undo_skips_over_a_forced_pass():
    # White's c1 leaves Black without a move: the pass is recorded after it.
    match = Match("easy", "human", Game.from_transcript("d3c3e6d2d1e1b2c1"))
    assert match.game.played[-1] == Move.null() and match.to_move is Color.WHITE
    assert match.undo()
    assert match.game.ply == 7 and match.to_move is Color.WHITE


def test_two_humans_undo_one_move_at_a_time():
    match = Match("human", "human", Game.from_transcript("f5d6"))
    assert match.undo() and match.game.ply == 1


def test_a_turn_token_goes_stale_when_the_game_moves_on():
    match = Match("human", "human", Game.from_transcript("f5d6"))
    turn = match.turn()
    assert match.is_current(turn)
    match.undo()
    match.game.play("f4")  # the same ply as the token, but another position
    assert match.game.ply == turn.ply
    assert not match.is_current(turn)
    assert Match("human", "easy").game_id != match.game_id
