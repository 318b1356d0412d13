"""The autosave writer thread: the newest record wins, nothing waits for the
disk, a failure is reported (once per save) and never stops later saves."""

import threading

from tui_reversi.core import Game
from tui_reversi.storage import Autosave, AutosaveWriter, SavedGame, StorageError


class SlowAutosave(Autosave):
    """An autosave whose first write waits until the test lets it go."""

    def __init__(self, directory):
        super().__init__(directory)
        self.gate = threading.Event()
        self.writing = threading.Event()
        self.written: list[str] = []

    def save(self, record):
        self.writing.set()
        self.gate.wait(5)
        super().save(record)
        self.written.append(record.transcript)


def records(transcript: str):
    game, record = Game(), SavedGame.from_game(Game())
    for index in range(0, len(transcript), 2):
        game.play(transcript[index : index + 2])
        record = record.with_game(game)
        yield record


def test_save_returns_at_once_and_the_newest_record_wins(tmp_path):
    autosave = SlowAutosave(tmp_path)
    writer = AutosaveWriter(autosave)
    first, *middle, last = records("f5d6c3d3c4")
    writer.save(first)
    assert autosave.writing.wait(5)  # the thread is stuck on the disk...
    for record in (*middle, last):
        writer.save(record)  # ...and the game goes on
    assert not writer.flush(0.05)
    autosave.gate.set()
    assert writer.close(5)
    assert autosave.written == ["f5", "f5d6c3d3c4"]  # the ones in between were superseded
    assert Autosave(tmp_path).load().game.transcript() == "f5d6c3d3c4"


def test_a_failed_save_is_reported_and_the_next_one_still_happens(tmp_path):
    blocker = tmp_path / "not-a-directory"
    blocker.write_text("")
    problems = []
    writer = AutosaveWriter(Autosave(blocker / "data"), on_error=problems.append)
    first, second = records("f5d6")
    writer.save(first)
    assert writer.flush(5)
    assert problems and "is not a directory" in problems[0]
    assert writer.last_error == problems[0]
    blocker.unlink()
    writer.save(second)
    assert writer.close(5) and writer.last_error is None
    assert Autosave(blocker / "data").load().game.transcript() == "f5d6"


def test_after_close_a_save_is_refused(tmp_path):
    writer = AutosaveWriter(Autosave(tmp_path))
    assert writer.close()
    try:
        writer.save(next(records("f5")))
    except StorageError as error:
        assert str(error) == "the autosave is closed"
    else:
        raise AssertionError("a closed writer accepted a record")
