"""`serve --database URL --import-archive FILE` moves a single server's SQLite
archive (accounts, keys, ratings, finished games, games not over) into a
fleet's empty PostgreSQL, checked by the counts it prints; a second run, a
database not empty, or names a fleet takes for one are refused in a sentence."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from datetime import UTC, datetime

import psycopg

from tui_reversi.core import Color, Ending, Game
from tui_reversi.net.terms import TimeControl
from tui_reversi.server.ledger.archive import Archive
from tui_reversi.server.ledger.browser_passes import digest
from tui_reversi.server.ledger.playbans import Outcome
from tui_reversi.server.ledger.postgres import PostgresStore
from tui_reversi.server.ledger.store import PlayedGame, UnfinishedGame

from .test_store import same_rating

STARTED = datetime(2026, 5, 1, 12, 0, tzinfo=UTC)
PASS_MADE = datetime.now(UTC).timestamp()
KEYS = {
    "alice": ["ssh-ed25519 AAAAalice1", "ssh-ed25519 AAAAalice2"],
    "bob": ["ssh-ed25519 AAAAbob"],
}


def serve(tmp_path, *args: str) -> subprocess.CompletedProcess[str]:
    argv = [sys.executable, "-m", "tui_reversi", "serve", "--data-dir", str(tmp_path / "node")]
    return subprocess.run([*argv, *args], capture_output=True, text=True, timeout=60)


async def single_servers_archive(tmp_path, black: str = "alice") -> Archive:
    """An archive as a server on its own leaves it: two keyed names, a guest, rated
    and unrated games, an adjourned one."""
    archive = Archive(tmp_path / "archive.sqlite3", tmp_path / "players")
    for name, keys in KEYS.items():
        assert await archive.claim(name, keys[0])
        for key in keys[1:]:
            assert await archive.add_key(name, key)
    for code, names, winner in (
        ("GAME1", (black, "bob"), Color.BLACK),
        ("GAME2", ("bob", black), Color.BLACK),
        ("GAME3", (black, "guest-0a1b2c3d"), Color.WHITE),
    ):
        ending = Ending("resigned", winner, "It ended.")
        assert (
            await archive.keep(
                PlayedGame(code, Game.from_transcript("f5d6c3"), names, STARTED, ending)
            )
            == []
        )
    clock = TimeControl.parse("5+3")
    game = Game.from_transcript("f5d6")
    await archive.save_table(
        UnfinishedGame("ADJRN", game, (black, "bob"), clock, (290.5, 280.0), STARTED, True)
    )
    code = await archive.issue_pass_code("bob", KEYS["bob"][0], PASS_MADE)
    await archive.trade_pass_code(code, digest("bob's browser"), PASS_MADE)
    for _ in range(4):  # alice's playban goes with her (playbans.py)
        await archive.record_conduct({"alice": Outcome.RAGE_QUIT})
    return archive


def played_once() -> PlayedGame:
    ending = Ending("resigned", Color.WHITE, "It ended.")
    return PlayedGame("LATER", Game.from_transcript("f5"), ("bob", "alice"), STARTED, ending)


async def test_an_archive_moves_into_an_empty_database_whole_and_once(postgres, database, tmp_path):
    archive = await single_servers_archive(tmp_path)
    ratings = {name: await archive.rating(name) for name in KEYS}
    results = {name: str(await archive.results(name)) for name in KEYS}
    await archive.close()
    moved = serve(tmp_path, "--database", database, "--import-archive", str(archive.path))
    assert moved.returncode == 0, moved.stderr
    counts = "names with keys: 2, keys: 3, ratings: 2, finished games: 3, games not over: 1"
    name = database.rsplit("/", 1)[1]
    assert moved.stdout.splitlines() == [
        f"tui-reversi serve: {archive.path} held {counts}",
        f"tui-reversi serve: database {name} on 127.0.0.1:{postgres.port} holds {counts} now: "
        "the same",
    ]
    # Run again: refused in a sentence, the database as it was.
    again = serve(tmp_path, "--database", database, "--import-archive", str(archive.path))
    assert again.returncode == 2
    assert again.stderr.endswith(
        f"already holds {counts}: an archive is imported only into an empty database "
        "(imported already? then there is nothing left to do)\n"
    )
    assert again.stderr.count("\n") == 1
    with sqlite3.connect(archive.path) as single:
        games = single.execute("SELECT id, code, ended FROM games ORDER BY id").fetchall()
    with psycopg.connect(database) as conn:
        kept = conn.execute("SELECT id, code, started, ended FROM games ORDER BY id").fetchall()
    assert [(n, code, ended) for n, code, _, ended in kept] == [
        (n, code, datetime.fromisoformat(ended)) for n, code, ended in games
    ]  # their numbers and dates kept
    assert {started for *_, started, _ in kept} == {STARTED}
    fleet = PostgresStore(database, tmp_path / "fleet-players")
    await fleet.open()
    try:
        for player, keys in KEYS.items():
            assert sorted(key.key for key in await fleet.keys_of(player)) == sorted(keys)
            moved = await fleet.rating(player)  # as they were, not rated again
            assert same_rating(moved, ratings[player])
            assert (await fleet.playban(player) is None) == (player != "alice")
            assert str(await fleet.results(player)) == results[player]
            # Its look-alikes are refused before the player has even logged in.
            assert await fleet.look_alike(player.upper()) == player
        (waiting,) = await fleet.orphaned("alice")  # any node takes it over when alice resumes
        assert (waiting.code, waiting.game.transcript(), waiting.left) == (
            "ADJRN",
            "f5d6",
            (290.5, 280.0),
        )
        assert await fleet.take_over("ADJRN") is not None
        # bob's browser is bound on every node now, and goes with his key.
        used = await fleet.pass_holder(digest("bob's browser"), PASS_MADE + 1)
        assert (used.name, used.key) == ("bob", KEYS["bob"][0])
        # The next game a node archives is numbered after them.
        assert await fleet.keep(played_once()) == []
    finally:
        await fleet.close()
    with psycopg.connect(database) as conn:
        assert conn.execute("SELECT max(id) FROM games").fetchone() == (games[-1][0] + 1,)


async def test_names_a_fleet_takes_for_one_are_refused_and_nothing_is_kept(database, tmp_path):
    archive = await single_servers_archive(tmp_path, black="Alice")  # and alice has keys
    await archive.close()
    refused = serve(tmp_path, "--database", database, "--import-archive", str(archive.path))
    assert refused.returncode == 2
    assert refused.stderr == (
        "tui-reversi serve: --import-archive: the archive's names Alice and alice are one name "
        "on a fleet (rename one in the archive first); nothing was imported\n"
    )
    with psycopg.connect(database) as conn:
        for table in ("account_keys", "ratings", "games", "unfinished"):
            assert conn.execute(f"SELECT count(*) FROM {table}".encode()).fetchone() == (0,)


async def test_what_is_not_an_archive_is_one_sentence(database, tmp_path):
    missing = serve(tmp_path, "--database", database, "--import-archive", str(tmp_path / "nothing"))
    assert missing.returncode == 2
    assert missing.stderr == (
        f"tui-reversi serve: --import-archive: there is no archive file {tmp_path / 'nothing'}\n"
    )
    (tmp_path / "notes.txt").write_text("not a database\n")
    other = serve(tmp_path, "--database", database, "--import-archive", str(tmp_path / "notes.txt"))
    assert other.returncode == 2
    said = f"tui-reversi serve: --import-archive: {tmp_path / 'notes.txt'} is not a tui-reversi"
    assert other.stderr.startswith(f"{said} archive (")
    alone = serve(tmp_path, "--import-archive", str(tmp_path / "notes.txt"))
    assert alone.stderr == "tui-reversi serve: --import-archive is only used with --database URL\n"
