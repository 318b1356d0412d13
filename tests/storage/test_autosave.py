"""The autosave: written after every move, offered on start, and a bad one is
moved aside and reported, never lost."""

import json
import os
import time

import pytest

from tui_reversi.core import Game
from tui_reversi.storage import Autosave, SavedGame, StorageError

from .strategies import same_game


def test_no_autosave_means_nothing_to_resume_and_no_problem(tmp_path):
    outcome = Autosave(tmp_path).load()
    assert outcome.record is None and outcome.game is None and outcome.problem is None
    assert not outcome.resumable


def test_the_game_is_resumed_where_it_was_with_its_players(tmp_path):
    game = Game()
    record = SavedGame.from_game(game, "human", "hard")
    autosave = Autosave(tmp_path)
    for square in ("f5", "d6", "c3", "d3", "c4"):  # saved after every move
        game.play(square)
        record = record.with_game(game)
        autosave.save(record)
    outcome = Autosave(tmp_path).load()
    assert outcome.resumable and outcome.problem is None
    assert same_game(outcome.game, game)
    assert outcome.game.transcript() == "f5d6c3d3c4"
    assert outcome.record.players == ("human", "hard")


def test_the_default_autosave_is_in_the_user_data_directory(isolated_home):
    Autosave().save(SavedGame.from_game(Game.from_transcript("f5")))
    path = isolated_home / "data" / "tui-reversi" / "autosave.json"
    assert json.loads(path.read_text())["moves"] == "f5"
    assert Autosave().load().game.transcript() == "f5"


def test_a_finished_game_is_loaded_but_not_offered_for_resume(tmp_path):
    game = Game()
    while not game.is_over:
        game.play(game.position.legal_moves()[0])
    Autosave(tmp_path).save(SavedGame.from_game(game))
    outcome = Autosave(tmp_path).load()
    assert outcome.game.is_over and not outcome.resumable


def test_clear_keeps_the_abandoned_game_as_the_previous_autosave(tmp_path):
    autosave = Autosave(tmp_path)
    autosave.save(SavedGame.from_game(Game.from_transcript("f5d6")))
    kept = autosave.clear()
    assert kept == tmp_path / "autosave.previous.json"
    assert not autosave.path.exists()
    assert json.loads(kept.read_text())["moves"] == "f5d6"
    assert autosave.load().record is None
    assert autosave.clear() is None  # nothing to clear


def test_a_game_without_a_move_is_never_kept_and_pushes_no_game_down(tmp_path):
    autosave = Autosave(tmp_path)
    autosave.save(SavedGame.from_game(Game.from_transcript("f5d6")))  # a real game
    for _ in range(3):  # new games nobody moves in, one after the other
        autosave.save(SavedGame.from_game(Game()))
    assert json.loads(autosave.previous_path.read_text())["moves"] == "f5d6"
    assert autosave.earlier_paths() == []
    assert autosave.clear() is None  # the empty game in the autosave is simply gone
    assert not autosave.path.exists()
    assert json.loads(autosave.previous_path.read_text())["moves"] == "f5d6"
    undone = Game.from_transcript("c4")
    undone.undo()  # a move taken back is still a move in the game
    autosave.save(SavedGame.from_game(undone))
    assert autosave.clear() == autosave.previous_path
    assert [json.loads(p.read_text())["moves"] for p in autosave.earlier_paths()] == ["f5d6"]


@pytest.mark.parametrize(
    ("content", "label", "why"),
    [
        (b'{"format": "tui-reversi game", "vers', "damaged", "is damaged: unterminated string"),
        (b"", "damaged", "is damaged: expecting value"),
        (b"\x00\xff" * 50, "damaged", "is damaged: it is not UTF-8 text"),
        (b"[]", "damaged", "is not a tui-reversi saved game"),
    ],
)
def test_a_damaged_autosave_is_moved_aside_and_reported_in_one_sentence(
    tmp_path, content, label, why
):
    (tmp_path / "autosave.json").write_bytes(content)
    outcome = Autosave(tmp_path).load()
    assert outcome.record is None and not outcome.resumable
    assert outcome.problem.startswith(f"the autosave {why}")
    assert "\n" not in outcome.problem
    assert outcome.moved_to.name.startswith(f"autosave.json.{label}-")
    assert f"it was kept as {outcome.moved_to}" in outcome.problem
    assert outcome.moved_to.read_bytes() == content  # nothing lost
    assert not (tmp_path / "autosave.json").exists()


