"""The server's `Store` (store.py), the same tests on both implementations: the
archive's SQLite and a real PostgreSQL (started by the `postgres` fixture).
Then what only a fleet has: the lobby's shares and the messages between
nodes, and the schema's versions."""

from __future__ import annotations

import itertools
import sqlite3
import time
from datetime import UTC, datetime
from pathlib import Path

import psycopg
import pytest
import pytest_asyncio

from tui_reversi.core import Color, Ending, Game
from tui_reversi.net.terms import TimeControl
from tui_reversi.server.config import ServeError
from tui_reversi.server.ledger.archive import Archive
from tui_reversi.server.ledger.fleet_messages import Gone, Heard, LobbyChanged
from tui_reversi.server.ledger.migrations import NEWEST
from tui_reversi.server.ledger.postgres import PostgresStore, migrate_database
from tui_reversi.server.ledger.ratings import FIRST, Rating
from tui_reversi.server.ledger.standings import Results, keep_ratings
from tui_reversi.server.ledger.store import PlayedGame, Presence, Store, TableView, UnfinishedGame

from .conftest import wait_until

STARTED = datetime(2026, 5, 1, 12, 0, tzinfo=UTC)


async def opened(url: str, players_dir: Path) -> PostgresStore:
    """A node's store on `url`, open."""
    store = PostgresStore(url, players_dir)
    await store.open()
    return store


@pytest_asyncio.fixture(params=["sqlite", "postgresql"])
async def open_store(request, tmp_path):
    """`await open_store()` -> a new Store on one backing (one SQLite file, one
    database), as each node (or each start of one server) would open it."""
    kept: list[Store] = []
    url = request.getfixturevalue("database") if request.param == "postgresql" else ""

    async def open_one() -> Store:
        if request.param == "sqlite":
            store: Store = Archive(tmp_path / "archive.sqlite3", tmp_path / "players")
        else:
            store = await opened(url, tmp_path / "players")
        kept.append(store)
        return store

    yield open_one
    for store in kept:
        await store.close()


def played(code: str, names: tuple[str, str], winner: Color | None) -> PlayedGame:
    game = Game.from_transcript("f5d6c3")
    ending = "resigned" if winner is not None else "left"
    return PlayedGame(code, game, names, STARTED, Ending(ending, winner, "It ended."))


async def settle(store: Store, name: str, rating: float, *, days_ago: float = 0.0) -> None:
    """`name` with a settled rating (deviation 60), as many games against settled
    players would leave it, rated `days_ago`."""
    settled = Rating(rating, 60.0, 0.06, 40)
    await keep_ratings(store._rows, {name: settled}, time.time() - days_ago * 86400)


def same_rating(one: Rating, other: Rating) -> bool:
    """The same rating, read at two instants (the deviation grows with the time between)."""
    return (one.rating, one.volatility, one.games) == (
        other.rating,
        other.volatility,
        other.games,
    ) and (one.deviation == pytest.approx(other.deviation))


def kept(code: str = "ABCDE", adjourned: bool = True) -> UnfinishedGame:
    game = Game.from_transcript("f5d6")
    clock = TimeControl.parse("5+3")
    return UnfinishedGame(code, game, ("alice", "bob"), clock, (290.5, 280.0), STARTED, adjourned)


async def test_a_finished_game_counts_once_in_results_and_ratings(open_store):
    store = await open_store()
    assert await store.rating("alice") == FIRST
    assert await store.keep(played("AAAAA", ("alice", "bob"), Color.BLACK)) == []
    assert (await store.rating("alice")).shown == "1741?"
    assert (await store.rating("bob")).shown == "1259?"
    assert str(await store.results("alice")) == "1 won, 0 lost, 0 drawn"
    assert str(await store.results("bob")) == "0 won, 1 lost, 0 drawn"
    # A game without a result is archived but moves no rating.
    assert await store.keep(played("BBBBB", ("bob", "alice"), None)) == []
    assert (await store.rating("bob")).shown == "1259?"
    assert str(await store.results("carol")) == "0 won, 0 lost, 0 drawn"


