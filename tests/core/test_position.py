"""Positions, moves, passes and the board-string format, by hand."""

import pytest

from tui_reversi.core import (
    Color,
    IllegalMoveError,
    Position,
    ReversiError,
    parse_square,
    square_name,
)

START = "---------------------------OX------XO--------------------------- X"


def test_the_othello_start_has_white_on_d4_e5_and_black_to_move():
    start = Position.initial()
    assert str(start) == START
    assert start.color_at(parse_square("d4")) is Color.WHITE
    assert start.color_at(parse_square("e4")) is Color.BLACK
    assert start.to_move is Color.BLACK


def test_blacks_four_opening_moves_are_d3_c4_f5_e6():
    moves = [square_name(m) for m in Position.initial().legal_moves()]
    assert sorted(moves) == ["c4", "d3", "e6", "f5"]


def test_square_names_run_a1_top_left_to_h8():
    assert parse_square("a1") == 0
    assert parse_square("H1") == 7
    assert parse_square(" f5 ") == 37
    assert square_name(63) == "h8"


@pytest.mark.parametrize("bad", ["", "i1", "a9", "a0", "f55", "pass", "5f"])
def test_a_bad_square_name_is_refused_in_one_sentence(bad):
    with pytest.raises(ReversiError, match="is not a square"):
        parse_square(bad)


def test_playing_a_move_flips_the_bounded_line_and_hands_over_the_turn():
    after = Position.initial().play(parse_square("f5"))
    assert after.to_move is Color.WHITE
    assert after.count(Color.BLACK) == 4 and after.count(Color.WHITE) == 1
    assert after.color_at(parse_square("e5")) is Color.BLACK


def test_a_move_flips_every_bounded_line_at_once():
    # Black on d4 flips e4 (east), d5 (south) and e5 (south-east) together.
    rows = ["--------"] * 8
    rows[3] = "----OX--"
    rows[4] = "---OO---"
    rows[5] = "---X-X--"
    position = Position.from_string("".join(rows) + " X")
    flipped = position.flips(parse_square("d4"))
    assert sorted(square_name(s) for s in range(64) if flipped >> s & 1) == ["d5", "e4", "e5"]


def test_an_illegal_move_says_why_in_board_terms():
    start = Position.initial()
    with pytest.raises(IllegalMoveError, match=r"^d4 is occupied$"):
        start.play(parse_square("d4"))
    with pytest.raises(IllegalMoveError, match=r"^a1 flips nothing$"):
        start.play(parse_square("a1"))


def test_the_position_is_immutable():
    start = Position.initial()
    start.play(parse_square("f5"))
    assert str(start) == START
    with pytest.raises(AttributeError):
        start.black = 0  # type: ignore[misc]


def test_board_string_accepts_the_alternative_letters_and_whitespace():
    text = START.replace("X", "*").replace("O", "o").replace("-", ".")
    spaced = " ".join(text[i : i + 8] for i in range(0, 64, 8)) + "\n x"
    assert Position.from_string(spaced) == Position.initial()
    assert Position.from_string(START.replace("X", "b").replace("O", "w")) == Position.initial()


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("X" * 63 + " X", "has 64 characters"),
        ("X" * 64, "has 64 characters"),
        ("Z" + "-" * 63 + " X", "square a1 has 'Z'"),
        ("-" * 64 + " Q", "side to move must be X or O"),
    ],
)
def test_a_bad_board_string_is_one_readable_error(text, message):
    with pytest.raises(ReversiError, match=message):
        Position.from_string(text)


def test_a_forced_pass_for_white():
    position = Position.from_string("XXXXXXO-" + "X" * 56 + " O")
    assert position.legal_moves() == []
    assert position.must_pass and not position.is_game_over()
    passed = position.pass_turn()
    assert passed.to_move is Color.BLACK
    assert [square_name(m) for m in passed.legal_moves()] == ["h1"]


def test_a_forced_pass_for_black():
    position = Position.from_string("OOOOOOX-" + "O" * 56 + " X")
    assert position.must_pass
    assert position.pass_turn().legal_moves() == [parse_square("h1")]


def test_passing_with_a_move_available_is_refused():
    with pytest.raises(IllegalMoveError, match="Black has a legal move and cannot pass"):
        Position.initial().pass_turn()


def test_the_game_ends_when_neither_side_can_move_even_with_empties():
    # Only black discs left: nobody can flip anything.
    position = Position.from_string("X" * 20 + "-" * 44 + " O")
    assert position.is_game_over() and not position.must_pass
    assert Position.initial().is_game_over() is False
