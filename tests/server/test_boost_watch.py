"""The boosting watch (hall/boost_watch.py, lichess's SandbagWatch): rated games
lost within a few moves that move the winner up are counted, a sandbag for
the loser and a boost (per opponent) for the winner; the third warns, the
fourth files a report by itself. Unit tests on made-up games, then real SSH:
one player losing to another at once, game after game."""

from __future__ import annotations

from tui_reversi.core import Color, Ending, Game, Variant
from tui_reversi.server.hall.boost_watch import (
    BOOST_WARNING,
    FORGOTTEN_AFTER,
    SANDBAG_WARNING,
    AutoReport,
    BoostWatch,
    quick_plies,
)
from tui_reversi.server.hall.table import Table
from tui_reversi.server.ledger.ratings import Rating

from .test_ratings import resign_at_once
from .test_tables import sit_down


class Notes:
    """What the watch tells players at their table (conduct.PlayerNotes' part)."""

    def __init__(self) -> None:
        self.told: list[tuple[str, str]] = []

    def tell(self, table: Table, name: str, text: str) -> None:
        self.told.append((name, text))

    def to(self, name: str) -> list[str]:
        return [text for who, text in self.told if who == name]


def lost_at_once(loser: str, winner: str, moves: str = "f5") -> Table:
    """A table where `loser` (White) resigned to `winner` (Black) after `moves`."""
    names = {Color.BLACK: winner, Color.WHITE: loser}
    table = Table("ABCDE", Variant.OTHELLO, names)
    table.game = Game.from_transcript(moves)
    table.ending = Ending("resigned", Color.BLACK, f"{loser} resigned")
    return table


def watched(now: list[float]) -> tuple[BoostWatch, Notes, list[AutoReport], list[str]]:
    log: list[str] = []
    notes = Notes()
    reports: list[AutoReport] = []
    watch = BoostWatch(log.append, reports.append, now=lambda: now[0])
    return watch, notes, reports, log


UP = (
    {"alice": Rating(1500.0), "bob": Rating(1500.0)},
    {"alice": Rating(1520.0), "bob": Rating(1480.0)},
)


def test_the_third_game_lost_at_once_warns_both_and_the_fourth_files_reports():
    now = [0.0]
    watch, notes, reports, log = watched(now)
    for _ in range(2):
        watch.rated(lost_at_once("bob", "alice"), *UP, notes)
        now[0] += 60.0
    assert notes.told == [] and reports == []
    watch.rated(lost_at_once("bob", "alice"), *UP, notes)  # the third
    assert notes.to("bob") == [SANDBAG_WARNING] and notes.to("alice") == [BOOST_WARNING]
    watch.rated(lost_at_once("bob", "alice"), *UP, notes)  # the fourth
    assert [(report.name, report.reason, report.opponents) for report in reports] == [
        ("bob", "boosting", ("alice",)),
        ("alice", "boosting", ("bob",)),
    ]
    assert reports[0].text == (
        "4 rated games lost within a few moves in 3 hours (against alice): possible sandbagging"
    )
    assert reports[0].table == "ABCDE"
    watch.rated(lost_at_once("bob", "alice"), *UP, notes)  # a fifth
    assert notes.to("bob") == [SANDBAG_WARNING]  # (warned once an hour at most)
    assert "boosting watch: bob warned at table ABCDE" in log


def test_games_played_out_or_moving_nobody_up_count_for_nothing():
    now = [0.0]
    watch, notes, reports, _ = watched(now)
    long_game = "f5d6c3d3c4f4f6f3e6e7"  # 10 plies: past 8
    for _ in range(6):
        watch.rated(lost_at_once("bob", "alice", long_game), *UP, notes)
    flat = ({"alice": Rating(1500.0), "bob": Rating(1500.0)},) * 2  # (a rematch past the fifth)
    for _ in range(6):
        watch.rated(lost_at_once("bob", "alice"), *flat, notes)
    assert reports == [] and watch.records == {}


def test_boosts_are_counted_per_opponent_and_forgotten_after_three_hours():
    now = [0.0]
    watch, notes, reports, _ = watched(now)
    for loser in ("bob", "carol", "dave", "erin"):  # four different losers
        before = {"alice": Rating(1500.0), loser: Rating(1500.0)}
        after = {"alice": Rating(1520.0), loser: Rating(1480.0)}
        watch.rated(lost_at_once(loser, "alice"), before, after, notes)
    assert notes.told == [] and reports == []  # never 3 against one opponent
    for _ in range(3):
        watch.rated(lost_at_once("bob", "alice"), *UP, notes)
        now[0] += FORGOTTEN_AFTER + 1  # each one long after the last
    assert notes.told == [] and reports == []


def test_stronger_players_are_watched_over_more_moves():
    assert quick_plies(1200.0) == 8 and quick_plies(1700.0) == 10
    assert quick_plies(2100.0) == 14 and quick_plies(3000.0) == 16


async def test_one_player_losing_at_once_to_another_is_warned_then_reported_over_ssh(serve):
    arcade = await serve(max_per_address=10)
    reports: list[AutoReport] = []
    arcade.boosts.file = reports.append  # (what the moderation queue takes)
    alice, bob, _ = await sit_down(arcade)
    # bob resigns after one move, four times: alice moves up each time.
    heard = await resign_at_once(bob, alice, 4, until="rerated ", black=alice)
    for number, (bobs, alices) in enumerate(heard):  # (told after the game's last word)
        warned = (f"news {SANDBAG_WARNING}" in bobs, f"news {BOOST_WARNING}" in alices)
        assert warned == ((True, True) if number == 2 else (False, False)), (number, bobs)
    assert [(report.name, report.opponents) for report in reports] == [
        ("bob", ("alice",)),
        ("alice", ("bob",)),
    ]