async def test_many_names_results_are_read_at_once_as_each_alone(open_store):
    store = await open_store()
    for code, names, winner in (
        ("AAAAA", ("alice", "bob"), Color.BLACK),
        ("BBBBB", ("bob", "alice"), Color.BLACK),
        ("CCCCC", ("alice", "carol"), None),  # no result: in no count
        ("DDDDD", ("carol", "bob"), Color.WHITE),
    ):
        assert await store.keep(played(code, names, winner)) == []
    names = ["carol", "alice", "nobody", "bob", "alice"]
    read = await store.records(names)
    assert list(read) == ["carol", "alice", "nobody", "bob"]  # each once, in the order asked
    assert {name: str(results) for name, results in read.items()} == {
        "carol": "0 won, 1 lost, 0 drawn",
        "alice": "1 won, 1 lost, 0 drawn",
        "nobody": "0 won, 0 lost, 0 drawn",
        "bob": "2 won, 1 lost, 0 drawn",
    }
    for name in names:
        assert read[name] == await store.results(name)
    assert await store.records([]) == {}


async def test_a_finished_game_lands_in_both_players_saved_games(open_store, tmp_path):
    store = await open_store()
    await store.keep(played("CCCCC", ("alice", "bob"), Color.WHITE))
    for name in ("alice", "bob"):
        saved = list((tmp_path / "players" / name).rglob("*table-ccccc*"))
        assert len(saved) == 1, name


async def resumable(store: Store, name: str) -> list[UnfinishedGame]:
    """The kept games a node can give `name` back: brought back when it started,
    or left by a node that has gone."""
    brought, problems = await store.unfinished_tables()
    assert problems == []
    return [game for game in brought if name in game.names] + await store.orphaned(name)


async def test_a_game_kept_by_a_node_that_stops_comes_back_on_the_next(open_store):
    first = await open_store()
    await first.listen(lambda message: None)
    await first.save_table(kept(adjourned=False))
    await first.save_table(kept("FGHJK"))
    await first.keep(played("FGHJK", ("alice", "bob"), Color.BLACK))  # over: no longer kept
    await first.leave()
    second = await open_store()
    await second.listen(lambda message: None)
    (game,) = await resumable(second, "alice")
    assert game.code == "ABCDE"
    assert game.game.transcript() == "f5d6"
    assert str(game.time_control) == "5+3"
    assert game.left == (290.5, 280.0)
    assert game.started == STARTED
    assert await resumable(second, "carol") == []


async def test_a_game_forgotten_is_not_kept_any_more(open_store):
    store = await open_store()
    await store.listen(lambda message: None)
    await store.save_table(kept())
    await store.forget_table("ABCDE")
    await store.leave()
    again = await open_store()
    await again.listen(lambda message: None)
    assert await resumable(again, "alice") == []


KEYS = [f"ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAA{n}" for n in range(3)]


async def test_a_key_claims_a_free_name_and_the_name_is_its_keys(open_store):
    store = await open_store()
    assert await store.key_owner(KEYS[0]) is None and await store.keys_of("alice") == []
    assert await store.claim("alice", KEYS[0])
    assert not await store.claim("alice", KEYS[1])  # the name has a key now
    assert not await store.claim("bob", KEYS[0])  # and the key a name
    assert await store.key_owner(KEYS[0]) == "alice"
    assert await store.add_key("alice", KEYS[1])
    assert not await store.add_key("bob", KEYS[1])
    assert [key.key for key in await store.keys_of("alice")] == KEYS[:2]
    assert all(datetime.fromisoformat(key.added).tzinfo for key in await store.keys_of("alice"))
    assert await store.remove_key("alice", KEYS[0])
    assert not await store.remove_key("alice", KEYS[0])
    assert await store.key_owner(KEYS[0]) is None
    # Seen the same from another node (or the next start of the server).
    assert [key.key for key in await (await open_store()).keys_of("alice")] == [KEYS[1]]


async def test_a_code_to_add_a_key_is_spent_once_and_wrong_tries_do_not_spend_it(open_store):
    codes = (await open_store()).codes
    assert not await codes.pending("alice")
    code = await codes.issue("alice")
    assert await codes.pending("alice") and not await codes.pending("bob")
    # (Wrong tries count against the key that tries: guessing.py, test_guessing.py.)
    for _ in range(10):
        assert not await codes.redeem("alice", "WRONG-CODE")
    assert await codes.redeem("alice", f" {code.lower()} ")
    assert not await codes.pending("alice") and not await codes.redeem("alice", code)


async def test_a_code_shown_on_one_node_is_redeemed_on_another(database, tmp_path):
    a, b = [await opened(database, tmp_path) for _ in range(2)]
    try:
        code = await a.codes.issue("alice")
        assert await b.codes.pending("alice")
        assert await b.codes.redeem("alice", code)
        assert not await a.codes.pending("alice")
    finally:
        await a.close()
        await b.close()


