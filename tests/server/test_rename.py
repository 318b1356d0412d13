"""`mod rename OLD NEW` over real SSH (hall/mod_rename.py, edge/rename_door.py):
an admin renames a player, a moderator and a player are refused in one
sentence; the renamed player's running session ends with a sentence naming
the new name, they come back under it with the same key (told why), their
folder has moved, the old name is refused to anyone (their own key is told
the new name), and the log reads the rename under either name. A name at a
table waits for the game's end. In a fleet, the session on the other node ends
too and its folder moves there."""

from __future__ import annotations

import asyncssh
import pytest

from .conftest import Player, key_of, wait_until
from .test_accounts import Listener, run
from .test_fleet import two_nodes
from .test_moderation import MODERATORS, known
from .test_tables import sit_down

# bob's key, which becomes robert's.
AS_BOB = {"client_keys": [key_of("bob")]}


async def test_an_admin_renames_a_player_whose_session_ends_and_who_comes_back_renamed(serve):
    arcade = await serve(moderators=MODERATORS)
    await known(arcade, "mia", "ada", "bob", "carol")
    assert (await run(arcade, "carol", "block bob"))[0] == 0
    bob = await Player.connect(arcade, "bob")
    await bob.facts()
    folder = arcade.config.players_dir
    assert (folder / "bob").is_dir()
    for who, sentence in (
        ("mia", "mod rename is for admins; mia is a moderator."),
        ("carol", "mod is for this server's moderators, and carol is not one."),
    ):
        assert await run(arcade, who, "mod rename bob robert") == (1, f"tui-reversi: {sentence}\n")
    status, said = await run(arcade, "ada", "mod rename bob robert asked [b]nicely[/b]")
    assert (status, said) == (
        0,
        "tui-reversi: bob is robert now (asked [b]nicely[/b]): their keys, ratings, games and "
        "records are robert's, and nobody may take the name bob.\n",
    )
    await bob.finished()
    assert (
        "This server's admins renamed you to robert: from now on you sign in as robert, "
        "with the same keys." in bob.output.decode()
    )
    await wait_until(lambda: (folder / "robert").is_dir(), "bob's folder to move")
    assert not (folder / "bob").exists()
    # robert comes in with bob's key and is told why; carol blocks robert now.
    robert = await Player.connect(arcade, "robert", term=None, command="blocks", **AS_BOB)
    await robert.finished()
    told = (await robert.process.stderr.read()).decode()
    assert told == (
        "tui-reversi: this server's admins renamed you from bob to robert (asked [b]nicely[/b]).\n"
    )
    assert robert.process.exit_status == 0
    assert (await run(arcade, "carol", "blocks"))[1].endswith("  robert\n")
    # The old name is nobody's: bob's own key is told the new name, another key is refused.
    for key, banner in (
        (key_of("bob"), "tui-reversi: this key is robert's here: connect as robert.\r\n"),
        (
            asyncssh.generate_private_key("ssh-ed25519"),
            "tui-reversi: the name bob was renamed by this server's admins and is nobody's now; "
            "choose another name.\r\n",
        ),
    ):
        Listener.banners = []
        with pytest.raises(asyncssh.PermissionDenied):
            await Player.connect(arcade, "bob", client_keys=[key], client_factory=Listener)
        assert Listener.banners == [banner]
    # The log keeps the rename under both names.
    for name in ("bob", "robert"):
        status, shown = await run(arcade, "mia", f"mod log {name}")
        assert status == 0 and " ada rename bob to robert: asked [b]nicely[/b]" in shown
    assert "  (robert was bob before)" in (await run(arcade, "mia", "mod log robert"))[1]
    assert "mod rename OLD NEW [WHY]" in (await run(arcade, "ada", "mod help"))[1]
    assert "mod rename" not in (await run(arcade, "mia", "mod help"))[1]


