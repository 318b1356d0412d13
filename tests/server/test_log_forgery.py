"""What a stranger says reaches the server's log as data: no forged line, no
terminal control, no line past the cut, and no more from one address than
its allowance (docs/hosting.md, "The log")."""

import asyncio
import contextlib
import logging

import asyncssh
import pytest

from tui_reversi.server.edge.event_log import (
    ADDRESS_BURST,
    ADDRESS_BYTES_PER_SECOND,
    LINE_LENGTH,
)

from .conftest import Player, wait_until
from .forged import FORGED_LINE, HOSTILE_REASON, send_disconnect
from .log_reading import read_event


def assert_only_server_lines(lines: list[str]) -> list[tuple[str, dict[str, str]]]:
    """Every entry is one line the server wrote: printable ASCII, within the cut,
    in the log's format; none begins as the forged one does."""
    written = "\n".join(lines).split("\n")
    assert not [line for line in written if line.startswith(FORGED_LINE.strip()[:19])]
    for line in written:
        assert all(" " <= char <= "~" for char in line), line[:300]
        assert len(line) <= LINE_LENGTH, len(line)
    return [read_event(line) for line in written]


async def test_a_forged_disconnect_reason_is_one_escaped_cut_value(serve, caplog):
    caplog.set_level(logging.DEBUG)  # as an operator with logging switched on would have it
    arcade = await serve()
    await send_disconnect(arcade.port)
    await wait_until(lambda: arcade.log_lines, "the disconnect in the log")
    ((event, fields),) = assert_only_server_lines(arcade.log_lines)
    assert event == "disconnect"
    assert fields["why"].startswith("connection lost: " + FORGED_LINE + "\x1b]0;PWNED\x07")
    assert fields["why"].endswith(f"...({len('connection lost: ' + HOSTILE_REASON)} characters)")
    # asyncssh's own log of the reason: not there (below WARNING), or escaped.
    for record in caplog.records:
        if record.name.startswith("asyncssh"):
            assert "\n" not in record.getMessage() and "\x1b" not in record.getMessage()


async def test_fifty_forged_disconnects_from_one_address_write_at_most_its_allowance(serve):
    arcade = await serve()
    loop = asyncio.get_running_loop()
    started = loop.time()
    for _ in range(50):
        await send_disconnect(arcade.port)
    await wait_until(lambda: not arcade.connections, "the last connection to be gone")
    took = loop.time() - started
    events = assert_only_server_lines(arcade.log_lines)
    written = sum(len(line) + 1 for line in arcade.log_lines)
    notice = max(
        (len(line) + 1 for line in arcade.log_lines if "log-suppressed" in line), default=0
    )
    assert written <= ADDRESS_BURST + ADDRESS_BYTES_PER_SECOND * took + notice
    assert [event for event, _ in events].count("log-suppressed") >= 1
    # Another address's player is still logged.
    player = await Player.connect(arcade, "alice", local_addr=("127.0.0.2", 0))
    await player.facts()
    await wait_until(lambda: "user=alice" in arcade.log_lines[-1], "alice's connect")


async def test_terminal_controls_in_a_command_are_logged_escaped(serve):
    arcade = await serve()
    player = await Player.connect(
        arcade, "x", guest=True, term=None, command="keys \x1b]0;PWNED\x07\x1b[2J"
    )
    await player.finished()
    player.close()  # home at once, as OpenSSH goes, not after the server's linger
    await wait_until(lambda: any(" disconnect " in line for line in arcade.log_lines), "the log")
    events = assert_only_server_lines(arcade.log_lines)
    (why,) = [fields["why"] for event, fields in events if event == "disconnect"]
    assert why == "keys \x1b]0;PWNED\x07\x1b[2J"
    assert '"keys \\x1b]0;PWNED\\x07\\x1b[2J"' in arcade.log_lines[-1]


@pytest.mark.parametrize(
    "command",
    ["x" * 30_000, "ascii " + "w " * 15_000, "table " + "t" * 30_000],
    ids=["a 30 KB word", "30 KB of options", "a table's 30 KB term"],
)
async def test_a_long_command_is_logged_cut(serve, command):
    arcade = await serve()
    player = await Player.connect(arcade, "alice", command=command)
    await player.finished()
    player.close()  # home at once, as OpenSSH goes, not after the server's linger
    await wait_until(lambda: any(" disconnect " in line for line in arcade.log_lines), "the log")
    events = assert_only_server_lines(arcade.log_lines)
    (why,) = [fields["why"] for event, fields in events if event == "disconnect"]
    assert why.startswith(("bad game options ", "bad command ")) and why.endswith(" characters)")


async def test_a_long_user_name_is_logged_cut_everywhere(serve):
    arcade = await serve()
    name = "guest-" + "g" * 1000
    with contextlib.suppress(asyncssh.Error):  # (refused today; let in, it looks at the lobby)
        player = await Player.connect(arcade, name, guest=True, term=None, command="lobby")
        await player.finished()
        player.close()  # home at once, as OpenSSH goes, not after the server's linger
    await wait_until(lambda: any(" disconnect " in line for line in arcade.log_lines), "the log")
    for event, fields in assert_only_server_lines(arcade.log_lines):
        assert all(len(value) <= 300 for value in fields.values()), (event, fields)


async def test_a_bug_in_a_session_goes_to_the_log_a_line_an_event(serve, monkeypatch):
    from tui_reversi.server.hall.ssh_session import GameSession

    async def broken(self, options):
        raise RuntimeError("a bug\n2026-01-01 00:00:00 connect 6.6.6.6:1 user=root")

    monkeypatch.setattr(GameSession, "_run_game", broken)
    arcade = await serve()
    player = await Player.connect(arcade, "alice")
    await player.finished()
    player.close()  # home at once, as OpenSSH goes, not after the server's linger
    assert "the game could not start" in player.output.decode()
    await wait_until(lambda: any(" disconnect " in line for line in arcade.log_lines), "the log")
    events = assert_only_server_lines(arcade.log_lines)
    bug = [fields["text"] for event, fields in events if event == "bug"]
    assert bug[0] == "Traceback (most recent call last):"
    # Its message's own lines are events too: values, never the log's lines.
    assert bug[-2:] == ["RuntimeError: a bug", "2026-01-01 00:00:00 connect 6.6.6.6:1 user=root"]
