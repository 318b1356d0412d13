"""What a game reads of the world it runs in: its environment variables and its
working directory, read once into a value.

A game in a process of its own reads them from the process (`of_process`); a
game hosted beside others in one process (hosted_game.py) is given its own,
and nothing of it may read the process's: its player's HOME and XDG
directories, files root, crash report path, ssh command and terminal
variables are its own. Whoever starts a game makes its surroundings current
(`Surroundings.entered`) in the thread that runs it; the game's code asks
`current()`, which follows the game's thread and its event loop's tasks
(a context variable).

A thread the game starts is a GameThread: its code runs in the context it
was made in, so `current()` there is its game's too.

Outside any game (a tool, a test) `current()` is the process's, read at the
call. In a process that hosts games, code that asks outside a game's context
is a bug that would read another player's place: it raises instead.

Engine variables (evaluation, book, ProbCut, weights, the pure engine) are
the server's, the same for every game, and stay read from the process.
"""

from __future__ import annotations

import contextlib
import os
import posixpath
import sys
import threading
from collections.abc import Iterator, Mapping
from contextvars import Context, ContextVar, copy_context
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any

# Where the player's files go under the home folder when no XDG variable says (as
# platformdirs puts them): (data, config).
_UNDER_HOME = (
    ("Library/Application Support", "Library/Application Support")
    if sys.platform == "darwin"
    else (".local/share", ".config")
)

_current: ContextVar[Surroundings] = ContextVar("tui_reversi_surroundings")
_hosting = False  # set once this process hosts a game: see current()


@dataclass(frozen=True)
class Surroundings:
    """A game's environment (`env`, as os.environ would be in its own process)
    and working directory (`cwd`, absolute)."""

    env: Mapping[str, str] = field(default_factory=dict)
    cwd: Path = Path("/")

    def __post_init__(self) -> None:
        object.__setattr__(self, "env", MappingProxyType(dict(self.env)))

    @classmethod
    def of_process(cls) -> Surroundings:
        """This process's environment and working directory, as they are now."""
        try:
            cwd = Path(os.getcwd())
        except OSError:  # the directory was removed: nothing relative can be opened
            cwd = Path("/")
        return cls(os.environ, cwd)

    @contextlib.contextmanager
    def entered(self) -> Iterator[Surroundings]:
        """These surroundings are current() in this thread (and the tasks of an
        event loop it runs) until the block ends."""
        token = _current.set(self)
        try:
            yield self
        finally:
            _current.reset(token)

    def get(self, name: str, default: str | None = None) -> str | None:
        """The variable `name` of the game's environment."""
        return self.env.get(name, default)

    @property
    def home(self) -> Path:
        """The player's home folder: HOME (when absolute, as platformdirs takes
        it), else the home the system gives this process's user."""
        home = self.env.get("HOME", "")
        if posixpath.isabs(home):
            return Path(home)
        import pwd

        try:
            return Path(pwd.getpwuid(os.getuid()).pw_dir)
        except KeyError:  # a user the system does not know
            return Path("/")

    def expanded(self, name: Path | str) -> Path:
        """`name` with a leading `~` as the player's home folder (`~user` is that
        user's, from the system). RuntimeError for a user who does not exist."""
        path = Path(name)
        head = path.parts[0] if path.parts else ""
        if not head.startswith("~"):
            return path
        base = self.home if head == "~" else Path(head).expanduser()
        return base.joinpath(*path.parts[1:])

    def absolute(self, name: Path | str) -> Path:
        """`name` expanded, and if relative, taken from the game's working
        directory. RuntimeError as for `expanded`."""
        path = self.expanded(name)
        return path if path.is_absolute() else self.cwd / path

    def data_home(self) -> Path:
        """Where applications keep a user's data: XDG_DATA_HOME, else under home."""
        return self._user_folder("XDG_DATA_HOME", _UNDER_HOME[0])

    def config_home(self) -> Path:
        """Where applications keep a user's settings: XDG_CONFIG_HOME, else under home."""
        return self._user_folder("XDG_CONFIG_HOME", _UNDER_HOME[1])

    def _user_folder(self, variable: str, under_home: str) -> Path:
        chosen = self.env.get(variable, "")
        # A relative XDG path is ignored, as the XDG specification and platformdirs say.
        return Path(chosen) if posixpath.isabs(chosen) else self.home / under_home


def current() -> Surroundings:
    """The running game's surroundings; outside a game, this process's (read
    now). RuntimeError in a process hosting games, outside a game's context."""
    found = _current.get(None)
    if found is not None:
        return found
    if _hosting:
        raise RuntimeError("a hosted game's code ran outside its game's surroundings")
    return Surroundings.of_process()


class GameThread(threading.Thread):
    """A thread a game starts (its computer's search, its autosave, its lines to
    the server): its code runs in `context`, the context of the code that made
    it, so its game's surroundings are current() there as in the game's own
    thread (a plain thread starts with an empty context). A process hosting
    games finds, from a failed thread's `context`, the game to tell
    (hosted_game.py)."""

    def __init__(self, *args: Any, **options: Any) -> None:
        super().__init__(*args, **options)
        self.context: Context = copy_context()

    def run(self) -> None:
        self.context.run(super().run)


def in_a_game() -> bool:
    """Whether this code runs for a game whose surroundings are entered."""
    return _current.get(None) is not None


def hosting() -> None:
    """This process hosts games from now on: current() outside a game raises."""
    global _hosting
    _hosting = True
