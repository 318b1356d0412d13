"""A guest is nobody else: its name has 64 random bits and is never given twice
(the store keeps every one), so no later guest finds its adjourned game or
its folder; and its folder goes when it leaves with nothing adjourned. Real
SSH on loopback."""

import re

import pytest

from tui_reversi.server.hall import guests

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


async def test_a_later_guest_never_gets_an_earlier_guests_name_nor_its_adjourned_game(
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
    guest_game.writer.close()  # the guest's game goes without a word: adjourned at once
    while not (await alice.hear()).startswith("adjourned "):
        pass
    first.close()
    (earlier,) = guest_names(arcade)
    folder = tmp_path / "server" / "players" / earlier
    await wait_until(lambda: all(c.user != earlier for c in arcade.connections), "it to go")
    # The next guest is drawn the same name first: the store knows it, so it gets another.
    status, said = await run(arcade, "zed", "resume", guest=True)
    later = guest_names(arcade)[1]
    assert later != earlier and later == f"guest-{'bb' * 8}"
    assert status == 1 and "has no adjourned games" in said
    assert folder.is_dir()  # the adjourned game's guest keeps its folder
    assert [view.code for view in await arcade.tables.adjourned_views(earlier)] == [code]


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
