"""The profile's rating history as `player NAME` and the lobby print it: the
sparkline runs from the rating before the first game shown to today's, and
the words say those two in that order."""

from __future__ import annotations

from datetime import datetime

from tui_reversi.server.hall.standings_pages import profile_lines
from tui_reversi.server.ledger.ratings import Rating
from tui_reversi.server.ledger.standings import (
    HISTORY_GAMES,
    ArchivedGame,
    Profile,
    Results,
    Standing,
)


def history_line(start: float, *history: float) -> str:
    """The history's sentence and its sparkline, on one line."""
    standing = Standing(
        "bob", Rating(history[-1], 200.0, 0.09, len(history)), Results(), None, None
    )
    lines = profile_lines(Profile(standing, history, start, (), ()), "ssh host")
    at = next(i for i, line in enumerate(lines) if line.startswith("Rating over"))
    return f"{lines[at]} |{lines[at + 1]}"


def test_a_fall_after_a_rise_reads_in_order_from_the_start():
    line = history_line(1500.0, 1516.0, 1507.0)
    assert line == "Rating over the last 2 rated games: from 1500 to 1507 |  ▁█▄"


def test_one_game_shows_the_start_it_moved_from():
    assert history_line(1500.0, 1516.0).endswith(": from 1500 to 1516 |  ▁█")
    assert history_line(1500.0, 1484.0).endswith(": from 1500 to 1484 |  █▁")


def test_a_refund_since_the_last_game_is_said_under_the_history():
    standing = Standing("bob", Rating(1644.0, 200.0, 0.09, 1), Results(), None, None)
    lines = profile_lines(Profile(standing, (1439.0,), 1500.0, (), ()), "ssh host")
    at = lines.index("Rating over the last 1 rated game: from 1500 to 1439")
    assert lines[at + 2] == "Since then, a moderator's correction: 1644 now."
    assert not any("correction" in line for line in lines_of(1500.0, 1439.0))


def lines_of(start: float, *history: float) -> list[str]:
    standing = Standing("bob", Rating(history[-1], 200.0, 0.09, 1), Results(), None, None)
    return profile_lines(Profile(standing, history, start, (), ()), "ssh host")


def test_a_profile_s_rows_fit_the_lobby_at_60_columns():
    # (54 columns inside the lobby's page at 60; a name past 10 letters is cut in a game's row)
    rating = Rating(1624.0, 64.0, 0.06, 120)
    standing = Standing("alice", rating, Results(80, 30, 10), datetime(2026, 5, 1, 12, 0), 3)
    games = tuple(
        ArchivedGame(
            id=123456,
            code="AB000",
            variant="othello",
            names=("alice", "a-very-long-opponent"),
            moves="f5",
            winner="white",
            ending="resigned",
            description="",
            started=datetime(2026, 5, 1, 11, 0),
            ended=datetime(2026, 5, 1, 12, 0),
            changes=(-16.0, 16.0),
        )
        for _ in range(3)
    )
    history = tuple(1500.0 + number for number in range(HISTORY_GAMES))
    profile = Profile(standing, history, 1500.0, (("bob", Results(10, 2, 3)),), games)
    lines = profile_lines(profile, "ssh HOST")
    too_wide = [line for line in lines if len(line) > 54 and not line.startswith("Latest")]
    assert not too_wide, too_wide
    assert lines[-1].startswith("123456 2026-05-01 a-very-lo… Black ")
