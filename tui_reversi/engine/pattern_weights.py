"""The pattern weights file (package data), its reader and its writer.

Format, version 1: four text lines, then the payload.

    TUI-REVERSI-PATTERNS 1
    phases 13 size 91856
    sha256 <hex digest of the payload>
    <empty line>
    <payload: zlib-compressed little-endian int16, phases x size weights,
     phase 0 (fewest empties) first, each phase's table in patterns.py order:
     each phase's bytes are what the evaluator reads>

Weights are in score units (evaluation.SCALE per disc). The digest is
checked before anything is decompressed, so a truncated or altered file is
refused as a whole. $TUI_REVERSI_WEIGHTS names another weights file to
play with instead of the shipped one (to match or measure two sets of
weights without editing the package). Reading a missing or bad file raises WeightsError with
one sentence saying what is wrong; `load_tables()` then answers None once per
process, the engine keeps the hand-made evaluation, and `weights_problem()`
gives the sentence for the player to show.
"""

from __future__ import annotations

import hashlib
import logging
import os
import sys
import zlib
from array import array
from pathlib import Path

from ..core.errors import ReversiError, reason
from .evaluation import Evaluator
from .patterns import PHASE_SIZE, PHASES, PatternEvaluator

MAGIC = "TUI-REVERSI-PATTERNS"
VERSION = 1
WEIGHTS_PATH = Path(__file__).with_name("data") / "patterns.bin"
WEIGHTS_VARIABLE = "TUI_REVERSI_WEIGHTS"  # another weights file instead of the shipped one


_log = logging.getLogger(__name__)
_loaded: dict[Path, list[bytes] | None] = {}
_problems: dict[Path, str] = {}  # why weights could not be used, for the player's notice


class WeightsError(ReversiError):
    """The weights file is missing, of another version, or damaged."""


def write_weights(path: Path, tables: list[list[int]]) -> int:
    """Write `tables` (PHASES lists of PHASE_SIZE ints) to `path`; its size in bytes."""
    values = array("h")
    for table in tables:
        values.extend(table)
    if sys.byteorder != "little":
        values.byteswap()
    payload = zlib.compress(values.tobytes(), 9)
    header = (
        f"{MAGIC} {VERSION}\nphases {len(tables)} size {len(tables[0])}\n"
        f"sha256 {hashlib.sha256(payload).hexdigest()}\n\n"
    )
    data = header.encode("ascii") + payload
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return len(data)


def read_weights(path: Path) -> list[bytes]:
    """The tables in `path`, each phase's as PatternEvaluator reads it
    (`patterns.pack`), or WeightsError with one sentence."""
    try:
        data = path.read_bytes()
    except OSError as error:
        raise WeightsError(f"cannot read the pattern weights {path}: {reason(error)}") from None
    head, sep, payload = data.partition(b"\n\n")
    lines = head.decode("ascii", "replace").split("\n")
    if not sep or len(lines) != 3 or not lines[0].startswith(MAGIC + " "):
        raise WeightsError(f"{path} is not a pattern weights file")
    if lines[0] != f"{MAGIC} {VERSION}":
        raise WeightsError(f"{path} has weights of another version ({lines[0][len(MAGIC) + 1 :]})")
    if lines[1] != f"phases {PHASES} size {PHASE_SIZE}":
        raise WeightsError(f"{path} has weights for other patterns ({lines[1]})")
    if lines[2] != f"sha256 {hashlib.sha256(payload).hexdigest()}":
        raise WeightsError(f"{path} is damaged: its checksum does not match")
    try:
        raw = zlib.decompress(payload)
    except zlib.error:
        raise WeightsError(f"{path} is damaged: its weights do not decompress") from None
    if len(raw) != 2 * PHASES * PHASE_SIZE:
        raise WeightsError(f"{path} is damaged: it has the wrong number of weights")
    size = 2 * PHASE_SIZE
    return [raw[i * size : (i + 1) * size] for i in range(PHASES)]


def weights_path() -> Path:
    """The weights the trained evaluation plays with: $TUI_REVERSI_WEIGHTS,
    else the shipped ones."""
    chosen = os.environ.get(WEIGHTS_VARIABLE)
    return Path(chosen) if chosen else WEIGHTS_PATH


def load_tables(path: Path | None = None) -> list[bytes] | None:
    """The weights in `path` (by default weights_path()), read once per
    process; None (and one logged sentence) when they cannot be used."""
    if path is None:
        path = weights_path()
    if path not in _loaded:
        try:
            _loaded[path] = read_weights(path)
        except WeightsError as error:
            _log.warning("%s; the hand-made evaluation is used instead.", error)
            _loaded[path] = None
            _problems[path] = str(error)
    return _loaded[path]


def weights_problem(path: Path | None = None) -> str | None:
    """Why the weights (by default weights_path()) could not be used, once
    a load was tried; None when they were read or never asked for."""
    return _problems.get(weights_path() if path is None else path)


def trained_evaluator(anti: bool) -> Evaluator | None:
    """The fitted evaluation, or None when there is none for the variant
    (anti keeps the hand-made one: the weights were fitted to Othello
    margins) or the weights cannot be read."""
    if anti:
        return None
    tables = load_tables()
    if tables is None:
        return None
    return PatternEvaluator(tables)
