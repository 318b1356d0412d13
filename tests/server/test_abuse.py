"""What an attacker tries changes nothing for anyone else: pipelined password
guesses, pastes of megabytes, idle sockets, games left behind."""

import asyncio
import stat
import sys

import asyncssh
import pytest
from asyncssh.packet import Boolean, String

from .conftest import STANDIN, Player, process_gone, wait_until

PASSWORD = "open sesame"


class Pipeliner(asyncssh.SSHClient):
    """A client that sends every guess at once instead of waiting for each answer."""

    def __init__(self, guesses: list[str]) -> None:
        self.guesses = guesses
        self.conn: asyncssh.SSHClientConnection | None = None

    def connection_made(self, conn: asyncssh.SSHClientConnection) -> None:
        self.conn = conn

    async def first_guess(self) -> str:
        assert self.conn is not None
        *ahead, last = self.guesses
        for guess in ahead:
            await self.conn.send_userauth_request(
                b"password", Boolean(False), String(guess), trivial=False
            )
        return last


async def test_pipelined_password_guesses_are_answered_one_at_a_time(serve):
    arcade = await serve(auth="password", password=PASSWORD, auth_failure_delay=1.0)
    guesses = [f"guess {n}" for n in range(60)]
    guesses[30] = PASSWORD  # among the guesses, never the one answered
    client = Pipeliner(guesses)
    with pytest.raises(asyncssh.PermissionDenied):
        await asyncssh.connect(
            "127.0.0.1",
            arcade.port,
            username="mallory",
            known_hosts=None,
            client_factory=lambda: client,
            password=client.first_guess,
            client_keys=None,
            agent_path=None,
            preferred_auth="password",
        )
    penalties = [line for line in arcade.log_lines if "wrong password" in line and "waits" in line]
    assert len(penalties) == 1 and "127.0.0.1" in penalties[0]


async def test_wrong_guesses_from_one_address_wait_longer_each_time(serve):
    arcade = await serve(auth="password", password=PASSWORD, auth_failure_delay=0.05)
    penalties = arcade.penalties
    waits = []
    for _ in range(8):
        with pytest.raises(asyncssh.PermissionDenied):
            await Player.connect(arcade, "mallory", password="wrong", preferred_auth="password")
        waits.append(await penalties.wait_after("127.0.0.1"))
    assert waits == sorted(waits) and waits[-1] > waits[0]
    # One line for the source, not one per guess.
    assert sum("waits" in line for line in arcade.log_lines) == 1


async def test_a_paste_a_game_cannot_use_is_dropped_at_a_bound_and_told_once(serve):
    arcade = await serve()
    player = await Player.connect(arcade)
    await player.facts()
    paste = b"a" * (10 * 1024 * 1024)
    for start in range(0, len(paste), 1 << 20):
        player.send(paste[start : start + (1 << 20)])
        await player.process.stdin.drain()
    player.send(b"q")  # (a key a person types is never dropped)
    await player.finished()
    output = player.output.decode(errors="replace")
    assert output.count("of input the game could not use was dropped") == 1
    assert "tui-reversi: 10 MB of input" in output
    assert sum("sent input faster than a game takes" in line for line in arcade.log_lines) == 1
    keys = sum(len(line) - 4 for line in output.splitlines() if line.startswith("KEY "))
    assert keys // 2 < 256 * 1024  # (hex: two characters a byte) a bound, not 10 MB
    player.close()


async def test_idle_sockets_and_refused_connections_keep_nobody_from_a_board(serve):
    arcade = await serve(login_timeout=60)
    idle = []
    for source in ("127.0.0.2", "127.0.0.3", "127.0.0.4"):
        for _ in range(10):
            _, writer = await asyncio.open_connection(
                "127.0.0.1", arcade.port, local_addr=(source, 0)
            )
            idle.append(writer)
    at_door = arcade.door.waiting
    await wait_until(lambda: sum(at_door.values()) == 9, "the idle sockets to be at the door")
    player = await Player.connect(arcade, "fresh")
    await player.facts()
    for writer in idle:
        writer.close()


async def test_the_login_grace_is_shorter_than_half_a_minute(serve):
    from tui_reversi.server.config import ServeConfig

    assert ServeConfig.login_timeout < 30


async def test_stopping_the_server_ends_games_whose_player_is_gone(serve):
    command = (sys.executable, str(STANDIN), "--ignore-hup")
    arcade = await serve(game_command=command, hangup_grace=0.5)
    player = await Player.connect(arcade)
    pid = (await player.facts())["pid"]
    player.conn.abort()
    await wait_until(lambda: not arcade.connections, "the connection to be gone")
    await arcade.close()
    assert process_gone(pid)


async def test_files_are_private_even_in_a_data_directory_that_was_not(serve, tmp_path):
    data = tmp_path / "server"
    for folder in (data, data / "players", data / "players" / "alice" / "data"):
        folder.mkdir(parents=True, exist_ok=True)
        folder.chmod(0o755)
    (data / "archive.sqlite3").touch(mode=0o644)
    (data / "archive.sqlite3").chmod(0o644)
    arcade = await serve()
    player = await Player.connect(arcade, "alice")
    await player.facts()
    modes = {
        path.relative_to(data).as_posix(): stat.S_IMODE(path.stat().st_mode)
        for path in (
            data,
            data / "players",
            data / "players" / "alice",
            data / "players" / "alice" / "data",
            data / "archive.sqlite3",
            data / "archive.sqlite3-wal",
        )
    }
    assert modes == {
        ".": 0o700,
        "players": 0o700,
        "players/alice": 0o700,
        "players/alice/data": 0o700,
        "archive.sqlite3": 0o600,
        "archive.sqlite3-wal": 0o600,
    }


async def test_crash_reports_left_readable_by_others_are_made_private_at_start(serve, tmp_path):
    reports = tmp_path / "server" / "crash-reports"
    reports.mkdir(parents=True)
    reports.chmod(0o755)
    for name in ("alice-20260101T000000Z-1.txt", "bob-20260101T000000Z-2.txt"):
        (reports / name).write_text("tui-reversi crash report\n")
        (reports / name).chmod(0o644)
    await serve()
    modes = {path.name: stat.S_IMODE(path.stat().st_mode) for path in reports.iterdir()}
    assert modes == dict.fromkeys(modes, 0o600) and len(modes) == 2
    assert stat.S_IMODE(reports.stat().st_mode) == 0o700
