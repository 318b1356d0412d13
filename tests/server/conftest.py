"""Real SSH on loopback: a server in the test's event loop, asyncssh clients against it.

Each session runs `standin.py` (a program that reports what a game would see)
unless a test asks for another command. Everything polls with a timeout;
nothing asserts how long anything took.
"""

from __future__ import annotations

import asyncio
import inspect
import json
import os
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path

import asyncssh
import pytest
import pytest_asyncio

from tui_reversi.server.config import ServeConfig
from tui_reversi.server.edge.arcade import Arcade
from tui_reversi.server.ledger.postgres import migrate_database

from .postgres_cluster import Cluster, find_bin

STANDIN = Path(__file__).with_name("standin.py")
STANDIN_COMMAND = (sys.executable, str(STANDIN))
PATIENCE = 15.0  # seconds before a poll gives up: generous, the machine is shared
LOGIN_GRACE = 60.0  # seconds the test servers give a login (the default is shorter)


async def wait_until(
    condition: Callable[[], bool | Awaitable[bool]],
    what: str,
    timeout: float = PATIENCE,
    seen: Callable[[], str] | None = None,
) -> None:
    """Poll `condition` (a coroutine function too: the store's) until it holds; fail
    with `what` if it never does, and what `seen` says the last look saw."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not await _held(condition()):
        if loop.time() > deadline:
            pytest.fail(f"timed out waiting for {what}" + (f" ({seen()})" if seen else ""))
        await asyncio.sleep(0.02)


async def _held(value: bool | Awaitable[bool]) -> bool:
    return bool(await value) if inspect.isawaitable(value) else bool(value)


def process_gone(pid: int) -> bool:
    """Reaped, not merely dead: a zombie still has its /proc entry."""
    return not os.path.exists(f"/proc/{pid}")


_KEYS: dict[str, asyncssh.SSHKey] = {}


def key_of(user: str) -> asyncssh.SSHKey:
    """The SSH key a test player connects with: one per name, so the name is theirs."""
    if user not in _KEYS:
        _KEYS[user] = asyncssh.generate_private_key("ssh-ed25519", comment=user)
    return _KEYS[user]


def identity(user: str, directory: Path) -> list[str]:
    """OpenSSH options that offer `user`'s test key (and no other): the name is theirs."""
    path = directory / f"id-{user}"
    if not path.exists():
        directory.mkdir(parents=True, exist_ok=True)
        key_of(user).write_private_key(str(path))
        path.chmod(0o600)
    return ["-i", str(path), "-o", "IdentitiesOnly=yes", "-o", "IdentityAgent=none"]


class GuestClient(asyncssh.SSHClient):
    """A client with no key, coming in by keyboard-interactive as OpenSSH's `ssh` does."""

    def kbdint_auth_requested(self) -> str:
        return ""

    def kbdint_challenge_received(self, name, instructions, lang, prompts) -> list[str]:
        return [""] * len(prompts)


