"""Glicko-2 (ledger/glicko.py) against Glickman's own worked example and
lichess's published behaviour, and the server's ratings (ledger/ratings.py)
by their invariants: winning never lowers a rating, a game makes it surer,
time away makes it less sure."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tui_reversi.server.ledger.glicko import Glicko, rate
from tui_reversi.server.ledger.ratings import (
    DAY,
    FIRST,
    MAX_DEVIATION,
    MIN_DEVIATION,
    PROVISIONAL_DEVIATION,
    Rating,
    from_elo,
    kept,
    rated_game,
    settled_until,
)


def test_the_papers_worked_example():
    # "Example of the Glicko-2 system", Glickman: tau 0.5, one rating period.
    player = Glicko(1500.0, 200.0, 0.06)
    results = [
        (Glicko(1400.0, 30.0, 0.06), 1.0),
        (Glicko(1550.0, 100.0, 0.06), 0.0),
        (Glicko(1700.0, 300.0, 0.06), 0.0),
    ]
    after = rate(player, results, tau=0.5)
    # (the paper rounds each step: its 1464.06 is 1464.05 unrounded)
    assert after.rating == pytest.approx(1464.06, abs=0.02)
    assert after.deviation == pytest.approx(151.52, abs=0.01)
    assert after.volatility == pytest.approx(0.05999, abs=0.00001)


def test_a_period_with_no_game_only_widens_the_deviation():
    after = rate(Glicko(1500.0, 200.0, 0.06), [], tau=0.5)
    assert (after.rating, after.volatility) == (1500.0, 0.06)
    assert after.deviation == pytest.approx(200.27, abs=0.01)  # sqrt(phi^2 + sigma^2)


def test_a_new_player_as_lichess_rates_one():
    # lila's RatingCalculatorTest: two new players (1500, deviation 500, volatility
    # 0.09), one game: 1741 and 1258 for a win, 1500 each for a draw, deviation 396.
    assert (FIRST.rating, FIRST.deviation, FIRST.volatility) == (1500.0, 500.0, 0.09)
    assert FIRST.shown == "1500?" and FIRST.provisional
    winner, loser = rated_game(FIRST, FIRST, "black", 0)
    assert winner.rating == pytest.approx(1741, abs=1) and loser.rating == pytest.approx(
        1258, abs=1
    )
    assert winner.deviation == pytest.approx(396, abs=1) == loser.deviation
    assert winner.volatility == pytest.approx(0.0899983, abs=1e-7)
    assert (winner.games, winner.shown, loser.shown) == (1, "1741?", "1259?")
    drawn, _ = rated_game(FIRST, FIRST, "draw", 0)
    assert drawn.rating == pytest.approx(1500, abs=1e-6)
    assert drawn.volatility == pytest.approx(0.0899954, abs=1e-7)


def test_settled_players_move_as_lichess_moves_them():
    # lila's "more mixed ratings and deviations: white wins".
    low, high = Rating(1200.0, 60.0, 0.053, 40), Rating(1850.0, 200.0, 0.062, 5)
    winner, loser = rated_game(low, high, "black", 0)
    assert winner.rating == pytest.approx(1216.7, abs=0.1)
    assert loser.rating == pytest.approx(1636.0, abs=0.1)
    assert winner.deviation == pytest.approx(59.9, abs=0.1)
    assert loser.deviation == pytest.approx(196.9, abs=0.1)
    assert winner.shown == "1217" and loser.shown == "1636?"


def test_a_rating_is_provisional_while_its_deviation_is_over_110():
    assert Rating(1642.0, 110.5).shown == "1642?"
    assert Rating(1642.0, PROVISIONAL_DEVIATION).shown == "1642"
    assert not Rating(1642.0, 64.0).provisional


def test_elo_ratings_move_over_keeping_their_number_and_their_provisional_mark():
    for games in range(30):
        moved = from_elo(1620.0, games)
        assert (moved.rating, moved.games) == (1620.0, games)
        assert moved.provisional == (games < 10)  # (Elo's provisional mark: 10 games)
        assert MIN_DEVIATION <= moved.deviation <= MAX_DEVIATION
    assert from_elo(1500.0, 0) == FIRST


ratings = st.builds(
    Rating,
    rating=st.floats(min_value=600, max_value=2800),
    deviation=st.floats(min_value=MIN_DEVIATION, max_value=MAX_DEVIATION),
    volatility=st.floats(min_value=0.04, max_value=0.1),
    games=st.integers(min_value=0, max_value=1000),
)
earlier_games = st.integers(min_value=0, max_value=8)


@given(ratings, ratings, earlier_games)
def test_winning_never_lowers_a_rating_nor_losing_raises_one(black, white, earlier):
    winner, loser = rated_game(black, white, "black", earlier)
    assert winner.rating >= black.rating and loser.rating <= white.rating
    assert winner.games == black.games + 1 and loser.games == white.games + 1


@given(ratings, ratings, st.sampled_from(["black", "white", "draw"]))
def test_a_game_never_makes_a_rating_less_sure(black, white, winner):
    after_black, after_white = rated_game(black, white, winner, 0)
    assert after_black.deviation <= black.deviation + 1e-9
    assert after_white.deviation <= white.deviation + 1e-9
    assert after_black.deviation >= MIN_DEVIATION and after_black.volatility <= 0.1


@given(ratings, st.floats(min_value=0, max_value=3 * 365), st.floats(min_value=0, max_value=365))
def test_time_away_makes_a_rating_less_sure_never_moves_it(rating, days, more):
    start = 1.8e9
    read = kept(rating.rating, rating.deviation, rating.volatility, rating.games, start, start)
    assert read == rating  # (read at once: as kept)
    later = kept(*_kept(rating), start, start + days * DAY)
    much_later = kept(*_kept(rating), start, start + (days + more) * DAY)
    assert rating.deviation <= later.deviation <= much_later.deviation <= MAX_DEVIATION
    assert (later.rating, later.volatility, later.games) == (
        rating.rating,
        rating.volatility,
        rating.games,
    )


@given(ratings)
def test_a_settled_rating_stays_on_the_leaderboard_until_time_away_unsettles_it(rating):
    start = 1.8e9
    until = settled_until(rating, start)
    if rating.provisional:
        assert until is None
        return
    assert until is not None and until >= start
    assert not kept(*_kept(rating), start, until - 60.0).provisional or until - 60.0 < start
    assert kept(*_kept(rating), start, until + 60.0).provisional


def test_a_year_away_takes_a_typical_deviation_from_60_to_about_110():
    # (lichess chose its 0.21436 rating periods a day for this)
    year = kept(1800.0, 60.0, 0.06, 200, 0.0, 365 * DAY)
    assert year.deviation == pytest.approx(110, abs=2)


def _kept(rating: Rating) -> tuple[float, float, float, int]:
    return rating.rating, rating.deviation, rating.volatility, rating.games
