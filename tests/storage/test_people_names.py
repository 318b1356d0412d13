"""A game from a server's table keeps the people's names: in its JSON record
(read back exactly, refused when damaged) and as GGF's PB and PW."""

import json
from dataclasses import replace

import pytest

from tui_reversi.core import Game
from tui_reversi.storage import SavedGame, StorageError, export_ggf


def table_record() -> SavedGame:
    game = Game.from_transcript("f5d6c3")
    return replace(SavedGame.from_game(game, "human", "person"), names=("alice", "b]ob"))


def test_the_names_survive_the_json_record_and_name_the_players_in_ggf():
    record = table_record()
    again = SavedGame.from_json(record.to_json())
    assert again.names == ("alice", "b]ob")
    assert again.players == ("human", "person")
    assert "PB[alice]PW[b\\]ob]" in export_ggf(again)
    assert again.with_game(again.to_game()).names == ("alice", "b]ob")


def test_a_game_without_names_is_written_as_before():
    record = SavedGame.from_game(Game(), "human", "easy")
    assert "names" not in json.loads(record.to_json())
    assert "PB[Human]PW[tui-reversi easy]" in export_ggf(record)


@pytest.mark.parametrize("names", [["alice"], "alice bob", ["alice", 3], ["", ""], ["a\nb", "c"]])
def test_damaged_names_are_one_sentence(names):
    data = json.loads(table_record().to_json())
    data["names"] = names
    with pytest.raises(StorageError, match="'names' should be the two players' names"):
        SavedGame.from_json(json.dumps(data))
