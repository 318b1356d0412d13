"""Where the player's files live: the user data and config directories.

On Linux these follow XDG_DATA_HOME and XDG_CONFIG_HOME (platformdirs reads
them at every call), which is how `tui-reversi serve` gives each SSH user
their own games: it starts the app with those variables pointing into the
user's own directory. Nothing here creates a directory; writers do that.
"""

from __future__ import annotations

from pathlib import Path

import platformdirs

APP_NAME = "tui-reversi"


def data_dir() -> Path:
    """The directory for the autosave and saved games, e.g.
    ~/.local/share/tui-reversi or $XDG_DATA_HOME/tui-reversi."""
    return Path(platformdirs.user_data_dir(APP_NAME, appauthor=False))


def config_dir() -> Path:
    """The directory for settings.toml, e.g. ~/.config/tui-reversi or
    $XDG_CONFIG_HOME/tui-reversi."""
    return Path(platformdirs.user_config_dir(APP_NAME, appauthor=False))
