"""The game in progress, saved after every move so that nothing is lost.

    autosave = Autosave()               # <data dir>/autosave.json
    outcome = autosave.load()           # at start
    if outcome.problem: show(outcome.problem)   # one sentence; the file was kept
    if outcome.resumable: offer to resume outcome.game (outcome.record has the players)
    autosave.save(record)               # after every move, atomically
    autosave.clear()                    # game finished or abandoned

A SIGKILL, SIGHUP or power cut at any moment leaves the previous or the new
autosave, whole (see files.write_atomic). An autosave that cannot be used
(damaged, truncated, hostile, from a newer version) is renamed to a
timestamped name beside it and reported; it is never deleted or overwritten.

When a different game (another record id) takes over the autosave, or on
`clear()`, the game that was there is kept as autosave.previous.json, which
`tui-reversi --load` opens; the game that file held before (if another) moves
into earlier-autosaves/ under a timestamped name. Nothing is ever dropped:
starting new game after new game loses none of them (the saved-games list
shows them all, and deleting one there is the only way one goes).

One live game per autosave: the first session to load or save it claims the
file (a lock held for as long as the process lives, so a crash frees it),
and no write ever silently replaces a game another session changed since it
was read. A session that finds the file claimed by another live session, or
changed since it read it, keeps its own game as an earlier autosave instead
(the same file for every later save of that game) and `save` returns one
sentence saying so, once. A game with no move in it is not a game: it is
never kept, only replaced.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import itertools
import os
import time
import weakref
from dataclasses import dataclass
from pathlib import Path

from ..core import Game
from ..core.errors import reason
from .errors import FutureFormatError, StorageError
from .files import ensure_dir, move_aside, read_limited, write_atomic
from .paths import data_dir
from .record import MAX_RECORD_BYTES, SavedGame, read_record

AUTOSAVE_NAME = "autosave.json"
PREVIOUS_NAME = "autosave.previous.json"
EARLIER_DIR = "earlier-autosaves"
CLAIM_NAME = ".autosave.lock"  # held (flock) by the live session that owns the autosave
_STALE_TEMP_SECONDS = 600  # a temp file this old belongs to a writer that died


@dataclass(frozen=True, slots=True)
class AutosaveLoad:
    """What `Autosave.load` found. `record` and `game` are None when there was
    no usable autosave; `problem` is one sentence when the file could not be
    used (it was moved to `moved_to`, or left alone if even that failed)."""

    record: SavedGame | None = None
    game: Game | None = None
    problem: str | None = None
    moved_to: Path | None = None

    @property
    def resumable(self) -> bool:
        """True when there is a game to offer: loaded, not over at its cursor,
        and not a new game nobody has moved in yet."""
        if self.game is None or self.game.is_over:
            return False
        return self.game.ply > 0 or (self.record is not None and self.record.start is not None)


class Autosave:
    """The one autosave file in `directory` (default: the user data directory)."""

    def __init__(self, directory: Path | None = None) -> None:
        self.directory = Path(directory) if directory is not None else data_dir()
        self.path = self.directory / AUTOSAVE_NAME
        self.previous_path = self.directory / PREVIOUS_NAME
        # Set when a bad autosave could not be moved aside: saving would overwrite it.
        self._blocked: str | None = None
        self._game_id: str | None = None  # the game whose record the file holds
        # The file as this session last read or wrote it (None: not looked at yet).
        self._seen: _Seen | None = None
        # Holds the claim: calling it closes the lock's descriptor.
        self._claim_released: weakref.finalize[[int], Autosave] | None = None
        # After a conflict: this session's game and the earlier autosave it goes to.
        self._diverted: tuple[str, Path] | None = None

    def save(self, record: SavedGame) -> str | None:
        """Write `record` as the autosave, atomically. If the file holds another
        game, that one is first kept as autosave.previous.json. If another live
        session has the autosave, or changed it since this one read or wrote
        it, `record` goes to an earlier autosave instead, and the first such
        save returns one sentence saying so. Raises StorageError with one
        sentence (disk full, directory not writable...)."""
        if self._blocked:
            raise StorageError(self._blocked)
        data = record.to_json().encode("utf-8")
        if self._diverted is None:
            conflict = self._conflict()
            if conflict is None:
                if record.id != self._game_id:
                    self._keep_other_game(record.id)
                    self._game_id = record.id
                write_atomic(self.path, data)
                self._seen = _seen(self.path)
                return None
            self._diverted = (record.id, self._earlier_path())
            write_atomic(self._diverted[1], data)
            return f"{conflict}, so this game is kept as an earlier autosave instead (o lists it)"
        if record.id != self._diverted[0]:
            self._diverted = (record.id, self._earlier_path())
        write_atomic(self._diverted[1], data)
        return None

    @property
    def diverted_to(self) -> Path | None:
        """The earlier autosave this session's game goes to after a conflict, if any."""
        return self._diverted[1] if self._diverted else None

    def _conflict(self) -> str | None:
        """Why this session must not write the autosave, or None if it may."""
        if not self._claim():
            return "another session is playing in this autosave"
        if self._seen is not None and _seen(self.path) != self._seen:
            return "another session changed the autosave since this game was read"
        return None

    def _claim(self) -> bool:
        """Hold the autosave for this session while it lives; False if another has it."""
        if self._claim_released is not None:
            return True
        try:
            ensure_dir(self.directory)
            fd = os.open(self.directory / CLAIM_NAME, os.O_RDWR | os.O_CREAT, 0o600)
        except OSError:
            return True  # no lock to be had: the write itself will say what is wrong
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as error:
            os.close(fd)
            return error.errno not in (errno.EWOULDBLOCK, errno.EAGAIN)
        # Released by release(), when this Autosave goes, or when the process ends.
        self._claim_released = weakref.finalize(self, os.close, fd)
        return True

    def release(self) -> None:
        """Let another session have the autosave (this one's game is over: at exit)."""
        if self._claim_released is not None:
            self._claim_released()
            self._claim_released = None

    def _earlier_path(self) -> Path:
        ensure_dir(self.earlier_dir)
        stamp = time.strftime("%Y%m%d-%H%M%S")
        for count in itertools.count(1):  # names sort by time, then by count
            target = self.earlier_dir / f"{stamp}-{count:04d}.json"
            if not os.path.lexists(target):
                return target
        raise AssertionError("unreachable")

    def _keep_other_game(self, game_id: str) -> None:
        try:
            other = SavedGame.from_json(read_limited(self.path, MAX_RECORD_BYTES), "x")
        except FileNotFoundError:
            return
        except StorageError:
            # Only when save() comes without load(). A path that cannot even be
            # reached (a file where a directory should be) is for the write to report.
            if os.path.lexists(self.path):
                move_aside(self.path, "damaged")
            return
        if other.id != game_id:
            self._retire()

    def load(self) -> AutosaveLoad:
        """Read the autosave. Never raises for a bad file: it is moved aside
        with a timestamped name and `problem` says so in one sentence."""
        self._remove_stale_temp_files()
        self._claim()  # before reading: a session started later finds it taken
        self._seen = _seen(self.path)
        try:
            data = read_limited(self.path, MAX_RECORD_BYTES, "the autosave")
            record, game = read_record(data, source="the autosave")
        except FileNotFoundError:
            return AutosaveLoad()
        except StorageError as error:
            if not os.path.lexists(self.path):
                # No file, only a directory that cannot be reached: nothing to
                # resume, and the first save will say why it cannot write.
                return AutosaveLoad()
            label = "newer" if isinstance(error, FutureFormatError) else "damaged"
            try:
                moved_to = move_aside(self.path, label)
                self._seen = _seen(self.path)
            except StorageError as move_error:
                self._blocked = (
                    f"{error}; it was left where it is because {move_error}, "
                    "so the game will not be autosaved"
                )
                return AutosaveLoad(problem=self._blocked)
            return AutosaveLoad(problem=f"{error}; it was kept as {moved_to}", moved_to=moved_to)
        self._game_id = record.id
        return AutosaveLoad(record=record, game=game)

    def clear(self) -> Path | None:
        """Retire the autosave when its game is finished or abandoned. It is
        kept as autosave.previous.json (replacing an older one), where
        `tui-reversi --load` can still open it. Returns that path, or None if
        there was no autosave."""
        if self._blocked or self._diverted is not None:
            return None  # an earlier autosave already, or not this session's file
        if self._conflict() is not None:
            return None  # another session's game: not this one's to retire
        self._game_id = None
        kept = self._retire()
        self._seen = _seen(self.path)
        return kept

    def _retire(self) -> Path | None:
        if not os.path.lexists(self.path):
            return None
        if _without_moves(self.path):  # not a game: nothing to keep
            with contextlib.suppress(FileNotFoundError):
                os.unlink(self.path)
            return None
        self._keep_previous()
        try:
            os.replace(self.path, self.previous_path)
        except FileNotFoundError:
            return None
        except OSError as error:
            raise StorageError(
                f"could not keep the autosave as {self.previous_path}: {reason(error)}"
            ) from None
        retired = _read_record(self.previous_path)
        if retired is not None:
            self._drop_earlier_copies(retired)
        return self.previous_path

    def _drop_earlier_copies(self, record: SavedGame) -> None:
        """Remove the earlier autosaves that hold `record`'s game (the copy
        it was loaded from, say): it is kept, newer, in its place."""
        for path in self.earlier_paths():
            if record.same_game(_read_record(path)):
                with contextlib.suppress(OSError):
                    os.unlink(path)

    @property
    def earlier_dir(self) -> Path:
        """Where the games autosave.previous.json held before are kept."""
        return self.directory / EARLIER_DIR

    def earlier_paths(self) -> list[Path]:
        """The earlier autosaves, most recent first (their names sort by time)."""
        try:
            paths = [p for p in self.earlier_dir.iterdir() if p.suffix == ".json"]
        except OSError:
            return []
        return sorted(paths, key=lambda p: p.name, reverse=True)

    def _keep_previous(self) -> None:
        """Before autosave.previous.json is replaced, move the game it holds
        into earlier-autosaves/, unless it is the game replacing it (an
        older state of it, or a copy: loaded from there). One copy of a game
        is kept there: the one it replaces goes."""
        try:
            data = read_limited(self.previous_path, MAX_RECORD_BYTES)
        except FileNotFoundError:
            return
        except StorageError:
            data = b""  # unreadable: kept all the same, the player decides
        if _without_moves(self.previous_path):
            return  # not a game: the autosave simply replaces it
        kept, replacing = _record(data), _read_record(self.path)
        if kept is not None:
            if replacing is not None and (kept.id == replacing.id or kept.same_game(replacing)):
                return
            self._drop_earlier_copies(kept)
        stamp = time.strftime("%Y%m%d-%H%M%S", time.localtime(_mtime(self.previous_path)))
        try:
            ensure_dir(self.earlier_dir)
            for count in itertools.count(1):  # names sort by time, then by count
                target = self.earlier_dir / f"{stamp}-{count:04d}.json"
                if not os.path.lexists(target):
                    break
            os.replace(self.previous_path, target)
        except OSError as error:
            raise StorageError(
                f"could not keep the previous autosave in {self.earlier_dir}: {reason(error)}"
            ) from None

    def _remove_stale_temp_files(self) -> None:
        # Left by a writer killed between write and rename; never the real autosave.
        cutoff = time.time() - _STALE_TEMP_SECONDS
        with contextlib.suppress(OSError):
            for temp in self.directory.glob(f".{AUTOSAVE_NAME}.*.tmp"):
                with contextlib.suppress(OSError):
                    if temp.lstat().st_mtime < cutoff:
                        temp.unlink()


# What tells one version of the file from another: inode (each atomic write makes
# a new one), modification time and size; all 0 for no file.
_Seen = tuple[int, int, int]


def _seen(path: Path) -> _Seen:
    try:
        status = os.stat(path)
    except OSError:
        return (0, 0, 0)
    return (status.st_ino, status.st_mtime_ns, status.st_size)


def _without_moves(path: Path) -> bool:
    """True for a readable record of a game nobody has moved in (an
    unreadable file is kept: the player decides)."""
    try:
        return not SavedGame.from_json(read_limited(path, MAX_RECORD_BYTES), "x").moves
    except (OSError, StorageError):
        return False


def _record(data: bytes) -> SavedGame | None:
    if not data:
        return None
    try:
        return SavedGame.from_json(data, "x")
    except StorageError:
        return None


def _read_record(path: Path) -> SavedGame | None:
    """The record in `path`, or None if there is none to be read."""
    try:
        return _record(read_limited(path, MAX_RECORD_BYTES))
    except (OSError, StorageError):
        return None


def _mtime(path: Path) -> float:
    try:
        return path.stat().st_mtime
    except OSError:
        return time.time()
