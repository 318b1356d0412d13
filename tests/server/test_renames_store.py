"""A rename in the store (ledger/renames.py), the same tests on SQLite and a real
PostgreSQL: everything kept under the old name (keys, browsers, ratings and
their history, games on both seats, records, blocks both ways, reports both
ways, a mute, a role, notices, conduct, tournaments) is the new name's, in one
transaction; the old name stays reserved and its log rows stay as written,
read again under the new name; every refusal changes nothing; and no column of
either schema that holds a name is forgotten."""

from __future__ import annotations

import asyncio
import time

import pytest

from tui_reversi.core import Color, Variant
from tui_reversi.server.ledger import renames as rename_book
from tui_reversi.server.ledger.moderation import LogEntry, Report, Sanction
from tui_reversi.server.ledger.playbans import Outcome
from tui_reversi.server.ledger.postgres import PostgresStore
from tui_reversi.server.ledger.renames import NAME_COLUMNS, Rename, RenameRefused
from tui_reversi.server.ledger.seekers import Seeker
from tui_reversi.server.ledger.store import Store
from tui_reversi.server.ledger.tournaments import ARENA, COMING, Tournament

from . import test_store
from .test_store import kept, played, same_rating

# Both stores, as test_store.py opens them (a fixture).
open_store = test_store.open_store
NOW = time.time()
KEY = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIKey0fAliceForTheRenameTest0000000000000000"


def renaming(old: str, new: str, why: str = "asked for it") -> tuple[Rename, LogEntry]:
    return Rename(0, old, new, "ada", NOW), LogEntry(0, NOW, "ada", "rename", old, why, None)


async def everything_of_alice(store: Store) -> int:
    """alice has something in every place a name is kept; bob is the other side of
    each. The tournament's id."""
    for name in ("alice", "bob", "carol"):
        assert await store.enter_name(name) is None
    assert await store.claim("alice", KEY)
    await store.keep(played("AAAAA", ("alice", "bob"), Color.BLACK))
    await store.keep(played("BBBBB", ("bob", "alice"), Color.BLACK))
    await store.block("alice", "bob", NOW)
    await store.block("bob", "alice", NOW)
    await store.file_report(Report(0, "alice", "bob", "spam", "", None, (), NOW))
    await store.file_report(Report(0, "bob", "alice", "abuse", "", None, (), NOW))
    mute = Sanction(0, "mute", "name", "alice", NOW + 3600, "spam", "mia", NOW)
    await store.sanction(mute, LogEntry(0, NOW, "mia", "mute", "alice", "spam", NOW + 3600))
    await store.name_role("alice", "moderator", "ada", NOW)
    await store.leave_notice("alice", "hello", NOW)
    await store.record_conduct({"alice": Outcome.ABORT, "bob": Outcome.GOOD})
    made = Tournament(0, ARENA, "othello", "3+2", True, 0, 0, NOW, NOW + 3600, COMING, "alice")
    tournament = await store.new_tournament(made)
    await store.enter(tournament, "alice", 1500.0, store.node, NOW)
    code = await store.issue_pass_code("alice", KEY, NOW)
    assert await store.trade_pass_code(code, "digest-of-alices-pass", NOW) is not None
    await store.codes.issue("alice")
    await store.append_log(LogEntry(0, NOW, "mia", "note", "alice", "warned", None))
    await store.listen(lambda message: None)  # (in a fleet: this node is up)
    waiting = Seeker("alice", 1500.0, Variant.OTHELLO, None, False, False, node=store.node)
    await store.seek([waiting], NOW)
    return tournament


async def test_everything_kept_under_the_old_name_is_the_new_ones(open_store):
    store = await open_store()
    tournament = await everything_of_alice(store)
    rating, results = await store.rating("alice"), await store.results("alice")
    news = await store.news()
    assert [seeker.name for seeker in await store.seekers(NOW)] == ["alice"]

    await store.rename_player(*renaming("alice", "alicia"))

    assert await store.news() != news  # (every node reads the rename)
    assert await store.key_owner(KEY) == "alicia"
    assert await store.keys_of("alice") == []
    assert same_rating(await store.rating("alicia"), rating)
    assert await store.results("alicia") == results
    assert (await store.profile("alicia", 5)) is not None
    assert [name for name, _ in (await store.profile("bob", 5)).opponents] == ["alicia"]
    seats = await store.run_query("SELECT black, white FROM games ORDER BY id", ())
    assert [tuple(row) for row in seats] == [("alicia", "bob"), ("bob", "alicia")]
    assert await store.blocks_of("alicia") == ["bob"]
    assert await store.blocks_of("bob") == ["alicia"]
    reports = await store.open_reports(5)
    assert [(r.reporter, r.name) for r in reports] == [("alicia", "bob"), ("bob", "alicia")]
    assert [s.subject for s in await store.sanctions(NOW)] == ["alicia"]
    assert await store.named_roles() == {"alicia": "moderator"}
    assert await store.take_notices("alicia") == ["hello"]
    conduct = await store.run_query("SELECT name FROM playbans ORDER BY name", ())
    assert [row[0] for row in conduct] == ["alicia", "bob"]
    assert [entry.name for entry in await store.entries(tournament)] == ["alicia"]
    assert (await store.tournament(tournament)).made_by == "alicia"
    assert [p.name for p in await store.passes_of("alicia", NOW)] == ["alicia"]
    assert await store.codes.pending("alicia")
    assert await store.seekers(NOW) == []  # (the wait was the session's, which is ended)
    # Nothing is left under the old name, which stays reserved: nobody may sign in as
    # it, nor take a name a reader could take for it.
    for table, column in NAME_COLUMNS:
        left = await store.run_query(f"SELECT 1 FROM {table} WHERE {column} = ?", ("alice",))
        assert left == [], (table, column)
    assert await store.renamed_away("alice") and not await store.renamed_away("alicia")
    assert await store.look_alike("ALICE") == "alice"
    # The log keeps its rows as written; the new name's log reads the old name's too.
    assert [row.action for row in await store.mod_log("alice", 5)] == ["rename", "note", "mute"]
    assert [row.action for row in await store.person_log("alicia", 5)] == [
        "rename",
        "note",
        "mute",
    ]
    assert await store.former_names("alicia") == ["alice"]


