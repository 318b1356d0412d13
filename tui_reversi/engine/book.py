"""The opening book: the first plies of likely lines, searched deeply
offline (tools/book.py), read lazily from package data.

File format, version 1 (text, one position a line after the header):

    tui-reversi book 1
    OWN OPP SQ:SCORE SQ:SCORE ...

OWN and OPP are the hex bitboards of the side to move and the other side,
in the one of the position's eight symmetric images with the smallest
(OWN, OPP); each SQ:SCORE is a square (0..63, a1 = 0, in that image) and
its deep search score in score units (evaluation.SCALE per disc) for the
side to move. Only the moves worth playing are stored.

The book is for Othello scoring from the standard start (so Reversi games
use it when their placements give that start); anti has its own objective
and never uses it. A missing or bad book gives one logged sentence (also
`book_problem()`, which the player shows) and the engine searches every
move. $TUI_REVERSI_BOOK names another book file to use instead of the
shipped one (to match one book against another in the arena).

A learned book (the same format; NBoard's `learn` writes it, see
players/learned_book.py) is read with the shipped one when a caller names
it: its entry for a position, when it has one, is used before the
shipped book's.
"""

from __future__ import annotations

import logging
import os
import random
from pathlib import Path

from ..core.bitboard import SQUARE_FROM_IMAGE, canonical_image
from ..core.errors import ReversiError, reason

BOOK_PATH = Path(__file__).with_name("data") / "book.txt"
HEADER = "tui-reversi book 1"
BOOK_VARIABLE = "TUI_REVERSI_BOOK"  # another book file instead of the shipped one
# Moves within this many score units of the best are near-equal: one is
# chosen at random (with the player's seed) so games vary.
NEAR_EQUAL = 100

_log = logging.getLogger(__name__)
_books: dict[Path, dict[tuple[int, int], list[tuple[int, int]]] | None] = {}
_problems: dict[Path, str] = {}  # why a book could not be used, for the player's notice


class BookError(ReversiError):
    """The book file is missing or not a book."""


def read_book(path: Path) -> dict[tuple[int, int], list[tuple[int, int]]]:
    """The entries of the book at `path`, or BookError with one sentence."""
    try:
        text = path.read_text(encoding="ascii")
    except (OSError, UnicodeDecodeError) as error:
        raise BookError(f"cannot read the opening book {path}: {reason(error)}") from None
    lines = text.splitlines()
    if not lines or lines[0] != HEADER:
        raise BookError(f"{path} is not an opening book of version 1")
    entries: dict[tuple[int, int], list[tuple[int, int]]] = {}
    for number, line in enumerate(lines[1:], 2):
        try:
            own_hex, opp_hex, *moves = line.split()
            pairs = [move.split(":") for move in moves]
            entry = [(int(sq), int(score)) for sq, score in pairs]
            key = (int(own_hex, 16), int(opp_hex, 16))
        except ValueError:
            raise BookError(f"{path} line {number} is not a book entry") from None
        if not entry or any(not 0 <= sq < 64 for sq, _ in entry):
            raise BookError(f"{path} line {number} has no moves or a square off the board")
        entries[key] = entry
    return entries


def write_book(path: Path, entries: dict[tuple[int, int], list[tuple[int, int]]]) -> None:
    """Write `entries` (canonical keys, moves best first) as a book file."""
    lines = [HEADER]
    for (own, opp), moves in entries.items():
        lines.append(f"{own:x} {opp:x} " + " ".join(f"{sq}:{score}" for sq, score in moves))
    path.write_text("\n".join(lines) + "\n", encoding="ascii")


def shipped_path() -> Path:
    """The book hard and expert play from: $TUI_REVERSI_BOOK, else the shipped one."""
    chosen = os.environ.get(BOOK_VARIABLE)
    return Path(chosen) if chosen else BOOK_PATH


def load_book(path: Path | None = None) -> dict[tuple[int, int], list[tuple[int, int]]] | None:
    """The shipped book (or `path`), read once per process; None (and one
    logged sentence) when it cannot be used."""
    if path is None:
        path = shipped_path()
    if path not in _books:
        try:
            _books[path] = read_book(path)
        except BookError as error:
            _log.warning("%s; every move is searched instead.", error)
            _books[path] = None
            _problems[path] = str(error)
    return _books[path]


def book_problem(path: Path | None = None) -> str | None:
    """Why the book (by default the shipped one) could not be used, once a
    load was tried; None when it was read or never asked for."""
    return _problems.get(shipped_path() if path is None else path)


def load_learned(path: Path) -> dict[tuple[int, int], list[tuple[int, int]]]:
    """The learned book at `path` (empty while nothing was learned), read
    once per process and kept as learning changes it; a bad file is one
    logged sentence and counts as empty."""
    if path not in _books:
        if not path.exists():
            _books[path] = {}
            return {}
        load_book(path)
    return _books[path] or {}


def keep_learned(path: Path, entries: dict[tuple[int, int], list[tuple[int, int]]]) -> None:
    """Write the learned book and use it from now on in this process."""
    path.parent.mkdir(parents=True, exist_ok=True)
    write_book(path, entries)
    _books[path] = entries


def book_scores(own: int, opp: int, learned: Path | None = None) -> dict[int, int]:
    """The book's moves for the side owning `own`, each square (on the real
    board) with its deep search score in score units, in the order the book
    stores them; empty when the position is not in the book (or no book).
    With `learned`, that book's entry comes first."""
    c_own, c_opp, k = canonical_image(own, opp)
    entry = load_learned(learned).get((c_own, c_opp)) if learned is not None else None
    if entry is None:
        entries = load_book()
        if entries is None:
            return {}
        entry = entries.get((c_own, c_opp))
    if entry is None:
        return {}
    # Back from the canonical image to the real board: the square whose image is each stored one.
    real = SQUARE_FROM_IMAGE[k]
    ordered = sorted(entry)  # by the image's squares, so that a seed picks as it always has
    return {real[sq]: score for sq, score in ordered}


def book_move(own: int, opp: int, rng: random.Random, learned: Path | None = None) -> int | None:
    """A book move for the side owning `own` (one of the near-equal best,
    chosen with `rng`), or None when the position is not in the book (nor
    in the `learned` one)."""
    scores = book_scores(own, opp, learned)
    if not scores:
        return None
    best = max(scores.values())
    choices = [sq for sq, score in scores.items() if score >= best - NEAR_EQUAL]
    return choices[rng.randrange(len(choices))]
