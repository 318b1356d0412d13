"""How much of a clock one move may spend, as tournament programs plan it.

    seconds = move_time(remaining=120.0, empties=34)

A game's result is mostly decided in the midgame: the opening comes from
the book or is shallow either way, and from about 20 empty squares the
solver proves the result faster than a midgame search would guess it. So
the clock left is shared among the mover's moves still to come, each
weighted by its phase (MIDGAME_WEIGHT between ENDGAME_EMPTIES and
OPENING_EMPTIES empties, less on either side), and this move gets its
weight's share. A forced move (one legal move, or a pass) needs no plan:
the player answers it at once without asking.
"""

from __future__ import annotations

OPENING_EMPTIES = 44  # more empty squares than this: the opening (mostly book)
ENDGAME_EMPTIES = 20  # fewer than this: the solver's (exact or win/draw/loss)
OPENING_WEIGHT = 0.5
MIDGAME_WEIGHT = 1.0
ENDGAME_WEIGHT = 0.3
# Kept back from every plan: the answer's own way back, a busy machine's delays.
RESERVE_SHARE = 0.05
MOST_SHARE = 0.25  # no single move may take more of what is left


def phase_weight(empties: int) -> float:
    """How much a move with `empties` empty squares deserves, against a midgame move's 1."""
    if empties > OPENING_EMPTIES:
        return OPENING_WEIGHT
    if empties < ENDGAME_EMPTIES:
        return ENDGAME_WEIGHT
    return MIDGAME_WEIGHT


def move_time(remaining: float, empties: int) -> float:
    """Seconds to spend on a move with `empties` empty squares when the
    mover has `remaining` seconds on the clock for the rest of the game.
    The mover plays about every other square still empty; the share never
    exceeds MOST_SHARE, and a reserve is always kept back."""
    if remaining <= 0:
        return 0.0
    usable = remaining * (1 - RESERVE_SHARE)
    ahead = sum(phase_weight(left) for left in range(empties, 0, -2))
    share = phase_weight(empties) / ahead if ahead else 1.0
    return usable * min(share, MOST_SHARE)


__all__ = ["move_time", "phase_weight"]