async def test_a_name_may_come_back_to_its_own_player_and_change_its_case(open_store):
    store = await open_store()
    for name in ("alice", "bob"):
        await store.enter_name(name)
    await store.keep(played("AAAAA", ("alice", "bob"), Color.BLACK))
    await store.rename_player(*renaming("alice", "alicia"))
    await store.rename_player(*renaming("alicia", "alice"))  # (their own name, back)
    assert not await store.renamed_away("alice") and await store.renamed_away("alicia")
    await store.rename_player(*renaming("alice", "Alice"))  # (a case apart: theirs)
    assert (await store.results("Alice")).wins == 1
    assert await store.look_alike("aLiCe") == "Alice"
    assert await store.former_names("Alice") == ["alice", "alicia"]
    assert len(await store.person_log("Alice", 10)) == 3


@pytest.mark.parametrize(
    ("old", "new", "refusal"),
    [
        ("nobody", "zed", "nobody called 'nobody' has been here."),
        ("alice", "bob", "the name bob is taken here; choose another."),
        ("alice", "BOB", "the name BOB looks like bob, which is someone's here;"),
        ("alice", "alice", "alice is that name already."),
        ("alice", "guest-0123456789abcdef", "names starting with guest- are the server's"),
        ("alice", "two words", "a name here is 1 to 32 letters, digits,"),
        ("alice", "carla", "alice is at table ABCDE; try again when the game ends."),
        ("dora", "dorothy", "dora was renamed already: nobody has that name now."),
        ("erin", "dora", "the name dora is taken here; choose another."),
    ],
)
async def test_a_refused_rename_changes_nothing(open_store, old, new, refusal):
    store = await open_store()
    for name in ("alice", "bob", "dora", "erin"):
        await store.enter_name(name)
    await store.save_table(kept())  # (alice and bob at table ABCDE, adjourned)
    await store.rename_player(*renaming("dora", "dorothea"))
    news, log = await store.news(), await store.mod_log(None, 10)
    if (old, new) != ("alice", "carla"):
        await store.forget_table("ABCDE")
        news = await store.news()
    with pytest.raises(RenameRefused) as refused:
        await store.rename_player(*renaming(old, new))
    assert str(refused.value).startswith(refusal)
    assert await store.news() == news and await store.mod_log(None, 10) == log
    assert await store.renames_since(0) == [
        Rename(1, "dora", "dorothea", "ada", NOW),
    ]


# The columns of either schema that hold no player's name (NAME_COLUMNS do; the
# rest that do are handled on their own, below).
NOT_NAMES = {
    "games": {"code", "variant", "moves", "winner", "ending", "description", "started", "ended"},
    "unfinished": {"code", "variant", "moves", "clock", "started", "saved", "node"},
    "account_keys": {"key", "added"},
    "names": {"key"},
    "penalties": {"scope"},
    "pass_codes": {"digest", "key"},
    "browser_passes": {"id", "digest", "key"},
    "playbans": {"outcomes", "bans"},
    "tournaments": {"kind", "variant", "clock", "state"},
    "tournament_entries": {"state", "node", "seat"},
    "tournament_games": {"code", "node", "result"},
    "sanctions": {"kind", "scope", "reason"},
    "reports": {"reason", "words", "chat", "outcome"},
    "roles": {"role"},
    "notices": {"text"},
    "mod_log": {"action", "reason"},
    "records": {"last"},
    "key_codes": {"code"},
    "seekers": {"id", "node", "variant", "clock"},
    "nodes": {"id"},
    "live_nodes": {"id"},
}
ON_THEIR_OWN = {
    ("names", "name"),  # the new name entered, the old one kept (reserved)
    ("penalties", "subject"),  # of scope 'name'
    ("sanctions", "subject"),  # of scope 'name'
    ("unfinished", "black"),  # a name at a table is not renamed
    ("unfinished", "white"),
    ("mod_log", "moderator"),  # append-only: read through the renames
    ("mod_log", "subject"),
    ("renames", "old"),
    ("renames", "new"),
    ("renames", "moderator"),
    ("seekers", "name"),  # a wait in the queue is forgotten
}


