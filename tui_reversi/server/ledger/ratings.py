"""Ratings that mean something: Glicko-2 (glicko.py) as lichess runs it.

- Every player has a rating, a deviation (how sure the rating is) and a
  volatility. A new name starts at lichess's 1500, deviation 500, volatility
  0.09; each rated game is a rating period of its own (lichess: tau 0.75),
  so new and returning players move fast and settled ones slowly.
- Time away widens the deviation by lichess's 0.21436 rating periods a day
  (a deviation of 60 grows to 110 in about a year), to at most 500.
- A rating is *provisional* while its deviation is over PROVISIONAL_DEVIATION
  (110), shown with a question mark (`1500?`); the leaderboard lists only
  settled ones. An uncertain opponent moves a settled rating little (Glicko's
  g), so a name made a minute ago has little to give.
- Rated games between the same two players within a day count less and less:
  the first PAIR_WEIGHTS' worth of them move ratings by 1, 1/2, 1/4, 1/8 and
  1/16 of Glicko's change (rating, deviation and volatility alike), any later
  one not at all (the archive still keeps every game).

The Elo ratings kept before (K = 32, provisional for 10 games) moved to
Glicko-2 once, by from_elo(): each store's schema step (archive_schema.py,
migrations.py).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from .glicko import SCALE, Glicko, grown, rate

# lichess's (lila modules/rating Glicko.scala): where a new name starts, the
# bounds a rating is kept within after a game, and how sure "settled" is.
FIRST_RATING = 1500.0
FIRST_DEVIATION = 500.0
FIRST_VOLATILITY = 0.09
MIN_DEVIATION = 45.0
MAX_DEVIATION = 500.0
MAX_VOLATILITY = 0.1
MIN_RATING = 400.0
PROVISIONAL_DEVIATION = 110.0
TAU = 0.75
# Chosen by lichess so that a typical deviation goes from 60 to 110 in a year away.
PERIODS_PER_DAY = 0.21436
DAY = 24 * 3600.0
# Within PAIR_WINDOW seconds, the n-th rated game of one pair (n = 1 for the first)
# moves ratings by PAIR_WEIGHTS[n - 1] of Glicko's change; later ones by nothing.
PAIR_WINDOW = DAY
PAIR_WEIGHTS = (1.0, 0.5, 0.25, 0.125, 0.0625)
# How a game's winner ('black', 'white' or 'draw') scores for Black.
_BLACK_SCORES = {"black": 1.0, "white": 0.0, "draw": 0.5}


@dataclass(frozen=True, slots=True)
class Rating:
    """A player's rating as of when it was read: its deviation includes the time
    away since the last rated game."""

    rating: float = FIRST_RATING
    deviation: float = FIRST_DEVIATION
    volatility: float = FIRST_VOLATILITY
    games: int = 0  # rated games played

    @property
    def provisional(self) -> bool:
        """True while the rating is too unsure to rank (deviation over 110)."""
        return self.deviation > PROVISIONAL_DEVIATION

    @property
    def shown(self) -> str:
        """The rating as people read it: '1624', or '1500?' while provisional."""
        return f"{round(self.rating)}{'?' if self.provisional else ''}"

    @property
    def glicko(self) -> Glicko:
        return Glicko(self.rating, self.deviation, self.volatility)


FIRST = Rating()


def kept(
    rating: float,
    deviation: float,
    volatility: float,
    games: int,
    rated_at: float | None,
    now: float,
) -> Rating:
    """A rating as a store keeps it (its values as of its last rated game, at Unix
    time `rated_at`; None: never rated), read at Unix time `now`."""
    days = max(now - rated_at, 0.0) / DAY if rated_at is not None else 0.0
    if days > 0.0:
        deviation = max(
            deviation, min(grown(deviation, volatility, days * PERIODS_PER_DAY), MAX_DEVIATION)
        )
    return Rating(rating, deviation, volatility, games)


def settled_until(rating: Rating, now: float) -> float | None:
    """The Unix time at which a rating rated at `now`, left alone, stops being settled
    (its deviation passes 110 with time away); None if it is provisional already.
    The stores keep it, so that the leaderboard is one indexed query."""
    if rating.provisional:
        return None
    room = (PROVISIONAL_DEVIATION / SCALE) ** 2 - (rating.deviation / SCALE) ** 2
    return now + room / (rating.volatility**2 * PERIODS_PER_DAY) * DAY


def without_game(rating: Rating, change: float, spread: tuple[float | None, ...]) -> Rating:
    """`rating` as kept with one rated game taken back (`mod void`): the points it
    moved (`change`), its count, and the deviation and volatility it moved where they
    are known (`spread`: deviation before and after, volatility before and after; a
    None leaves both as they are). Taken back by how far the game moved each, so that
    the latest game's comes back exactly and an earlier one's moves the rest as little."""
    deviation, volatility = rating.deviation, rating.volatility
    deviation_before, deviation_after, volatility_before, volatility_after = spread
    if deviation_before is not None and deviation_after is not None:
        deviation -= deviation_after - deviation_before
        deviation = min(max(deviation, MIN_DEVIATION), MAX_DEVIATION)
    if volatility_before is not None and volatility_after is not None:
        taken = volatility - (volatility_after - volatility_before)
        volatility = min(taken, MAX_VOLATILITY) if taken > 0.0 else volatility
    return Rating(rating.rating - change, deviation, volatility, rating.games - 1)


def pair_weight(earlier: int) -> float:
    """How much of Glicko's change a rated game makes, after `earlier` rated games of
    the same pair within PAIR_WINDOW."""
    return PAIR_WEIGHTS[earlier] if earlier < len(PAIR_WEIGHTS) else 0.0


def rated_game(black: Rating, white: Rating, winner: str, earlier: int) -> tuple[Rating, Rating]:
    """Black's and White's ratings (as read now) after a game between them; `winner`
    is 'black', 'white' or 'draw'; `earlier` as pair_weight's."""
    scored = _BLACK_SCORES[winner]
    weight = pair_weight(earlier)
    return (
        _after(black, white, scored, weight),
        _after(white, black, 1.0 - scored, weight),
    )


def _after(player: Rating, opponent: Rating, score: float, weight: float) -> Rating:
    """`player` after one game against `opponent` (a period of its own, lichess's: the
    time away is in the deviation already), kept within lichess's bounds, moved
    `weight` of the way."""
    moved = rate(player.glicko, [(opponent.glicko, score)], TAU, periods=0.0)
    full = Rating(
        max(moved.rating, MIN_RATING),
        min(max(moved.deviation, MIN_DEVIATION), MAX_DEVIATION),
        min(moved.volatility, MAX_VOLATILITY),
        player.games + 1,
    )
    return Rating(
        player.rating + weight * (full.rating - player.rating),
        player.deviation + weight * (full.deviation - player.deviation),
        player.volatility + weight * (full.volatility - player.volatility),
        full.games,
    )


# An Elo rating's deviation at the move to Glicko-2: each rated game it rests on adds
# the same information (1/deviation², from 1/500²), so that the 10 games that made an
# Elo rating established make a deviation just under 110 (settled), and 9 one over it.
ELO_INFORMATION_PER_GAME = 2.0


def from_elo(rating: float, games: int) -> Rating:
    """An Elo rating resting on `games` rated games, as a Glicko-2 rating (the one move
    of the stores to Glicko-2): the same number, as sure as its games make it."""
    deviation = FIRST_DEVIATION / math.sqrt(1.0 + ELO_INFORMATION_PER_GAME * games)
    return Rating(rating, max(deviation, MIN_DEVIATION), FIRST_VOLATILITY, games)
