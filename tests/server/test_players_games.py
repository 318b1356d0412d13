"""Each SSH user name keeps its own games: a dropped connection resumes on reconnect.

The game here is `autosaver.py`, which saves through the real storage layer
(tui_reversi.storage, platformdirs) exactly where the app does; the test with
the app itself is in test_app.py.
"""

import sys
from pathlib import Path

from .conftest import Player, process_gone, wait_until

AUTOSAVER = (sys.executable, str(Path(__file__).with_name("autosaver.py")))


async def test_a_dropped_connection_resumes_on_reconnect_as_the_same_user_only(serve, tmp_path):
    arcade = await serve(game_command=AUTOSAVER)
    first = await Player.connect(arcade, "alice")
    await first.expect("READY")
    assert "NEW" in first.output.decode()
    first.send(b"f5d6c3")
    await first.expect("SAVED f5d6c3")
    pid = arcade_game_pid(arcade, "alice")
    first.conn.abort()  # the phone lost its signal
    await wait_until(lambda: process_gone(pid), "the dropped game to be reaped")

    again = await Player.connect(arcade, "alice")
    text = await again.expect("READY")
    assert "RESUME f5d6c3" in text
    data = tmp_path / "server" / "players" / "alice" / "data" / "tui-reversi" / "autosave.json"
    assert f"DATA {data}" in text

    stranger = await Player.connect(arcade, "bob")
    assert "NEW" in await stranger.expect("READY")


def arcade_game_pid(arcade, user):
    (pid,) = [c.game_pid for c in arcade.connections if c.user == user and c.game_pid]
    return pid
