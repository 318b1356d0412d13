"""Multi-ProbCut's parameters (package data), their reader and writer, and
the cut thresholds a search uses.

ProbCut (Buro) guesses what a deep search would return from a shallow one:
for a node searched `depth` plies deep with `empties` empty squares, the
midgame search (search.py) first searches it `shallow` plies deep, and the
regression fitted on our own search's score pairs, deep ~ a * shallow + b
with residual deviation sigma, says whether the deep score is beyond the
window by more than t sigmas: then the node is cut. t is a level's
selectivity (alphabeta_player.py); the parameters are fitted by
tools/probcut.py with the evaluation hard uses, per depth and per phase
(a bucket of empties), and apply only with that evaluation.

Format, version 1: three text lines, an empty line, then the table.

    TUI-REVERSI-PROBCUT 1
    weights <SHA-256 of the pattern weights file the fit searched with>
    sha256 <hex digest of the table's bytes>
    <empty line>
    <one line per bucket and depth: EMPTIES_FROM EMPTIES_TO DEPTH SHALLOW A B SIGMA,
     b and sigma in score units (evaluation.SCALE per disc)>

A missing or bad file, or one fitted with other weights, raises
ProbCutError with one sentence; `load_probcut()` then answers None once per
process (one logged sentence) and the search runs without cuts.
$TUI_REVERSI_PROBCUT names another parameters file to use instead of the
shipped one (with $TUI_REVERSI_WEIGHTS, to match other weights).
"""

from __future__ import annotations

import hashlib
import logging
import os
from dataclasses import dataclass
from pathlib import Path

from ..core.errors import ReversiError, reason
from .search import PROBCUT_A_SCALE, PROBCUT_MAX_DEPTH, PROBCUT_MIN_DEPTH, ProbCut

MAGIC = "TUI-REVERSI-PROBCUT"
VERSION = 1
PROBCUT_PATH = Path(__file__).with_name("data") / "probcut.txt"
PROBCUT_VARIABLE = "TUI_REVERSI_PROBCUT"  # another parameters file instead of the shipped one

_log = logging.getLogger(__name__)
_loaded: dict[Path, ProbCutFit | None] = {}


class ProbCutError(ReversiError):
    """The ProbCut parameters are missing, of another version or other
    weights, or damaged."""


@dataclass(frozen=True)
class Pair:
    """The regression for one bucket of empties and one node depth."""

    empties_from: int
    empties_to: int
    depth: int
    shallow: int
    a: float
    b: float  # score units
    sigma: float  # score units

    def line(self) -> str:
        return (
            f"{self.empties_from} {self.empties_to} {self.depth} {self.shallow} "
            f"{self.a:.4f} {self.b:.1f} {self.sigma:.1f}"
        )


@dataclass(frozen=True)
class ProbCutFit:
    """The fitted regressions, one per bucket of empties and node depth."""

    pairs: tuple[Pair, ...]

    def at(self, t: float) -> ProbCut:
        """The cut thresholds for selectivity `t` (sigmas)."""
        size = 65 * (PROBCUT_MAX_DEPTH + 1)
        shallow, slope = [0] * size, [PROBCUT_A_SCALE] * size
        above, below = [0] * size, [0] * size
        for pair in self.pairs:
            for empties in range(pair.empties_from, pair.empties_to + 1):
                i = empties * (PROBCUT_MAX_DEPTH + 1) + pair.depth
                shallow[i] = pair.shallow
                slope[i] = round(pair.a * PROBCUT_A_SCALE)
                above[i] = round(t * pair.sigma - pair.b)
                below[i] = round(-t * pair.sigma - pair.b)
        return ProbCut(t, tuple(shallow), tuple(slope), tuple(above), tuple(below))


def weights_digest(path: Path) -> str:
    """The SHA-256 of the file the evaluation's weights come from ('none'
    when it cannot be read)."""
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError:
        return "none"


def write_probcut(path: Path, fit: ProbCutFit, weights: str) -> None:
    """Write `fit`, fitted with the weights whose digest is `weights`."""
    body = "".join(pair.line() + "\n" for pair in fit.pairs).encode("ascii")
    header = f"{MAGIC} {VERSION}\nweights {weights}\nsha256 {hashlib.sha256(body).hexdigest()}\n\n"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(header.encode("ascii") + body)


def read_probcut(path: Path, weights: str) -> ProbCutFit:
    """The parameters in `path`, fitted with the weights whose digest is
    `weights`, or ProbCutError with one sentence."""
    try:
        data = path.read_bytes()
    except OSError as error:
        raise ProbCutError(f"cannot read the ProbCut parameters {path}: {reason(error)}") from None
    head, sep, body = data.partition(b"\n\n")
    lines = head.decode("ascii", "replace").split("\n")
    if not sep or len(lines) != 3 or not lines[0].startswith(MAGIC + " "):
        raise ProbCutError(f"{path} is not a ProbCut parameters file")
    if lines[0] != f"{MAGIC} {VERSION}":
        version = lines[0][len(MAGIC) + 1 :]
        raise ProbCutError(f"{path} has parameters of another version ({version})")
    if lines[2] != f"sha256 {hashlib.sha256(body).hexdigest()}":
        raise ProbCutError(f"{path} is damaged: its checksum does not match")
    if lines[1] != f"weights {weights}":
        raise ProbCutError(f"{path} was fitted with other pattern weights: run tools/probcut.py")
    pairs = []
    try:
        for row in body.decode("ascii").splitlines():
            fields = row.split()
            if len(fields) != 7:
                raise ValueError(row)
            lo, hi, depth, shallow = (int(f) for f in fields[:4])
            a, b, sigma = (float(f) for f in fields[4:])
            if not (
                0 <= lo <= hi <= 64
                and PROBCUT_MIN_DEPTH <= depth <= PROBCUT_MAX_DEPTH
                and 0 < shallow < depth
                and 0.25 <= a <= 4
                and sigma >= 0
            ):
                raise ValueError(row)
            pairs.append(Pair(lo, hi, depth, shallow, a, b, sigma))
    except ValueError:
        raise ProbCutError(f"{path} is damaged: a line of its table cannot be read") from None
    return ProbCutFit(tuple(pairs))


def probcut_path() -> Path:
    """The parameters the search cuts with: $TUI_REVERSI_PROBCUT, else the shipped ones."""
    chosen = os.environ.get(PROBCUT_VARIABLE)
    return Path(chosen) if chosen else PROBCUT_PATH


def load_probcut(path: Path | None = None, weights: Path | None = None) -> ProbCutFit | None:
    """The parameters in `path` (by default probcut_path()) for the weights
    in `weights` (by default pattern_weights.weights_path()), read once per
    process; None (and one logged sentence) when they cannot be used."""
    if path is None:
        path = probcut_path()
    if path not in _loaded:
        if weights is None:
            from .pattern_weights import weights_path

            weights = weights_path()
        try:
            _loaded[path] = read_probcut(path, weights_digest(weights))
        except ProbCutError as error:
            _log.warning("%s; the search runs without ProbCut.", error)
            _loaded[path] = None
    return _loaded[path]
