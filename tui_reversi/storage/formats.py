"""Exchange formats: export a game as text, import one from text, a file or stdin.

Export (`record` is a SavedGame; the first two also take a core Game):

    export_transcript(record)   'f5d6c3d3c4f4'  every move, passes left out
    export_position(record)     the board string at the cursor: 64 squares, X or O
    export_ggf(record)          '(;GM[Othello]...BO[8 ...]B[F5]W[D6]...;)'
    write_export(path, text)    any of them to a file (NameTakenError if it exists)

Import detects the format (a GGF game, a tui-reversi saved-game record, a
board string, or a transcript) and returns a checked SavedGame:

    import_text(text)           pasted text
    import_file(path)           a file
    import_game(text_or_path)   either: an existing file's path, else the text
    import_bytes(data, label)   bytes read elsewhere (stdin), `label` names them

Every failure is a StorageError with one sentence: "cannot import
game.ggf: the GGF game's move 7 (W[C4]) is illegal: it flips nothing".
"""

from __future__ import annotations

import contextlib
import os
import re
import stat
import unicodedata
from pathlib import Path

from ..core import Game, Position, ReversiError, Variant
from ..core.errors import reason
from ..surroundings import current
from .errors import NameTakenError, StorageError, shown
from .files import read_limited, write_atomic
from .ggf import export_ggf, looks_like_ggf, parse_ggf
from .paths import games_dir, player_file
from .record import SavedGame

FILE_NAME_CHARS = 200  # a file's name in a message: longer ones are cut in the middle
MAX_IMPORT_BYTES = 1 << 20  # a game is under 2 KiB; GGS archives hold thousands per file
_BOARD_CHARS = frozenset("XxOo*-.bBwW0")
_TRANSCRIPT = re.compile(r"(?:[a-h][1-8]|pass|pa)*")
_CENTRE = frozenset({"d4", "e4", "d5", "e5"})
_FORMATS_HINT = (
    "a transcript (f5d6c3...), a board string (64 squares then X or O) "
    "or a GGF game ((;GM[Othello]...;))"
)

__all__ = [
    "export_ggf",
    "export_position",
    "export_transcript",
    "import_bytes",
    "import_file",
    "import_game",
    "import_text",
    "write_export",
]


def _game(source: Game | SavedGame) -> Game:
    return source.to_game() if isinstance(source, SavedGame) else source


def export_transcript(source: Game | SavedGame) -> str:
    """Every move of the game (to the end, whatever the cursor), canonical:
    lowercase squares, passes left out. A game that did not start from its
    variant's start needs the GGF export to keep its start position."""
    game = _game(source)
    return game.transcript(game.length)


def export_position(source: Game | SavedGame) -> str:
    """The board string of the position at the cursor: 64 squares a1..h8
    (X, O, -), a space, and the side to move."""
    return str(_game(source).position)


def write_export(path: Path | str, text: str, *, replace: bool = False) -> Path:
    """Write an exported game to the file at `path` (`~` expanded), atomically,
    with a final newline, and return its absolute path; the games folder
    (paths.games_dir, where the app offers to write) is made if missing.
    Raises NameTakenError if the file exists and not `replace`, StorageError
    for anything else (no such directory, not writable...)."""
    try:
        path = player_file(path)
    except StorageError as error:
        raise StorageError(f"cannot export to {_label(path)}: {error}") from None
    try:
        if path.parent == games_dir():  # the folder offered: made on the first export
            path.parent.mkdir(parents=True, exist_ok=True)
        if path.is_dir():
            raise StorageError(f"cannot export to {_label(path)}: it is a directory")
        if not path.parent.is_dir():
            raise StorageError(
                f"cannot export to {_label(path)}: there is no directory {_label(path.parent)}"
            )
    except OSError as error:  # a name too long for the file system, a loop of links...
        raise StorageError(f"cannot export to {_label(path)}: {reason(error)}") from None
    if not replace and os.path.lexists(path):
        raise NameTakenError(f"{_label(path)} already exists")
    write_atomic(path, (text.rstrip("\n") + "\n").encode("utf-8"))
    return path


# -- import ----------------------------------------------------------------


def import_text(text: str, *, variant: Variant | str | None = None) -> SavedGame:
    """A game from pasted text, its format detected. `variant` applies to a
    transcript or a board string (a GGF game and a record name their own);
    without it a transcript is Othello, or classic Reversi if it only makes
    sense from the empty board. Players are both human. Raises StorageError."""
    text = text.lstrip("\ufeff").strip()
    if not text:
        raise StorageError("there is nothing to import: the text is empty")
    if looks_like_ggf(text):
        return parse_ggf(text)
    if text.startswith("{"):
        return SavedGame.from_json(text, source="the saved game")
    compact = "".join(text.split())
    chosen = None if variant is None else _variant(variant)
    if len(compact) == 65 and set(compact) <= _BOARD_CHARS:
        return _from_position(compact, chosen)
    if _TRANSCRIPT.fullmatch(compact.lower()):
        return _from_transcript(compact, chosen)
    if set(compact) <= _BOARD_CHARS:
        return _from_position(compact, chosen)  # reports the length
    moves = _TRANSCRIPT.match(compact.lower())
    if compact.isalnum() and moves is not None and moves.end() >= 2:
        # Moves, then something that is not one: core names the bad move.
        return _from_transcript(compact, chosen)
    raise StorageError(f"the text is not a game: expected {_FORMATS_HINT}")


