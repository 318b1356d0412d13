"""Game records: transcripts, passes, undo/redo, review, variants and results."""

import pytest

from tui_reversi.core import (
    PASS,
    Color,
    Game,
    IllegalMoveError,
    Position,
    ReversiError,
    Variant,
    parse_square,
    parse_transcript,
)

# Complete games from seeded random playouts, pinned as regression records.
FULL_GAME = (
    "e6d6c3f4d7c5g4g3c4g5b5c7f5a5a6d8a4f7f6d3h4c2e7e3g6f8b4b3e2h5"
    "b6f3h6g7c6a7d2d1c1b1c8b2h7h8h2a3h3h1f2g2f1g1e8g8a2a1b7b8a8e1"
)
# Black passes twice near the end (plies 59 and 61) and still fills the board.
GAME_WITH_PASSES = (
    "d3c3b3e3f3c5f6g2b5c6f4a5h1f5d6e7d7e6d8c4c7b7a8b6a4f8g4b4e8a3"
    "a7g5g8c2h4g3a2h3c1d1d2e1f1f7a6h6e2b8g7c8h5g6h2h7h8g1b2f2a1b1"
)
# Ends with one square empty: nobody can play on it.
GAME_WITH_AN_EMPTY = (
    "f5f4c3g6f3c5d6f2b5c4g3a6f6c2e3g4b3g7d3h4b1c7e7d2b8e6a5e2f7d7"
    "b4b2f8d8e1b7h2b6h5a4h7d1a3h6e8f1a7g8h8g2g5c6a2a8h3a1c8g1c1"
)


def test_a_transcript_round_trips_in_canonical_lowercase():
    game = Game.from_transcript("F5 d6 C3d3")
    assert game.transcript() == "f5d6c3d3"
    assert Game.from_transcript(game.transcript()).position == game.position


def test_a_full_game_replays_to_its_end():
    game = Game.from_transcript(FULL_GAME)
    assert game.is_over
    assert game.position.empty_count == 0
    assert game.transcript() == FULL_GAME
    assert str(game.result) == "White wins 52-12"


def test_a_recorded_game_with_passes_keeps_them_as_plies_but_not_in_the_transcript():
    game = Game.from_transcript(GAME_WITH_PASSES)
    assert [ply + 1 for ply, move in enumerate(game.moves) if move == PASS] == [59, 61]
    assert game.length == 62 and game.is_over
    assert game.transcript() == GAME_WITH_PASSES
    assert str(game.result) == "White wins 38-26"


def test_a_game_can_end_before_the_board_is_full_and_the_empty_goes_to_the_winner():
    game = Game.from_transcript(GAME_WITH_AN_EMPTY)
    assert game.is_over and game.position.empty_count == 1
    assert str(game.result) == "White wins 39-25 (discs 38-25)"


def test_an_illegal_move_in_a_transcript_names_its_number_square_and_reason():
    with pytest.raises(IllegalMoveError, match=r"^move 3 \(a1\) is illegal: it flips nothing$"):
        Game.from_transcript("f5d6a1")
    with pytest.raises(IllegalMoveError, match=r"^move 2 \(f5\) is illegal: it is occupied$"):
        Game.from_transcript("f5f5")


def test_garbage_in_a_transcript_is_reported_as_such():
    with pytest.raises(ReversiError, match=r"move 2 \('z9'\) is not a square or a pass"):
        Game.from_transcript("f5z9")


def test_passes_are_implicit_or_written_when_reading():
    # After these moves White has no move and must pass.
    start = Position.from_string("XXXXXXO-" + "X" * 56 + " O")
    implicit = Game.from_transcript("h1", start=start)
    written = Game.from_transcript("pa h1", start=start)
    spelled = Game.from_transcript("passh1", start=start)
    assert implicit.moves == written.moves == spelled.moves == [PASS, parse_square("h1")]
    assert implicit.is_over


def test_a_written_pass_when_a_move_exists_is_refused():
    with pytest.raises(
        IllegalMoveError, match=r"move 2 \(pass\) is illegal: White has a legal move"
    ):
        Game.from_transcript("f5pa")


def test_play_records_a_forced_pass_automatically():
    game = Game.from_transcript(GAME_WITH_PASSES[: 57 * 2])
    game.play("f2")  # ply 58; Black then has no move
    assert game.moves[-1] == PASS and game.length == 59
    assert game.position.to_move is Color.WHITE


