"""A guest is nobody else: its name has 64 random bits and is never given twice
(the store keeps every one), so no later guest finds its adjourned game or
its folder; and its folder goes when it leaves with nothing adjourned. Real
SSH on loopback."""

import re
import sqlite3
from datetime import UTC, datetime

import pytest

from tui_reversi.core import Game as CoreGame
from tui_reversi.server.hall import guests
from tui_reversi.server.ledger.ratings import FIRST
from tui_reversi.server.ledger.store import UnfinishedGame

from .conftest import Player, wait_until
from .test_accounts import run
from .test_tables import Game, seat, table_code

FULL_GUEST = re.compile(r"user=(guest-[0-9a-f]{16})\b")


def guest_names(arcade) -> list[str]:
    """The guests' full names, in the order the log let them in."""
    return [m.group(1) for line in arcade.log_lines if (m := FULL_GUEST.search(line))
            and " connect " in line]  # fmt: skip


@pytest.fixture
def drawn_twice(monkeypatch):
    """Guest names drawn as a lucky attacker would wish: the first one twice, then another."""
    draws = iter(["aa" * 8, "aa" * 8, "bb" * 8, "cc" * 8])

    class Scripted:
        @staticmethod
        def token_hex(size: int) -> str:
            return next(draws)[: 2 * size]

    monkeypatch.setattr(guests, "secrets", Scripted)


async def test_a_guest_name_has_64_bits_shown_short_and_each_connection_its_own(serve):
    arcade = await serve(max_per_address=10)
    shown = []
    for _ in range(3):
        player = await Player.connect(arcade, "zed", guest=True)
        shown.append((await player.facts())["env"]["USER"])
        player.close()
    names = guest_names(arcade)
    assert len(set(names)) == 3
    assert shown == [name[: len("guest-7f3a9c")] for name in names]


async def test_a_later_guest_never_gets_an_earlier_guests_name_nor_any_game_of_its(
    serve, drawn_twice, tmp_path
):
    arcade = await serve(max_per_address=10)
    first = await Player.connect(arcade, "zed", command="table", guest=True)
    guest_game = await Game.connect((await first.facts())["env"])
    await guest_game.hear_until("ready")
    code = table_code(arcade)
    alice = await Game.connect(await seat(arcade, "alice", f"join {code}"))
    await alice.hear_until("ready")
    guest_game.say("move 0 d3")
    await alice.hear_until("moved 0 d3")
    guest_game.writer.close()  # the guest's game goes without a word: no guest comes back
    (earlier,) = guest_names(arcade)
    short = earlier[: len("guest-7f3a9c")]
    await alice.hear_until(
        f"over left - {short}'s game stopped unexpectedly: a game with a guest is not kept "
        "for later, so it ends here."
    )
    first.close()
    folder = tmp_path / "server" / "players" / earlier
    await wait_until(lambda: all(c.user != earlier for c in arcade.connections), "it to go")
    # The next guest is drawn the same name first: the store knows it, so it gets another.
    status, said = await run(arcade, "zed", "resume", guest=True)
    later = guest_names(arcade)[1]
    assert later != earlier and later == f"guest-{'bb' * 8}"
    assert status == 1 and "has no adjourned games" in said
    await wait_until(lambda: not folder.exists(), "the earlier guest's folder to go")
    assert await arcade.tables.adjourned_views(earlier) == []


async def guest_against_alice(arcade) -> tuple[Player, Game, Game, str, str]:
    """A guest opens a table, alice joins it and the guest plays d3: the guest's
    connection, both games, the table's code and the guest's name."""
    guest = await Player.connect(arcade, "zed", command="table", guest=True)
    guest_game = await Game.connect((await guest.facts())["env"])
    await guest_game.hear_until("ready")
    code = table_code(arcade)
    (name,) = guest_names(arcade)
    alice = await Game.connect(await seat(arcade, "alice", f"join {code}"))
    await alice.hear_until("ready")
    guest_game.say("move 0 d3")
    await alice.hear_until("moved 0 d3")
    return guest, guest_game, alice, code, name