def _variant(variant: Variant | str) -> Variant:
    try:
        return Variant.parse(variant)
    except ReversiError as error:
        raise StorageError(str(error)) from None


def _from_position(text: str, variant: Variant | None) -> SavedGame:
    try:
        start = Position.from_string(text)
    except ReversiError as error:
        raise StorageError(f"the board string is wrong: {error}") from None
    if variant is None:
        variant = Variant.REVERSI if start == Position.empty() else Variant.OTHELLO
    game = Game(variant, start)
    return SavedGame.from_game(game)


def _from_transcript(text: str, variant: Variant | None) -> SavedGame:
    if variant is None:
        # A centre square is always taken at the Othello start, so a game that
        # opens on one is classic Reversi.
        variant = Variant.REVERSI if text[:2].lower() in _CENTRE else Variant.OTHELLO
    try:
        return SavedGame.from_game(Game.from_transcript(text, variant))
    except ReversiError as error:
        raise StorageError(f"the transcript's {error}") from None


def import_file(path: Path | str, *, variant: Variant | str | None = None) -> SavedGame:
    """A game from the file at `path`, its format detected. Raises
    StorageError: "cannot import game.ggf: ..."."""
    label = _label(path)  # as the player named it
    try:
        path = player_file(path)
        data = read_limited(path, MAX_IMPORT_BYTES, "it")
    except FileNotFoundError:
        raise StorageError(f"cannot import {label}: there is no such file") from None
    except StorageError as error:
        raise StorageError(f"cannot import {label}: {error}") from None
    return import_bytes(data, label, variant)


def _label(name: Path | str) -> str:
    """A file as messages name it: as the player gave it, `~` expanded
    where it can be, on one line."""
    with contextlib.suppress(RuntimeError, ValueError):  # no such ~user, a NUL: as typed
        name = current().expanded(name)
    return shown(str(name), FILE_NAME_CHARS)


def import_bytes(data: bytes, label: str, variant: Variant | str | None = None) -> SavedGame:
    """A game from the bytes of a file or stream called `label` in messages:
    UTF-8 (a BOM is fine) or, failing that, Latin-1. Raises StorageError."""
    if b"\0" in data:
        raise StorageError(f"cannot import {label}: it is not a text file")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        text = data.decode("latin-1")  # old GGF archives; only player names can differ
    try:
        return import_text(text, variant=variant)
    except StorageError as error:
        raise StorageError(f"cannot import {label}: {error}") from None


def import_game(text_or_path: str, *, variant: Variant | str | None = None) -> SavedGame:
    """What the app's import box gets: the path of an existing file, or the
    game itself as text. Raises StorageError, and nothing else, whatever the
    text."""
    path = _named_file(text_or_path.strip())
    if path is not None:
        return import_file(path, variant=variant)
    return import_text(text_or_path, variant=variant)


def _pasted_bytes(text: str) -> bool:
    """True for text no one typed as a file's name: bytes that were not UTF-8
    (they arrive as U+FFFD) or control characters, as binary data pasted in has."""
    return "\ufffd" in text or any(unicodedata.category(char) == "Cc" for char in text)


def _named_file(candidate: str) -> Path | None:
    """The file `candidate` names, or None when it is to be read as a game.
    Text that can only be a file's name (a slash, a leading `~`, a .ggf,
    .json or .txt suffix) and names no file raises StorageError; other text
    that names no file, even one no file could have (too long, say), is a
    game to read, and so is text with pasted bytes in it (binary data)."""
    if (
        "\n" in candidate
        or _pasted_bytes(candidate)
        or looks_like_ggf(candidate)
        or candidate.startswith("{")  # a saved game's JSON, pasted on one line
        or len(candidate) >= 4096
    ):
        return None
    named_file = (
        "/" in candidate
        or "\\" in candidate
        or candidate.startswith("~")
        or Path(candidate).suffix.lower() in (".ggf", ".json", ".txt")
    )
    label = shown(candidate, FILE_NAME_CHARS)
    try:
        path = player_file(candidate)
        is_file = stat.S_ISREG(path.stat().st_mode)
    except (FileNotFoundError, NotADirectoryError):
        is_file = None  # nothing there
    except StorageError as error:
        if named_file:
            raise StorageError(f"cannot import {label}: {error}") from None
        return None
    except (OSError, ValueError) as error:  # too long, a loop of links, a lone surrogate
        if named_file:
            why = reason(error) if isinstance(error, OSError) else "no file can have that name"
            raise StorageError(f"cannot import {label}: {why}") from None
        return None
    if is_file or (is_file is not None and named_file):
        return path  # import_file says why a directory or a device is no game
    if named_file:
        raise StorageError(f"cannot import {label}: there is no such file")
    return None
