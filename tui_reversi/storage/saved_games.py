"""Named saved games: one JSON record per game in <data dir>/games/.

    games = SavedGames()
    games.save(record, "Sunday vs hard")         # NameTakenError if it exists
    games.save(record, "Sunday vs hard", replace=True)
    for entry in games.list():                   # never raises for a bad file
        entry.name, entry.updated, entry.black, entry.white, entry.status, entry.moves
        entry.error                              # None, or why it cannot be read
    record = games.load("Sunday vs hard")        # or entry.key
    games.delete(entry.key)

A name becomes a file name through `name_key`: letters and digits kept,
everything else a dash, so no name can reach outside the directory. The
name as typed is kept inside the record and shown in the list.
"""

from __future__ import annotations

import os
import unicodedata
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from pathlib import Path

from ..core import Color, Ending, Game, Result
from ..core.errors import reason
from .errors import NameTakenError, StorageError
from .files import move_aside, read_limited, write_atomic
from .paths import games_dir
from .record import MAX_RECORD_BYTES, SavedGame, now, read_record

SUFFIX = ".json"
_MAX_KEY = 60
_MAX_NAME = 80
_RESERVED = frozenset(  # names Windows will not give a file
    ["con", "prn", "aux", "nul"] + [f"{p}{i}" for p in ("com", "lpt") for i in range(1, 10)]
)


def clean_name(name: str) -> str:
    """`name` as it will be shown: control characters dropped, runs of
    whitespace made one space, at most 80 characters. Raises StorageError if
    nothing is left."""
    spaced = " ".join(str(name).split())  # tabs and newlines become spaces first
    text = "".join(ch for ch in spaced if not unicodedata.category(ch).startswith("C"))
    text = " ".join(text.split())[:_MAX_NAME].strip()
    if not text:
        raise StorageError("a saved game needs a name")
    return text


def name_key(name: str) -> str:
    """The file-name stem for a saved game's name: lowercase letters and
    digits, other characters turned into single dashes ('My game #2' ->
    'my-game-2'). Applying it to a key gives the key back. Raises
    StorageError when the name has no letter or digit."""
    text = unicodedata.normalize("NFKC", str(name)).casefold()
    key = "-".join("".join(ch if ch.isalnum() else " " for ch in text).split())
    key = key[:_MAX_KEY].rstrip("-")
    if not key:
        raise StorageError(f"the name {str(name)[:_MAX_NAME]!r} needs a letter or a digit")
    return f"{key}-game" if key in _RESERVED else key


@dataclass(frozen=True, slots=True)
class SavedGameEntry:
    """One line of the load-game list. `error` says why a file cannot be
    read; then `record` is None and the game fields are empty."""

    key: str
    path: Path
    name: str
    updated: datetime
    record: SavedGame | None = None
    error: str | None = None
    moves: int = 0  # squares played up to the cursor, passes not counted
    black_discs: int = 0
    white_discs: int = 0
    result: Result | None = None
    to_move: Color | None = None

    @property
    def readable(self) -> bool:
        return self.error is None

    @property
    def black(self) -> str:
        return self.record.black if self.record else ""

    @property
    def white(self) -> str:
        return self.record.white if self.record else ""

    @property
    def players(self) -> str:
        """'Saio1200 v Saio3000', 'Human v Easy': who played, by name where
        the game gives one ('' for a file that cannot be read)."""
        if self.record is None:
            return ""
        return f"{self.record.player_label(Color.BLACK)} v {self.record.player_label(Color.WHITE)}"

    @property
    def ending(self) -> Ending | None:
        """How the game ended off the board (a resignation, a flag...), if it did."""
        ending = self.record.ending if self.record is not None else None
        return ending if ending is not None and ending.off_board else None

    @property
    def status(self) -> str:
        """'White wins 39-25', 'Black wins: White resigned', 'Black to move', or
        why the file cannot be read ('sunday.json is damaged: its 'moves' is missing')."""
        if self.error is not None:
            return self.error
        if self.result is not None:
            return str(self.result)
        if self.ending is not None:
            return str(self.ending)
        return f"{self.to_move.label} to move" if self.to_move is not None else ""


