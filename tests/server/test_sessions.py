"""A player's session: the game's terminal, keys, resizes, environment, options."""

import signal

import asyncssh
import pytest

from .conftest import Player, key_of, wait_until

SIGHUP_INT_QUIT = (
    (1 << (signal.SIGHUP - 1)) | (1 << (signal.SIGINT - 1)) | (1 << (signal.SIGQUIT - 1))
)


async def test_the_games_screen_arrives_on_its_own_controlling_terminal(serve):
    arcade = await serve()
    player = await Player.connect(arcade, size=(81, 25))
    facts = await player.facts()
    assert facts["size"] == "81x25"
    assert facts["ctty"] == "True", "the pty must be the child's controlling terminal"
    assert facts["leader"] == "True", "the child must lead its own session"


async def test_a_key_press_reaches_the_game_and_its_answer_comes_back(serve):
    arcade = await serve()
    player = await Player.connect(arcade)
    await player.facts()
    player.send(b"d3")
    await player.expect("KEY 6433")
    player.send(b"\x1b[A")
    await player.expect("KEY 1b5b41")


async def test_keys_typed_before_the_game_is_ready_reach_it_and_ctrl_c_is_just_a_key(serve):
    arcade = await serve()
    player = await Player.connect(arcade)
    player.send(b"\x03q")  # at once: the game has not even started
    done = await player.finished()
    assert "KEY 0371" in player.output.decode()
    assert done.exit_status == 0


async def test_a_resize_reaches_the_game_as_sigwinch_with_the_new_size(serve):
    arcade = await serve()
    player = await Player.connect(arcade)
    await player.facts()
    player.process.change_terminal_size(132, 43)
    await player.expect("SIZE 132x43")


async def test_quitting_the_game_ends_the_session_with_its_exit_status(serve):
    arcade = await serve()
    player = await Player.connect(arcade)
    await player.facts()
    player.send(b"x")  # the stand-in exits with status 3
    done = await player.finished()
    assert done.exit_status == 3
    player.close()
    await wait_until(
        lambda: any("game crashed (exit status 3)" in line for line in arcade.log_lines), "log"
    )


async def test_the_game_gets_a_fresh_environment_and_only_whitelisted_client_variables(
    serve, monkeypatch, tmp_path
):
    monkeypatch.setenv("SERVER_SECRET", "operator-only")
    arcade = await serve()
    client_env = {
        "COLORTERM": "truecolor",
        "NO_COLOR": "1",
        "LD_PRELOAD": "/tmp/evil.so",
        "PYTHONSTARTUP": "/tmp/evil.py",
        "LANG": "xx_YY.ISO-8859-1",
        "SECRET": "client-stuff",
    }
    player = await Player.connect(arcade, "carol", term="xterm-kitty", env=client_env)
    env = (await player.facts())["env"]
    assert env["COLORTERM"] == "truecolor" and env["NO_COLOR"] == "1"
    assert env["TERM"] == "xterm-kitty"
    assert env["LANG"] == "C.UTF-8"
    for name in ("LD_PRELOAD", "PYTHONSTARTUP", "SECRET", "SERVER_SECRET"):
        assert name not in env, name
    home = tmp_path / "server" / "players" / "carol"
    assert env["HOME"] == str(home)
    assert env["XDG_DATA_HOME"] == str(home / "data")
    assert env["XDG_CONFIG_HOME"] == str(home / "config")
    assert env["USER"] == "carol"
    assert env["SSH_CONNECTION"].startswith("127.0.0.1 ")


async def test_each_user_name_gets_its_own_directories(serve, tmp_path):
    arcade = await serve()
    seen = {}
    for user in ("alice", "bob", "../../etc"):
        # "../../etc" is nobody's name: without a key, a guest under a name given.
        player = await Player.connect(arcade, user, guest=not user.isalpha())
        seen[user] = (await player.facts())["env"]["XDG_DATA_HOME"]
        player.close()
    assert len(set(seen.values())) == 3
    assert "/players/guest-" in seen["../../etc"]
    players = tmp_path / "server" / "players"
    for path in seen.values():
        assert str(players) in path and ".." not in path


async def test_the_game_starts_with_default_signals_whatever_the_server_inherited(serve):
    previous = signal.signal(signal.SIGHUP, signal.SIG_IGN)  # as under nohup
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGQUIT})
    try:
        arcade = await serve()
        player = await Player.connect(arcade)
        facts = await player.facts()
    finally:
        signal.signal(signal.SIGHUP, previous)
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGQUIT})
    assert facts["ignored"] & SIGHUP_INT_QUIT == 0
    assert facts["blocked"] == 0


async def test_a_client_without_a_terminal_gets_one_line_and_status_1(serve):
    arcade = await serve()
    async with asyncssh.connect(
        "127.0.0.1",
        arcade.port,
        username="dave",
        known_hosts=None,
        agent_path=None,
        client_keys=[key_of("dave")],
    ) as conn:
        done = await conn.run(encoding=None)
    assert done.exit_status == 1
    lines = done.stderr.decode().strip().splitlines()
    assert len(lines) == 1 and "needs a terminal" in lines[0] and "ssh -t" in lines[0]
    assert arcade.places_taken == 0


async def test_game_options_after_the_host_reach_the_game(serve):
    arcade = await serve()
    player = await Player.connect(arcade, command="--ascii --black hard --variant=anti")
    facts = await player.facts()
    assert facts["args"] == ["--ascii", "--black", "hard", "--variant", "anti"]


@pytest.mark.parametrize(
    ("command", "unknown"),
    [
        ("ls -la", True),
        ("--load /etc/passwd", True),
        ("--black", False),
        ("--ascii=yes", False),
        ("--theme 'a;b'", False),
    ],
)
async def test_commands_are_never_run_and_bad_options_are_one_line_status_2(
    serve, command, unknown
):
    arcade = await serve()
    player = await Player.connect(arcade, command=command)
    done = await player.finished()
    assert done.exit_status == 2
    first, *rest = player.output.decode().splitlines()
    assert first.startswith("tui-reversi: ") and "STANDIN" not in player.output.decode()
    # A word that is neither a command nor a game option: one sentence, then help's list.
    if unknown:
        assert any(line.startswith("  help ") for line in rest)
    else:
        assert rest == []


async def test_sftp_and_port_forwarding_are_refused(serve):
    arcade = await serve()
    async with asyncssh.connect(
        "127.0.0.1",
        arcade.port,
        username="erin",
        known_hosts=None,
        agent_path=None,
        client_keys=[key_of("erin")],
    ) as conn:
        with pytest.raises(asyncssh.ChannelOpenError):
            await conn.start_sftp_client()
        with pytest.raises(asyncssh.ChannelOpenError):
            await conn.open_connection("127.0.0.1", arcade.port)
        with pytest.raises(asyncssh.ChannelListenError):
            await conn.forward_remote_port("127.0.0.1", 0, "127.0.0.1", 9)
    assert arcade.places_taken == 0
