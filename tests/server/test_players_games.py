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


# One live game per player name.


async def test_a_second_connection_as_the_same_player_can_take_the_game_over(serve, tmp_path):
    arcade = await serve(game_command=AUTOSAVER)
    first = await Player.connect(arcade, "alice")
    await first.expect("READY")
    first.send(b"f5d6")
    await first.expect("SAVED f5d6")
    second = await Player.connect(arcade, "alice")
    question = await second.expect("q  leave")
    assert "your game is open in another session (from 127.0.0.1" in question
    assert "READY" not in question  # no second game runs while it asks
    stranger = await Player.connect(arcade, "bob")
    assert "NEW" in await stranger.expect("READY")  # other players are not asked
    second.send(b"t")
    ended = await first.finished()
    assert ended.exit_status == 1
    assert "your game was taken over by a new session from 127.0.0.1" in first.output.decode()
    text = await second.expect("READY")
    assert "RESUME f5d6" in text
    second.send(b"c3")
    await second.expect("SAVED f5d6c3")
    first.close()
    await wait_until(
        lambda: any("taken over by another session" in line for line in arcade.log_lines),
        "the log to say why the first session ended",
    )


async def test_a_separate_game_for_the_same_player_loses_neither_line_of_play(serve, tmp_path):
    arcade = await serve(game_command=AUTOSAVER, max_per_address=3)
    first = await Player.connect(arcade, "alice")
    await first.expect("READY")
    first.send(b"f5")
    await first.expect("SAVED f5")
    second = await Player.connect(arcade, "alice")
    await second.expect("q  leave")
    second.send(b"n")
    assert "NEW" in await second.expect("READY")
    second.send(b"d3")
    text = await second.expect("SAVED d3")
    assert "ASIDE another session is playing in this autosave" in text
    first.send(b"d6")
    assert "ASIDE" not in (await first.expect("SAVED f5d6")).split("SAVED f5\r\n")[1]
    data = tmp_path / "server" / "players" / "alice" / "data" / "tui-reversi"
    assert '"moves": "f5d6"' in (data / "autosave.json").read_text()
    (kept,) = (data / "earlier-autosaves").iterdir()
    assert '"moves": "d3"' in kept.read_text()
    # A third connection is asked about the live game, and may leave it be.
    third = await Player.connect(arcade, "alice")
    await third.expect("q  leave")
    third.send(b"q")
    assert (await third.finished()).exit_status == 0
    assert "your game carries on in the other session" in third.output.decode()
    first.send(b"c3")
    await first.expect("SAVED f5d6c3")


async def test_reconnecting_at_once_after_a_drop_waits_for_the_dropped_game_without_asking(
    serve,
):
    arcade = await serve(game_command=AUTOSAVER)
    first = await Player.connect(arcade, "alice", command="new")  # a new game is live too
    await first.expect("READY")
    first.send(b"f5")
    await first.expect("SAVED f5")
    asked = await Player.connect(arcade, "alice")
    await asked.expect("q  leave")
    asked.send(b"q")
    await asked.finished()
    pid = arcade_game_pid(arcade, "alice")
    first.conn.abort()  # the phone lost its signal, and the player dials in again at once
    again = await Player.connect(arcade, "alice")
    text = await again.expect("READY")
    assert "open in another session" not in text and "RESUME f5" in text
    assert process_gone(pid)  # the dropped game had ended (and saved) before this one began