async def text_columns(store: Store) -> set[tuple[str, str]]:
    if isinstance(store, PostgresStore):
        rows = await store.run_query(
            """SELECT table_name, column_name FROM information_schema.columns
               WHERE table_schema = 'public' AND data_type = 'text'""",
            (),
        )
        return {(str(table), str(column)) for table, column in rows}
    tables = await store.run_query("SELECT name FROM sqlite_master WHERE type = 'table'", ())
    found = set()
    for (table,) in tables:
        columns = await store.run_query(f"SELECT name, type FROM pragma_table_info('{table}')", ())
        found |= {(table, name) for name, kind in columns if kind.upper() == "TEXT"}
    return found


async def test_no_column_that_holds_a_name_is_forgotten(open_store):
    store = await open_store()
    moved = set(NAME_COLUMNS) | set(store.OWN_NAME_COLUMNS)
    named = {(table, column) for table, columns in NOT_NAMES.items() for column in columns}
    unknown = await text_columns(store) - moved - named - ON_THEIR_OWN
    assert unknown == set(), "a column the rename does not know (renames.py's NAME_COLUMNS?)"


async def test_an_archives_renames_move_into_a_fleet_and_the_old_name_stays_reserved(
    tmp_path, database
):
    import asyncio

    from tui_reversi.server.ledger.archive import Archive
    from tui_reversi.server.ledger.archive_import import import_archive

    archive = Archive(tmp_path / "archive.sqlite3", tmp_path / "players")
    for name in ("alice", "bob"):
        await archive.enter_name(name)
    await archive.keep(played("AAAAA", ("alice", "bob"), Color.BLACK))
    await archive.rename_player(*renaming("alice", "Alice"))
    await archive.close()
    await asyncio.to_thread(
        import_archive, tmp_path / "archive.sqlite3", database, tmp_path / "players"
    )
    store = PostgresStore(database, tmp_path / "players")
    await store.open()
    try:
        assert await store.renamed_away("alice") and (await store.results("Alice")).wins == 1
        assert await store.look_alike("ALICE") == "Alice"
        assert await store.person_log("Alice", 5) == await store.mod_log("alice", 5)
        await store.rename_player(*renaming("Alice", "alicia"))  # (numbered on after the copy)
        assert [r.id for r in await store.renames_since(0)] == [1, 2]
    finally:
        await store.close()


async def test_two_renames_at_once_of_one_name_or_to_one_name_refuse_the_later(open_store):
    # (two admins on two nodes: each rename waits for the other's, then reads what it did)
    here, there = await open_store(), await open_store()
    for name in ("alice", "bob", "carol"):
        assert await here.enter_name(name) is None
    for renames, refusal in [
        ((("alice", "robin"), ("bob", "robin")), "the name robin is taken here; choose another."),
        (
            (("carol", "dora"), ("carol", "edna")),
            "carol was renamed already: nobody has that name now.",
        ),
    ]:
        done = await asyncio.gather(
            *(
                store.rename_player(*renaming(old, new))
                for store, (old, new) in zip((here, there), renames, strict=True)
            ),
            return_exceptions=True,
        )
        refused = [str(outcome) for outcome in done if outcome is not None]
        assert refused == [refusal] and all(
            isinstance(outcome, RenameRefused) for outcome in done if outcome is not None
        ), done


@pytest.mark.parametrize("new", ["robin", "Robin"])
async def test_a_rename_committed_after_the_refusal_was_read_still_refuses_the_later(
    open_store, monkeypatch, new
):
    # The interleaving two nodes can make: bob's rename has read that robin is free,
    # then alice's rename to robin (or a look-alike of it) commits, then bob's goes on.
    here, there = await open_store(), await open_store()
    if not isinstance(here, PostgresStore):
        pytest.skip("SQLite runs one writer at a time: the interleaving cannot happen")
    for name in ("alice", "bob"):
        assert await here.enter_name(name) is None
    read, raced = rename_book._refusal, []

    async def read_then_lose_the_race(run, old, would_be):
        refusal = await read(run, old, would_be)
        if old == "bob" and not raced:
            raced.append(await here.rename_player(*renaming("alice", new)))
        return refusal

    monkeypatch.setattr(rename_book, "_refusal", read_then_lose_the_race)
    with pytest.raises(RenameRefused) as refused:
        await there.rename_player(*renaming("bob", "robin"))
    assert str(refused.value) == (
        "the name robin is taken here; choose another."
        if new == "robin"
        else "the name robin looks like Robin, which is someone's here; choose another name."
    )
    assert await here.former_names(new) == ["alice"]
    assert await here.former_names("bob") == []
    assert not await here.renamed_away("bob")