async def test_a_game_with_a_guest_is_archived_unrated(open_store):
    store = await open_store()
    assert await store.keep(played("GGGGG", ("alice", "guest-ab12"), Color.BLACK)) == []
    assert await store.rating("alice") == FIRST
    assert str(await store.results("alice")) == "1 won, 0 lost, 0 drawn"


async def test_a_gone_nodes_game_is_taken_over_by_one_node_only(database, tmp_path):
    stores = [await opened(database, tmp_path) for _ in range(3)]
    try:
        for store in stores:
            await store.listen(lambda message: None)
        await stores[0].save_table(kept(adjourned=False))
        assert await stores[1].orphaned("alice") == []  # its node is up: not anyone's
        assert await stores[1].take_over("ABCDE") is None
        await stores[0].leave()
        assert [game.code for game in await stores[1].orphaned("bob")] == ["ABCDE"]
        claimed = await stores[1].take_over("ABCDE")
        assert claimed is not None and claimed.adjourned
        assert await stores[2].take_over("ABCDE") is None
        assert await stores[2].orphaned("alice") == []
    finally:
        for store in stores:
            await store.leave()
            await store.close()


async def test_nodes_share_the_lobby_and_send_each_other_messages(database, tmp_path):
    heard: list[list[Heard]] = [[], []]
    a, b = [await opened(database, tmp_path) for _ in range(2)]
    try:
        for store, inbox in zip((a, b), heard, strict=True):
            await store.listen(inbox.append)
        assert await a.live_nodes() == {a.node, b.node}
        assert await a.shared() == ([], [])
        alice = Presence("alice", "waiting", "at table ABCDE", "ABCDE", a.node, False)
        table = TableView("ABCDE", "open", "alice", "", "othello", "5+3", 1, a.node)
        await a.share([alice], [table])
        assert await b.shared() == ([alice], [table])
        await wait_until(lambda: (a.node, LobbyChanged()) in heard[1], "lobby news")
        assert heard[0] == []  # a node is not told of its own share
        for number in range(20):
            await a.send(b.node, Gone(str(number)))
        await wait_until(lambda: len(heard[1]) == 21, "the messages")
        assert heard[1][1:] == [(a.node, Gone(str(number))) for number in range(20)]
        await a.leave()
        assert await b.live_nodes() == {b.node}
        assert await b.shared() == ([], [])
    finally:
        for store in (a, b):
            await store.leave()
            await store.close()


async def test_a_node_killed_outright_drops_out_of_the_fleet_at_once(database, tmp_path):
    a, b = [await opened(database, tmp_path) for _ in range(2)]
    try:
        for store in (a, b):
            await store.listen(lambda message: None)
        await a.save_table(kept(adjourned=False))
        # As kill -9 leaves it: the listening connection cut, nothing said, the row left.
        link = a._link
        assert link._hearing is not None and link._listener is not None
        link._hearing.cancel()  # (a process killed joins nothing again)
        link._listener.pgconn.finish()

        async def dropped_out() -> bool:
            return await b.live_nodes() == {b.node}

        await wait_until(dropped_out, "the killed node to drop out")
        assert [game.code for game in await b.orphaned("alice")] == ["ABCDE"]
    finally:
        await b.close()
        await a.close()


async def test_a_node_whose_connection_drops_says_so_and_joins_the_fleet_again(database, tmp_path):
    a, b = [await opened(database, tmp_path) for _ in range(2)]
    heard: list[str] = []
    try:
        await a.listen(lambda heard_now: heard.append(heard_now.message.kind))
        await b.listen(lambda message: None)
        assert a._link._listener is not None
        a._link._listener.pgconn.finish()  # (as a network that drops the connection)
        await wait_until(lambda: heard[-1:] == ["rejoined"], "node A to join again")
        assert heard == ["down", "rejoined"]
        assert await b.live_nodes() == {a.node, b.node}
        await a.save_table(kept(adjourned=False))  # (its pool works again)
        assert [game.code for game in await b.orphaned("alice")] == []  # (A holds it: A is up)
    finally:
        for store in (a, b):
            await store.leave()
            await store.close()


