"""`tui-reversi serve` from the command line, and a real OpenSSH client in tmux."""

import asyncio
import os
import re
import shlex
import signal
import subprocess
import sys
import time
from pathlib import Path

import asyncssh
import pytest

from tests.server.conftest import identity
from tests.server.log_reading import read_events

from .conftest import PATIENCE, SSH, SSH_OPTIONS, TMUX, Tmux


def run_cli(*args, env=None):
    return subprocess.run(
        [sys.executable, "-m", "tui_reversi", "serve", *args],
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
    )


@pytest.mark.parametrize(
    "args",
    [
        ["--port", "70000"],
        ["--max-sessions", "0"],
        ["--tables-per-player", "0"],
        ["--spectators-per-table", "many"],
        ["--idle-timeout", "soon"],
        ["--auth", "guest"],
        ["--password", "hunter2"],
        ["--password=hunter2"],
        ["--auth", "password"],
        ["--auth", "password", "--password-file", "/nonexistent/pw"],
        ["--password-file", "/etc/hostname"],
        ["--auth", "keys", "--authorized-keys", "/nonexistent/keys"],
        ["--games-per-process", "0"],
        ["--games-per-process", "33"],
        ["--games-per-process", "six"],
    ],
)
def test_bad_arguments_are_one_line_and_exit_2(args, tmp_path):
    env = {**os.environ, "HOME": str(tmp_path)}
    env.pop("TUI_REVERSI_SERVE_PASSWORD", None)
    done = run_cli("--data-dir", str(tmp_path), "--port", "0", *args, env=env)
    assert done.returncode == 2, done
    assert len(done.stderr.strip().splitlines()) == 1, done.stderr
    assert "Traceback" not in done.stderr
    assert "hunter2" not in done.stderr


def test_the_table_limits_reach_the_servers_configuration(tmp_path):
    from tui_reversi.__main__ import build_parser
    from tui_reversi.tools.serve import _config

    def configured(*args):
        return _config(build_parser().parse_args(["serve", "--data-dir", str(tmp_path), *args]))

    chosen = configured("--tables-per-player", "1", "--spectators-per-table", "20")
    assert (chosen.tables_per_player, chosen.spectators_per_table) == (1, 20)
    default = configured()
    assert (default.tables_per_player, default.spectators_per_table) == (3, 8)
    assert configured("--games-per-process", "6").games_per_process == 6
    assert default.games_per_process == 1


def test_a_port_in_use_is_one_line_that_says_so(server):
    running = server()
    done = run_cli("--port", str(running.port), "--data-dir", str(running.data_dir))
    assert done.returncode == 2
    assert done.stderr.strip().endswith("address already in use; choose another with --port")


def test_a_password_on_the_command_line_is_refused_with_the_way_to_do_it():
    done = run_cli("--password", "hunter2")
    assert "--password-file" in done.stderr and "TUI_REVERSI_SERVE_PASSWORD" in done.stderr