def test_an_autosave_with_an_illegal_move_is_moved_aside(tmp_path):
    record = json.loads(SavedGame.from_game(Game.from_transcript("f5d6c3")).to_json())
    record["moves"] = "f5d6c3h8"
    (tmp_path / "autosave.json").write_text(json.dumps(record))
    outcome = Autosave(tmp_path).load()
    assert outcome.problem.startswith(
        "the autosave is damaged: move 4 (h8) is illegal: it flips nothing; it was kept as "
    )


def test_an_autosave_from_a_newer_version_is_kept_aside_as_newer(tmp_path):
    record = json.loads(SavedGame.from_game(Game.from_transcript("f5")).to_json())
    record["version"] = 7
    (tmp_path / "autosave.json").write_text(json.dumps(record))
    outcome = Autosave(tmp_path).load()
    assert outcome.problem.startswith("the autosave was written by a newer tui-reversi")
    assert outcome.moved_to.name.startswith("autosave.json.newer-")


def test_a_hostile_autosave_that_is_a_fifo_does_not_hang_the_start(tmp_path):
    os.mkfifo(tmp_path / "autosave.json")
    outcome = Autosave(tmp_path).load()
    assert outcome.problem.startswith("the autosave is not a regular file; it was kept as")


def test_a_huge_autosave_is_refused_without_being_read(tmp_path):
    with (tmp_path / "autosave.json").open("wb") as file:
        file.truncate(3 << 30)
    outcome = Autosave(tmp_path).load()
    assert outcome.problem.startswith("the autosave is too large (3072.0 MiB)")


def test_after_a_bad_autosave_is_moved_aside_the_next_save_does_not_touch_it(tmp_path):
    (tmp_path / "autosave.json").write_bytes(b"garbage")
    autosave = Autosave(tmp_path)
    outcome = autosave.load()
    autosave.save(SavedGame.from_game(Game.from_transcript("f5")))
    assert outcome.moved_to.read_bytes() == b"garbage"
    assert autosave.load().game.transcript() == "f5"


@pytest.mark.skipif(os.geteuid() == 0, reason="root can rename anything")
def test_a_bad_autosave_that_cannot_be_moved_is_never_overwritten(tmp_path):
    (tmp_path / "autosave.json").write_bytes(b"garbage")
    tmp_path.chmod(0o500)
    try:
        autosave = Autosave(tmp_path)
        outcome = autosave.load()
        assert "so the game will not be autosaved" in outcome.problem
        with pytest.raises(StorageError):
            autosave.save(SavedGame.from_game(Game()))
    finally:
        tmp_path.chmod(0o700)
    assert (tmp_path / "autosave.json").read_bytes() == b"garbage"


def test_a_bad_autosave_that_cannot_be_moved_is_never_overwritten_even_as_root(
    tmp_path, monkeypatch
):
    from tui_reversi.storage import autosave as module

    def refuse(path, label):
        raise StorageError(f"could not move {path} aside: read-only file system")

    monkeypatch.setattr(module, "move_aside", refuse)
    (tmp_path / "autosave.json").write_bytes(b"garbage")
    autosave = Autosave(tmp_path)
    outcome = autosave.load()
    assert outcome.problem == (
        "the autosave is damaged: expecting value at line 1, column 1; it was left where it is "
        f"because could not move {tmp_path / 'autosave.json'} aside: read-only file system, "
        "so the game will not be autosaved"
    )
    with pytest.raises(StorageError, match="will not be autosaved"):
        autosave.save(SavedGame.from_game(Game()))
    assert autosave.clear() is None
    assert (tmp_path / "autosave.json").read_bytes() == b"garbage"


