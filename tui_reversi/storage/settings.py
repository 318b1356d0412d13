"""The player's settings: a small TOML file in the user config directory.

    settings, warnings = load_settings(themes=app_theme_names)  # never raises for a bad file
    for warning in warnings: show(warning)                      # once, at start
    note = save_settings(replace(settings, white="hard"))       # note: None, or one sentence

settings.toml, as `save_settings` writes it::

    black = "human"        # human, easy, medium, hard or expert
    white = "easy"
    variant = "othello"    # othello, reversi or anti
    theme = "default"      # "default": the app's own, or its 16-colour one when needed
    ascii = false          # plain ASCII board, for terminals without good Unicode
    legal_moves = true     # mark the squares the player to move can play
    animation = "auto"     # true, false, or "auto" (the app decides, e.g. off over SSH)
    clock = "5+3"          # the clock last chosen for an invitation: "" for none

A missing file means the defaults. A value that is wrong, or a key that is
unknown, gives one warning sentence each and the default is used; a file
that cannot be read at all gives one warning and all the defaults. The file
itself is never changed by loading, and `save_settings` moves a file that had
problems aside (timestamped) before it writes a new one.
"""

from __future__ import annotations

import difflib
import json
import re
from collections.abc import Collection
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

from ..core import Variant
from ..players.kinds import NAMES
from .errors import StorageError
from .files import move_aside, read_limited, write_atomic
from .paths import config_dir

SETTINGS_NAME = "settings.toml"
MAX_SETTINGS_BYTES = 64 * 1024
_THEME_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,39}")
# A time control as net/terms.py writes it: minutes + seconds a move (that module
# reads it whole; storage sits beside net, so it checks the shape alone).
_CLOCK = re.compile(r"[0-9]{1,3}\+[0-9]{1,2}")


@dataclass(frozen=True, slots=True)
class Settings:
    """What the player chose. `animation` None means "auto": the app decides
    (for instance off over SSH or a slow link)."""

    black: str = "human"
    white: str = "easy"
    variant: Variant = Variant.OTHELLO
    theme: str = "default"
    ascii: bool = False
    legal_moves: bool = True
    animation: bool | None = None
    clock: str = ""  # the time control last chosen for an invitation ('5+3'); '' none


_COMMENTS = {
    "black": "human, easy, medium, hard or expert",
    "variant": "othello, reversi or anti",
    "theme": '"default" or a theme name (the app\'s settings screen lists them)',
    "ascii": "plain ASCII board, for terminals without good Unicode",
    "legal_moves": "mark the squares the player to move can play",
    "animation": 'true, false, or "auto" (the app decides, e.g. off over SSH)',
    "clock": 'the clock last chosen for an invitation: "" for none',
}


def settings_path(directory: Path | None = None) -> Path:
    """settings.toml in `directory` (default: the user config directory)."""
    return (Path(directory) if directory is not None else config_dir()) / SETTINGS_NAME


def load_settings(
    path: Path | None = None, *, themes: Collection[str] | None = None
) -> tuple[Settings, list[str]]:
    """The settings in `path` (default: settings_path()) and a list of
    one-sentence warnings about anything that was wrong and replaced by its
    default. `themes`, if given, are the theme names the app knows. Never
    raises for a bad file and never changes it."""
    path = path if path is not None else settings_path()
    source = f"the settings file {path}"
    try:
        data = read_limited(path, MAX_SETTINGS_BYTES, source)
    except FileNotFoundError:
        return Settings(), []
    except StorageError as error:
        return Settings(), [f"{error}; the default settings are used"]
    import tomllib  # here: without a settings file, start-up need not import it

    try:
        table = tomllib.loads(data.decode("utf-8"))
    except UnicodeDecodeError:
        return Settings(), [f"{source} is not UTF-8 text; the default settings are used"]
    except (tomllib.TOMLDecodeError, RecursionError, ValueError) as error:
        detail = str(error).splitlines()[0][:120] if str(error) else "it is not TOML"
        return Settings(), [f"{source} cannot be read ({detail}); the default settings are used"]
    return _from_table(table, source, themes)