async def test_migrate_creates_the_schema_and_a_node_refuses_any_other(postgres, tmp_path):
    url = postgres.database()
    with pytest.raises(ServeError) as refused:
        PostgresStore(url, tmp_path)
    assert str(refused.value).endswith("has no tui-reversi schema yet; create it with --migrate")
    assert migrate_database(url) == (0, NEWEST)
    assert migrate_database(url) == (NEWEST, NEWEST)  # again: nothing to do
    await (await opened(url, tmp_path)).close()
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("UPDATE schema_version SET version = %s", (NEWEST + 1,))
    with pytest.raises(ServeError) as refused:
        PostgresStore(url, tmp_path)
    message = str(refused.value)
    assert f"schema version {NEWEST + 1}, newer than this tui-reversi knows ({NEWEST})" in message
    assert "\n" not in message
    with pytest.raises(ServeError):
        migrate_database(url)


async def test_a_database_out_of_reach_is_one_sentence(tmp_path):
    with pytest.raises(ServeError) as refused:
        PostgresStore("postgresql://nobody@127.0.0.1:1/none", tmp_path)
    assert str(refused.value) == (
        "cannot connect to database none on 127.0.0.1:1: the connection was refused "
        "(is PostgreSQL listening there?)"
    )


async def test_the_leaderboard_ranks_settled_ratings_only(open_store):
    store = await open_store()
    await settle(store, "alice", 1700.0)
    await settle(store, "bob", 1600.0)
    await store.keep(played("AB000", ("alice", "bob"), Color.BLACK))  # still settled, both
    await settle(store, "carol", 1900.0, days_ago=2 * 365)  # settled, then two years away
    await store.keep(played("DE000", ("dave", "erin"), Color.WHITE))  # one game each: provisional
    board = await store.leaderboard(5)
    assert [(s.name, s.rank) for s in board] == [("alice", 1), ("bob", 2)]
    alice, bob = board
    assert str(alice.record) == "1 won, 0 lost, 0 drawn" and alice.last_seen is not None
    assert alice.rating.rating > 1700.0 > bob.rating.rating
    assert alice.shown_rating == str(round(alice.rating.rating)) and alice.games == 41
    assert [s.name for s in await store.leaderboard(1)] == ["alice"]
    # Off the leaderboard, each is provisional: the newcomer, and carol after her time away.
    assert (await store.rating("erin")).shown == "1741?"
    carol = await store.rating("carol")
    assert carol.shown == "1900?" and carol.deviation > 110.0


async def test_many_names_ratings_are_read_at_once_each_as_rating_reads_it(open_store):
    store = await open_store()
    await store.keep(played("AAAAA", ("alice", "bob"), Color.BLACK))
    await store.keep(played("BBBBB", ("carol", "alice"), Color.WHITE))
    await store.keep(played("CCCCC", ("dave", "guest-2e5d9a0b1c3d4e5f"), Color.BLACK))  # unrated
    names = ["alice", "bob", "carol", "dave", "guest-2e5d9a0b1c3d4e5f", "nobody", "o'brien"]
    read = await store.ratings(names)
    assert list(read) == names
    for name in names:
        assert same_rating(read[name], await store.rating(name))
    assert list(await store.ratings(["alice", "alice"])) == ["alice"]
    assert await store.ratings([]) == {}
    # More names than SQLite lets one statement have parameters (999 before 3.32).
    crowd = [f"player{number}" for number in range(1500)] + ["alice"]
    read = await store.ratings(crowd)
    assert len(read) == len(crowd) and same_rating(read["alice"], await store.rating("alice"))
    assert read["player7"] == FIRST


async def test_the_ratings_of_many_names_are_one_statement_on_sqlite(tmp_path):
    store = Archive(tmp_path / "archive.sqlite3", tmp_path / "players")
    statements: list[str] = []
    store._db.set_trace_callback(statements.append)  # (the store's one connection)
    try:
        await store.ratings([f"player{number}" for number in range(100)])
    finally:
        await store.close()
    assert len(statements) == 1


async def test_the_ratings_of_many_names_are_one_statement_on_postgresql(
    database, tmp_path, monkeypatch
):
    store = await opened(database, tmp_path / "players")
    sent: list[object] = []
    execute = psycopg.AsyncConnection.execute

    async def counted(conn, query, *args, **kwargs):
        if query:  # (not the pool's empty check of a connection it lends)
            sent.append(query)
        return await execute(conn, query, *args, **kwargs)

    monkeypatch.setattr(psycopg.AsyncConnection, "execute", counted)  # (each one a round trip)
    try:
        await store.ratings([f"player{number}" for number in range(100)])
    finally:
        monkeypatch.undo()
        await store.close()
    assert len(sent) == 1


