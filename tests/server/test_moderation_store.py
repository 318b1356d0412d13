"""What the store keeps for moderation (ledger/moderation.py), the same tests on
SQLite and a real PostgreSQL: blocks and their limit, sanctions in force and
lifted, reports closed, roles, notices, the log that no statement may change,
a game's rating voided and refunds to a cheater's victims (ledger/refunds.py)."""

from __future__ import annotations

import asyncio
import sqlite3
import time

import psycopg
import pytest

from tui_reversi.core import Color
from tui_reversi.server.ledger.moderation import MOST_BLOCKS, LogEntry, Report, Sanction
from tui_reversi.server.ledger.ratings import FIRST, FIRST_RATING
from tui_reversi.server.ledger.refunds import REFUND_MOST, refunds_due
from tui_reversi.server.ledger.standings import DEVIATION_COLUMNS
from tui_reversi.storage import StorageError

from . import test_store
from .test_store import played, settle

# Both stores, as test_store.py opens them (a fixture).
open_store = test_store.open_store
NOW = time.time()


def entry(action: str, subject: str, until: float | None = None) -> LogEntry:
    return LogEntry(0, NOW, "mia", action, subject, "because", until)


async def test_blocks_are_kept_both_ways_and_limited(open_store):
    store = await open_store()
    news = await store.news()
    assert await store.block("alice", "bob", NOW) is True
    assert await store.news() == news + 1  # (what every node polls)
    assert await store.block("alice", "bob", NOW) is False
    assert await store.blocks_of("alice") == ["bob"]
    assert await store.blocks_among(["bob"]) == [("alice", "bob")]
    assert await store.blocks_among(["alice", "zed"]) == [("alice", "bob")]
    assert await store.blocks_among([]) == []
    assert await store.unblock("alice", "bob") is True
    assert await store.unblock("alice", "bob") is False
    for number in range(MOST_BLOCKS):
        assert await store.block("carol", f"p{number}", NOW) is True
    assert await store.block("carol", "one-more", NOW) is None
    assert len(await store.blocks_of("carol")) == MOST_BLOCKS


async def test_sanctions_hold_until_lifted_and_every_act_is_logged(open_store):
    store = await open_store()
    mark = await store.news()
    ban = Sanction(0, "ban", "name", "bob", NOW + 3600, "abuse", "mia", NOW)
    await store.sanction(ban, entry("ban", "bob", NOW + 3600))
    assert await store.news() != mark
    (held,) = await store.sanctions(NOW)
    assert (held.kind, held.subject, held.until) == ("ban", "bob", NOW + 3600)
    assert await store.sanctions(NOW + 7200) == []  # (over by then)
    assert await store.lift("ban", "name", "bob", entry("unban", "bob"), NOW) == 1
    assert await store.sanctions(NOW + 1) == []
    assert await store.lift("ban", "name", "bob", entry("unban", "bob"), NOW) == 0
    log = await store.mod_log("bob", 10)
    assert [row.action for row in log] == ["unban", "ban"]


async def test_a_name_banned_now_is_off_the_leaderboard_until_the_ban_ends(open_store):
    store = await open_store()
    await settle(store, "alice", 1700.0)
    await settle(store, "bob", 1800.0)
    await settle(store, "carol", 1600.0)
    await store.sanction(  # (over: no longer keeps carol off)
        Sanction(0, "ban", "name", "carol", NOW - 60, "spam", "mia", NOW - 3600),
        entry("ban", "carol", NOW - 60),
    )
    ban = Sanction(0, "ban", "name", "bob", NOW + 3600, "cheating", "mia", NOW)
    await store.sanction(ban, entry("ban", "bob", NOW + 3600))
    board = await store.leaderboard(5)
    assert [(s.name, s.rank) for s in board] == [("alice", 1), ("carol", 2)]
    assert await store.lift("ban", "name", "bob", entry("unban", "bob"), NOW) == 1
    assert [s.name for s in await store.leaderboard(5)] == ["bob", "alice", "carol"]


async def test_the_log_refuses_to_change_a_row(open_store):
    store = await open_store()
    await store.append_log(entry("note", "bob"))
    for statement in ("UPDATE mod_log SET reason = 'nothing'", "DELETE FROM mod_log"):
        with pytest.raises(StorageError, match="append-only"):
            await store.run_query(statement, ())
    assert [row.reason for row in await store.mod_log(None, 5)] == ["because"]


