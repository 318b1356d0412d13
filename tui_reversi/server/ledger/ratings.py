"""Ratings that mean something: how far a rated game moves each player's Elo.

- A name is *provisional* for its first PROVISIONAL_GAMES rated games, shown
  with a question mark (`1500?`). A provisional rating moves against anyone;
  an established one moves only against established opponents, so a name made
  a minute ago (one `ssh-keygen`) has nothing to give.
- Rated games between the same two players within a day count less and less:
  the first PAIR_WEIGHTS' worth of them move ratings by 1, 1/2, 1/4, 1/8 and
  1/16 of the Elo change, any later one not at all (the archive still keeps
  every game). So one pair moves a rating by at most PAIR_BOUND points a day.
"""

from __future__ import annotations

# Elo: everyone starts here; K is how far one game moves a rating at most.
FIRST_RATING = 1500.0
ELO_K = 32.0
PROVISIONAL_GAMES = 10
# Within PAIR_WINDOW seconds, the n-th rated game of one pair (n = 1 for the first)
# moves ratings by PAIR_WEIGHTS[n - 1] of the Elo change; later ones by nothing.
PAIR_WINDOW = 24 * 3600.0
PAIR_WEIGHTS = (1.0, 0.5, 0.25, 0.125, 0.0625)
# The most one pair's games in a day can move a rating (K = 32: 62 points).
PAIR_BOUND = ELO_K * sum(PAIR_WEIGHTS)


def provisional(games: int) -> bool:
    """True for a rating resting on fewer than PROVISIONAL_GAMES rated games."""
    return games < PROVISIONAL_GAMES


def shown_rating(rating: float, games: int) -> str:
    """A rating as people read it: '1624', or '1500?' while provisional."""
    return f"{round(rating)}{'?' if provisional(games) else ''}"


def elo_change(black: float, white: float, winner: str) -> float:
    """How far a game moves Black's Elo rating up (White's down by as much);
    `winner` is 'black', 'white' or 'draw'."""
    expected = 1.0 / (1.0 + 10.0 ** ((white - black) / 400.0))  # Black's expected score
    scored = {"black": 1.0, "white": 0.0, "draw": 0.5}[winner]
    return ELO_K * (scored - expected)


def pair_weight(earlier: int) -> float:
    """How much of the Elo change a rated game moves, after `earlier` rated games of
    the same pair within PAIR_WINDOW."""
    return PAIR_WEIGHTS[earlier] if earlier < len(PAIR_WEIGHTS) else 0.0


def rated_changes(
    black: tuple[float, int], white: tuple[float, int], winner: str, earlier: int
) -> tuple[float, float]:
    """How far a game moves Black's and White's ratings, each given as (rating, rated
    games so far); `winner` is 'black', 'white' or 'draw'; `earlier` as pair_weight's."""
    change = elo_change(black[0], white[0], winner) * pair_weight(earlier)
    black_moves = provisional(black[1]) or not provisional(white[1])
    white_moves = provisional(white[1]) or not provisional(black[1])
    return (change if black_moves else 0.0), (-change if white_moves else 0.0)
