"""Glicko-2, as Mark Glickman's paper sets it out ("Example of the Glicko-2
system", glicko.net/glicko/glicko2.pdf, the 2022 edition): a player's
strength is a rating, a deviation (how sure the rating is) and a volatility
(how much the strength itself wanders). A rating period's games move all
three; time away from the board only widens the deviation.

The rule alone, with no policy: which values a new player starts with, how
long a period lasts and when a rating counts as settled are ratings.py's.
Written out rather than taken from the `glicko2` package (one mutable class,
a fixed tau, no types): it is the paper's eight steps and nothing else.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

# Glicko-2's scale: rating points per unit (step 2), and where it is centred.
SCALE = 173.7178
CENTRE = 1500.0
# The paper's convergence tolerance for the volatility's iteration (step 5).
TOLERANCE = 0.000001


@dataclass(frozen=True, slots=True)
class Glicko:
    """A player's strength on the Glicko scale (1500 the centre)."""

    rating: float
    deviation: float
    volatility: float


# One game of a period: the opponent as they were before it, and the score (1, 0.5, 0).
Result = tuple[Glicko, float]


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _expected(mu: float, mu_opponent: float, phi_opponent: float) -> float:
    return 1.0 / (1.0 + math.exp(-_g(phi_opponent) * (mu - mu_opponent)))


def grown(deviation: float, volatility: float, periods: float) -> float:
    """The deviation after `periods` rating periods with no game (step 6): the
    uncertainty that time away adds."""
    phi = deviation / SCALE
    return math.sqrt(phi * phi + periods * volatility * volatility) * SCALE


def rate(player: Glicko, results: Sequence[Result], tau: float, periods: float = 1.0) -> Glicko:
    """`player` after a rating period of `results` (steps 2 to 8), `periods` being how
    many periods' worth of uncertainty the deviation gains on the way (the paper: 1).
    With no result, only the deviation moves, by `periods` (step 6 alone)."""
    if not results:
        return Glicko(
            player.rating, grown(player.deviation, player.volatility, periods), player.volatility
        )
    mu = (player.rating - CENTRE) / SCALE
    phi = player.deviation / SCALE
    sigma = player.volatility
    # Step 3 and 4: the estimated variance v, and the improvement delta the results suggest.
    information, improvement = 0.0, 0.0
    for opponent, score in results:
        mu_j = (opponent.rating - CENTRE) / SCALE
        phi_j = opponent.deviation / SCALE
        g, expected = _g(phi_j), _expected(mu, mu_j, phi_j)
        information += g * g * expected * (1.0 - expected)
        improvement += g * (score - expected)
    v = 1.0 / information
    delta = v * improvement
    # Step 5: the new volatility, by the Illinois algorithm.
    new_sigma = _volatility(delta, phi, v, sigma, tau)
    # Steps 6 and 7: the deviation widened by the periods, narrowed by the games.
    phi_star = math.sqrt(phi * phi + periods * new_sigma * new_sigma)
    new_phi = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    new_mu = mu + new_phi * new_phi * improvement
    # Step 8: back to the Glicko scale.
    return Glicko(new_mu * SCALE + CENTRE, new_phi * SCALE, new_sigma)


def _volatility(delta: float, phi: float, v: float, sigma: float, tau: float) -> float:
    """Step 5: sigma', the zero of f found by the Illinois algorithm (regula falsi)."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        spread = phi * phi + v + ex
        return ex * (delta * delta - phi * phi - v - ex) / (2.0 * spread * spread) - (x - a) / (
            tau * tau
        )

    low = a
    if delta * delta > phi * phi + v:
        high = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        high = a - k * tau
    f_low, f_high = f(low), f(high)
    while abs(high - low) > TOLERANCE:
        middle = low + (low - high) * f_low / (f_high - f_low)
        f_middle = f(middle)
        if f_middle * f_high <= 0:
            low, f_low = high, f_high
        else:
            f_low /= 2.0
        high, f_high = middle, f_middle
    return math.exp(low / 2.0)
