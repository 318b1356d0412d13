"""What the CLI needs from storage before the app starts: `--load FILE|-`,
`--resume` / `--new`, and a terminal back on stdin after `--load -`.

    plan = plan_start(load=args.load, resume=args.resume, new=args.new)  # StorageError -> exit 2
    if plan.used_stdin:
        reattach_terminal_stdin()                                          # StorageError -> exit 2
    # plan.record: start with this game (loaded or resumed); None: a new game,
    # unless plan.offer is set: ask "Resume / New game" for that game first.
    # plan.notes: one-sentence messages for the app to show once.

Nothing here imports the app; tests drive it with a temporary data directory.
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from typing import IO

from ..core import Variant
from ..core.errors import reason
from .autosave import Autosave
from .errors import StorageError
from .formats import MAX_IMPORT_BYTES, import_bytes, import_file
from .record import SavedGame


def load_game_argument(
    value: str, stdin: IO[str] | None = None, *, variant: Variant | str | None = None
) -> SavedGame:
    """The game named by the CLI's `--load FILE|-`: a file, or standard input
    for '-' (`stdin` defaults to sys.stdin). `variant` applies to a transcript
    or a board string, as for import_text. Raises StorageError with one
    sentence for the CLI to print before it exits with status 2."""
    if value != "-":
        return import_file(value, variant=variant)
    stream = stdin if stdin is not None else sys.stdin
    if stream is None or stream.closed:
        raise StorageError("--load - reads a game from standard input, but there is none")
    if stream.isatty():
        raise StorageError(
            "--load - reads a game from standard input, but it is a terminal; "
            "pipe one in, as in: tui-reversi --load - < game.ggf"
        )
    try:
        data = getattr(stream, "buffer", stream).read(MAX_IMPORT_BYTES + 1)
    except OSError as error:
        raise StorageError(f"cannot read standard input: {reason(error)}") from None
    if isinstance(data, str):
        data = data.encode("utf-8", "surrogateescape")
    if len(data) > MAX_IMPORT_BYTES:
        raise StorageError("cannot import standard input: it is too large to be a game")
    return import_bytes(data, "standard input", variant)


@dataclass(frozen=True, slots=True)
class StartPlan:
    """How the app starts. `record`: the game to play now (from --load, or
    the autosave with --resume), None for a new game. `offer`: an unfinished
    autosaved game to offer with a Resume / New game prompt (neither flag
    given). `notes`: one-sentence messages to show once. `used_stdin`: the
    game came from standard input, which must be given back to the terminal."""

    record: SavedGame | None = None
    offer: SavedGame | None = None
    notes: tuple[str, ...] = ()
    used_stdin: bool = False


def plan_start(
    *,
    load: str | None = None,
    resume: bool = False,
    new: bool = False,
    autosave: Autosave | None = None,
    stdin: IO[str] | None = None,
    variant: Variant | str | None = None,
) -> StartPlan:
    """Decide what the app starts with from `--load`, `--resume` and `--new`
    (`variant`: the `--variant` given with `--load`, for a transcript).

    The autosave is always read, so a bad one is moved aside and reported
    even when another game is loaded. Raises StorageError for a game that
    cannot be loaded or flags that contradict each other.
    """
    if sum((load is not None, resume, new)) > 1:
        raise StorageError("choose one of --load, --resume and --new")
    autosave = autosave if autosave is not None else Autosave()
    outcome = autosave.load()
    notes = (outcome.problem,) if outcome.problem else ()
    if load is not None:
        return StartPlan(
            record=load_game_argument(load, stdin, variant=variant),
            notes=notes,
            used_stdin=load == "-",
        )
    if resume:
        if outcome.resumable:
            return StartPlan(record=outcome.record, notes=notes)
        return StartPlan(notes=(*notes, "there is no unfinished game to resume; a new game starts"))
    if new or not outcome.resumable:
        # A new game: the one in the autosave (finished, or set aside by --new)
        # is kept at once as the previous autosave, so the saved-games list has
        # it before the new game's first move; one without a move is dropped.
        if outcome.record is not None:
            try:
                autosave.clear()
            except StorageError as error:
                notes = (*notes, str(error))
        return StartPlan(notes=notes)
    return StartPlan(offer=outcome.record, notes=notes)


def reattach_terminal_stdin() -> None:
    """After `--load -` read the game from a pipe, make file descriptor 0 the
    controlling terminal again so the app can read keys (Textual reads fd 0).
    Raises StorageError when there is no terminal to play on."""
    try:
        fd = os.open("/dev/tty", os.O_RDWR)
    except OSError as error:
        raise StorageError(
            "--load - read the game from standard input, and there is no terminal "
            f"to play on ({reason(error)})"
        ) from None
    try:
        os.dup2(fd, 0)
    finally:
        os.close(fd)
