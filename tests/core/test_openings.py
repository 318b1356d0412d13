"""Opening names: every line legal and distinct, recognised in every orientation."""

import pytest

from tui_reversi.core import Game, ReversiError
from tui_reversi.core.openings import OPENINGS, opening, opening_name

TURNS = {  # Black's first move -> how every square turns with it
    "f5": lambda col, row: (col, row),
    "c4": lambda col, row: (7 - col, 7 - row),
    "e6": lambda col, row: (row, col),
    "d3": lambda col, row: (7 - row, 7 - col),
}


def turned(line: str, first: str) -> str:
    out = ""
    for i in range(0, len(line), 2):
        col, row = TURNS[first]("abcdefgh".index(line[i]), int(line[i + 1]) - 1)
        out += f"{'abcdefgh'[col]}{row + 1}"
    return out


@pytest.mark.parametrize(("line", "name"), OPENINGS, ids=[name for _, name in OPENINGS])
def test_every_named_line_is_legal_from_the_othello_start(line, name):
    try:
        Game.from_transcript(line)
    except ReversiError as error:
        pytest.fail(f"{name}: {error}")


def test_no_two_names_share_a_line_or_a_name_even_turned():
    seen: dict[str, str] = {}
    for line, name in OPENINGS:
        for first in TURNS:
            key = turned(line, first)
            assert key not in seen, f"{name} is {seen.get(key)} turned"
            seen[key] = name
    names = [name for _, name in OPENINGS]
    assert len(set(names)) == len(names)


def test_the_standard_names_are_there():
    names = " ".join(name for _, name in OPENINGS).lower()
    for wanted in ("tiger", "rose", "buffalo", "heath", "cow", "diagonal", "perpendicular"):
        assert wanted in names
    assert len(OPENINGS) >= 36


@pytest.mark.parametrize("first", list(TURNS))
def test_a_game_is_named_whichever_way_black_opens(first):
    game = Game.from_transcript(turned("f5d6c3d3c4f4c5b3c2e3", first))
    assert opening_name(game.moves[:5]) == "Tiger"
    assert opening(game.moves) == opening(Game.from_transcript("f5d6c3d3c4f4c5b3c2").moves)
    assert opening_name(game.moves) == "Brightwell"


def test_the_longest_matching_line_names_the_game_and_a_stray_start_has_none():
    assert opening_name(Game.from_transcript("f5d6c5f4e3c6d3f6e6d7g4c4b4").moves) == (
        "Rotating Flat"
    )
    assert opening_name(Game.from_transcript("f5").moves) is None
    assert opening_name([]) is None


def test_only_othello_games_from_the_usual_start_are_named():
    from tui_reversi.core import Variant
    from tui_reversi.core.openings import game_opening

    assert game_opening(Game.from_transcript("f5d6c3d3c4")).name == "Tiger"
    assert game_opening(Game.from_transcript("f5d6c3d3c4"), 2).name == "Perpendicular Opening"
    assert game_opening(Game.from_transcript("f5d6c3d3c4", Variant.ANTI)) is None
    assert game_opening(Game.from_transcript("d4e4d5e5f3", Variant.REVERSI)) is None
