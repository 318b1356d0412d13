"""One person, one name, as a reader sees it: `aIice`, `ALICE`, `a1ice` and
`alice.` are refused beside `alice` in one sentence, in every way of coming
in, and the name that was there first keeps it. Real SSH on loopback."""

import asyncssh
import pytest

from .conftest import Player
from .test_accounts import Listener, run


@pytest.mark.parametrize("look_alike", ["aIice", "ALICE", "a1ice", "alice."])
async def test_a_name_like_one_taken_is_refused_in_one_sentence(serve, look_alike):
    arcade = await serve()
    status, _ = await run(arcade, "alice", "lobby")
    assert status == 0
    Listener.banners = []
    with pytest.raises(asyncssh.PermissionDenied):
        await Player.connect(arcade, look_alike, client_factory=Listener)
    assert Listener.banners == [
        f"tui-reversi: the name {look_alike} looks like alice, which is someone's here; "
        "choose another name.\r\n"
    ]
    # alice keeps it, and is not bothered.
    status, _ = await run(arcade, "alice", "lobby")
    assert status == 0


async def test_a_name_taken_under_a_password_keeps_its_look_alikes_out_too(serve):
    arcade = await serve(auth="password", password="s3cret")
    by_password = {"password": "s3cret", "client_keys": [], "preferred_auth": "password"}
    status, _ = await run(arcade, "Bob", "lobby", **by_password)
    assert status == 0
    with pytest.raises(asyncssh.DisconnectError) as refused:
        await run(arcade, "bob", "lobby", **by_password)
    assert refused.value.reason == (
        "The name bob looks like Bob, which is someone's here; choose another name."
    )
    # A restart remembers who was first.
    await arcade.close()
    again = await serve(auth="password", password="s3cret")
    with pytest.raises(asyncssh.DisconnectError):
        await run(again, "B0B", "lobby", **by_password)