async def test_a_profile_has_the_rating_history_the_record_by_opponent_and_the_latest_games(
    open_store,
):
    store = await open_store()
    for number in range(3):
        await store.keep(played(f"AB{number:03}", ("alice", "bob"), Color.BLACK))
    await store.keep(played("CA000", ("carol", "alice"), Color.BLACK))
    await store.keep(played("GA000", ("guest-ab12", "alice"), Color.WHITE))  # unrated
    profile = await store.profile("alice", 3)
    assert profile is not None
    assert profile.standing.rank is None  # 4 rated games against new names: provisional
    assert str(profile.standing.record) == "4 won, 1 lost, 0 drawn"
    assert len(profile.history) == 4 and profile.history[-1] == (await store.rating("alice")).rating
    assert profile.history[0] > 1500.0 and profile.history[-1] < profile.history[-2]  # (lost)
    assert profile.start == 1500.0  # before the first game shown: here alice's first
    assert profile.opponents[:2] == (("bob", Results(3, 0, 0)), ("carol", Results(0, 1, 0)))
    latest = profile.games
    assert [game.code for game in latest] == ["GA000", "CA000", "AB002"]
    assert latest[0].result_for("alice") == "won" and latest[0].change_for("alice") is None
    assert latest[1].result_for("alice") == "lost" and latest[1].color_of("alice") == Color.WHITE
    change = latest[1].change_for("alice")
    assert change is not None and change < 0
    assert await store.profile("nobody", 3) is None


async def test_an_archived_game_comes_back_by_its_id_as_it_was_played(open_store):
    store = await open_store()
    await store.keep(played("AAAAA", ("alice", "bob"), Color.WHITE))
    (game_id,) = [game.id for game in (await store.profile("alice", 1)).games]
    archived = await store.archived_game(game_id)
    assert archived is not None
    assert archived.names == ("alice", "bob") and archived.game().transcript() == "f5d6c3"
    assert archived.end() == Ending("resigned", Color.WHITE, "It ended.")
    assert archived.changes == (pytest.approx(-241.48, abs=0.01), pytest.approx(241.48, abs=0.01))
    assert await store.archived_game(game_id + 1000) is None


async def test_an_older_archive_gets_its_players_records_counted_from_its_games(tmp_path):
    path = tmp_path / "archive.sqlite3"
    store = Archive(path, tmp_path / "players")
    await store.keep(played("AAAAA", ("alice", "bob"), Color.BLACK))
    await store.keep(played("BBBBB", ("bob", "alice"), None))  # no result: a game, no win
    await store.close()
    with sqlite3.connect(path) as older:  # as a file from before the standings
        older.execute("DROP TABLE records")
    again = Archive(path, tmp_path / "players")
    profile = await again.profile("alice", 5)
    assert profile is not None
    assert str(profile.standing.record) == "1 won, 0 lost, 0 drawn"
    assert profile.opponents == (("bob", Results(1, 0, 0)),)
    await again.keep(played("CCCCC", ("bob", "alice"), Color.BLACK))  # counted on from there
    assert str((await again.profile("alice", 5)).standing.record) == "1 won, 1 lost, 0 drawn"
    await again.close()


async def test_a_name_a_reader_could_take_for_anothers_is_refused_it(open_store):
    store = await open_store()
    assert await store.enter_name("alice") is None
    assert await store.enter_name("alice") is None  # (again: it is hers)
    assert await store.enter_name("alice", new=True) == "alice"  # (but not new)
    for look_alike in ("aIice", "ALICE", "a1ice", "alice.", "Alice_"):
        assert await store.look_alike(look_alike) == "alice"
        assert await store.enter_name(look_alike) == "alice"
    assert await store.look_alike("alice") is None and await store.look_alike("bob") is None
    # Seen the same from another node (or the next start of the server).
    assert await (await open_store()).enter_name("ALICE") == "alice"


async def test_penalties_outlive_the_store_that_counted_them(open_store):
    from tui_reversi.server.ledger.penalties import Penalty

    def fail(held: dict) -> int:
        for penalty in held.values():
            penalty.failures += 1
            penalty.last_failure = penalty.next_try = 4e9
        return len(held)

    subjects = [("address", "192.0.2.1"), ("name", "alice")]
    assert await (await open_store()).change_penalties(subjects, fail) == 2
    seen: dict = {}
    await (await open_store()).change_penalties(subjects, seen.update)
    assert seen == {subject: Penalty(1, 4e9, 4e9) for subject in subjects}

    def forget(held: dict) -> None:
        for subject in held:
            held[subject] = Penalty()

    await (await open_store()).change_penalties(subjects, forget)
    seen.clear()
    await (await open_store()).change_penalties(subjects, seen.update)
    assert seen == {subject: Penalty() for subject in subjects}


