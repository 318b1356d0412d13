"""The host key: created once, mode 0600, reused, and refused if others can read it."""

import stat

import asyncssh
import pytest

from tui_reversi.server.config import ServeError
from tui_reversi.server.edge.hostkey import load_or_create_host_key

from .conftest import key_of


async def test_the_host_key_is_created_once_with_mode_0600_and_persists(serve, tmp_path):
    arcade = await serve()
    path = tmp_path / "server" / "ssh_host_ed25519_key"
    assert arcade.host_key_created
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert arcade.fingerprint.startswith("SHA256:")
    first = path.read_bytes()
    await arcade.close()

    again = await serve()
    assert not again.host_key_created
    assert again.fingerprint == arcade.fingerprint
    assert path.read_bytes() == first
    async with asyncssh.connect(
        "127.0.0.1",
        again.port,
        username="x",
        known_hosts=None,
        agent_path=None,
        client_keys=[key_of("x")],
    ) as conn:
        assert conn.get_server_host_key().get_fingerprint() == arcade.fingerprint
        assert conn.get_server_host_key().get_algorithm() == "ssh-ed25519"


def test_a_host_key_others_can_read_is_refused_with_the_fix(tmp_path):
    path = tmp_path / "key"
    load_or_create_host_key(path)
    path.chmod(0o644)
    with pytest.raises(ServeError, match="chmod 600"):
        load_or_create_host_key(path)


def test_a_damaged_host_key_is_reported_and_left_alone(tmp_path):
    path = tmp_path / "key"
    path.write_bytes(b"-----BEGIN OPENSSH PRIVATE KEY-----\ngarbage\n")
    path.chmod(0o600)
    with pytest.raises(ServeError, match="cannot use the host key"):
        load_or_create_host_key(path)
    assert path.read_bytes().endswith(b"garbage\n")


def test_the_host_key_directory_is_created_private(tmp_path):
    path = tmp_path / "deep" / "er" / "key"
    key, created = load_or_create_host_key(path)
    assert created and key.get_algorithm() == "ssh-ed25519"
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