async def test_reports_close_and_notices_are_read_once(open_store):
    store = await open_store()
    chat = ("alice: hello", "bob: <b>rude</b>")
    report = Report(0, "alice", "bob", "abuse", "rude in chat", 7, chat, NOW)
    first = await store.file_report(report)
    await store.file_report(Report(0, "carol", "bob", "spam", "", None, (), NOW + 1))
    assert [r.id for r in await store.open_reports(10)] == [first, first + 1]
    assert (await store.open_reports(10))[0].chat == chat
    closed = await store.close_reports("bob", None, "mia", "banned", NOW)
    assert sorted(r.reporter for r in closed) == ["alice", "carol"]
    assert await store.open_reports(10) == []
    await store.leave_notice("alice", "one", NOW)
    await store.leave_notice("alice", "two", NOW)
    assert await store.take_notices("alice") == ["one", "two"]
    assert await store.take_notices("alice") == []


async def test_roles_named_at_run_time(open_store):
    store = await open_store()
    await store.name_role("nina", "moderator", "ada", NOW)
    await store.name_role("nina", "admin", "ada", NOW)
    assert await store.named_roles() == {"nina": "admin"}
    await store.name_role("nina", None, "ada", NOW)
    assert await store.named_roles() == {}


async def test_a_voided_game_gives_its_points_and_its_deviation_back_once(open_store):
    store = await open_store()
    await store.keep(played("AAAAA", ("alice", "bob"), Color.BLACK))
    (game_id,) = (row[0] for row in await store.run_query("SELECT id FROM games", ()))
    assert (await store.rating("alice")).deviation < FIRST.deviation  # (the game narrowed it)
    moved = dict(await store.void_game(game_id, entry("void", str(game_id))))
    assert moved["alice"] > 0 > moved["bob"]
    for name in ("alice", "bob"):  # (Glicko-2: all three numbers, and the game's count)
        voided = await store.rating(name)
        assert voided.rating == pytest.approx(FIRST.rating)
        assert voided.deviation == pytest.approx(FIRST.deviation)
        assert voided.volatility == pytest.approx(FIRST.volatility)
        assert voided.games == 0
    assert await store.void_game(game_id, entry("void", str(game_id))) == []


async def test_voiding_an_earlier_game_takes_back_what_it_moved_of_the_deviation(open_store):
    store = await open_store()
    await store.keep(played("AAAAA", ("alice", "bob"), Color.BLACK))
    first = await store.rating("alice")
    await store.keep(played("BBBBB", ("alice", "carol"), Color.WHITE))
    second = await store.rating("alice")
    (game_id,) = (
        row[0] for row in await store.run_query("SELECT id FROM games WHERE code = 'AAAAA'", ())
    )
    await store.void_game(game_id, entry("void", str(game_id)))
    voided = await store.rating("alice")
    narrowed = FIRST.deviation - first.deviation  # (what the voided game took off)
    assert voided.deviation == pytest.approx(second.deviation + narrowed)
    assert voided.games == 1
    # Its row left the leaderboard's reckoning right: as provisional as it reads.
    (until,) = await store.run_query("SELECT settled_until FROM ratings WHERE name = 'alice'", ())
    assert (until[0] is None) == voided.provisional


async def test_voiding_a_game_rated_before_deviations_were_kept_leaves_them(open_store):
    store = await open_store()
    await store.keep(played("AAAAA", ("alice", "bob"), Color.BLACK))
    narrowed = await store.rating("alice")
    # (As a row written before the schema kept deviations reads: NULL, not known.)
    await store.run_query(
        """UPDATE rating_changes SET deviation_before = NULL, deviation_after = NULL,
               volatility_before = NULL, volatility_after = NULL""",
        (),
    )
    (game_id,) = (row[0] for row in await store.run_query("SELECT id FROM games", ()))
    await store.void_game(game_id, entry("void", str(game_id)))
    voided = await store.rating("alice")
    assert (voided.rating, voided.games) == (pytest.approx(FIRST.rating), 0)
    assert voided.deviation == pytest.approx(narrowed.deviation)
    assert voided.volatility == pytest.approx(narrowed.volatility)