async def test_a_pair_rematching_moves_ratings_less_each_game_and_then_not_at_all(open_store):
    from tui_reversi.server.ledger.ratings import PAIR_WEIGHTS

    store = await open_store()
    moved = []
    for number in range(12):
        before = await store.rating("bob")
        await store.keep(played(f"R{number:04d}", ("bob", "carol"), Color.BLACK))
        after = await store.rating("bob")
        moved.append((after.rating - before.rating, before.deviation - after.deviation))
    damped = [rating for rating, _ in moved[: len(PAIR_WEIGHTS)]]
    assert damped[0] == pytest.approx(241.48, abs=0.01)
    assert all(a > b > 0 for a, b in itertools.pairwise(damped))
    later = moved[len(PAIR_WEIGHTS) :]  # neither the rating nor its deviation moves
    assert later == [(0.0, pytest.approx(0.0, abs=1e-6))] * (12 - len(PAIR_WEIGHTS))
    assert (await store.rating("bob")).games == 12  # every game counts as played, and is archived
    assert str(await store.results("bob")) == "12 won, 0 lost, 0 drawn"


async def test_a_settled_rating_moves_little_against_a_new_name(open_store):
    # Glicko's g: a result against a rating that unsure says little about the settled one.
    store = await open_store()
    await settle(store, "alice", 1500.0)
    await store.keep(played("NEW01", ("alice", "newcomer"), Color.BLACK))
    alice, newcomer = await store.rating("alice"), await store.rating("newcomer")
    assert 1500.0 < alice.rating < 1506.0 and not alice.provisional
    assert newcomer.rating < 1300.0 and newcomer.provisional


async def assert_twins_kept(store: Store) -> None:
    """alice and, later, aIice were both in the archive before names had keys."""
    try:
        assert await store.enter_name("alice") is None and await store.enter_name("aIice") is None
        assert await store.look_alike("aIice") is None  # (it is someone's: they go on as before)
        assert await store.enter_name("ALICE") == "alice"  # the older keeps the key
        assert await store.key_owner(KEYS[1]) == "aIice"
    finally:
        await store.close()


async def test_an_older_sqlite_archive_with_two_look_alike_names_keeps_both(tmp_path):
    import sqlite3

    from tui_reversi.server.ledger.archive import SCHEMA

    path = tmp_path / "old.sqlite3"
    with sqlite3.connect(path) as db:  # (as version 0 left it)
        db.executescript(SCHEMA)
        for key, name, added in ((KEYS[0], "alice", "2026-01"), (KEYS[1], "aIice", "2026-02")):
            db.execute("INSERT INTO account_keys VALUES (?, ?, ?)", (key, name, added))
    await assert_twins_kept(Archive(path, tmp_path / "players"))


async def test_an_older_fleet_database_with_two_look_alike_names_keeps_both(postgres, tmp_path):
    from tui_reversi.server.ledger.migrations import MIGRATIONS

    url = postgres.database()
    with psycopg.connect(url, autocommit=True) as conn, conn.transaction():
        conn.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)")
        conn.execute("INSERT INTO schema_version VALUES (2)")
        for _, script in MIGRATIONS[:2]:
            conn.execute(script.encode())
        for key, name, added in (
            (KEYS[0], "alice", "2026-01-01"),
            (KEYS[1], "aIice", "2026-02-01"),
        ):
            conn.execute("INSERT INTO account_keys VALUES (%s, %s, %s)", (key, name, added))
    assert migrate_database(url) == (2, NEWEST)
    await assert_twins_kept(await opened(url, tmp_path))


async def test_a_name_that_only_played_guests_has_a_new_players_rating_in_its_profile(open_store):
    store = await open_store()
    await store.keep(played("GA000", ("guest-ab12", "alice"), Color.WHITE))  # unrated
    profile = await store.profile("alice", 3)
    assert profile is not None and profile.standing.rating == FIRST
    assert profile.standing.shown_rating == "1500?" and profile.standing.rank is None
    assert str(profile.standing.record) == "1 won, 0 lost, 0 drawn"