def test_load_removes_only_stale_temp_files_of_a_dead_writer(tmp_path):
    stale = tmp_path / ".autosave.json.abc123.tmp"
    fresh = tmp_path / ".autosave.json.def456.tmp"
    other = tmp_path / ".settings.toml.abc.tmp"
    for path in (stale, fresh, other):
        path.write_bytes(b"partial")
    old = time.time() - 3600
    os.utime(stale, (old, old))
    os.utime(other, (old, old))
    Autosave(tmp_path).load()
    assert not stale.exists() and fresh.exists() and other.exists()


def test_a_new_game_keeps_the_game_it_replaces_as_the_previous_autosave(tmp_path):
    autosave = Autosave(tmp_path)
    first = SavedGame.from_game(Game.from_transcript("f5d6"))
    autosave.save(first)
    autosave.save(first.with_game(Game.from_transcript("f5d6c3")))  # same game: no copy
    assert not autosave.previous_path.exists()
    autosave.save(SavedGame.from_game(Game()))  # a new game takes over
    assert json.loads(autosave.previous_path.read_text())["moves"] == "f5d6c3"
    assert json.loads(autosave.path.read_text())["moves"] == ""


def test_a_new_session_starting_another_game_keeps_the_unfinished_one(tmp_path):
    Autosave(tmp_path).save(SavedGame.from_game(Game.from_transcript("f5d6")))
    later = Autosave(tmp_path)  # the next start: the player chose "New game"
    later.load()
    later.save(SavedGame.from_game(Game()))
    assert json.loads(later.previous_path.read_text())["moves"] == "f5d6"


def test_new_game_after_new_game_keeps_every_game_they_replaced(tmp_path):
    openings = ["f5d6", "d3c5", "c4e3", "e6f4"]
    for opening in openings:  # a session each, each starting another game
        autosave = Autosave(tmp_path)
        autosave.load()
        autosave.save(SavedGame.from_game(Game.from_transcript(opening)))
    kept = [autosave.previous_path, *autosave.earlier_paths()]
    assert [json.loads(p.read_text())["moves"] for p in kept] == ["c4e3", "d3c5", "f5d6"]
    assert json.loads(autosave.path.read_text())["moves"] == "e6f4"


def test_an_unreadable_previous_autosave_is_kept_too(tmp_path):
    autosave = Autosave(tmp_path)
    autosave.previous_path.write_bytes(b"{garbage")
    autosave.save(SavedGame.from_game(Game.from_transcript("f5")))
    autosave.save(SavedGame.from_game(Game.from_transcript("d3")))
    assert [p.read_bytes() for p in autosave.earlier_paths()] == [b"{garbage"]


def test_the_same_game_retired_twice_is_not_copied(tmp_path):
    autosave = Autosave(tmp_path)
    game = SavedGame.from_game(Game.from_transcript("f5"))
    autosave.save(game)
    autosave.clear()
    autosave.save(game.with_game(Game.from_transcript("f5d6")))  # resumed from the list
    autosave.clear()
    assert json.loads(autosave.previous_path.read_text())["moves"] == "f5d6"
    assert autosave.earlier_paths() == []


def test_resuming_and_playing_on_does_not_copy_the_game(tmp_path):
    Autosave(tmp_path).save(SavedGame.from_game(Game.from_transcript("f5d6")))
    later = Autosave(tmp_path)
    outcome = later.load()
    outcome.game.play("c3")
    later.save(outcome.record.with_game(outcome.game))
    assert not later.previous_path.exists()
    assert later.load().game.transcript() == "f5d6c3"


def test_saving_over_a_damaged_autosave_without_loading_it_moves_it_aside(tmp_path):
    (tmp_path / "autosave.json").write_bytes(b"{garbage")
    Autosave(tmp_path).save(SavedGame.from_game(Game()))
    kept = [p for p in tmp_path.iterdir() if p.name.startswith("autosave.json.damaged-")]
    assert len(kept) == 1 and kept[0].read_bytes() == b"{garbage"


