"""The saved-game record: a live game converts to it and back exactly, and a
record that loads is a game that can be played."""

import json
from dataclasses import replace
from datetime import UTC, datetime

import pytest
from hypothesis import given

from tui_reversi.core import Game, Move, Position, ReversiError, Variant, square_name
from tui_reversi.players import LEVELS
from tui_reversi.players.analysis import GameAnalysis, MoveAnalysis
from tui_reversi.players.kinds import NAMES
from tui_reversi.storage import (
    FutureFormatError,
    SavedGame,
    StorageError,
    parse_player,
)

from .strategies import played_games, records, same_game

# After these moves the side to move has none: the game records a pass.
WITH_A_PASS = "d3c3e6d2d1e1b2c1"


def test_players_are_human_and_the_computer_levels():
    assert ("human", *LEVELS) == NAMES
    assert parse_player(" Hard ") == "hard"
    with pytest.raises(ReversiError, match="unknown player 'grandmaster': choose one of human,"):
        parse_player("grandmaster")


def test_a_game_converts_to_a_record_and_back_with_its_players():
    game = Game.from_transcript("f5d6c3d3c4")
    record = SavedGame.from_game(game, black="human", white="hard", name="Sunday")
    assert record.players == ("human", "hard")
    assert record.transcript == "f5d6c3d3c4" and record.name == "Sunday"
    assert record.start is None and record.ply is None
    assert same_game(record.to_game(), game)


def test_passes_are_kept_exactly_as_the_game_records_them():
    game = Game.from_transcript(WITH_A_PASS)
    assert Move.null() in game.played
    text = SavedGame.from_game(game).to_json()
    assert json.loads(text)["moves"] == WITH_A_PASS + "pa"
    assert SavedGame.from_json(text).moves == game.played


def test_the_undo_cursor_is_kept():
    game = Game.from_transcript("f5d6c3d3c4")
    game.undo()
    game.undo()
    record = SavedGame.from_json(SavedGame.from_game(game).to_json())
    assert record.ply == 3
    restored = record.to_game()
    assert restored.ply == 3 and restored.length == 5 and restored.can_redo


def test_a_custom_start_position_is_kept_and_the_standard_one_is_not_written():
    start = Position.from_string("-" * 27 + "OX------XO" + "-" * 27 + " O")
    game = Game(Variant.OTHELLO, start)
    game.play(game.position.legal_moves()[0])
    text = SavedGame.from_game(game).to_json()
    assert json.loads(text)["start"] == str(start)
    assert SavedGame.from_json(text).to_game().start == start
    assert json.loads(SavedGame.from_game(Game()).to_json())["start"] is None


def test_with_game_keeps_players_name_and_creation_time():
    game = Game()
    first = SavedGame.from_game(game, "easy", "human", name="x")
    first = replace(first, created=datetime(2020, 1, 1, tzinfo=UTC))
    game.play("f5")
    later = first.with_game(game)
    assert (later.black, later.white, later.name, later.created) == (
        "easy",
        "human",
        "x",
        datetime(2020, 1, 1, tzinfo=UTC),
    )
    assert later.moves == (Move.parse("f5"),) and later.updated > first.created


def test_to_game_names_the_first_illegal_move():
    moves = tuple(Move.parse(name) for name in ("f5", "d6", "a1"))
    record = SavedGame(Variant.OTHELLO, "human", "human", moves=moves)
    with pytest.raises(StorageError, match=r"^move 3 \(a1\) is illegal: it flips nothing$"):
        record.to_game()


def test_to_json_is_readable_json_with_a_format_and_version():
    fields = json.loads(SavedGame.from_game(Game.from_transcript("f5"), "human", "easy").to_json())
    assert fields["format"] == "tui-reversi game" and fields["version"] == 1
    assert fields["variant"] == "othello" and fields["moves"] == "f5"
    assert fields["created"].endswith("Z")


@given(records())
def test_every_record_survives_json_exactly(record):
    again = SavedGame.from_json(record.to_json())
    assert again == record
    assert same_game(again.to_game(), record.to_game())


@given(played_games())
def test_every_game_survives_a_record_exactly(game):
    assert same_game(SavedGame.from_game(game).to_game(), game)


def _fields(**changes):
    fields = json.loads(SavedGame.from_game(Game.from_transcript("f5d6c3")).to_json())
    fields.update(changes)
    return json.dumps(fields)


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"moves": "f5d6a1"}, r"is damaged: move 3 \(a1\) is illegal: it flips nothing$"),
        ({"moves": 5}, r"is damaged: its 'moves' should be text, not int$"),
        ({"moves": None}, r"is damaged: its 'moves' is missing$"),
        ({"black": "god"}, r"is damaged: unknown player 'god'"),
        ({"variant": "chess"}, r"is damaged: unknown variant 'chess'"),
        ({"start": "XO"}, r"is damaged: a board string is 64 squares"),
        ({"ply": 99}, r"is damaged: the cursor is at move 99 but the game has 3 moves$"),
        ({"ply": True}, r"its 'ply' should be a whole number, not bool$"),
        ({"version": "1"}, r"its 'version' should be a whole number, not str$"),
        ({"version": 0}, r"its format version 0 does not exist$"),
        ({"created": "yesterday"}, r"its 'created' time 'yesterday' is not a date and time$"),
        ({"format": "something else"}, r"^the autosave is not a tui-reversi saved game$"),
    ],
)
def test_a_bad_field_is_named_in_one_sentence(changes, message):
    with pytest.raises(StorageError, match=message) as caught:
        SavedGame.from_json(_fields(**changes), source="the autosave")
    assert str(caught.value).startswith("the autosave ")
    assert "\n" not in str(caught.value)