def test_undo_and_redo_step_over_a_forced_pass():
    start = Position.from_string("XXXXXXO-" + "X" * 56 + " O")
    game = Game(start=start)
    assert game.moves == [PASS] and game.position.to_move is Color.BLACK
    assert not game.can_undo  # nothing but the forced pass to take back
    game.play("h1")
    assert game.undo() and game.ply == 1
    assert game.redo() and game.is_over


def test_undo_redo_restore_identical_positions_and_new_moves_discard_the_future():
    game = Game.from_transcript("f5d6c3d3c4")
    positions = list(game.positions)
    assert game.undo() and game.undo()
    assert game.position == positions[3]
    assert game.redo()
    assert game.position == positions[4]
    game.play("e3")  # White plays something else at ply 4: c4 is forgotten
    assert game.transcript() == "f5d6c3d3e3"
    assert game.length == 5 and not game.can_redo


def test_go_to_and_continue_from_a_reviewed_ply():
    game = Game.from_transcript("f5d6c3d3c4f4")
    game.go_to(2)
    assert game.position == Game.from_transcript("f5d6").position
    assert game.length == 6  # review does not change the record
    game.go_to(game.length)
    game.continue_from(3)
    assert game.transcript() == "f5d6c3" and game.length == 3
    with pytest.raises(ReversiError, match="there is no move 9"):
        game.go_to(9)


def test_playing_after_the_end_is_refused():
    game = Game.from_transcript(GAME_WITH_AN_EMPTY)
    empty = next(sq for sq in range(64) if game.position.color_at(sq) is None)
    with pytest.raises(IllegalMoveError, match="comes after the end of the game"):
        game.play(empty)
    with pytest.raises(IllegalMoveError, match="the game is over"):
        game.play("pass")


def test_wof_counting_gives_the_empties_to_the_winner():
    # 40 black, 22 white, 2 empty, nobody can move -> 42-22 (WOF), discs 40-22.
    board = "X" * 40 + "O" * 22 + "--"
    position = Position.from_string(board + " X")
    result = Variant.OTHELLO.result(position)
    assert result.winner is Color.BLACK
    assert (result.black, result.white) == (42, 22)
    assert (result.black_discs, result.white_discs) == (40, 22)
    assert str(result) == "Black wins 42-22 (discs 40-22)"


def test_a_draw_splits_the_empties():
    position = Position.from_string("X" * 30 + "O" * 30 + "----" + " X")
    result = Variant.OTHELLO.result(position)
    assert result.winner is None and (result.black, result.white) == (32, 32)


def test_anti_othello_is_won_by_fewer_discs():
    position = Position.from_string("X" * 40 + "O" * 22 + "--" + " X")
    result = Variant.ANTI.result(position)
    assert result.winner is Color.WHITE
    assert (result.black, result.white) == (40, 24)
    assert str(result) == "White wins 24-40 (discs 22-40)"
    assert Variant.ANTI.start() == Position.initial()


def test_classic_reversi_starts_empty_and_fills_the_centre_first():
    game = Game(Variant.REVERSI)
    assert game.position == Position.empty()
    with pytest.raises(IllegalMoveError, match="c3 is not in the centre"):
        game.play("c3")
    for square in ("d4", "e5", "d5", "e4"):
        before = game.position
        game.play(square)
        assert game.position.count(before.to_move) == before.count(before.to_move) + 1
        assert game.position.count(before.to_move.other) == before.count(before.to_move.other)
    # A crossed start: Black d4 e5, White d5 e4; normal play from here.
    assert game.position.to_move is Color.BLACK
    assert not game.position.in_opening_placement
    assert game.position.legal_moves()


def test_reversi_transcript_includes_the_placements():
    game = Game.from_transcript("d4e4d5e5", Variant.REVERSI)
    assert game.transcript() == "d4e4d5e5"
    with pytest.raises(
        IllegalMoveError, match=r"move 1 \(f5\) is illegal: it is not in the centre"
    ):
        Game.from_transcript("f5", Variant.REVERSI)


def test_unknown_variant_is_one_sentence():
    with pytest.raises(
        ReversiError, match="unknown variant 'chess': choose one of othello, reversi, anti"
    ):
        Variant.parse("chess")


def test_parse_transcript_reads_squares_and_passes():
    assert parse_transcript("f5 PA d6 pass") == [37, PASS, parse_square("d6"), PASS]