async def test_a_rename_is_refused_in_one_sentence(serve):
    arcade = await serve(moderators=MODERATORS, max_per_address=10)
    await known(arcade, "mia", "ada", "carol", "dave")
    alice, _bob, code = await sit_down(arcade)
    cases = [
        ("mod rename alice", "say: ssh "),
        ("mod rename alice alicia", f"alice is at table {code}; try again when the game ends."),
        ("mod rename nobody x", "nobody called 'nobody' has been here."),
        ("mod rename carol dave", "the name dave is taken here; choose another."),
        ("mod rename carol DAVE", "the name DAVE looks like dave, which is someone's here;"),
        ("mod rename carol [b]x[/b]", "a name here is 1 to 32 letters, digits, '.', '_' or '-'"),
        ("mod rename ada adam", "you cannot rename yourself: ask another admin."),
        ("mod rename mia mila", "mia's role is the command line's (--moderators)"),
        ("mod rename carol mia", "mia is a moderator by the command line (--moderators)"),
    ]
    for command, sentence in cases:
        status, said = await run(arcade, "ada", command)
        assert status != 0, command
        assert said.startswith(f"tui-reversi: {sentence}"), (command, said)
        assert said.count("\n") == 1, said
    assert await arcade.store.renames_since(0) == []
    alice.say("resign")  # (the game over, alice may be renamed)
    await wait_until(lambda: not arcade.tables.views(), "the table to close")
    assert (await run(arcade, "ada", "mod rename alice alicia"))[0] == 0


async def test_a_rename_on_node_a_ends_the_session_on_node_b_and_moves_its_folder_there(
    serve, tmp_path, database
):
    a, b = await two_nodes(serve, tmp_path, database, moderators=MODERATORS)
    await known(a, "ada")
    await known(b, "bob")
    bob = await Player.connect(b, "bob")
    await bob.facts()
    assert (await run(a, "ada", "mod rename bob robert"))[0] == 0
    await bob.finished()
    assert "renamed you to robert: from now on you sign in as robert" in bob.output.decode()
    folder = b.config.players_dir
    await wait_until(lambda: (folder / "robert").is_dir(), "bob's folder to move on node B")
    assert (await run(b, "robert", "blocks", **AS_BOB))[0] == 0


async def test_a_node_down_during_a_rename_moves_the_folder_when_it_starts(serve, tmp_path):
    from tui_reversi.server.ledger.archive import Archive
    from tui_reversi.server.ledger.moderation import LogEntry
    from tui_reversi.server.ledger.renames import Rename

    data = tmp_path / "server"
    data.mkdir()
    (data / "players" / "bob" / "data").mkdir(parents=True)
    (data / "players" / "carol" / "data").mkdir(parents=True)
    (data / "players" / "dan").mkdir()  # (dan's new name has a folder already: left alone)
    (data / "players" / "dora").mkdir()
    archive = Archive(data / "archive.sqlite3", data / "players")
    for name in ("bob", "carol", "dan"):
        await archive.enter_name(name)
    for old, new in (("bob", "robert"), ("carol", "Carol"), ("dan", "dora")):
        entry = LogEntry(0, 0.0, "ada", "rename", old, f"to {new}", None)
        await archive.rename_player(Rename(0, old, new, "ada", 0.0), entry)
    await archive.close()
    arcade = await serve(data_dir=data)
    players = data / "players"
    await wait_until(lambda: (players / "Carol").is_dir(), "the folders to move")
    assert sorted(path.name for path in players.iterdir()) == ["Carol", "dan", "dora", "robert"]
    assert (players / "robert" / "data").is_dir()
    assert any(
        "dan's folder stays where it is: dora has one already" in line for line in arcade.log_lines
    )


async def test_under_auth_keys_the_file_names_the_keys_and_a_rename_is_refused(serve, tmp_path):
    authorized = tmp_path / "authorized_keys"
    authorized.write_bytes(key_of("ada").export_public_key() + key_of("bob").export_public_key())
    arcade = await serve(auth="keys", authorized_keys=authorized, moderators=MODERATORS)
    await known(arcade, "ada", "bob")
    assert await run(arcade, "ada", "mod rename bob robert") == (
        1,
        "tui-reversi: names here are the authorized-keys file's (--auth keys): "
        "rename the name there.\n",
    )


async def test_a_renamed_away_name_is_acted_on_by_nobody(serve):
    arcade = await serve(moderators=MODERATORS)
    await known(arcade, "mia", "ada", "bob", "carol")
    assert (await run(arcade, "ada", "mod rename bob robert rude"))[0] == 0
    # (blocking, reporting or banning bob would reach nobody: robert is who they are)
    for who, command in [
        ("carol", "block bob"),
        ("carol", "report bob spam"),
        ("mia", "mod ban bob 1h spam"),
        ("mia", "mod mute bob 1h spam"),
        ("mia", "mod note bob seen"),
        ("ada", "mod role bob moderator"),
    ]:
        assert await run(arcade, who, command) == (
            1,
            "tui-reversi: bob was renamed: nobody has that name now.\n",
        ), command
    assert (await run(arcade, "carol", "block robert"))[0] == 0
