"""Names bound to SSH keys under the open default: a key claims a free name on
first use, another key is refused it, a client without a key is a guest;
`keys` lists, adds (by a one-time code) and removes a name's keys; a restart
keeps it all. Real SSH on loopback."""

import re

import asyncssh
import pytest

from tui_reversi.server.ledger.ratings import FIRST

from .conftest import Player, key_of
from .test_tables import Game, seat


class Listener(asyncssh.SSHClient):
    """A client that keeps the banners the server sends while it authenticates."""

    banners: list[str] = []

    def auth_banner_received(self, msg: str, lang: str) -> None:
        Listener.banners.append(msg)


async def run(arcade, user: str, command: str, **options) -> tuple[int, str]:
    """`ssh user@host command` without a terminal: exit status and output."""
    player = await Player.connect(arcade, user, term=None, command=command, **options)
    done = await player.finished()
    player.close()
    await player.conn.wait_closed()
    return done.exit_status, player.output.decode()


async def test_a_key_claims_a_free_name_and_another_key_is_refused_it(serve):
    arcade = await serve()
    first = await Player.connect(arcade, "alice")
    assert (await first.facts())["env"]["USER"] == "alice"
    first.close()
    intruder = asyncssh.generate_private_key("ssh-ed25519")
    Listener.banners = []
    with pytest.raises(asyncssh.PermissionDenied):
        await Player.connect(arcade, "alice", client_keys=[intruder], client_factory=Listener)
    assert Listener.banners == [
        "tui-reversi: the name alice is claimed by another key; choose another name.\r\n"
    ]
    # Nor does a client without a key get it: it is told why, not made a guest.
    with pytest.raises(asyncssh.DisconnectError) as refused:
        await Player.connect(arcade, "alice", guest=True)
    assert "alice is claimed by a key" in refused.value.reason
    # The key is alice's: it is not anyone else's too.
    Listener.banners = []
    with pytest.raises(asyncssh.PermissionDenied):
        await Player.connect(arcade, "mallory", client_keys=[key_of("alice")])
    again = await Player.connect(arcade, "alice")
    await again.facts()


async def test_a_client_without_a_key_plays_as_an_unrated_guest(serve):
    arcade = await serve(max_per_address=10)
    guest = await Player.connect(arcade, "zed", guest=True)
    name = (await guest.facts())["env"]["USER"]
    assert re.fullmatch(r"guest-[0-9a-f]{6}", name)  # (shown short: the name has 64 bits)
    assert any(
        " connect peer=127.0.0.1:" in line and f"user={name}" in line for line in arcade.log_lines
    )
    # At a table, a guest's game is not rated.
    alice = await Game.connect(await seat(arcade, "alice", "table"))
    await alice.hear_until("ready")
    (code,) = arcade.tables.tables
    joining = await Player.connect(arcade, "zed", command=f"join {code}", guest=True)
    env = (await joining.facts())["env"]
    opponent = env["USER"]
    bob = await Game.connect(env)
    heard = await alice.hear_until(
        f"news {opponent} (a guest, unrated) sits at the table as White."
    )
    assert not any(line.startswith(f"rated {opponent}") for line in heard)
    alice.say("move 0 d3")
    await bob.hear_until("moved 0 d3")
    bob.say("resign")
    await alice.hear_until(f"over resigned black {opponent} (White) resigned: alice (Black) wins.")
    assert str(await arcade.store.results("alice")) == "1 won, 0 lost, 0 drawn"
    assert await arcade.store.rating("alice") == FIRST
    _, lobby = await run(arcade, "zed", "lobby", guest=True)
    assert "You play as a guest here: unrated" in lobby


async def test_a_key_is_added_with_a_one_time_code_listed_and_removed(serve, tmp_path):
    arcade = await serve()
    status, shown = await run(arcade, "alice", "keys add")
    assert status == 0
    code = re.search(r"alice\+key@127\.0\.0\.1 keys add (\S+)", shown).group(1)
    laptop = asyncssh.generate_private_key("ssh-ed25519")
    # The new key may do nothing but redeem the code.
    status, said = await run(arcade, "alice+key", "lobby", client_keys=[laptop])
    assert status == 1 and "may only run  keys add CODE" in said
    status, said = await run(arcade, "alice+key", "keys add WRONG-CODE", client_keys=[laptop])
    assert status == 1 and "'WRONG-CODE' is not alice's code" in said
    status, said = await run(arcade, "alice+key", f"keys add {code}", client_keys=[laptop])
    assert status == 0 and f"key {laptop.get_fingerprint()} is alice's now." in said
    # Spent: the code adds no third key.
    stranger = asyncssh.generate_private_key("ssh-ed25519")
    status, said = await run(arcade, "alice+key", f"keys add {code}", client_keys=[stranger])
    assert status == 1 and "is not alice's code, or it was used or lapsed" in said
    # Both keys are alice's, listed from either.
    status, listed = await run(arcade, "alice", "keys", client_keys=[laptop])
    assert key_of("alice").get_fingerprint() in listed and laptop.get_fingerprint() in listed
    assert f"{laptop.get_fingerprint()}  added" in listed and "(this connection's)" in listed
    # The first key is removed from the laptop; it no longer logs in as alice.
    first = key_of("alice").get_fingerprint()
    status, said = await run(arcade, "alice", f"keys remove {first}", client_keys=[laptop])
    assert status == 0 and f"key {first} is no longer alice's." in said
    with pytest.raises(asyncssh.PermissionDenied):
        await run(arcade, "alice", "keys")
    status, said = await run(
        arcade, "alice", f"keys remove {laptop.get_fingerprint()}", client_keys=[laptop]
    )
    assert status == 1 and "only key" in said
    # A restart keeps alice's key.
    await arcade.close()
    again = await serve()
    player = await Player.connect(again, "alice", client_keys=[laptop])
    assert (await player.facts())["env"]["USER"] == "alice"
    with pytest.raises(asyncssh.PermissionDenied):
        await Player.connect(again, "alice")


async def test_a_guest_has_no_keys_to_add(serve):
    arcade = await serve()
    status, said = await run(arcade, "zed", "keys add", guest=True)
    assert status == 1 and "guests have no keys" in said


async def test_a_restart_keeps_the_names_claimed(serve):
    first = await serve()
    player = await Player.connect(first, "alice")
    await player.facts()
    await first.close()
    second = await serve()
    intruder = asyncssh.generate_private_key("ssh-ed25519")
    with pytest.raises(asyncssh.PermissionDenied):
        await Player.connect(second, "alice", client_keys=[intruder])


async def test_under_auth_password_a_name_claimed_by_a_key_needs_that_key(serve):
    arcade = await serve(auth="password", password="s3cret")
    by_password = {"password": "s3cret", "client_keys": [], "preferred_auth": "password"}
    _, shown = await run(arcade, "alice", "keys add", **by_password)
    code = re.search(r"alice\+key@127\.0\.0\.1 keys add (\S+)", shown).group(1)
    status, _ = await run(arcade, "alice+key", f"keys add {code}", client_keys=[key_of("alice")])
    assert status == 0
    with pytest.raises(asyncssh.DisconnectError) as refused:
        await run(arcade, "alice", "lobby", **by_password)
    assert "alice is claimed by a key: connect with that key" in refused.value.reason
    status, _ = await run(arcade, "alice", "lobby")
    assert status == 0
