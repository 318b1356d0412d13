"""Guessing costs the guesser (guessing.py): password guesses are capped in total
and per name as well as per address, and the penalties outlive a restart; a
key code's wrong tries count against the key and address that tried, never
the code, and nobody learns whether a code is waiting. Real SSH on loopback."""

import asyncio
import contextlib
import re

import asyncssh
import pytest

from tui_reversi.server.edge.guessing import TOTAL_PER_SECOND

from .conftest import Player
from .test_accounts import Listener, run

PASSWORD = "open sesame"
BY_PASSWORD = {"client_keys": [], "preferred_auth": "password"}


class Counter(asyncssh.SSHClient):
    """A client that guesses wrong passwords for as long as it is asked, counting
    the verdicts (each refusal asks for the next guess)."""

    def __init__(self, verdicts: list[int]) -> None:
        self.verdicts = verdicts
        self.asked = 0

    def password_auth_requested(self) -> str:
        if self.asked:
            self.verdicts[0] += 1
        self.asked += 1
        return f"guess {self.asked}"


async def guess_from(port: int, source: str, verdicts: list[int], until: float) -> None:
    """Wrong guesses from `source` until the loop's time `until`, reconnecting as needed."""
    loop = asyncio.get_running_loop()
    while (left := until - loop.time()) > 0:
        with contextlib.suppress(asyncssh.Error, OSError, TimeoutError):
            await asyncio.wait_for(
                asyncssh.connect(
                    "127.0.0.1",
                    port,
                    username="mallory",
                    known_hosts=None,
                    agent_path=None,
                    client_factory=lambda: Counter(verdicts),
                    local_addr=(source, 0),
                    **BY_PASSWORD,
                ),
                left,
            )


async def test_guesses_from_many_addresses_get_a_few_verdicts_a_second_in_all(serve):
    arcade = await serve(auth="password", password=PASSWORD, auth_failure_delay=0.05)
    loop = asyncio.get_running_loop()
    verdicts = [0]
    started = loop.time()
    until = started + 4.0
    sources = [f"127.0.0.{n}" for n in range(2, 32)]
    await asyncio.gather(*(guess_from(arcade.port, s, verdicts, until) for s in sources))
    took = loop.time() - started
    # Thirty addresses, each waiting only 0.05 s or more after a wrong guess, would get
    # hundreds a second; in all they get at most TOTAL_PER_SECOND (and the first at once).
    assert 0 < verdicts[0] <= TOTAL_PER_SECOND * took + 1


async def test_wrong_guesses_at_one_name_count_whatever_address_they_come_from(serve):
    arcade = await serve(auth="password", password=PASSWORD, auth_failure_delay=0.05)
    for source in ("127.0.0.2", "127.0.0.3", "127.0.0.4"):
        with pytest.raises(asyncssh.PermissionDenied):
            await Player.connect(arcade, "alice", password="wrong", local_addr=(source, 0),
                                 **BY_PASSWORD)  # fmt: skip
    assert await arcade.penalties.wait_after("127.0.0.5") == 0.0  # (a fresh address)
    failures = await arcade.store.change_penalties(
        [("name", "alice")], lambda held: held[("name", "alice")].failures
    )
    assert failures == 3


async def test_a_restart_keeps_the_penalty_an_address_earned(serve):
    first = await serve(auth="password", password=PASSWORD, auth_failure_delay=0.05)
    for _ in range(3):
        with pytest.raises(asyncssh.PermissionDenied):
            await Player.connect(first, "mallory", password="wrong", **BY_PASSWORD)
    earned = await first.penalties.wait_after("127.0.0.1")
    assert earned > 0
    await first.close()
    second = await serve(auth="password", password=PASSWORD, auth_failure_delay=0.05)
    assert await second.penalties.wait_after("127.0.0.1") == earned


async def refusal_for(arcade, user: str, key: asyncssh.SSHKey, command: str) -> tuple:
    """What a client with `key` asking for `user` learns: the banners, how it ended."""
    Listener.banners = []
    try:
        status, said = await run(arcade, user, command, client_keys=[key],
                                 client_factory=Listener)  # fmt: skip
    except asyncssh.Error as error:
        return tuple(Listener.banners), type(error).__name__
    return tuple(Listener.banners), status, said


async def test_nobody_learns_whether_a_code_waits_for_a_name(serve):
    arcade = await serve()
    await run(arcade, "alice", "lobby")
    stranger = asyncssh.generate_private_key("ssh-ed25519")
    answers = []
    for _ in ("no code", "a code waiting"):
        answers.append(
            [
                await refusal_for(arcade, "alice", stranger, "keys add ABCD-EFGH"),
                await refusal_for(arcade, "alice+key", stranger, "keys add ABCD-EFGH"),
            ]
        )
        await run(arcade, "alice", "keys add")  # (for the second round)
    assert answers[0] == answers[1]
    assert answers[0][0][1] == "PermissionDenied"  # (alice@ is alice's keys' only)


async def test_wrong_tries_spend_the_trying_key_not_alices_code(serve):
    arcade = await serve()
    _, shown = await run(arcade, "alice", "keys add")
    code = re.search(r"alice\+key@127\.0\.0\.1 keys add (\S+)", shown).group(1)
    stranger = asyncssh.generate_private_key("ssh-ed25519")
    for _ in range(3):
        status, said = await run(arcade, "alice+key", "keys add WRONG-CODE", client_keys=[stranger])
        assert status == 1 and "is not alice's code" in said
    status, said = await run(arcade, "alice+key", f"keys add {code}", client_keys=[stranger])
    assert status == 1 and "too many wrong codes from this key" in said  # even the right one
    laptop = asyncssh.generate_private_key("ssh-ed25519")
    status, said = await run(arcade, "alice+key", f"keys add {code}", client_keys=[laptop])
    assert status == 0 and f"key {laptop.get_fingerprint()} is alice's now." in said