async def test_a_guest_who_drops_out_loses_at_once_and_no_list_shows_the_game_again(serve):
    arcade = await serve(max_per_address=10)
    guest, guest_game, alice, code, name = await guest_against_alice(arcade)
    guest.conn.abort()  # the guest closes the tab: their connection drops, then their game
    await wait_until(lambda: all(c.user != name for c in arcade.connections), "the guest to go")
    guest_game.writer.close()
    short = name[: len("guest-7f3a9c")]
    # No seat held for a guest (none ever comes back): alice wins, in one sentence.
    heard = await alice.hear_until(
        f"over left white {short} went, and a guest cannot come back: alice (White) wins."
    )
    assert not any("held" in line for line in heard)
    # Kept as played, unrated; and listed as adjourned nowhere, to alice or the lobby.
    await wait_until(
        lambda: _won(arcade, "alice"), "the game to be kept", seen=lambda: str(arcade.log_lines)
    )
    assert await arcade.store.rating("alice") == FIRST
    status, said = await run(arcade, "alice", "resume")
    assert status == 1 and "alice has no adjourned games" in said
    alice.say("leave")
    alice.writer.close()
    await wait_until(lambda: code not in arcade.tables.tables, "the table to close")
    _, lobby = await run(arcade, "bob", "lobby")
    assert "Adjourned games" not in lobby and f"  {code}  " not in lobby


async def _won(arcade, name: str) -> bool:
    return (await arcade.store.results(name)).wins == 1


async def test_a_server_that_stops_ends_a_game_with_a_guest_and_keeps_none_for_later(
    serve, tmp_path
):
    first = await serve(max_per_address=10)
    _, guest_game, alice, code, _ = await guest_against_alice(first)
    await first.close()
    over = (
        "over left - The server is stopping: a game with a guest is not kept for later, "
        "so it ends here."
    )
    for game in (alice, guest_game):
        await game.hear_until(over)
    second = await serve(max_per_address=10)
    assert second.tables.tables == {}
    assert await second.tables.adjourned_views("alice") == []
    assert (await second.store.results("alice")).wins == 0  # (no result, and unrated)
    assert code in "\n".join(first.log_lines)


async def test_a_guests_game_kept_unfinished_from_before_ends_when_the_server_starts(
    serve, tmp_path
):
    first = await serve()
    started = datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC)
    guest = f"guest-{'ab' * 8}"
    for code, names, moves in (
        ("GSTAA", (guest, "alice"), "f5d6"),  # adjourned before guests' games ended
        ("GSTBB", ("alice", guest), ""),
        ("PPLCC", ("alice", "bob"), "f5"),  # people with names: kept for them
    ):
        game = CoreGame.from_transcript(moves)
        kept = UnfinishedGame(code, game, names, None, (0.0, 0.0), started, adjourned=True)
        await first.store.save_table(kept)
    await first.close()
    second = await serve()
    assert [view.code for view in await second.tables.adjourned_views("alice")] == ["PPLCC"]
    status, said = await run(second, "alice", "resume")
    assert status == 0 and "PPLCC" in said and "GST" not in said
    ended = "Table GSTAA's game was kept with a guest at it: a game with a guest is not kept"
    assert any(ended in line for line in second.log_lines)
    await wait_until(lambda: _no_guest_rows(tmp_path), "the guests' games to be kept no more")


def _no_guest_rows(tmp_path) -> bool:
    with sqlite3.connect(tmp_path / "server" / "archive.sqlite3") as db:
        return [row[0] for row in db.execute("SELECT code FROM unfinished")] == ["PPLCC"]


async def test_a_guests_folder_goes_when_it_leaves_with_nothing_adjourned(serve, tmp_path):
    arcade = await serve()
    player = await Player.connect(arcade, "zed", guest=True)
    await player.facts()
    (name,) = guest_names(arcade)
    folder = tmp_path / "server" / "players" / name
    assert folder.is_dir()
    player.send(b"q")
    await player.finished()
    player.close()
    await wait_until(lambda: not folder.exists(), "the guest's folder to go")
    assert any(f"guest {name} left: its folder is removed" in line for line in arcade.log_lines)
    # A person's folder stays, of course.
    alice = await Player.connect(arcade, "alice")
    await alice.facts()
    alice.send(b"q")
    await alice.finished()
    alice.close()
    await wait_until(lambda: not arcade.connections, "alice to go")
    assert (tmp_path / "server" / "players" / "alice").is_dir()


async def test_people_read_a_guests_name_short_in_the_lobby_and_at_the_table(serve):
    arcade = await serve(max_per_address=10)
    guest = await Player.connect(arcade, "zed", command="table", guest=True)
    guest_game = await Game.connect((await guest.facts())["env"])
    await guest_game.hear_until("ready")
    (name,) = guest_names(arcade)
    short = name[: len("guest-7f3a9c")]
    _, lobby = await run(arcade, "alice", "lobby")
    assert f"  {short} " in lobby and name not in lobby
    alice = await Game.connect(await seat(arcade, "alice", f"join {table_code(arcade)}"))
    heard = await alice.hear_until("ready")
    assert f"players {short} alice" in heard and not any(name in line for line in heard)
