"""`tui-reversi serve --database URL`: --migrate makes the schema, and a node
refuses, in one sentence, a database whose schema it does not know."""

from __future__ import annotations

import subprocess
import sys

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
