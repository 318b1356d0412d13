"""A session's game process from outside: the folder it runs in, where it writes a
crash report and how that report reaches the log, and how its end is read
(a signal's name, the exit status of refused input, the terminal reset after a
signal) and told (an amount of input dropped).
"""

from __future__ import annotations

import contextlib
import itertools
import signal
import time
from pathlib import Path

from ..config import player_directory_name
from .session_edge import EventWriter

# What a full-screen app may have switched on, switched off again: used only when the
# game died by a signal and could not restore the player's terminal itself.
TERMINAL_RESET = (
    b"\x1b[0m\x1b[?1000l\x1b[?1002l\x1b[?1003l\x1b[?1006l\x1b[?1015l"
    b"\x1b[?1004l\x1b[?2004l\x1b[<u\x1b[?25h\x1b[?7h\x1b[?1049l"
)


# The game's exit status for options or input it refused (its one sentence is on the
# player's screen): `tui-reversi --black grandmaster` (see __main__.main).
BAD_INPUT_STATUS = 2


def amount(size: int) -> str:
    """`10485760` -> '10 MB', `40000` -> '39 KB': a size for a sentence."""
    return f"{size / 1048576:.0f} MB" if size >= 1048576 else f"{max(size // 1024, 1)} KB"


def player_home(players_dir: Path, user: str) -> Path:
    """The player's folder, the game's home: made, and private."""
    home = players_dir / player_directory_name(user)
    for directory in (home, home / "data", home / "config", home / "state", home / "cache"):
        directory.mkdir(mode=0o700, parents=True, exist_ok=True)
        directory.chmod(0o700)  # (found with a looser mode: made private again)
    return home


def crash_report_path(data_dir: Path, user: str) -> Path:
    """Where a game of `user`'s writes its report after a bug, outside their folder."""
    stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime())
    name = f"{player_directory_name(user)}-{stamp}-{next(_crash_numbers)}.txt"
    return data_dir / "crash-reports" / name


_crash_numbers = itertools.count(1)


def log_crash_report(events: EventWriter, path: Path | None, user: str | None) -> None:
    """The report a crashed game left at `path`, into the log, whole: an event a line."""
    if path is None or not path.exists():
        return
    # Not charged to the player's address: a report is the server's bug, and
    # its length would leave no room for the player's own disconnect.
    try:
        report = path.read_text(encoding="utf-8", errors="replace")
    except OSError as error:
        events.write("crash-report", path=path, unreadable=error)
        return
    events.write("crash-report", path=path, user=user)
    for line in report.rstrip("\n").splitlines():
        events.write("crash-report-line", path=path, text=line)


def signal_name(number: int) -> str:
    """`15` -> 'TERM': the name of the signal that ended a game."""
    with contextlib.suppress(ValueError):
        return signal.Signals(number).name.removeprefix("SIG")
    return str(number)
