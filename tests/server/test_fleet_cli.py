"""`tui-reversi serve --database URL`: --migrate makes the schema, and a node
refuses, in one sentence, a database whose schema it does not know or that it
cannot connect to (saying why)."""

from __future__ import annotations

import socket
import subprocess
import sys

import pytest

from tui_reversi.server.ledger.migrations import NEWEST


def serve(*args: str, tmp_path) -> subprocess.CompletedProcess[str]:
    argv = [sys.executable, "-m", "tui_reversi", "serve", "--data-dir", str(tmp_path), *args]
    return subprocess.run(argv, capture_output=True, text=True, timeout=60)


def test_migrate_creates_then_finds_the_schema_up_to_date(postgres, tmp_path):
    url = postgres.database()
    first = serve("--database", url, "--migrate", tmp_path=tmp_path)
    assert first.returncode == 0, first.stderr
    assert first.stdout.strip().endswith(f"schema created at version {NEWEST}")
    again = serve("--database", url, "--migrate", tmp_path=tmp_path)
    assert again.stdout.strip().endswith(f"schema at version {NEWEST} already; nothing to do")


def test_a_node_will_not_start_on_a_database_without_the_schema(postgres, tmp_path):
    url = postgres.database()
    refused = serve("--database", url, "--port", "0", tmp_path=tmp_path)
    assert refused.returncode == 2
    name = url.rsplit("/", 1)[1]
    assert refused.stderr == (
        f"tui-reversi serve: database {name} on 127.0.0.1:{postgres.port} has no tui-reversi "
        "schema yet; create it with --migrate\n"
    )


def test_migrate_needs_a_database(tmp_path):
    refused = serve("--migrate", tmp_path=tmp_path)
    assert refused.returncode == 2
    assert refused.stderr == "tui-reversi serve: --migrate is only used with --database URL\n"


def test_a_fleet_secret_needs_a_database_and_a_private_file(postgres, tmp_path):
    secret = tmp_path / "fleet.secret"
    secret.write_text("y" * 44)
    refused = serve("--fleet-secret", str(secret), tmp_path=tmp_path)
    assert refused.stderr == "tui-reversi serve: --fleet-secret is only used with --database URL\n"
    url = postgres.database()
    assert serve("--database", url, "--migrate", tmp_path=tmp_path).returncode == 0
    secret.chmod(0o640)
    said = refusal(url, tmp_path, "--fleet-secret", str(secret))
    assert said == (
        f"tui-reversi serve: --fleet-secret: {secret} may be read by others (mode 640): "
        "chmod 600 it\n"
    )


def refusal(url: str, tmp_path, *more: str) -> str:
    """What a node says on stderr when it cannot use `url`; it must exit 2."""
    refused = serve("--database", url, "--port", "0", *more, tmp_path=tmp_path)
    assert refused.returncode == 2, refused.stderr
    assert refused.stderr.count("\n") == 1, refused.stderr  # one sentence, no psycopg noise
    return refused.stderr


@pytest.mark.parametrize("more", [(), ("--migrate",)])
def test_a_role_that_does_not_exist_is_named_at_once(postgres, tmp_path, more):
    url = f"postgresql://nobody@127.0.0.1:{postgres.port}/postgres"
    assert refusal(url, tmp_path, *more) == (
        f"tui-reversi serve: cannot connect to database postgres on 127.0.0.1:{postgres.port}: "
        "there is no role nobody (create it: createuser nobody)\n"
    )


def test_a_database_that_does_not_exist_is_named(postgres, tmp_path):
    url = f"postgresql://postgres@127.0.0.1:{postgres.port}/reversi_nowhere"
    assert refusal(url, tmp_path) == (
        f"tui-reversi serve: cannot connect to database reversi_nowhere on 127.0.0.1:"
        f"{postgres.port}: there is no database reversi_nowhere (create it: createdb "
        "reversi_nowhere)\n"
    )


def test_a_wrong_password_is_said_without_the_password(postgres, tmp_path, monkeypatch):
    postgres.role_with_password("keeper", "right-one")
    monkeypatch.setenv("PGPASSWORD", "wrong-one")
    said = refusal(f"postgresql://keeper@127.0.0.1:{postgres.port}/postgres", tmp_path)
    assert said.endswith(
        ": the password for role keeper is wrong (it comes from ~/.pgpass or PGPASSWORD)\n"
    )
    assert "wrong-one" not in said
    monkeypatch.delenv("PGPASSWORD")
    monkeypatch.setenv("PGPASSFILE", str(tmp_path / "no-pgpass"))
    said = refusal(f"postgresql://keeper@127.0.0.1:{postgres.port}/postgres", tmp_path)
    assert said.endswith(": role keeper needs a password: put it in ~/.pgpass or PGPASSWORD\n")


def test_a_refused_port_and_a_silent_one_are_told_apart(tmp_path):
    with socket.socket() as closed:
        closed.bind(("127.0.0.1", 0))
        port = closed.getsockname()[1]  # (nothing listens there once closed)
    assert refusal(f"postgresql://postgres@127.0.0.1:{port}/reversi", tmp_path) == (
        f"tui-reversi serve: cannot connect to database reversi on 127.0.0.1:{port}: "
        "the connection was refused (is PostgreSQL listening there?)\n"
    )
    with socket.socket() as silent:  # accepts, then never answers
        silent.bind(("127.0.0.1", 0))
        silent.listen()
        port = silent.getsockname()[1]
        url = f"postgresql://postgres@127.0.0.1:{port}/reversi?connect_timeout=1"
        assert refusal(url, tmp_path).endswith(": no answer within the connect timeout (1 s)\n")
