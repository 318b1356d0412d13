"""The autosave written on a thread of its own, so a move never waits for the disk.

    writer = AutosaveWriter(autosave, on_error=report)   # report(sentence), on the writer thread
    writer.on_note = tell      # tell(sentence): the game went to an earlier autosave (once)
    writer.save(record)        # returns at once; the newest record is written next
    writer.flush(timeout=5)    # True once everything handed over is on disk
    writer.close()             # flush, then stop the thread

An atomic save costs a few milliseconds to tens of milliseconds (two fsyncs;
bench/storage.py measures it), too long to spend on the UI thread after every
move. One writer thread writes in order, and a record handed over while
another is being written replaces any that is still waiting: only the newest
matters, and two writers can never race to rename an older game over a newer
one. A SIGKILL can therefore lose only the move whose save had not finished.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

from ..surroundings import GameThread
from .autosave import Autosave
from .errors import StorageError
from .record import SavedGame


class AutosaveWriter:
    """Hands records to `autosave` from a background thread, newest first."""

    def __init__(self, autosave: Autosave, on_error: Callable[[str], None] | None = None) -> None:
        self.autosave = autosave
        self.on_error = on_error
        self.on_note: Callable[[str], None] | None = None
        self._lock = threading.Condition()
        self._pending: SavedGame | None = None
        self._busy = False  # a record is being written right now
        self._closed = False
        self._thread: threading.Thread | None = None
        self.last_error: str | None = None

    def save(self, record: SavedGame) -> None:
        """Write `record` as soon as the thread is free (a record still waiting
        is dropped for it). Returns at once."""
        with self._lock:
            if self._closed:
                raise StorageError("the autosave is closed")
            self._pending = record
            if self._thread is None:
                # Daemon: a writer stuck on a dead disk must not keep the process alive.
                self._thread = GameThread(
                    target=self._run, name="tui-reversi-autosave", daemon=True
                )
                self._thread.start()
            self._lock.notify_all()

    def flush(self, timeout: float | None = None) -> bool:
        """Wait until every record handed over is written (or failed). False
        if that took longer than `timeout` seconds."""
        with self._lock:
            return self._lock.wait_for(lambda: self._pending is None and not self._busy, timeout)

    def close(self, timeout: float | None = 5.0) -> bool:
        """Flush, then stop the thread. Later saves raise StorageError."""
        done = self.flush(timeout)
        with self._lock:
            self._closed = True
            self._lock.notify_all()
        return done

    def _run(self) -> None:
        while True:
            with self._lock:
                self._lock.wait_for(lambda: self._pending is not None or self._closed)
                if self._pending is None:
                    return  # closed with nothing left to write
                record, self._pending = self._pending, None
                self._busy = True
            error = note = None
            try:
                note = self.autosave.save(record)
            except StorageError as problem:
                error = str(problem)
            except Exception as problem:  # a bug: report it rather than stop saving
                error = f"the autosave failed ({type(problem).__name__}: {problem})"
            with self._lock:
                self._busy = False
                self.last_error = error
                self._lock.notify_all()
            if error is not None and self.on_error is not None:
                self.on_error(error)
            if note is not None and self.on_note is not None:
                self.on_note(note)
