"""Every request has a budget, charged to whoever sends it, and nobody can take
the room: a flood of window changes or keystrokes from one guest leaves the
server answering everyone else; guests fill only their share of the seats;
idle sockets from many addresses leave the door open to real logins; a new
guest from the same address does not start its invitations afresh."""

from __future__ import annotations

import asyncio
import json
import statistics
import sys
from pathlib import Path

import asyncssh
import pytest

from tui_reversi.server.bucket import Limit, per_minute
from tui_reversi.server.config import ServeConfig

from .conftest import PATIENCE, Player, key_of, wait_until
from .flooder import hold_the_door

FLOODER = Path(__file__).with_name("flooder.py")
FLOOD_SECONDS = 6.0


def dropped(what: str, line: str) -> bool:
    """True if `line` is the log's event for `what` dropped past a budget."""
    return " requests-dropped peer=127.0.0.2:" in line and what in line


async def lobby_seconds(arcade, user: str = "alice") -> float:
    """How long `ssh alice@host lobby` takes, connecting included."""
    loop = asyncio.get_running_loop()
    started = loop.time()
    async with asyncssh.connect(
        "127.0.0.1",
        arcade.port,
        username=user,
        known_hosts=None,
        client_keys=[key_of(user)],
        agent_path=None,
    ) as conn:
        result = await conn.run("lobby", check=True)
    assert "Your record here" in str(result.stdout)
    return loop.time() - started


async def median_lobby(arcade, times: int = 3) -> float:
    return statistics.median([await lobby_seconds(arcade) for _ in range(times)])


async def flooded(arcade, kind: str) -> tuple[float, float, dict]:
    """The lobby's time alone, then while a guest from 127.0.0.2 floods `kind`; and
    what the flooder's game saw."""
    baseline = await median_lobby(arcade)
    flooder = await asyncio.create_subprocess_exec(
        sys.executable,
        str(FLOODER),
        str(arcade.port),
        kind,
        str(FLOOD_SECONDS),
        "127.0.0.2",
        stdout=asyncio.subprocess.PIPE,
    )
    await wait_until(lambda: arcade.places_taken == 1, "the flooder's game to start", 60)
    await asyncio.sleep(FLOOD_SECONDS / 3)  # the flood under way
    during = await median_lobby(arcade)
    out, _ = await asyncio.wait_for(flooder.communicate(), 90)
    return baseline, during, json.loads(out)


async def test_a_flood_of_window_changes_reaches_the_game_as_a_few_and_slows_nobody(serve):
    arcade = await serve()
    baseline, during, seen = await flooded(arcade, "resize")
    assert seen["sent"] > 1000
    # Coalesced: a few a second reach the game.
    assert seen["sizes"] <= 10 + 2 * (FLOOD_SECONDS + 10)
    assert during <= 10 * baseline
    assert sum(dropped("window changes", line) for line in arcade.log_lines) == 1


async def test_window_changes_past_their_budget_are_coalesced_to_the_latest(serve):
    arcade = await serve()
    player = await Player.connect(arcade, "alice")
    await player.facts()
    loop = asyncio.get_running_loop()
    started = loop.time()
    for n in range(200):
        player.process.change_terminal_size(*((100, 40) if n % 2 else (70, 30)))
    player.process.change_terminal_size(77, 33)
    await player.expect("SIZE 77x33")
    await asyncio.sleep(1.0)  # (nothing after it)
    sizes = [line for line in player.output.decode().splitlines() if line.startswith("SIZE ")]
    assert sizes[-1] == "SIZE 77x33"
    assert len(sizes) <= 10 + 2 * (loop.time() - started) + 1


async def test_a_flood_of_keystrokes_reaches_the_game_as_a_trickle_and_slows_nobody(serve):
    arcade = await serve()
    baseline, during, seen = await flooded(arcade, "keys")
    assert seen["sent"] > 5000
    assert seen["keys"] <= 1000 + 300 * (FLOOD_SECONDS + 25)
    assert during <= 10 * baseline
    assert sum(dropped("packets", line) for line in arcade.log_lines) == 1


