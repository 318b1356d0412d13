"""Named saved games: save, list, load, delete; safe names; a bad file is listed, not raised."""

import json
import os
from datetime import UTC, datetime

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tui_reversi.core import Color, Game
from tui_reversi.storage import (
    NameTakenError,
    SavedGame,
    SavedGames,
    StorageError,
    clean_name,
    name_key,
)

from .strategies import same_game


def record(transcript="f5d6c3", black="human", white="hard"):
    return SavedGame.from_game(Game.from_transcript(transcript), black, white)


def test_save_list_load_and_delete(tmp_path):
    games = SavedGames(tmp_path)
    entry = games.save(record(), "Sunday vs Hard")
    assert entry.key == "sunday-vs-hard" and entry.path == tmp_path / "sunday-vs-hard.json"
    listed = games.list()
    assert [e.name for e in listed] == ["Sunday vs Hard"]
    (shown,) = listed
    assert (shown.black, shown.white, shown.moves) == ("human", "hard", 3)
    assert (shown.black_discs, shown.white_discs) == (5, 2)
    assert shown.status == "White to move" and shown.readable
    loaded = games.load("Sunday vs Hard")
    assert same_game(loaded.to_game(), Game.from_transcript("f5d6c3"))
    assert loaded.name == "Sunday vs Hard"
    assert same_game(games.load("sunday-vs-hard").to_game(), loaded.to_game())  # by key
    games.delete("sunday-vs-hard")
    assert games.list() == []


def test_the_default_place_is_games_in_the_user_data_directory(isolated_home):
    SavedGames().save(record(), "first")
    assert (isolated_home / "data" / "tui-reversi" / "games" / "first.json").is_file()


def test_the_list_shows_the_result_of_a_finished_game(tmp_path):
    game = Game()
    while not game.is_over:
        game.play(game.position.legal_moves()[0])
    SavedGames(tmp_path).save(SavedGame.from_game(game, "easy", "medium"), "done")
    (entry,) = SavedGames(tmp_path).list()
    assert entry.result == game.result and entry.status == str(game.result)
    assert entry.to_move is None
    assert entry.black_discs == game.position.count(Color.BLACK)


def test_the_list_is_newest_first(tmp_path):
    games = SavedGames(tmp_path)
    games.save(record("f5"), "older")
    games.save(record("f5d6"), "newer")
    path = tmp_path / "older.json"
    fields = json.loads(path.read_text())
    fields["updated"] = "2001-01-01T00:00:00Z"
    path.write_text(json.dumps(fields))
    assert [e.name for e in games.list()] == ["newer", "older"]


def test_saving_over_a_name_needs_replace(tmp_path):
    games = SavedGames(tmp_path)
    games.save(record("f5"), "My Game")
    with pytest.raises(NameTakenError, match=r"^a saved game called 'My Game' already exists$"):
        games.save(record("f5d6"), "my game!")  # same key
    assert games.load("My Game").transcript == "f5"
    games.save(record("f5d6"), "my game!", replace=True)
    assert games.load("My Game").transcript == "f5d6"
    assert games.load("my-game").name == "my game!"


def test_replacing_an_unreadable_file_moves_it_aside_first(tmp_path):
    games = SavedGames(tmp_path)
    (tmp_path / "broken.json").write_bytes(b"{ not json")
    with pytest.raises(NameTakenError, match="'broken' already exists"):
        games.save(record(), "broken")
    games.save(record(), "broken", replace=True)
    kept = [p for p in tmp_path.iterdir() if p.name.startswith("broken.json.replaced-")]
    assert len(kept) == 1 and kept[0].read_bytes() == b"{ not json"
    assert games.load("broken").transcript == "f5d6c3"


def test_saving_keeps_the_creation_time_and_sets_the_update_time(tmp_path):
    old = SavedGame.from_game(Game(), "human", "human")
    from dataclasses import replace

    old = replace(old, created=datetime(2020, 5, 5, tzinfo=UTC))
    entry = SavedGames(tmp_path).save(old, "x")
    assert entry.record.created == datetime(2020, 5, 5, tzinfo=UTC)
    assert entry.updated > datetime(2024, 1, 1, tzinfo=UTC)


