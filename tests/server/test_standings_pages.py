"""The profile's rating history as `player NAME` and the lobby print it: the
sparkline runs from the rating before the first game shown to today's, and
the words say those two in that order."""

from __future__ import annotations

from tui_reversi.server.hall.standings_pages import profile_lines
from tui_reversi.server.ledger.standings import Profile, Results, Standing


def history_line(start: float, *history: float) -> str:
    standing = Standing("bob", history[-1], len(history), Results(), None, None)
    lines = profile_lines(Profile(standing, history, start, (), ()), "ssh host")
    return next(line for line in lines if line.startswith("Rating over"))


def test_a_fall_after_a_rise_reads_in_order_from_the_start():
    line = history_line(1500.0, 1516.0, 1507.0)
    assert line == "Rating over the last 2 rated games: ▁█▄  (from 1500 to 1507)"


def test_one_game_shows_the_start_it_moved_from():
    assert history_line(1500.0, 1516.0).endswith(": ▁█  (from 1500 to 1516)")
    assert history_line(1500.0, 1484.0).endswith(": █▁  (from 1500 to 1484)")
