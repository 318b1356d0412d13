"""deploy/: the systemd unit keeps its hardening and verifies; the container image
builds and serves where a container engine answers."""

import argparse
import json
import shlex
import shutil
import socket
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

from tui_reversi.tools.serve import add_arguments

DEPLOY = Path(__file__).resolve().parents[2] / "deploy"
UNIT = DEPLOY / "tui-reversi.service"
CONTAINERFILE = DEPLOY / "Containerfile"
PATIENCE = 15.0


def unit_settings(text: str) -> dict[str, list[str]]:
    """Each key of a unit file and its values in order (a key may repeat; a
    backslash at a line's end continues it), as systemd reads them."""
    settings: dict[str, list[str]] = {}
    logical, pending = [], ""
    for line in text.splitlines():
        stripped = line.strip()
        if not pending and (not stripped or stripped.startswith(("#", ";", "["))):
            continue
        if stripped.endswith("\\"):
            pending += stripped[:-1] + " "
            continue
        logical.append(pending + stripped)
        pending = ""
    for line in logical:
        key, _, value = line.partition("=")
        settings.setdefault(key.strip(), []).append(value.strip())
    return settings


def serve_flags(words: list[str]) -> argparse.Namespace:
    """`words` (what follows `tui-reversi serve`) as serve's own parser reads them."""
    parser = argparse.ArgumentParser(exit_on_error=False)
    add_arguments(parser)
    return parser.parse_args(words)


def test_the_unit_keeps_every_hardening_key():
    unit = {key: values[-1] for key, values in unit_settings(UNIT.read_text()).items()}
    assert unit["Type"] == "notify" and int(unit["WatchdogSec"]) > 0
    assert unit["NotifyAccess"] == "main"
    assert unit["DynamicUser"] == "yes" and unit["StateDirectory"] == "tui-reversi"
    assert unit["ProtectSystem"] == "strict"
    assert unit["ReadWritePaths"] == "/var/lib/tui-reversi"
    for key in ("NoNewPrivileges", "PrivateTmp", "ProtectHome", "PrivateDevices"):
        assert unit[key] == "yes", key
    assert set(unit["RestrictAddressFamilies"].split()) == {"AF_INET", "AF_INET6", "AF_UNIX"}
    assert unit["SystemCallFilter"] == "@system-service"
    assert unit["CapabilityBoundingSet"] == ""
    assert int(unit["LimitNOFILE"]) >= 4096


def test_the_unit_runs_serve_with_flags_serve_knows_and_data_where_it_may_write():
    unit = {key: values[-1] for key, values in unit_settings(UNIT.read_text()).items()}
    program, command, *words = shlex.split(unit["ExecStart"])
    assert Path(program).name == "tui-reversi" and command == "serve"
    flags = serve_flags(words)
    assert str(flags.data_dir) == unit["ReadWritePaths"]
    assert flags.port >= 1024  # no capability needed to bind it


def test_the_container_serves_with_flags_serve_knows():
    text = CONTAINERFILE.read_text()
    entrypoint = json.loads(_instruction(text, "ENTRYPOINT"))
    command = json.loads(_instruction(text, "CMD"))
    assert entrypoint == ["tui-reversi", "serve"]
    flags = serve_flags(command)
    assert flags.host == "0.0.0.0" and str(flags.data_dir) == "/data"
    assert _instruction(text, "VOLUME") == "/data"
    exposed = set(_instruction(text, "EXPOSE").split())
    assert {str(flags.port), str(flags.web_port)} <= exposed
    user = _instruction(text, "USER")
    assert user not in ("root", "0")


def _instruction(text: str, name: str) -> str:
    """The last `name` instruction's argument (continuation lines joined)."""
    joined = text.replace("\\\n", " ")
    found = [line[len(name) :].strip() for line in joined.splitlines() if line.startswith(name)]
    assert found, f"no {name} in the Containerfile"
    return found[-1]


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="no systemd-analyze here")
def test_systemd_analyze_verifies_the_unit(tmp_path):
    # verify checks that the program exists: this environment's serve stands in for /opt's.
    program = Path(sys.executable).with_name("tui-reversi")
    unit = tmp_path / UNIT.name
    unit.write_text(UNIT.read_text().replace("/opt/tui-reversi/bin/tui-reversi", str(program)))
    checked = subprocess.run(
        ["systemd-analyze", "verify", str(unit)], capture_output=True, text=True, timeout=60
    )
    assert checked.returncode == 0, checked.stderr
    assert "tui-reversi" not in checked.stderr  # no warning about our unit


def _container_engine() -> str | None:
    """A container engine that answers, or None."""
    for engine in ("docker", "podman"):
        if shutil.which(engine) is None:
            continue
        try:
            answer = subprocess.run([engine, "info"], capture_output=True, timeout=30)
        except subprocess.TimeoutExpired:
            continue
        if answer.returncode == 0:
            return engine
    return None


@pytest.fixture
def container_engine():
    engine = _container_engine()
    if engine is None:
        pytest.skip("no container engine answers here (docker info / podman info fail)")
    return engine


def test_the_container_image_builds_and_serves_ssh_as_a_user_of_its_own(container_engine):
    engine, name = container_engine, f"tui-reversi-test-{uuid.uuid4().hex[:8]}"
    root = DEPLOY.parent

    def run(*args: str, timeout: float = PATIENCE) -> str:
        done = subprocess.run([engine, *args], capture_output=True, text=True, timeout=timeout)
        assert done.returncode == 0, done.stderr
        return done.stdout.strip()

    def logs() -> str:  # the banner is on the container's stdout, the log on its stderr
        done = subprocess.run(
            [engine, "logs", name], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
        )
        return done.stdout

    run("build", "-f", str(CONTAINERFILE), "-t", name, str(root), timeout=1800)
    try:
        run("run", "-d", "--name", name, "-p", "127.0.0.1::2222", name, timeout=120)
        port = int(run("port", name, "2222/tcp").splitlines()[0].rsplit(":", 1)[1])
        deadline = time.monotonic() + 120
        while "listening on" not in (said := logs()).lower():
            assert time.monotonic() < deadline, f"the server never listened: {said}"
            time.sleep(0.5)
        with socket.create_connection(("127.0.0.1", port), timeout=PATIENCE) as ssh:
            assert ssh.recv(64).startswith(b"SSH-2.0-")
        assert run("exec", name, "id", "-u") != "0"
        run("stop", name, timeout=120)
        assert "tui-reversi serve: stopped" in logs()
    finally:
        subprocess.run([engine, "rm", "-f", name], capture_output=True, timeout=120)
        subprocess.run([engine, "rmi", "-f", name], capture_output=True, timeout=120)
