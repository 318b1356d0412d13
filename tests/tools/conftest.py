"""`tui-reversi serve` in a subprocess, and a private tmux to run OpenSSH in."""

import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.server.conftest import STANDIN_COMMAND

SSH = shutil.which("ssh")
TMUX = shutil.which("tmux")
SSH_OPTIONS = [
    "-o", "StrictHostKeyChecking=no",
    "-o", "UserKnownHostsFile=/dev/null",
    "-o", "LogLevel=ERROR",
    "-o", "BatchMode=yes",
]  # fmt: skip
PATIENCE = 15.0


class ServerProcess:
    """`tui-reversi serve` in a subprocess, running the stand-in game or (`game=None`) the app."""

    def __init__(self, tmp_path: Path, *args: str, env: dict | None = None, game=STANDIN_COMMAND):
        command = ["--game-command", shlex.join(game)] if game else []
        self.data_dir = tmp_path / "server"
        self.process = subprocess.Popen(
            [
                *(sys.executable, "-m", "tui_reversi", "serve", "--port", "0"),
                *("--data-dir", str(tmp_path / "server"), *command, *args),
            ],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env={**os.environ, "HOME": str(tmp_path), **(env or {})},
        )
        self.banner = ""
        while "play with" not in self.banner:
            line = self.process.stdout.readline()
            if not line:
                pytest.fail(f"the server did not start: {self.process.stderr.read()}")
            self.banner += line
        self.port = int(re.search(r"listening on \S+:(\d+)", self.banner, re.I).group(1))

    def stop(self) -> tuple[int, str]:
        self.process.send_signal(signal.SIGTERM)
        _, err = self.process.communicate(timeout=PATIENCE)
        return self.process.returncode, err


@pytest.fixture
def server(tmp_path):
    servers = []

    def start(*args, env=None, game=STANDIN_COMMAND):
        servers.append(ServerProcess(tmp_path, *args, env=env, game=game))
        return servers[-1]

    yield start
    for running in servers:
        if running.process.poll() is None:
            running.process.kill()
            running.process.communicate()


class Tmux:
    """A private tmux server (its own socket) so nothing touches anyone else's sessions."""

    def __init__(self, name: str):
        self.base = [TMUX, "-L", name]

    def __call__(self, *args: str) -> str:
        return subprocess.run(
            [*self.base, *args], capture_output=True, text=True, check=True, timeout=PATIENCE
        ).stdout

    def wait_for(self, pattern: str) -> re.Match:
        deadline = time.monotonic() + PATIENCE
        while True:
            screen = self("capture-pane", "-p", "-J", "-t", "game")
            found = re.search(pattern, screen)
            if found:
                return found
            if time.monotonic() > deadline:
                pytest.fail(f"{pattern!r} never showed; the screen:\n{screen}")
            time.sleep(0.05)

    def wait_until_gone(self) -> None:
        """Wait for the `game` session to end (its only process has exited)."""
        deadline = time.monotonic() + PATIENCE
        while (
            subprocess.run(
                [*self.base, "has-session", "-t", "game"], capture_output=True
            ).returncode
            == 0
        ):
            assert time.monotonic() < deadline, "the tmux session outlived its process"
            time.sleep(0.05)

    def kill_server(self) -> None:
        subprocess.run([*self.base, "kill-server"], capture_output=True, timeout=PATIENCE)
