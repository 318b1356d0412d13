"""Playbans after lichess's rule (ledger/playbans.py, hall/conduct.py): the rule
over made-up outcome series (hypothesis), each rated game's outcomes as read
from how it ended, kept on both stores, and over real SSH a player resigning
at once game after game banned at the table, then refused `play` and a new
table with one sentence that says how long, on every node of a fleet."""

from __future__ import annotations

import itertools
from datetime import UTC, datetime, timedelta

from hypothesis import given
from hypothesis import strategies as st

from tui_reversi.core import Color, Ending, Game, Variant
from tui_reversi.net.terms import TimeControl
from tui_reversi.server.hall.conduct import outcomes
from tui_reversi.server.hall.table import Table
from tui_reversi.server.ledger.playbans import (
    FIRST_MINUTES,
    MOST_MINUTES,
    Ban,
    Conduct,
    Outcome,
    after,
    ban_minutes,
    how_long,
)

from .conftest import Player
from .test_accounts import run
from .test_fleet import two_nodes
from .test_invitations import Guest
from .test_ratings import resign_at_once
from .test_store import open_store as open_store
from .test_tables import sit_down

HOUR = 3600.0
START = 1.8e9


def series_bans(series: list[tuple[Outcome, float]]) -> list[Ban]:
    """The bans a series of (outcome, hours after the last) brings, in order."""
    conduct, now, bans = Conduct(), START, []
    for outcome, hours in series:
        now += hours * HOUR
        conduct, ban = after(conduct, outcome, now)
        if ban is not None:
            bans.append(ban)
    return bans


outcome_series = st.lists(
    st.tuples(st.sampled_from(list(Outcome)), st.floats(min_value=0, max_value=200)),
    max_size=400,
)


@given(outcome_series)
def test_a_ban_never_lasts_over_three_days_nor_starts_during_another(series):
    bans = series_bans(series)
    assert all(FIRST_MINUTES <= ban.minutes <= MOST_MINUTES for ban in bans)
    assert all(later.start >= ban.end for ban, later in itertools.pairwise(bans))


@given(outcome_series)
def test_good_games_alone_never_ban(series):
    assert series_bans([(Outcome.GOOD, hours) for _, hours in series]) == []


@given(
    st.lists(st.integers(min_value=FIRST_MINUTES, max_value=MOST_MINUTES), min_size=1),
    st.floats(min_value=0, max_value=71.99),
)
def test_a_ban_repeated_within_72_hours_grows(earlier, hours):
    bans = tuple(Ban(START + n * 10**6, minutes) for n, minutes in enumerate(earlier))
    now = bans[-1].end + hours * HOUR
    again = ban_minutes(bans, now)
    assert again >= bans[-1].minutes  # never shorter...
    if hours < 60 and bans[-1].minutes < MOST_MINUTES:
        assert again > bans[-1].minutes  # ...and longer, unless at the cap
    assert again <= MOST_MINUTES


@given(st.integers(min_value=FIRST_MINUTES, max_value=MOST_MINUTES), st.floats(72, 10_000))
def test_a_ban_long_after_the_last_is_no_longer_than_it(last, hours):
    ban = Ban(START, last)
    assert FIRST_MINUTES <= ban_minutes((ban,), ban.end + hours * HOUR) <= last


def test_four_bad_games_ban_ten_minutes_then_longer_at_once():
    bad = [(Outcome.RAGE_QUIT, 0.1)] * 3
    assert series_bans(bad) == []  # 3: not yet (at least 4 the first week)
    (first,) = series_bans([*bad, (Outcome.RAGE_QUIT, 0.1)])
    assert first.minutes == FIRST_MINUTES
    # Four more right after the ban ends (the count started again): 10 x (132 - 0)/60.
    conduct, now = Conduct((), (first,)), first.end
    for _ in range(4):
        conduct, ban = after(conduct, Outcome.SITTING, now)
    assert ban is not None and ban.minutes == 22
    # Quick resignations weigh 0.7: six of them.
    assert len(series_bans([(Outcome.QUICK_RESIGN, 0.1)] * 5)) == 0
    assert len(series_bans([(Outcome.QUICK_RESIGN, 0.1)] * 6)) == 1


