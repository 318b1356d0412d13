"""When tui-reversi meets a bug: the crash report a developer needs, written
to a file, and one sentence for the player instead of a traceback.

Locally the report goes under the data directory and the sentence says
where. Under `tui-reversi serve` the server names the file (REPORT_VARIABLE,
outside the player's own directory) and copies it into its log: the player
is told only that the operator has it.
"""

from __future__ import annotations

import contextlib
import os
import platform
import signal
import sys
import traceback
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import IO, TextIO

from .surroundings import current

# The exit status after a crash (EX_SOFTWARE in sysexits.h): not 0, not 1 or
# 2 (bad input), not 128+N (a signal).
CRASH_STATUS = 70

# Set by `tui-reversi serve`: the file to write the report to.
REPORT_VARIABLE = "TUI_REVERSI_CRASH_REPORT"

# Test-only: a key (e.g. "f12") that raises an exception in the app, so tests and
# bench/fuzz.py can check what a player sees after a bug. Never set in play.
TEST_CRASH_VARIABLE = "TUI_REVERSI_TEST_CRASH"


# For diagnosing a hang (bench/fuzz.py sets it): the file that SIGUSR1 makes
# the app write every thread's stack to, even while its event loop is stuck.
STACKS_VARIABLE = "TUI_REVERSI_STACKS"


# What the app says of itself after the stacks (its screens, where the keys
# go): set by the running app, called from the main thread's signal handler.
describe_state: Callable[[], str] | None = None


def stacks_on_signal() -> None:
    """With $TUI_REVERSI_STACKS set, SIGUSR1 appends every thread's stack to
    that file (Python's faulthandler, which needs no help from a stuck loop),
    then, once the main thread runs Python again, `describe_state()`. For a
    game that has its process to itself."""
    if not hasattr(signal, "SIGUSR1"):
        return
    import faulthandler

    stacks = open_stacks_file()
    if stacks is None:
        return

    def state(signum: int, frame: object) -> None:
        describe = describe_state
        with contextlib.suppress(Exception):  # a diagnostic must never end the game
            stacks.write(f"\nApp state:\n{describe() if describe else 'not running'}\n")
            stacks.flush()

    signal.signal(signal.SIGUSR1, state)
    faulthandler.register(signal.SIGUSR1, file=stacks, all_threads=True, chain=True)


def open_stacks_file() -> TextIO | None:
    """The file $TUI_REVERSI_STACKS names (in the game's environment), open to
    append; None without one, or if it cannot be opened (a diagnostic aid only:
    the game goes on without it)."""
    surroundings = current()
    path = surroundings.get(STACKS_VARIABLE)
    if not path:
        return None
    try:
        # Kept open for the game's life: a signal handler writes to its descriptor.
        return open(surroundings.absolute(path), "a", encoding="utf-8")
    except (OSError, RuntimeError):
        return None


class DeliberateCrash(RuntimeError):
    """Raised by the test-only crash key."""


def describe(
    error: BaseException, *, transcript: str | None = None, command: list[str] | None = None
) -> str:
    """The crash report: what failed, where, with what (`command`: the game's
    command line, default this process's), and the game so far."""
    from . import __version__

    versions = [f"tui-reversi {__version__}", f"Python {platform.python_version()}"]
    textual = sys.modules.get("textual")
    if textual is not None:
        versions.append(f"Textual {getattr(textual, '__version__', '?')}")
    lines = [
        "tui-reversi crash report",
        f"time: {datetime.now(UTC).isoformat(timespec='seconds')}",
        f"versions: {', '.join(versions)} on {platform.platform()}",
        f"command: {' '.join(sys.argv if command is None else command)}",
    ]
    if transcript is not None:
        lines.append(f"game: {transcript or '(no moves yet)'}")
    lines.append("")
    lines.extend(traceback.format_exception(error))
    inner = getattr(error, "error", None)  # Textual's WorkerFailed carries the worker's error
    if isinstance(inner, BaseException) and inner is not error.__cause__:
        lines.append("\nraised in the worker:")
        lines.extend(traceback.format_exception(inner))
    return "\n".join(line.rstrip("\n") for line in lines) + "\n"


def served() -> bool:
    """True when the game runs for an SSH player of `tui-reversi serve`."""
    return bool(current().get(REPORT_VARIABLE))


def write_report(report: str) -> Path | None:
    """Write `report` where it belongs; its path, or None if it could not be written."""
    from .storage.paths import data_dir

    surroundings = current()
    named = surroundings.get(REPORT_VARIABLE)
    if named:
        try:
            path = surroundings.absolute(named)
        except RuntimeError:  # ~user of no user
            return None
    else:
        stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
        path = data_dir() / "crash-reports" / f"crash-{stamp}-{os.getpid()}.txt"
    try:
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        # Its reader's alone from the first byte: a report quotes the game and the player's input.
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as file:
            os.fchmod(fd, 0o600)  # (one found there already keeps its mode otherwise)
            file.write(report)
    except OSError:
        return None
    return path


def keep_private(reports: Path) -> None:
    """The crash reports folder `reports` (if there is one) 0700 and each report
    in it 0600, whatever modes they were found with (an older version wrote them
    0644). OSError if that cannot be done."""
    if not reports.is_dir() or reports.is_symlink():
        return
    reports.chmod(0o700)
    for report in reports.iterdir():
        if report.is_file() and not report.is_symlink():
            report.chmod(0o600)


def crash_sentence(report: Path | None, *, saved: bool) -> str:
    """What the player reads after a crash: one sentence."""
    game = (
        "your game is saved and the next start offers it"
        if saved
        else "your game is saved up to the last move that could be written"
    )
    if served():
        where = "the server's operator has the crash report"
    elif report is not None:
        where = f"the crash report is in {report}"
    else:
        where = "the crash report could not be written"
    return f"tui-reversi: an unexpected error stopped the game; {game}, and {where}."


def contain(
    error: BaseException,
    *,
    transcript: str | None = None,
    saved: bool = True,
    stderr: IO[str] | None = None,
    command: list[str] | None = None,
) -> int:
    """After a bug: write the report, tell the player in one sentence on
    `stderr` (default the process's), and return the exit status."""
    report = write_report(describe(error, transcript=transcript, command=command))
    with contextlib.suppress(OSError, ValueError):  # the terminal is gone; the report stays
        print(crash_sentence(report, saved=saved), file=stderr or sys.stderr)
    return CRASH_STATUS