async def seated(guest: Player) -> bool:
    """Whether a guest got a seat (the stand-in's READY) rather than the sentence
    that the guests' seats are taken: read until one of them has come, however
    the lines are split (under load the stand-in's first line comes alone)."""
    while b"READY" not in guest.output:
        if b"seats for guests are taken" in guest.output:
            return False
        chunk = await asyncio.wait_for(guest.process.stdout.read(65536), PATIENCE)
        if not chunk:
            return False
        guest.output += chunk
    return True


async def test_guests_from_four_addresses_fill_their_share_and_a_key_still_finds_a_seat(serve):
    arcade = await serve(max_sessions=8, max_per_address=8)
    guests = []
    for n in range(12):
        source = f"127.0.0.{2 + n % 4}"
        guest = await Player.connect(arcade, "x", guest=True, local_addr=(source, 0))
        guests.append(guest)
    told = 0
    for guest in guests:
        if not await seated(guest):
            await guest.finished()
            told += "seats for guests are taken" in guest.output.decode()
    assert arcade.places_taken == 6 and told == 6  # three quarters of the seats
    alice = await Player.connect(arcade, "alice")
    await alice.facts()
    assert arcade.places_taken == 7


async def test_the_guests_of_one_address_leave_room_for_its_players_with_keys(serve):
    arcade = await serve(max_per_address=4)
    for _ in range(3):
        guest = await Player.connect(arcade, "x", guest=True)
        await guest.facts()
    with pytest.raises(asyncssh.DisconnectError, match="Too many guests from your address"):
        await Player.connect(arcade, "x", guest=True)
    alice = await Player.connect(arcade, "alice")
    await alice.facts()


async def test_idle_sockets_from_25_addresses_leave_room_for_fresh_logins(serve):
    arcade = await serve(login_timeout=ServeConfig.login_timeout)  # the real door's grace
    stop = asyncio.Event()
    holders = [
        asyncio.create_task(hold_the_door(arcade.port, f"127.0.0.{2 + n // 3}", stop))
        for n in range(75)
    ]
    await asyncio.sleep(1.0)  # the door held
    tries, logins = 24, 0
    for _ in range(tries):
        try:
            await asyncio.wait_for(lobby_seconds(arcade), 10)
            logins += 1
        except (OSError, asyncssh.Error, TimeoutError):
            pass
        await asyncio.sleep(0.25)
    stop.set()
    for task in holders:
        task.cancel()
    await asyncio.gather(*holders, return_exceptions=True)
    assert logins >= tries // 2
    assert any(" door-shut peer=127.0.0." in line for line in arcade.log_lines)


async def test_a_guest_that_connects_again_does_not_start_its_invitations_afresh(serve):
    from tui_reversi.net.lobby_link import LOBBY_SECRET_VARIABLE, LOBBY_SOCKET_VARIABLE

    from .test_tables import Game

    arcade = await serve(invitations_per_minute=2)

    async def arrive(user: str, **options) -> tuple[Player, Game]:
        player = await Player.connect(arcade, user, **options)
        env = (await player.facts())["env"]
        game = Game(*await asyncio.open_unix_connection(env[LOBBY_SOCKET_VARIABLE]))
        game.say(f"hello {env[LOBBY_SECRET_VARIABLE]}")
        assert (await game.hear()).startswith("welcome ")
        return player, game

    async def heard(game: Game, prefix: str) -> str:
        while not (text := await game.hear()).startswith(prefix):
            assert text, f"the lobby closed the line before {prefix!r}"
        return text

    _, bob = await arrive("bob")
    for _ in range(2):
        player, guest = await arrive("x", guest=True, local_addr=("127.0.0.2", 0))
        guest.say("invite bob black")
        number = (await heard(bob, "invited ")).split()[1]
        guest.say("withdraw")
        await heard(bob, f"withdrawn {number}")
        player.close()
        guest.writer.close()
        await wait_until(lambda: len(arcade.lobby.guests) == 1, "the guest to leave the lobby")
    _, guest = await arrive("x", guest=True, local_addr=("127.0.0.2", 0))
    guest.say("invite bob black")
    refused = await heard(guest, "refused ")
    assert refused == "refused Too fast: at most 2 invitations a minute; try again shortly."