def test_the_command_line_does_not_load_the_ssh_library_until_serve_runs():
    code = (
        "import sys; from tui_reversi.__main__ import build_parser; build_parser();"
        "print('asyncssh' in sys.modules, 'tui_reversi.server' in sys.modules)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.split() == ["False", "False"]


def test_the_banner_gives_the_fingerprint_and_says_it_listens_on_loopback_only(server):
    running = server()
    assert re.search(r"host key SHA256:\S+ \(ed25519, created ", running.banner)
    assert "this machine only" in running.banner
    assert f"ssh -p {running.port} localhost" in running.banner
    status, err = running.stop()
    assert status == 0 and "stopped" in err


def test_the_banner_says_how_games_start_and_the_preloaded_parent_stops_with_the_server(
    server,
):
    preloaded = server()
    line = preloaded.process.stdout.readline()
    parent = int(re.search(r"games start forked from a preloaded parent \(pid (\d+),", line)[1])
    assert os.path.exists(f"/proc/{parent}")
    status, _ = preloaded.stop()
    assert status == 0 and not os.path.exists(f"/proc/{parent}")
    fresh = server("--no-preload")
    assert "games start as a fresh Python each" in fresh.process.stdout.readline()
    fresh.stop()


def test_listening_beyond_loopback_is_said_loudly(server):
    running = server("--host", "0.0.0.0")
    assert "LISTENING ON 0.0.0.0:" in running.banner
    assert "anyone who can reach the port can play" in running.banner
    running.stop()


def test_the_banner_says_where_the_players_hints_point(server):
    running = server("--host", "0.0.0.0")
    assert (
        f"play with: ssh -p {running.port} THIS-HOST; players' hints name the address each one "
        "reached (--public-address HOST:PORT names yours)"
    ) in running.banner
    running.stop()
    public = server("--public-address", "games.example.org:22")
    assert "play with: ssh games.example.org (the address players' hints name)" in public.banner
    public.stop()


def test_the_password_can_come_from_the_environment(server):
    running = server("--auth", "password", env={"TUI_REVERSI_SERVE_PASSWORD": "s3cret"})
    assert "s3cret" not in Path(f"/proc/{running.process.pid}/cmdline").read_text()

    async def attempt(password):
        async with asyncssh.connect(
            "127.0.0.1", running.port, username="u", password=password,
            known_hosts=None, agent_path=None, client_keys=None,
        ) as conn:  # fmt: skip
            return (await conn.run(term_type="xterm", input=b"q", encoding=None)).exit_status

    assert asyncio.run(attempt("s3cret")) == 0
    with pytest.raises(asyncssh.PermissionDenied):
        asyncio.run(attempt("guess"))


@pytest.mark.skipif(SSH is None, reason="needs the OpenSSH client")
def test_openssh_without_a_terminal_gets_one_line_and_status_1(server, tmp_path):
    running = server()
    zoe = identity("zoe", tmp_path / "keys")
    for before, after in ((["-T"], []), ([], ["ascii"])):
        done = subprocess.run(
            [SSH, *before, "-p", str(running.port), *SSH_OPTIONS, *zoe, "zoe@127.0.0.1", *after],
            capture_output=True,
            text=True,
            stdin=subprocess.DEVNULL,
            timeout=PATIENCE,
        )
        assert done.returncode == 1
        assert done.stderr.strip().endswith("needs a terminal: connect with ssh -t")


@pytest.mark.skipif(SSH is None or TMUX is None, reason="needs the OpenSSH client and tmux")
def test_a_real_ssh_session_in_tmux_plays_resizes_and_leaves_nothing_behind(server, tmp_path):
    running = server()
    tmux = Tmux(f"tui-reversi-serve-test-{os.getpid()}")
    zoe = identity("zoe", tmp_path / "keys")
    ssh = shlex.join([SSH, "-p", str(running.port), *SSH_OPTIONS, *zoe, "zoe@127.0.0.1"])
    try:
        tmux("new-session", "-d", "-s", "game", "-x", "100", "-y", "30", f"exec {ssh}")
        pid = int(tmux.wait_for(r"STANDIN pid=(\d+) size=100x30 ctty=True").group(1))
        tmux.wait_for("READY")
        tmux("send-keys", "-t", "game", "d")
        tmux.wait_for("KEY 64")
        tmux("resize-window", "-t", "game", "-x", "90", "-y", "25")
        tmux.wait_for("SIZE 90x25")
        client = int(tmux("list-panes", "-t", "game", "-F", "#{pane_pid}").split()[0])
        os.kill(client, signal.SIGKILL)  # the player's machine vanishes
        deadline = time.monotonic() + PATIENCE
        while os.path.exists(f"/proc/{pid}"):
            assert time.monotonic() < deadline, "the game outlived its player"
            time.sleep(0.05)
    finally:
        tmux.kill_server()
    status, err = running.stop()
    assert status == 0
    events = [(event, fields) for event, fields in read_events(err) if "user" in fields]
    assert [event for event, _ in events] == ["connect", "disconnect"], err
    (_, began), (_, ended) = events
    assert began["peer"].startswith("127.0.0.1:") and began["user"] == "zoe"
    assert ended["peer"] == began["peer"] and ended["user"] == "zoe" and ended["after"]
    assert ended["why"] in ("client closed", "connection dropped")
    assert (tmp_path / "server" / "players" / "zoe" / f"hup-{pid}").exists()


@pytest.mark.skipif(SSH is None, reason="needs the OpenSSH client")
def test_a_level_the_game_refuses_is_logged_as_refused_options_not_a_crash(server, tmp_path):
    running = server("--no-preload", game=None)
    alice = [*identity("alice", tmp_path / "keys"), "alice@127.0.0.1"]
    done = subprocess.run(
        [SSH, "-tt", "-p", str(running.port), *SSH_OPTIONS, *alice, "black", "hardest"],
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        timeout=PATIENCE,
    )
    assert done.returncode == 2
    assert "invalid choice: 'hardest'" in done.stdout  # the game's sentence, on the terminal
    status, err = running.stop()
    assert status == 0
    ended = [fields for event, fields in read_events(err) if event == "disconnect"]
    assert [fields["user"] for fields in ended] == ["alice"], err
    assert ended[0]["why"] == "game refused its options (exit status 2)"
    assert "crashed" not in err
