"""Fit the pattern weights to self-play positions (tools/selfplay.py) by
regularised least squares, one phase at a time; write the weights file.

Needs numpy (`pip install -e '.[train]'`); the game never does.

Each phase is fitted on the positions whose empties fall in the phase or
within SMOOTH empties of it, so neighbouring phases share data and their
weights change smoothly, and it is regularised towards the phase before it
(fewer empties), so that a configuration rare in the opening keeps the
worth it has later. The normal equations (X'X + lambda I) w = X'y are
solved by conjugate gradients with X kept as index lists, never as a matrix.
Symmetric configurations share one parameter (patterns.canonical).

    python tools/fit.py data/sp-1-*.txt --holdout data/holdout.txt \
        --out tui_reversi/engine/data/patterns.bin

Prints, per phase, the held-out mean squared error in discs of the fitted
evaluation and of the hand-made one (raw, and rescaled by its best factor).

For search-labelled positions (selfplay.py --labels search), `--prior
WEIGHTS` regularises every phase towards that phase of an existing weights
file (the shipped one) instead of towards the phase before, so a few
thousand positions refine the weights rather than replace them; and
`--paired` fits the positions above `--exact-empties` as pairs, each
position with the one after it in its game: the evaluation's difference
between the two against their labels' difference. A depth-10 search leans
by about 4 discs against the side to move; both positions of a pair lean
alike, so the lean cancels and does not pass into the weights (the
constant of a phase is then left to the prior). Positions the solver
labelled are fitted as they are.

    python tools/fit.py data/deep-11 --prior data/before.bin --paired \
        --exact-empties 20 --ridge 100 --ridge-exact 300 --out data/deep.bin
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tui_reversi.core.bitboard import legal_moves
from tui_reversi.engine.evaluation import SCALE, make_evaluator
from tui_reversi.engine.pattern_weights import read_weights, write_weights
from tui_reversi.engine.patterns import (
    CONSTANT_AT,
    FAMILIES,
    FAMILY_AT,
    MOBILITY_AT,
    PARITY_AT,
    PHASE_SIZE,
    PHASE_WIDTH,
    PHASES,
    canonical,
)

SMOOTH = 3  # empties either side of a phase also used to fit it
CHUNK = 250_000  # positions turned into features at a time
SCALAR_SLOTS = (MOBILITY_AT, PARITY_AT, CONSTANT_AT)
NULL_SLOT = PHASE_SIZE  # the other side of a row that is not a pair: weight 0


def data_files(paths: list[str]) -> list[Path]:
    """The files named, a folder standing for its *.txt files (selfplay.py's chunks)."""
    out: list[Path] = []
    for name in paths:
        path = Path(name)
        out.extend(sorted(path.glob("*.txt")) if path.is_dir() else [path])
    return out


def load(paths: list[str]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    own, opp, label = [], [], []
    for path in data_files(paths):
        with open(path) as lines:
            for line in lines:
                o, p, m = line.split()
                own.append(int(o, 16))
                opp.append(int(p, 16))
                label.append(int(m))
    return (
        np.array(own, dtype=np.uint64),
        np.array(opp, dtype=np.uint64),
        np.array(label, dtype=np.float64),
    )


def successors(own: np.ndarray, opp: np.ndarray) -> np.ndarray:
    """Per position, the index of the next line when that is the position
    one move later in the same game (the other side to move, one disc more,
    each side's discs a subset of what the other had plus the move), else -1."""
    nxt = np.full(len(own), -1, dtype=np.int64)
    if len(own) < 2:
        return nxt
    a_own, a_opp, b_own, b_opp = own[:-1], opp[:-1], own[1:], opp[1:]
    discs_a = np.bitwise_count(a_own | a_opp).astype(np.int64)
    discs_b = np.bitwise_count(b_own | b_opp).astype(np.int64)
    follows = (
        (discs_b == discs_a + 1)
        & ((a_own & ~b_opp) == 0)  # the mover's discs all stay theirs
        & ((b_own & ~a_opp) == 0)  # the other side keeps only discs it had
    )
    nxt[:-1][follows] = np.arange(1, len(own))[follows]
    return nxt


def prior_tables(path: str) -> list[np.ndarray]:
    """The weights in `path`, per phase, in discs."""
    return [
        np.frombuffer(raw, dtype="<i2").astype(np.float64) / SCALE
        for raw in read_weights(Path(path))
    ]


def canonical_maps() -> dict[str, np.ndarray]:
    return {
        family: np.array(
            [canonical(family, i) for i in range(3 ** len(instances[0]))], dtype=np.int64
        )
        for family, instances in FAMILIES.items()
    }


def features(
    own: np.ndarray, opp: np.ndarray, maps: dict[str, np.ndarray], families: list[str]
) -> np.ndarray:
    """Per position, the canonical slot of every instance of `families`
    (n x instances, int32), computed a chunk of positions at a time."""
    width = sum(len(FAMILIES[family]) for family in families)
    out = np.empty((len(own), width), dtype=np.int32)
    for start in range(0, len(own), CHUNK):
        o, p = own[start : start + CHUNK], opp[start : start + CHUNK]
        digit = [
            ((o >> np.uint64(sq)) & np.uint64(1)).astype(np.int32)
            + 2 * ((p >> np.uint64(sq)) & np.uint64(1)).astype(np.int32)
            for sq in range(64)
        ]
        column = 0
        for family in families:
            for squares in FAMILIES[family]:
                index = np.zeros(len(o), dtype=np.int32)
                for k, sq in enumerate(squares):
                    index += digit[sq] * 3**k
                out[start : start + CHUNK, column] = FAMILY_AT[family] + maps[family][index]
                column += 1
    return out


def scalars(own: np.ndarray, opp: np.ndarray, empties: np.ndarray) -> np.ndarray:
    """Per position, the scalar terms in SCALAR_SLOTS order: mobility
    difference, parity (odd empties) and the constant."""
    out = np.ones((len(own), len(SCALAR_SLOTS)), dtype=np.float64)
    for i, (o, p) in enumerate(zip(own.tolist(), opp.tolist(), strict=True)):
        out[i, 0] = legal_moves(o, p).bit_count() - legal_moves(p, o).bit_count()
    out[:, 1] = empties % 2
    return out


def fit_phase(
    slots: np.ndarray,
    terms: np.ndarray,
    y: np.ndarray,
    ridge: float,
    iterations: int,
    prior: np.ndarray,
    minus: np.ndarray | None = None,
) -> np.ndarray:
    """Weights (PHASE_SIZE, in discs) minimising |Xw - y|^2 + ridge |w - prior|^2,
    the scalar terms (dense columns) all but unregularised. The prior is
    the phase with fewer empties (or the phase of --prior's weights): a
    configuration seldom seen in this phase (a corner taken in the opening)
    keeps about the worth it has later, rather than none. With `minus`, a
    row's value is its `slots` weights less its `minus` weights (a pair;
    NULL_SLOT, weight 0, where a row has none), `terms` being differences."""
    if minus is None:
        minus = np.full_like(slots, NULL_SLOT)
    size = PHASE_SIZE + 1  # with NULL_SLOT, whose weight stays 0
    flat, flat_minus = slots.ravel(), minus.ravel()
    per_row = slots.shape[1]
    at = list(SCALAR_SLOTS)

    def apply(w: np.ndarray) -> np.ndarray:
        return w[slots].sum(axis=1) - w[minus].sum(axis=1) + terms @ w[at]

    def apply_t(r: np.ndarray) -> np.ndarray:
        spread = np.repeat(r, per_row)
        g = np.bincount(flat, weights=spread, minlength=size)
        g -= np.bincount(flat_minus, weights=spread, minlength=size)
        g[at] += terms.T @ r
        g[NULL_SLOT] = 0.0
        return g

    # Jacobi preconditioner: about the diagonal of X'X + ridge (a slot on both
    # sides of a pair counts twice, where it cancels: a preconditioner only).
    diag = np.bincount(flat, minlength=size).astype(np.float64)
    diag += np.bincount(flat_minus, minlength=size)
    diag[at] = (terms * terms).sum(axis=0)
    reg = np.full(size, ridge)
    reg[at] = 1e-3
    diag += reg
    prior = np.append(prior, 0.0)
    y = y - apply(prior)  # fit the change from the prior
    w = np.zeros(size)
    r = apply_t(y) - (apply_t(apply(w)) + reg * w)
    z = r / diag
    p = z.copy()
    rz = r @ z
    for _ in range(iterations):
        ap = apply_t(apply(p)) + reg * p
        curvature = p @ ap
        if rz <= 0.0 or curvature <= 0.0:
            break  # converged (or nothing to fit): another step would divide 0 by 0
        alpha = rz / curvature
        w += alpha * p
        r -= alpha * ap
        z = r / diag
        rz_new = r @ z
        p = z + (rz_new / rz) * p
        rz = rz_new
    return (prior + w)[:PHASE_SIZE]


def expand(w: np.ndarray, maps: dict[str, np.ndarray]) -> np.ndarray:
    """Every configuration's weight from its canonical one's."""
    out = w.copy()
    for family, at in FAMILY_AT.items():
        out[at : at + len(maps[family])] = w[at + maps[family]]
    return out


def handmade_scores(own: np.ndarray, opp: np.ndarray) -> np.ndarray:
    evaluate = make_evaluator(False)
    return np.array(
        [evaluate(o, p) / SCALE for o, p in zip(own.tolist(), opp.tolist(), strict=True)]
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("data", nargs="+", help="self-play files or folders to fit")
    parser.add_argument(
        "--holdout", nargs="*", default=[], help="files or folders to measure on only"
    )
    parser.add_argument(
        "--ridge", type=float, default=40.0, help="regularisation of the midgame phases"
    )
    parser.add_argument(
        "--ridge-exact",
        type=float,
        default=5.0,
        help="regularisation of the phases within the solver's reach (exact labels, less noise)",
    )
    parser.add_argument(
        "--exact-empties", type=int, default=16, help="the empties selfplay.py solved from"
    )
    parser.add_argument("--iterations", type=int, default=150)
    parser.add_argument(
        "--without",
        nargs="*",
        default=[],
        choices=list(FAMILIES),
        metavar="FAMILY",
        help="leave these families out (weights 0): to measure what each is worth",
    )
    parser.add_argument(
        "--phases",
        nargs="*",
        type=int,
        help="fit only these phases (the others stay 0, or --prior's)",
    )
    parser.add_argument(
        "--prior", help="weights file to regularise each phase towards (else the phase before)"
    )
    parser.add_argument(
        "--paired",
        action="store_true",
        help="fit positions above --exact-empties in pairs with the next (a search's lean cancels)",
    )
    parser.add_argument("--out", help="weights file to write")
    args = parser.parse_args()

    started = time.perf_counter()
    families = [family for family in FAMILIES if family not in args.without]
    maps = canonical_maps()
    own, opp, y = load(args.data)
    empties = 64 - np.bitwise_count(own | opp).astype(np.int64)
    slots = features(own, opp, maps, families)
    terms = scalars(own, opp, empties)
    print(f"{len(y)} positions loaded in {time.perf_counter() - started:.1f} s", flush=True)
    minus = None
    if args.paired:
        nxt = successors(own, opp)
        exact = empties <= args.exact_empties
        paired = ~exact & (nxt >= 0)
        paired[paired] &= empties[nxt[paired]] > args.exact_empties
        keep = exact | paired
        j = np.where(paired, nxt, 0)
        minus = np.where(paired[:, None], slots[j], NULL_SLOT)[keep]
        terms = (terms - np.where(paired[:, None], terms[j], 0.0))[keep]
        y = (y - np.where(paired, y[j], 0.0))[keep]
        slots, empties = slots[keep], empties[keep]
        print(
            f"{int(paired.sum())} pairs above {args.exact_empties} empties, "
            f"{int(exact.sum())} solved positions, {int((~keep).sum())} left without a pair"
        )
    priors = prior_tables(args.prior) if args.prior else None
    if args.holdout:
        h_own, h_opp, h_y = load(args.holdout)
        h_empties = 64 - np.bitwise_count(h_own | h_opp).astype(np.int64)
        h_slots = features(h_own, h_opp, maps, families)
        h_terms = scalars(h_own, h_opp, h_empties)
        h_hand = handmade_scores(h_own, h_opp)

    tables = []
    prior = np.zeros(PHASE_SIZE)
    print("phase  empties  train   held-out  MSE (discs^2): trained  hand-made  hand-made rescaled")
    for phase in range(PHASES):
        lo, hi = phase * PHASE_WIDTH, phase * PHASE_WIDTH + PHASE_WIDTH - 1
        rows = (empties >= lo - SMOOTH) & (empties <= hi + SMOOTH)
        if priors is not None:
            prior = priors[phase]
        if rows.sum() < 100 or (args.phases and phase not in args.phases):
            # No data (the last empties, or the start): the prior's weights, else none.
            w = prior.copy() if priors is not None else np.zeros(PHASE_SIZE)
        else:
            ridge = args.ridge_exact if hi + SMOOTH <= args.exact_empties else args.ridge
            pairs = minus[rows] if minus is not None else None
            w = fit_phase(slots[rows], terms[rows], y[rows], ridge, args.iterations, prior, pairs)
            prior = w
        full = expand(w, maps)
        tables.append(np.clip(np.rint(full * SCALE), -32767, 32767).astype(np.int16))
        line = f"{phase:5d}  {lo:2d}..{hi:2d}  {int(rows.sum()):7d}"
        if args.holdout:
            held = (h_empties >= lo) & (h_empties <= hi)
            if held.sum():
                table = tables[-1].astype(np.float64)
                pred = (
                    table[h_slots[held]].sum(axis=1) + h_terms[held] @ table[list(SCALAR_SLOTS)]
                ) / SCALE
                truth = h_y[held]
                hand = h_hand[held]
                scale = (hand @ truth) / max(hand @ hand, 1e-9)
                line += (
                    f"  {int(held.sum()):7d}  {np.mean((pred - truth) ** 2):8.1f}"
                    f"  {np.mean((hand - truth) ** 2):9.1f}"
                    f"  {np.mean((scale * hand - truth) ** 2):9.1f} (x{scale:.2f})"
                )
        print(line, flush=True)
    print(f"fitted in {time.perf_counter() - started:.0f} s")
    if args.out:
        size = write_weights(Path(args.out), [t.tolist() for t in tables])
        print(f"wrote {args.out}: {size} bytes")


if __name__ == "__main__":
    main()
