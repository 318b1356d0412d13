"""`tui-reversi serve --backup FILE`: a running single server's archive copied while
people play, and a new server started on the copy has every finished game, rating
and key (and the game that was in play, adjourned). Real SSH on loopback; the
backup is the real command, in its own process, as an operator's cron runs it."""

from __future__ import annotations

import asyncio
import re
import shutil
import subprocess
import sys

from .conftest import PATIENCE
from .test_store import same_rating
from .test_tables import Game, seat, sit_down


async def back_up(data_dir, target) -> tuple[int, str, str]:
    """`tui-reversi serve --data-dir DATA --backup FILE`, the event loop running on."""
    process = await asyncio.create_subprocess_exec(
        *(sys.executable, "-m", "tui_reversi", "serve", "--data-dir", str(data_dir)),
        *("--backup", str(target)),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    out, err = await asyncio.wait_for(process.communicate(), 4 * PATIENCE)
    assert process.returncode is not None
    return process.returncode, out.decode(), err.decode()


async def test_a_backup_taken_during_play_restores_every_game_rating_and_key(serve, tmp_path):
    first = await serve(max_per_address=10)
    alice, bob, _ = await sit_down(first)
    alice.say("move 0 d3")
    await bob.hear_until("moved 0 d3")
    bob.say("resign")
    await alice.hear_until("rerated alice 1741? (+241), bob 1259? (-241)")
    # A game in play at another table while the backup is taken.
    carol, dave, code = await sit_down_again(first)
    carol.say("move 0 d3")
    await dave.hear_until("moved 0 d3")
    target = tmp_path / "backups" / "archive-monday.sqlite3"
    target.parent.mkdir()
    backing_up = asyncio.ensure_future(back_up(tmp_path / "server", target))
    # alice and bob finish game after game (each a game row and two ratings
    # written) for as long as the backup runs.
    played = 1 + await rematches_until(backing_up, {"alice": alice, "bob": bob})
    code_said, out, err = await backing_up
    assert (code_said, err) == (0, "")
    size = target.stat().st_size
    said = re.fullmatch(
        rf"tui-reversi serve: backed up to {re.escape(str(target))} \({size:,} bytes: "
        # (carol's and dave's game, and alice's and bob's rematch if one was in play then)
        r"(\d+) finished games, [12] games not over, 2 ratings, 4 keys\)\n",
        out,
    )
    assert said, out
    kept = int(said.group(1))
    assert 1 <= kept <= played
    assert oct(target.stat().st_mode & 0o777) == "0o600"  # it holds the players' keys

    # Restored as docs/hosting.md says: the copy is the new server's archive.
    restored = tmp_path / "restored"
    restored.mkdir(mode=0o700)
    shutil.copy(target, restored / "archive.sqlite3")
    second = await serve(data_dir=restored, max_per_address=10)
    # One instant's archive: every game it holds is counted in both ratings, no more.
    for name in ("alice", "bob"):
        results = await second.store.results(name)
        assert results.wins + results.losses == kept
        assert (await second.store.rating(name)).games == kept
    if kept == played:  # (every game: the ratings are the first server's, to the point)
        for name in ("alice", "bob"):
            assert same_rating(await second.store.rating(name), await first.store.rating(name))
    for name in ("alice", "bob", "carol", "dave"):
        keys = await first.store.keys_of(name)
        assert keys and await second.store.keys_of(name) == keys
    # The game in play comes back adjourned, with its move, for carol and dave to resume.
    table = second.tables.tables[code]
    assert table.adjourned and table.game.transcript() == "d3"
    assert [t.code for t in second.tables.adjourned_for("dave")] == [code]


async def rematches_until(done: asyncio.Future, games: dict[str, Game]) -> int:
    """alice and bob, at a table whose game alice (Black) won, play rematch after
    rematch (Black resigns after a move) until `done`: how many they finished."""
    black, white = "alice", "bob"
    finished = 0
    while not done.done():
        games[white].say("rematch")
        await games[black].hear_until(f"asked rematch {white}")
        games[black].say("allow")
        black, white = white, black
        for game in games.values():
            await game.hear_until(f"news A rematch: {black} plays Black this time.")
        games[black].say("move 0 d3")
        for game in games.values():
            await game.hear_until("moved 0 d3")
        games[black].say("resign")
        for game in games.values():
            while not (await game.hear()).startswith("rerated "):
                pass
        finished += 1
    return finished


async def sit_down_again(arcade):
    """carol opens a table and dave joins it (sit_down's, for two more people)."""
    known = set(arcade.tables.tables)
    carol = await Game.connect(await seat(arcade, "carol", "table"))
    await carol.hear_until("ready")
    (code,) = set(arcade.tables.tables) - known
    dave = await Game.connect(await seat(arcade, "dave", f"join {code}"))
    await dave.hear_until("ready")
    while not (await carol.hear()).endswith("sits at the table as White."):
        pass
    return carol, dave, code


def run_backup(*args: str) -> subprocess.CompletedProcess[str]:
    argv = [sys.executable, "-m", "tui_reversi", "serve", *args]
    return subprocess.run(argv, capture_output=True, text=True, timeout=60)


def test_a_backup_with_no_archive_or_nowhere_to_write_says_why_in_one_sentence(tmp_path):
    missing = run_backup("--data-dir", str(tmp_path / "none"), "--backup", str(tmp_path / "b"))
    assert missing.returncode == 2
    assert missing.stderr == (
        f"tui-reversi serve: --backup: there is no archive at {tmp_path / 'none'}/archive.sqlite3 "
        "(is --data-dir the server's?)\n"
    )
    assert not (tmp_path / "none").exists()  # nothing made where nothing was
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "archive.sqlite3").write_bytes(b"")
    nowhere = tmp_path / "gone" / "b.sqlite3"
    refused = run_backup("--data-dir", str(tmp_path / "data"), "--backup", str(nowhere))
    assert refused.returncode == 2
    assert refused.stderr == (
        f"tui-reversi serve: --backup: there is no directory {nowhere.parent} to write "
        "b.sqlite3 in\n"
    )
    fleet = run_backup("--database", "postgresql://x@h/db", "--backup", str(tmp_path / "b"))
    assert fleet.stderr.startswith("tui-reversi serve: --backup copies a single server's")