class Player:
    """One SSH client with a terminal, as a player would connect."""

    connected: list[Player] = []  # closed by the `serve` fixture, like clients that go home

    def __init__(self, conn: asyncssh.SSHClientConnection, process: asyncssh.SSHClientProcess):
        self.conn = conn
        self.process = process
        self.output = b""

    @classmethod
    async def connect(
        cls,
        arcade: Arcade,
        user: str = "alice",
        *,
        term: str | None = "xterm-256color",
        size: tuple[int, int] = (80, 24),
        env: dict[str, str] | None = None,
        command: str | None = None,
        **options,
    ) -> Player:
        if options.pop("guest", False):
            options.update(client_factory=GuestClient, client_keys=[])
        conn = await asyncssh.connect(
            "127.0.0.1",
            arcade.port,
            username=user,
            known_hosts=None,
            # (Each name has its key; `client_keys=[]`: none, as a guest connects.)
            client_keys=options.pop("client_keys", [key_of(user)]),
            agent_path=None,
            **options,
        )
        process = await conn.create_process(
            command, term_type=term, term_size=size, env=env or {}, encoding=None
        )
        player = cls(conn, process)
        cls.connected.append(player)
        return player

    async def expect(self, text: str, timeout: float = PATIENCE) -> str:
        """Read until `text` has arrived; everything read so far, as text."""
        needle = text.encode()
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while needle not in self.output:
            remaining = deadline - loop.time()
            if remaining <= 0:
                pytest.fail(f"{text!r} never arrived; got {self.output[-500:]!r}")
            try:
                chunk = await asyncio.wait_for(self.process.stdout.read(65536), remaining)
            except TimeoutError:
                continue
            if not chunk:
                pytest.fail(f"the session ended before {text!r}; got {self.output[-500:]!r}")
            self.output += chunk
        return self.output.decode(errors="replace")

    async def facts(self) -> dict:
        """What the stand-in reported at start: pid, size, environment, signal masks, args."""
        text = await self.expect("READY")
        facts: dict = {}
        for line in text.splitlines():
            kind, _, rest = line.partition(" ")
            if kind == "STANDIN":
                facts.update(item.split("=", 1) for item in rest.split())
            elif kind == "ENV":
                facts["env"] = json.loads(rest)
            elif kind == "ENVBLOCK":
                facts["env_block"] = json.loads(rest)
            elif kind == "FDS":
                facts["fds"] = {int(fd): target for fd, target in json.loads(rest).items()}
            elif kind == "ARGS":
                facts["args"] = json.loads(rest)
            elif kind == "SIGIGN":
                words = rest.split()
                facts["ignored"], facts["blocked"] = int(words[0], 16), int(words[2], 16)
            elif kind == "HELPER":
                facts["helper"] = int(rest)
        facts["pid"] = int(facts["pid"])
        facts["ppid"] = int(facts["ppid"])
        return facts

    def send(self, data: bytes) -> None:
        self.process.stdin.write(data)

    async def finished(self) -> asyncssh.SSHCompletedProcess:
        """Wait for the session to end; the rest of its output is added to `output`."""
        rest = await asyncio.wait_for(self.process.stdout.read(), PATIENCE)
        self.output += rest
        await asyncio.wait_for(self.process.wait_closed(), PATIENCE)
        return self.process

    def close(self) -> None:
        self.conn.close()


@pytest_asyncio.fixture
async def serve(tmp_path, monkeypatch):
    """`await serve(**config)` starts a server on a free loopback port; all stop at teardown.

    Its log lines collect in `arcade.log_lines`.
    """
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    arcades: list[Arcade] = []

    async def start(**overrides) -> Arcade:
        settings = {
            "data_dir": tmp_path / "server",
            "port": 0,
            "game_command": STANDIN_COMMAND,
            "auth_failure_delay": 0.0,
            "hangup_grace": 2.0,
            # The server's login grace (10 s) counts wall time: a first login on a machine
            # at load 26 outlasted it, and the client read ConnectionLost. A test of the
            # grace or of the door says its own.
            "login_timeout": LOGIN_GRACE,
            **overrides,
        }
        lines: list[str] = []
        arcade = Arcade(ServeConfig(**settings), log=lines.append)
        arcade.log_lines = lines
        await arcade.start()
        arcades.append(arcade)
        return arcade

    yield start
    for player in Player.connected:
        player.conn.abort()
    Player.connected.clear()
    for arcade in arcades:
        await arcade.close()


@pytest.fixture(scope="session")
def postgres():
    """One real PostgreSQL for the whole run (postgres_cluster.py), or a skip saying why not."""
    bin_dir = find_bin()
    if bin_dir is None:
        pytest.skip("no PostgreSQL found (no /usr/lib/postgresql/*/bin/initdb nor initdb on PATH)")
    cluster = Cluster(bin_dir)
    cluster.start()
    yield cluster
    cluster.stop()


@pytest.fixture
def database(postgres) -> str:
    """A fresh database with the newest schema: its URL."""
    url = postgres.database()
    migrate_database(url)
    return url