async def test_a_cheats_victims_get_back_what_they_lost_never_past_their_best(open_store):
    store = await open_store()
    # bob beats alice twice (she never was above where she began), carol once after
    # she beat dan: Glicko-2 moves new names far, so the cap of a game and the best
    # rating both bite.
    await store.keep(played("AAAAA", ("carol", "dan"), Color.BLACK))
    await store.keep(played("BBBBB", ("bob", "alice"), Color.BLACK))
    await store.keep(played("CCCCC", ("alice", "bob"), Color.WHITE))
    await store.keep(played("DDDDD", ("bob", "carol"), Color.BLACK))

    async def lost(name: str) -> list[float]:
        rows = await store.run_query(
            "SELECT change FROM rating_changes WHERE name = ? AND change < 0", (name,)
        )
        return [-float(row[0]) for row in rows]

    async def best(name: str) -> float:
        rows = await store.run_query(
            "SELECT max(rating) FROM rating_changes WHERE name = ?", (name,)
        )
        return max(FIRST_RATING, float(rows[0][0]))

    owed = {refund.name: refund for refund in await refunds_due(store, "bob", time.time())}
    alice, carol = await store.rating("alice"), await store.rating("carol")
    alices = sum(min(points, REFUND_MOST) for points in await lost("alice"))
    assert owed["alice"].points == pytest.approx(min(alices, FIRST_RATING - alice.rating), abs=0.1)
    assert len(owed["alice"].games) == 2
    assert 0 < owed["carol"].points <= REFUND_MOST
    assert carol.rating + owed["carol"].points <= await best("carol") + 0.1
    assert "dan" not in owed  # (bob never played him)
    await store.refund({r.name: r.points for r in owed.values()}, [entry("refund", "alice")])
    for before, name in ((alice, "alice"), (carol, "carol")):
        after = await store.rating(name)
        assert after.rating == pytest.approx(before.rating + owed[name].points, abs=0.1)
        assert after.rating <= await best(name) + 0.1
        # The points come back; how sure the rating is, and its games, stay as they were.
        assert (after.deviation, after.volatility, after.games) == pytest.approx(
            (before.deviation, before.volatility, before.games)
        )


async def test_an_archive_of_the_version_before_keeps_its_rated_games_deviations_unknown(
    tmp_path,
):
    from tui_reversi.server.ledger.archive import Archive

    path = tmp_path / "archive.sqlite3"
    archive = Archive(path, tmp_path / "players")
    await archive.keep(played("AAAAA", ("alice", "bob"), Color.BLACK))
    await archive.close()
    with sqlite3.connect(path) as db:  # (as version 7 left it: no deviations kept)
        for column in DEVIATION_COLUMNS.split(", "):
            db.execute(f"ALTER TABLE rating_changes DROP COLUMN {column}")
        db.execute("PRAGMA user_version = 7")
    archive = Archive(path, tmp_path / "players")
    try:
        rows = await archive.run_query("SELECT deviation_before, change FROM rating_changes", ())
        assert [row[0] for row in rows] == [None, None] and all(row[1] for row in rows)
        await archive.keep(played("BBBBB", ("alice", "bob"), Color.WHITE))
        rows = await archive.run_query(
            "SELECT deviation_before FROM rating_changes WHERE deviation_before IS NOT NULL", ()
        )
        assert len(rows) == 2  # (the game since keeps them)
    finally:
        await archive.close()


def test_the_guards_are_in_each_schema(tmp_path):
    """(The triggers are in SQLite's file itself: a plain sqlite3 is refused too.)"""
    from tui_reversi.server.ledger.archive import Archive

    Archive(tmp_path / "a.sqlite3", tmp_path / "players")
    db = sqlite3.connect(tmp_path / "a.sqlite3")
    db.execute(
        "INSERT INTO mod_log (at, moderator, action, subject, reason) "
        "VALUES (1, 'm', 'note', 's', 'r')"
    )
    with pytest.raises(sqlite3.DatabaseError, match="append-only"):
        db.execute("UPDATE mod_log SET reason = 'x'")
    assert psycopg  # (PostgreSQL's trigger: the parametrized tests above)


async def test_an_archives_moderation_moves_into_a_fleet_row_for_row(tmp_path, database):
    from tui_reversi.server.ledger.archive import Archive
    from tui_reversi.server.ledger.archive_import import import_archive
    from tui_reversi.server.ledger.postgres import PostgresStore

    archive = Archive(tmp_path / "archive.sqlite3", tmp_path / "players")
    await archive.block("alice", "bob", NOW)
    ban = Sanction(0, "ban", "address", "203.0.113.0/24", None, "flood", "mia", NOW)
    await archive.sanction(ban, entry("ban", "203.0.113.0/24"))
    await archive.file_report(Report(0, "alice", "bob", "spam", "", None, ("bob: hi",), NOW))
    await archive.name_role("nina", "moderator", "ada", NOW)
    await archive.leave_notice("alice", "told", NOW)
    await archive.close()
    await asyncio.to_thread(
        import_archive, tmp_path / "archive.sqlite3", database, tmp_path / "players"
    )
    store = PostgresStore(database, tmp_path / "players")
    await store.open()
    try:
        assert await store.blocks_of("alice") == ["bob"]
        assert [s.subject for s in await store.sanctions(NOW)] == ["203.0.113.0/24"]
        assert [r.chat for r in await store.open_reports(5)] == [("bob: hi",)]
        assert await store.named_roles() == {"nina": "moderator"}
        assert await store.take_notices("alice") == ["told"]
        assert [row.action for row in await store.mod_log(None, 5)] == ["ban"]
        await store.append_log(entry("note", "bob"))  # (numbered on after the copy)
        assert [row.id for row in await store.mod_log(None, 5)] == [2, 1]
    finally:
        await store.close()