def test_a_newer_format_is_a_future_format_error():
    with pytest.raises(
        FutureFormatError, match=r"^the autosave was written by a newer tui-reversi"
    ):
        SavedGame.from_json(_fields(version=2), source="the autosave")


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"", r"is damaged: expecting value at line 1, column 1$"),
        (b'{"format": "tui-rev', r"is damaged: unterminated string starting at line 1, column 12$"),
        (b'{"moves": "f5\x01"}', r"is damaged: invalid control character at line 1, column 14$"),
        (b"\xff\xfe{}", r"is damaged: it is not UTF-8 text$"),
        (b"[" * 100_000 + b"]" * 100_000, r"is too large to be a saved game$|is damaged"),
        (b"[" * 50_000, r"is damaged"),
        (b"[1, 2]", r"is not a tui-reversi saved game$"),
        (b"1" * 5000, r"is damaged: it is not a JSON record$"),
    ],
)
def test_text_that_is_not_a_record_is_one_sentence(data, message):
    with pytest.raises(StorageError, match=message):
        SavedGame.from_json(data)


def test_unknown_extra_fields_from_the_same_version_are_ignored():
    record = SavedGame.from_json(_fields(comment="added by hand"))
    assert record.transcript == "f5d6c3"


def test_a_record_with_implicit_passes_is_read_with_them_in_place():
    fields = json.loads(SavedGame.from_game(Game.from_transcript(WITH_A_PASS)).to_json())
    assert "pa" in fields["moves"]
    fields["moves"] = fields["moves"].replace("pa", "")
    record = SavedGame.from_json(json.dumps(fields))
    assert record.moves == Game.from_transcript(WITH_A_PASS).played


# -- analysis kept with the game ---------------------------------------------------


def _analysed(transcript: str = "f5d6c3d3c4f4"):
    game = Game.from_transcript(transcript)
    analysis = GameAnalysis()
    for ply, move in enumerate(game.played, start=1):
        side = game.positions[ply - 1].to_move
        line = (Move.parse("e6"), Move.null(), Move.parse("f4"))
        analysis = analysis.with_move(
            MoveAnalysis(ply, side, move, -1.5, Move.parse("e6"), 2.0, ply > 4, line)
        )
    return game, analysis


def test_an_analysis_is_saved_with_the_game_and_read_back_whole():
    game, analysis = _analysed()
    record = replace(SavedGame.from_game(game, "human", "hard"), analysis=analysis)
    again = SavedGame.from_json(record.to_json())
    assert again.analysis == analysis
    assert again.analysis.at(4).label == "inaccuracy"


def test_a_game_played_on_keeps_the_analysis_of_the_moves_it_still_has():
    game, analysis = _analysed()
    record = replace(SavedGame.from_game(game), analysis=analysis)
    game.continue_from(4)
    game.play("c4")  # as before
    kept = record.with_game(game).analysis
    assert [m.ply for m in kept.moves] == [1, 2, 3, 4, 5]
    game.continue_from(3)
    game.play(next(sq for sq in game.position.legal_moves() if square_name(sq) != "d3"))
    assert [m.ply for m in record.with_game(game).analysis.moves] == [1, 2, 3]


def test_a_stored_analysis_entry_that_does_not_fit_is_left_out_and_said_the_rest_kept():
    """One bad entry (here move 1's) used to drop the whole analysis without
    a word, so Analyse searched every move again and GGF export lost them."""
    import json

    game, analysis = _analysed()
    text = replace(SavedGame.from_game(game), analysis=analysis).to_json()
    for bad, why in (
        ({"ply": 1, "move": "a1"}, "move 1 (f5) was left out: it is about a1, not the move played"),
        ({"ply": 99}, "an entry for ply 99 was left out: the game has no move there"),
        ("x", "an entry was left out: it is not an object"),
        ({"ply": 1, "move": "f5"}, "move 1 (f5) was left out: its 'played' is missing"),
        (
            {"ply": 1, "move": "f5", "played": 71.3},
            "move 1 (f5) was left out: its score 71.3 is not a disc margin (-64 to 64)",
        ),
    ):
        fields = json.loads(text)
        fields["analysis"][0] = bad
        record = SavedGame.from_json(json.dumps(fields))
        assert len(record.moves) == 6
        assert [m.ply for m in record.analysis.moves] == [2, 3, 4, 5, 6]
        assert record.analysis.unread == f"the stored analysis of {why}", bad
    fields = json.loads(text)
    fields["analysis"][2]["played"] = fields["analysis"][4]["best_score"] = 1e9
    unread = SavedGame.from_json(json.dumps(fields)).analysis.unread
    assert unread == (
        "the stored analysis of 2 moves was left out; "
        "of move 3 (c3): its score 1e+09 is not a disc margin (-64 to 64)"
    )
    fields["analysis"] = {"not": "a list"}
    record = SavedGame.from_json(json.dumps(fields))
    assert record.analysis.moves == () and "is not a list" in record.analysis.unread
    assert SavedGame.from_json(text).analysis.unread == ""
