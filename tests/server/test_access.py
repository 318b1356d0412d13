"""Who gets in: passwords, keys, the session limit, the per-address limit, the log."""

import asyncssh
import pytest

from .conftest import Player, wait_until


async def test_the_right_password_lets_a_player_in(serve):
    arcade = await serve(auth="password", password="open sesame")
    player = await Player.connect(arcade, password="open sesame")
    await player.facts()


@pytest.mark.parametrize("guess", ["open sesam", "", "OPEN SESAME"])
async def test_a_wrong_password_is_refused_and_logged(serve, guess):
    arcade = await serve(auth="password", password="open sesame")
    with pytest.raises(asyncssh.PermissionDenied):
        await Player.connect(arcade, "mallory", password=guess)
    await wait_until(lambda: arcade.log_lines, "a log line")
    assert "user=mallory" in arcade.log_lines[-1] and "wrong password" in arcade.log_lines[-1]
    assert not any(" connect " in line for line in arcade.log_lines)
    assert arcade.places_taken == 0


async def test_only_keys_in_the_authorized_keys_file_get_in(serve, tmp_path):
    allowed = asyncssh.generate_private_key("ssh-ed25519", comment="alice@laptop")
    stranger = asyncssh.generate_private_key("ssh-ed25519", comment="bob")
    authorized = tmp_path / "authorized_keys"
    authorized.write_bytes(allowed.export_public_key())
    arcade = await serve(auth="keys", authorized_keys=authorized)
    player = await Player.connect(arcade, client_keys=[allowed])
    await player.facts()
    with pytest.raises(asyncssh.PermissionDenied):
        await Player.connect(arcade, "bob", client_keys=[stranger])
    # Keys added while the server runs work at once.
    authorized.write_bytes(allowed.export_public_key() + stranger.export_public_key())
    latecomer = await Player.connect(arcade, "bob", client_keys=[stranger])
    await latecomer.facts()


async def test_under_auth_keys_a_key_logs_in_only_as_the_name_the_file_gives_it(serve, tmp_path):
    alice = asyncssh.generate_private_key("ssh-ed25519", comment="alice@laptop")
    bob = asyncssh.generate_private_key("ssh-ed25519", comment="bob")
    authorized = tmp_path / "authorized_keys"
    authorized.write_bytes(alice.export_public_key() + bob.export_public_key())
    arcade = await serve(auth="keys", authorized_keys=authorized)
    told = []

    class Client(asyncssh.SSHClient):
        def auth_banner_received(self, msg: str, lang: str) -> None:
            told.append(msg)

    with pytest.raises(asyncssh.PermissionDenied):
        await Player.connect(arcade, "alice", client_keys=[bob], client_factory=Client)
    assert told == ["tui-reversi: this key is bob's here: connect as bob.\r\n"]
    assert not any(" connect " in line for line in arcade.log_lines)
    assert not (tmp_path / "server" / "players" / "alice").exists()
    player = await Player.connect(arcade, "bob", client_keys=[bob])
    assert (await player.facts())["env"]["USER"] == "bob"
    listing = await Player.connect(arcade, "bob", client_keys=[bob], term=None, command="keys")
    await listing.finished()
    listed = listing.output.decode()
    assert f"{bob.get_fingerprint()}  in the server's authorized-keys file" in listed


async def test_the_session_limit_turns_the_next_player_away_politely(serve):
    arcade = await serve(max_sessions=2)
    first = await Player.connect(arcade, "p1")
    second = await Player.connect(arcade, "p2")
    await first.facts()
    await second.facts()
    third = await Player.connect(arcade, "p3")
    done = await third.finished()
    assert done.exit_status == 1
    assert third.output.decode() == (
        "tui-reversi: all 2 seats are taken; please try again in a few minutes.\r\n"
    )
    third.close()
    await wait_until(
        lambda: any("user=p3" in line and "server full" in line for line in arcade.log_lines),
        "the refusal in the log",
    )
    # A seat frees up when a game ends; the next player gets it.
    first.send(b"q")
    await first.finished()
    await wait_until(lambda: arcade.places_taken == 1, "the seat to be freed")
    fourth = await Player.connect(arcade, "p4")
    await fourth.facts()


async def test_too_many_connections_from_one_address_are_told_why(serve):
    arcade = await serve(max_per_address=2)
    await Player.connect(arcade, "p1")
    await Player.connect(arcade, "p2")
    with pytest.raises(asyncssh.DisconnectError) as refused:
        await Player.connect(arcade, "p3")
    assert "Too many connections from your address" in refused.value.reason


async def test_one_log_line_when_a_player_comes_and_one_when_they_go(serve):
    arcade = await serve()
    player = await Player.connect(arcade, "grace")
    await player.facts()
    player.send(b"q")
    await player.finished()
    player.close()
    await wait_until(lambda: len(arcade.log_lines) == 2, "two log lines")
    connect, disconnect = arcade.log_lines
    assert " connect peer=127.0.0.1:" in connect and connect.endswith(" user=grace")
    assert " disconnect peer=127.0.0.1:" in disconnect and " user=grace " in disconnect
    assert " after=" in disconnect and disconnect.endswith(' why="player quit"')


async def test_a_user_name_cannot_forge_fields_in_a_log_line(serve):
    arcade = await serve()
    with pytest.raises(asyncssh.DisconnectError):
        await Player.connect(arcade, "eve user=root")  # (not a name anyone may claim)
    await wait_until(lambda: arcade.log_lines, "a log line")
    assert ' user="eve user=root" after=' in arcade.log_lines[-1]
