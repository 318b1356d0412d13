"""Where the player's files live: the user data and config directories.

On Linux these follow XDG_DATA_HOME and XDG_CONFIG_HOME of the game's own
environment (surroundings.py, read at every call), which is how `tui-reversi
serve` gives each SSH user their own games: it starts the game with those
variables pointing into the user's own directory. Nothing here creates a
directory; writers do that.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from ..surroundings import current
from .errors import StorageError, shown

APP_NAME = "tui-reversi"
# Set by `tui-reversi serve` to the SSH player's own directory: the app then
# reads and writes player-named files (import, export) only inside it, so an
# open arcade's players cannot read or overwrite the server's files.
FILES_ROOT_VARIABLE = "TUI_REVERSI_FILES_ROOT"
GAMES_DIR = "games"


def data_dir() -> Path:
    """The directory for the autosave and saved games, e.g.
    ~/.local/share/tui-reversi or $XDG_DATA_HOME/tui-reversi."""
    if sys.platform == "win32":  # (no hosted games there: the process's own folders)
        import platformdirs

        return Path(platformdirs.user_data_dir(APP_NAME, appauthor=False))
    return current().data_home() / APP_NAME


def games_dir() -> Path:
    """The folder of the saved games, and where an export is offered to go,
    e.g. ~/.local/share/tui-reversi/games."""
    return data_dir() / GAMES_DIR


def shown_path(path: Path) -> str:
    """`path` as a message or a file box shows it: the home folder as ~."""
    home = current().home
    if home != Path("/") and path.is_relative_to(home):
        return str(Path("~") / path.relative_to(home))
    return str(path)


def screenshots_dir() -> Path | None:
    """Where a screenshot of the game is saved: on a served game (FILES_ROOT_VARIABLE
    set) the player's own folder; otherwise None, Textual's default (the user's
    downloads folder, from the environment of the process: a game's own)."""
    surroundings = current()
    root = surroundings.get(FILES_ROOT_VARIABLE)
    if not root:
        return None
    try:
        return surroundings.absolute(root)
    except RuntimeError:  # ~user of no user: nowhere of the player's
        return None


def config_dir() -> Path:
    """The directory for settings.toml, e.g. ~/.config/tui-reversi or
    $XDG_CONFIG_HOME/tui-reversi."""
    if sys.platform == "win32":
        import platformdirs

        return Path(platformdirs.user_config_dir(APP_NAME, appauthor=False))
    return current().config_home() / APP_NAME


def player_file(name: Path | str) -> Path:
    """The absolute path of a file the player named (`~` expanded, a relative
    name taken from the game's working directory). On a served game
    (FILES_ROOT_VARIABLE set) it must lie inside that directory, symbolic
    links resolved; otherwise StorageError says where files live.
    Any name at all gives a path or a StorageError, never another error."""
    surroundings = current()
    try:
        encoded = os.fsencode(name)
    except UnicodeEncodeError:  # a lone surrogate: no file system takes it
        raise StorageError(f"no file can be called {shown(str(name))}") from None
    if b"\0" in encoded:
        raise StorageError("a file name cannot contain a NUL character")
    try:
        path = surroundings.absolute(name)
    except RuntimeError:  # ~user for a user who does not exist
        user = str(name).split("/", 1)[0]
        raise StorageError(f"{shown(user)} names no user on this machine") from None
    root = surroundings.get(FILES_ROOT_VARIABLE)
    if not root:
        return path
    try:
        home = surroundings.absolute(root).resolve()
        inside = path.resolve().is_relative_to(home)
    except (OSError, RuntimeError):  # a symbolic-link loop
        inside = False
    if not inside:
        raise StorageError(
            "on this server your files live in your own folder, so give a name "
            "there such as game.ggf"
        )
    return path