async def guests_at_tables(arcade, count: int):
    """`count` guests from 127.0.0.2, each at a table of their own; their games."""
    from .test_tables import Game

    games = []
    for _ in range(count):
        guest = await Player.connect(
            arcade, "x", guest=True, local_addr=("127.0.0.2", 0), command="table"
        )
        game = await Game.connect((await guest.facts())["env"])
        await game.hear_until("ready")
        games.append(game)
    return games


def notes_of(arcade, what: str) -> list[str]:
    return [text for text in arcade.log_lines if " note " in text and f"{what} dropped" in text]


async def test_a_chat_flood_from_two_guest_names_on_one_address_is_limited_per_address(
    serve, monkeypatch
):
    from .test_tables import Game, seat

    three = Limit(per_minute(3), per_minute(3), "chat lines", "wait a moment")
    monkeypatch.setattr("tui_reversi.server.hall.table_referee.CHAT", three)
    arcade = await serve()
    first, second = await guests_at_tables(arcade, 2)
    for text in ("one", "two"):
        first.say(f"say {text}")
        assert (await first.hear()).endswith(f" {text}")
    second.say("say three")  # the address's third line: the second name's first
    assert (await second.hear()).endswith(" three")
    refusal = "refused Too fast: at most 3 chat lines a minute; wait a moment."
    for text in ("four", "five", "six"):  # a flood: each dropped, with one sentence
        second.say(f"say {text}")
        assert await second.hear() == refusal
    first.say("say seven")
    assert await first.hear() == refusal
    alice = await Game.connect(await seat(arcade, "alice", "table"))  # another address
    await alice.hear_until("ready")
    alice.say("say hello")
    assert await alice.hear() == "said alice hello"
    # One log event a name's burst, charged to the address (so its own flood of them is cut).
    dropped = notes_of(arcade, "chat lines")
    assert len(dropped) == 2
    assert all("127.0.0.2" in text for text in dropped)


async def test_a_takeback_flood_from_two_guest_names_on_one_address_is_limited_per_address(serve):
    from tui_reversi.server.hall.table_referee import TAKEBACKS

    arcade = await serve()
    first, second = await guests_at_tables(arcade, 2)
    allowed = int(TAKEBACKS.per_address.burst)
    for _ in range(allowed - 1):
        first.say("takeback")
        assert await first.hear() == "refused You have no move to take back."
    second.say("takeback")  # the address's last, the second name's first
    assert await second.hear() == "refused You have no move to take back."
    refusal = f"refused Too fast: at most {allowed} takebacks a minute; wait a moment."
    for game in (first, second, second):
        game.say("takeback")
        assert await game.hear() == refusal
    assert len(notes_of(arcade, "takebacks")) == 2


async def test_the_servers_notes_of_an_addresss_requests_are_charged_to_that_address(
    serve, monkeypatch
):
    from .test_tables import Game, seat

    monkeypatch.setattr("tui_reversi.server.edge.event_log.ADDRESS_BURST", 400)
    monkeypatch.setattr("tui_reversi.server.edge.event_log.ADDRESS_BYTES_PER_SECOND", 1)
    arcade = await serve(max_per_address=10)
    await guests_at_tables(arcade, 4)  # connects and tables opened: past 400 bytes
    opened = [text for text in arcade.log_lines if " opened by guest" in text]
    assert len(opened) < 4
    assert any(" log-suppressed address=127.0.0.2 " in text for text in arcade.log_lines)
    alice = await Game.connect(await seat(arcade, "alice", "table"))  # another address's
    await alice.hear_until("ready")
    assert any(" opened by alice " in text for text in arcade.log_lines)