def test_a_bad_file_is_listed_as_unreadable_with_the_reason(tmp_path):
    games = SavedGames(tmp_path)
    games.save(record(), "good")
    (tmp_path / "bad.json").write_bytes(b"\xffgarbage")
    fields = json.loads((tmp_path / "good.json").read_text())
    fields["version"] = 9
    (tmp_path / "future.json").write_text(json.dumps(fields))
    os.mkfifo(tmp_path / "pipe.json")
    (tmp_path / "notes.txt").write_text("not a game")  # not listed
    (tmp_path / ".good.json.x.tmp").write_text("{")  # a writer's temp file: not listed
    entries = {e.key: e for e in games.list()}
    assert sorted(entries) == ["bad", "future", "good", "pipe"]
    assert entries["good"].readable
    assert entries["bad"].status == "bad.json is damaged: it is not UTF-8 text"
    assert entries["future"].status.startswith("future.json was written by a newer tui-reversi")
    assert entries["pipe"].status == "pipe.json is not a regular file"
    assert not entries["bad"].readable and entries["bad"].record is None
    assert (tmp_path / "bad.json").read_bytes() == b"\xffgarbage"  # untouched
    with pytest.raises(StorageError, match=r"^the saved game 'bad' is damaged"):
        games.load("bad")
    games.delete("bad")  # an unreadable game can still be deleted on request
    assert "bad" not in {e.key for e in games.list()}


def test_a_missing_game_is_one_sentence(tmp_path):
    games = SavedGames(tmp_path)
    assert games.list() == []  # the directory does not even exist yet
    with pytest.raises(StorageError, match=r"^there is no saved game called 'nope'$"):
        games.load("nope")
    with pytest.raises(StorageError, match=r"^there is no saved game called 'nope'$"):
        games.delete("nope")


@pytest.mark.parametrize(
    ("name", "key"),
    [
        ("My game #2", "my-game-2"),
        ("../../etc/passwd", "etc-passwd"),
        ("/absolute/path", "absolute-path"),
        ("..", None),
        (".hidden", "hidden"),
        ("C:\\Windows\\x", "c-windows-x"),
        ("Partie d'été", "partie-d-été"),
        ("\uff26\uff35\uff2c\uff2c\u3000\uff37\uff29\uff24\uff34\uff28", "full-width"),
        ("nul", "nul-game"),
        ("a" * 200, "a" * 60),
        ("   ", None),
        ("\x00\x1b[31m", "31m"),
    ],
)
def test_names_become_safe_file_names(name, key):
    if key is None:
        with pytest.raises(StorageError, match="needs a letter or a digit"):
            name_key(name)
    else:
        assert name_key(name) == key


@given(st.text(min_size=1, max_size=120))
def test_every_key_stays_inside_the_directory_and_is_stable(name):
    try:
        key = name_key(name)
    except StorageError:
        return
    assert key and "/" not in key and "\\" not in key and "\0" not in key
    assert not key.startswith((".", "-")) and len(key) <= 65
    assert name_key(key) == key
    assert all(ch.isalnum() or ch == "-" for ch in key)


def test_path_traversal_names_save_inside_the_directory(tmp_path):
    games = SavedGames(tmp_path / "games")
    entry = games.save(record(), "../../escape")
    assert entry.path.parent == tmp_path / "games"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["games"]


def test_names_are_cleaned_for_display():
    assert clean_name("  Sunday\t\nvs\x1b[31m  hard ") == "Sunday vs[31m hard"
    assert len(clean_name("x" * 500)) == 80
    with pytest.raises(StorageError, match=r"^a saved game needs a name$"):
        clean_name("\x00 \x07")


def test_the_list_sees_every_change_made_between_two_calls(tmp_path):
    games = SavedGames(tmp_path)
    games.save(record("f5"), "a")
    games.save(record("f5d6"), "b")
    assert {e.name: e.moves for e in games.list()} == {"a": 1, "b": 2}
    games.save(record("f5d6c3"), "a", replace=True)  # rewritten
    (tmp_path / "b.json").unlink()  # removed behind its back
    (tmp_path / "c.json").write_bytes(b"{")  # a new, bad file
    listed = {e.name: e for e in games.list()}
    assert sorted(listed) == ["a", "c"] and listed["a"].moves == 3
    assert not listed["c"].readable
    fields = json.loads((tmp_path / "a.json").read_text())
    fields["moves"] = "f5"
    (tmp_path / "a.json").write_text(json.dumps(fields))  # edited in place
    assert {e.name: e.moves for e in games.list()}["a"] == 1