def test_bad_games_past_four_tenths_of_those_kept_ban():
    good, bad = (Outcome.GOOD, 1.0), (Outcome.RAGE_QUIT, 1.0)
    assert series_bans([good, bad, good, bad, good, bad, good, good, good, good]) == []
    assert len(series_bans([good, bad, good, bad, good, bad, good, bad])) == 1  # 4 of 8


def test_a_ban_says_how_long_is_left():
    ban = Ban(START, 90)
    assert ban.sentence(START + 60) == (
        "you may not play rated games for another 1 hour 29 minutes "
        "(a playban: too many recent games left, stalled or resigned at once)."
    )
    assert how_long(3 * 24 * 3600) == "3 days" and how_long(1) == "1 minute"


# -- what each rated game's outcome is, from how it ended ---------------------------------


def table(moves: str = "", clock: str | None = None, left: float = 0.0) -> Table:
    """alice (Black) and bob (White) at a table, `moves` played, 20 s ago."""
    control = TimeControl.parse(clock) if clock else None
    played = Table(
        "ABCDE", Variant.OTHELLO, {Color.BLACK: "alice", Color.WHITE: "bob"}, time_control=control
    )
    played.game = Game.from_transcript(moves)
    played.started = datetime.now(UTC) - timedelta(seconds=20)
    if control is not None:
        played.remaining = {Color.BLACK: left, Color.WHITE: left}
    return played


def test_each_players_outcome_is_read_from_how_the_game_ended():
    now = datetime.now(UTC)
    many = "f5d6c3d3c4f4f6f3e6e7d7c5"  # 6 moves each
    resigned = Ending("resigned", Color.WHITE, "alice resigned")
    assert outcomes(table("f5d6"), resigned, now) == {
        "alice": Outcome.QUICK_RESIGN,
        "bob": Outcome.GOOD,
    }
    assert outcomes(table(many), resigned, now)["alice"] == Outcome.GOOD
    left = Ending("left", Color.WHITE, "alice left the table")
    assert outcomes(table(many), left, now)["alice"] == Outcome.RAGE_QUIT
    assert outcomes(table("f5"), Ending("left", Color.BLACK, "bob left"), now) == {
        "alice": Outcome.GOOD,
        "bob": Outcome.NO_PLAY,
    }
    flag = Ending("flag", Color.BLACK, "bob's time ran out")
    # 5+3: the whole game about 5 min + 30 x 3 s = 390 s; a twelfth is 32.5 s.
    assert outcomes(table(many, "5+3", left=40.0), flag, now)["bob"] == Outcome.SITTING
    assert outcomes(table(many, "5+3", left=20.0), flag, now)["bob"] == Outcome.GOOD
    draw = Ending("normal", None, "a draw")
    assert outcomes(table(many), draw, now) == {"alice": Outcome.GOOD, "bob": Outcome.GOOD}
    guests = table(many)
    guests.names[Color.WHITE] = "guest-0123456789abcdef"
    assert outcomes(guests, resigned, now) == {}  # unrated: nothing kept


def test_leaving_before_any_move_while_the_other_waits_is_an_abort():
    gone = table()
    gone.links = {Color.WHITE: None}  # bob is still there; alice went
    ended = Ending("left", None, "alice left the table: the game ends here.")
    assert outcomes(gone, ended, datetime.now(UTC)) == {"alice": Outcome.ABORT}


# -- kept in the store, on both backends ----------------------------------------------------