class SavedGames:
    """The saved games in `directory` (default: <user data dir>/games)."""

    def __init__(self, directory: Path | None = None) -> None:
        self.directory = Path(directory) if directory is not None else games_dir()
        # path -> (the file's identity when read, its entry): a list() after
        # the first one reads only the files that changed.
        self._entries: dict[Path, tuple[tuple[int, ...], SavedGameEntry]] = {}

    def path_for(self, name: str) -> Path:
        """Where the game called `name` (or with key `name`) is stored."""
        return self.directory / f"{name_key(name)}{SUFFIX}"

    def exists(self, name: str) -> bool:
        return os.path.lexists(self.path_for(name))

    def save(self, record: SavedGame, name: str, *, replace: bool = False) -> SavedGameEntry:
        """Store `record` under `name`. Raises NameTakenError when a game with
        that name (or the same key) exists, unless `replace`; a replaced file
        that cannot be read is moved aside, never overwritten."""
        shown = clean_name(name)
        path = self.path_for(shown)
        if os.path.lexists(path):
            old = self._entry(path)
            if not replace:
                raise NameTakenError(f"a saved game called {old.name!r} already exists")
            if not old.readable:
                move_aside(path, "replaced")
        stored = _with_name(record, shown)
        write_atomic(path, stored.to_json().encode("utf-8"))
        return self._entry(path)

    def list(self) -> list[SavedGameEntry]:
        """Every saved game, most recently updated first. A file that cannot
        be read is listed with `error` set, never raised."""
        try:
            paths = [
                p
                for p in self.directory.iterdir()
                if p.name.endswith(SUFFIX) and not p.name.startswith(".")
            ]
        except FileNotFoundError:
            return []
        except OSError as error:
            raise StorageError(
                f"cannot list the saved games in {self.directory}: {reason(error)}"
            ) from None
        self._entries = {p: self._entries[p] for p in paths if p in self._entries}
        entries = [self._cached_entry(p) for p in paths]
        return sorted(entries, key=lambda e: (e.updated, e.key), reverse=True)

    def _cached_entry(self, path: Path) -> SavedGameEntry:
        try:
            info = path.stat()
            identity = (info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns, info.st_ctime_ns)
        except OSError:
            return self._entry(path)
        cached = self._entries.get(path)
        if cached is not None and cached[0] == identity:
            return cached[1]
        entry = self._entry(path)
        self._entries[path] = (identity, entry)
        return entry

    def load(self, name: str) -> SavedGame:
        """The record saved as `name` (a name or a key). Raises StorageError
        with one sentence if there is none or it cannot be read."""
        return self._read(self.path_for(name), name, f"the saved game {name!r}")[0]

    def delete(self, name: str) -> None:
        """Remove the saved game `name` (a name or a key), readable or not."""
        path = self.path_for(name)
        try:
            path.unlink()
        except FileNotFoundError:
            raise StorageError(f"there is no saved game called {name!r}") from None
        except OSError as error:
            raise StorageError(f"could not delete {path}: {reason(error)}") from None

    def entry_for(self, path: Path, name: str) -> SavedGameEntry:
        """A list entry, called `name`, for a record file outside the saved
        games (the previous autosave). Never raises for a bad file."""
        return replace(self._entry(path), name=name)

    def _read(self, path: Path, name: str, source: str) -> tuple[SavedGame, Game]:
        try:
            data = read_limited(path, MAX_RECORD_BYTES, source)
        except FileNotFoundError:
            raise StorageError(f"there is no saved game called {name!r}") from None
        return read_record(data, source=source)

    def _entry(self, path: Path) -> SavedGameEntry:
        key = path.name[: -len(SUFFIX)]
        try:
            record, game = self._read(path, key, path.name)
        except StorageError as error:
            return SavedGameEntry(key, path, key, _mtime(path), error=str(error))
        position = game.position
        return SavedGameEntry(
            key=key,
            path=path,
            name=record.name or key,
            updated=record.updated,
            record=record,
            moves=sum(1 for move in game.played[: game.ply] if move),
            black_discs=position.count(Color.BLACK),
            white_discs=position.count(Color.WHITE),
            result=game.result,
            to_move=None if game.is_over or record.ending is not None else position.to_move,
        )


def _with_name(record: SavedGame, name: str) -> SavedGame:
    return replace(record, name=name, updated=now())


def _mtime(path: Path) -> datetime:
    try:
        return datetime.fromtimestamp(path.lstat().st_mtime, UTC)
    except OSError:
        return datetime.fromtimestamp(0, UTC)