def _from_table(
    table: dict[str, object], source: str, themes: Collection[str] | None
) -> tuple[Settings, list[str]]:
    defaults = Settings()
    known = [f.name for f in fields(Settings)]
    values: dict[str, Any] = {}  # each checked by _check against its field
    warnings = []
    for key, value in table.items():
        if key not in known:
            close = difflib.get_close_matches(key, known, n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            warnings.append(f"{source} has an unknown setting {key[:40]!r}{hint}; it is ignored")
            continue
        default = getattr(defaults, key)
        try:
            values[key] = _check(key, value, themes)
        except ValueError as error:
            warnings.append(
                f"{source} sets {key} to {_shown(value)}, but {error}; "
                f"{_toml_value(default)} is used"
            )
    return Settings(**values), warnings


def _check(key: str, value: object, themes: Collection[str] | None) -> object:
    """The setting's value, or ValueError saying what it should be."""
    if key in ("black", "white"):
        if isinstance(value, str) and value.strip().lower() in NAMES:
            return value.strip().lower()
        raise ValueError(f"it should be one of {', '.join(NAMES)}")
    if key == "variant":
        names = [v.value for v in Variant]
        if isinstance(value, str) and value.strip().lower() in names:
            return Variant(value.strip().lower())
        raise ValueError(f"it should be one of {', '.join(names)}")
    if key == "theme":
        if themes is not None:
            if isinstance(value, str) and value in themes:
                return value
            raise ValueError(f"it should be one of {', '.join(sorted(themes))}")
        if isinstance(value, str) and _THEME_NAME.fullmatch(value):
            return value
        raise ValueError("it should be a theme name")
    if key == "animation":
        if isinstance(value, bool):
            return value
        if value == "auto":
            return None
        raise ValueError('it should be true, false or "auto"')
    if key == "clock":
        if isinstance(value, str) and (value == "" or _CLOCK.fullmatch(value)):
            return value
        raise ValueError('it should be a clock such as "5+3", or "" for none')
    if isinstance(value, bool):  # ascii, legal_moves
        return value
    raise ValueError("it should be true or false")


def _shown(value: object) -> str:
    if isinstance(value, dict | list):
        return "a table" if isinstance(value, dict) else "a list"
    text = _toml_value(value) if isinstance(value, str | bool | int | float) else "a date"
    return text if len(text) <= 40 else text[:37] + "..."


def _toml_value(value: object) -> str:
    if value is None:
        return '"auto"'
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, Variant):
        value = value.value
    if isinstance(value, str):
        # JSON's escapes are TOML's; TOML also wants DEL escaped.
        return json.dumps(value).replace("\x7f", "\\u007f")
    return str(value)


def settings_to_toml(settings: Settings) -> str:
    """The text of settings.toml for `settings`."""
    lines = ["# tui-reversi settings: the app rewrites this file when you change them."]
    for field in fields(Settings):
        line = f"{field.name} = {_toml_value(getattr(settings, field.name))}"
        comment = _COMMENTS.get(field.name)
        lines.append(f"{line:<24} # {comment}" if comment else line)
    return "\n".join(lines) + "\n"


def save_settings(
    settings: Settings, path: Path | None = None, *, themes: Collection[str] | None = None
) -> str | None:
    """Write `settings` to `path` (default: settings_path()), atomically.
    If the file there had problems (it would load with warnings; `themes` as
    for load_settings), it is first moved aside; the return value then says
    where, in one sentence. Raises StorageError if they cannot be written."""
    path = path if path is not None else settings_path()
    note = None
    _, warnings = load_settings(path, themes=themes)
    if warnings:
        kept = move_aside(path, "replaced")
        note = f"the old settings file had problems; it was kept as {kept}"
    write_atomic(path, settings_to_toml(settings).encode("utf-8"))
    return note