def test_a_new_game_nobody_moved_in_is_not_offered(tmp_path):
    Autosave(tmp_path).save(SavedGame.from_game(Game()))
    assert not Autosave(tmp_path).load().resumable
    start = Game.from_transcript("f5d6c3").position  # an imported position is, though
    Autosave(tmp_path).save(SavedGame.from_game(Game(start=start)))
    assert Autosave(tmp_path).load().resumable


def test_an_unreachable_directory_is_not_a_damaged_autosave(tmp_path):
    (tmp_path / "file").write_text("")
    autosave = Autosave(tmp_path / "file" / "data")
    assert autosave.load() == Autosave(tmp_path).load()  # nothing, and no problem
    with pytest.raises(StorageError, match=r"^could not write .*: .*file is not a directory$"):
        autosave.save(SavedGame.from_game(Game.from_transcript("f5")))


# One live game per autosave: no write silently replaces another session's game.


def _line(transcript):
    return Game.from_transcript(transcript)


def test_a_second_session_playing_the_same_game_keeps_its_line_as_an_earlier_autosave(
    tmp_path,
):
    first, second = Autosave(tmp_path), Autosave(tmp_path)
    record = first.load().record or SavedGame.from_game(_line("f5"))
    first.save(record)
    shared = second.load().record
    assert first.save(record.with_game(_line("f5d6"))) is None
    note = second.save(shared.with_game(_line("f5f6")))
    assert "another session is playing in this autosave" in note and "earlier autosave" in note
    assert Autosave(tmp_path).load().game.transcript() == "f5d6"  # the first line stays
    (kept,) = first.earlier_paths()
    assert json.loads(kept.read_text())["moves"] == "f5f6"
    # Later moves of the second line go on in the same earlier autosave, said once.
    assert second.save(shared.with_game(_line("f5f6e6"))) is None
    assert first.save(record.with_game(_line("f5d6c3"))) is None
    assert first.earlier_paths() == [kept]
    assert json.loads(kept.read_text())["moves"] == "f5f6e6"
    assert Autosave(tmp_path).load().game.transcript() == "f5d6c3"


def test_a_write_never_replaces_a_game_changed_since_it_was_read(tmp_path):
    Autosave(tmp_path).save(SavedGame.from_game(_line("f5")))
    session = Autosave(tmp_path)
    record = session.load().record
    # Another session (one that took no claim: an older version, another machine)
    # plays on in the same file after this one read it.
    (tmp_path / "autosave.json").write_text(record.with_game(_line("f5d6c3")).to_json())
    note = session.save(record.with_game(_line("f5f6")))
    assert "another session changed the autosave" in note
    assert Autosave(tmp_path).load().game.transcript() == "f5d6c3"
    (kept,) = session.earlier_paths()
    assert json.loads(kept.read_text())["moves"] == "f5f6"


def test_the_autosave_is_free_again_once_the_session_holding_it_is_gone(tmp_path):
    first = Autosave(tmp_path)
    first.save(SavedGame.from_game(_line("f5")))
    del first  # the process ended (a crash frees it the same way: the kernel drops the lock)
    later = Autosave(tmp_path)
    record = later.load().record
    assert later.save(record.with_game(_line("f5d6"))) is None
    assert Autosave(tmp_path).load().game.transcript() == "f5d6"
    assert later.earlier_paths() == []


def test_a_session_without_the_autosave_never_retires_the_other_sessions_game(tmp_path):
    first, second = Autosave(tmp_path), Autosave(tmp_path)
    first.save(SavedGame.from_game(_line("f5d6")))
    second.load()
    second.save(SavedGame.from_game(_line("f5f6")))  # kept aside
    assert second.clear() is None  # its game is over: nothing happens to the other's
    assert Autosave(tmp_path).load().game.transcript() == "f5d6"