async def test_conduct_is_kept_and_a_ban_read_back_on_each_store(open_store):
    store = await open_store()
    assert await store.playban("alice") is None
    for _ in range(3):
        assert await store.record_conduct({"alice": Outcome.RAGE_QUIT, "bob": Outcome.GOOD}) == {}
    bans = await store.record_conduct({"alice": Outcome.RAGE_QUIT, "bob": Outcome.GOOD})
    assert list(bans) == ["alice"] and bans["alice"].minutes == FIRST_MINUTES
    again = await open_store()  # (another node, or the server started again)
    assert await again.playban("alice") == bans["alice"] and await again.playban("bob") is None


# -- over real SSH ------------------------------------------------------------------------


async def test_resigning_at_once_game_after_game_bans_and_play_and_tables_are_refused(serve):
    arcade = await serve(max_per_address=10)
    alice, bob, _ = await sit_down(arcade)
    await resign_at_once(alice, bob, 6, black=alice)  # alice resigns at once, six times in a row
    told = (
        "news You may not play rated games for another 10 minutes "
        "(a playban: too many recent games left, stalled or resigned at once)."
    )
    assert told in await alice.hear_until(told)
    refused = (
        "tui-reversi: you may not play rated games for another 10 minutes "
        "(a playban: too many recent games left, stalled or resigned at once)."
    )
    player = await Player.connect(arcade, "alice", command="play")
    await player.finished()
    assert refused in player.output.decode() and not arcade.pairing.seekers
    player = await Player.connect(arcade, "alice", command="table")
    done = await player.finished()
    assert done.exit_status == 1 and refused in player.output.decode()
    _, lobby = await run(arcade, "bob", "lobby")  # bob, who won, plays on
    assert "rating" in lobby
    assert await arcade.store.playban("bob") is None


async def test_a_banned_player_cannot_invite_nor_accept_in_the_lobby(serve):
    arcade = await serve()
    for _ in range(4):  # alice's ban, kept by any node of the store
        await arcade.store.record_conduct({"alice": Outcome.RAGE_QUIT})
    alice = await Guest.arrive(arcade, "alice")
    bob = await Guest.arrive(arcade, "bob")
    alice.say("invite bob black")
    refused = await alice.hear_starting("refused ")
    assert refused.startswith("refused You may not play rated games for another 10 minutes")
    bob.say("invite alice black")
    number = (await bob.hear_starting("waiting ")).split()[1]
    await alice.hear_starting("invited ")
    alice.say(f"accept {number}")
    said = await alice.hear_starting("refused ")
    assert said.startswith("refused The table could not be opened: alice may not play rated")
    assert "alice may not play rated games for another" in await bob.hear_starting("answered ")
    assert not arcade.tables.tables


async def test_a_ban_made_on_one_node_refuses_play_tables_and_invitations_on_another(
    serve, tmp_path, database
):
    a, b = await two_nodes(serve, tmp_path, database)
    for _ in range(4):  # alice's ban, brought by her games on node A
        await a.store.record_conduct({"alice": Outcome.RAGE_QUIT})
    assert not b.playbans.known  # (node B has heard nothing of it)
    refused = "tui-reversi: you may not play rated games for another 10 minutes"
    for command in ("play", "table", "join ZZZZZ"):  # (refused before the table is looked for)
        player = await Player.connect(b, "alice", command=command)
        done = await player.finished()
        assert done.exit_status == 1 and refused in player.output.decode(), command
    assert not b.pairing.seekers and not b.tables.tables
    alice = await Guest.arrive(b, "alice")
    await Guest.arrive(b, "bob")
    alice.say("invite bob black")
    said = await alice.hear_starting("refused ")
    assert said.startswith("refused You may not play rated games for another 10 minutes")


async def test_the_bans_of_many_names_are_read_at_once_on_each_store(open_store):
    store = await open_store()
    for _ in range(4):
        await store.record_conduct({"alice": Outcome.RAGE_QUIT, "bob": Outcome.GOOD})
    banned = await store.playbans_among(["alice", "bob", "zed", "alice"])
    assert banned == {"alice": await store.playban("alice")}
    assert await store.playbans_among([]) == {}
