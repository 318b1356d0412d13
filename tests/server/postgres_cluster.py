"""A real PostgreSQL for the tests: the machine's initdb and pg_ctl, a cluster in
a temporary directory (in memory, /dev/shm, where the machine has it), listening
on 127.0.0.1 at a free port (and on a socket in that directory), stopped at the
end. initdb refuses root: as root, the server runs as the `postgres` user. No
PostgreSQL found: the tests that need it are skipped, saying so (.ci/run installs it)."""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path

import psycopg


def find_bin() -> Path | None:
    """The newest PostgreSQL's bin directory with initdb, if any."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=_version)
    if found:
        return Path(found[-1]).parent
    initdb = shutil.which("initdb")
    return Path(initdb).parent if initdb else None


def _version(path: str) -> float:
    try:
        return float(Path(path).parent.parent.name)
    except ValueError:
        return 0.0


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _in_memory() -> str | None:
    """/dev/shm where there is one: a run makes a database per test (hundreds of
    megabytes), and removing them from a busy disk took tens of seconds."""
    return "/dev/shm" if os.access("/dev/shm", os.W_OK | os.X_OK) else None


class Cluster:
    """One PostgreSQL server: start(), database() for a fresh database, halt() and
    start_again() to take it away a while, stop()."""

    def __init__(self, bin_dir: Path) -> None:
        self.bin = bin_dir
        self.root = Path(tempfile.mkdtemp(prefix="tui-reversi-pg-", dir=_in_memory()))
        self.data = self.root / "data"
        self.port = _free_port()
        self._numbers = iter(range(1, 10_000))
        self._as: list[str] = []
        if os.geteuid() == 0:  # initdb refuses root
            user = pwd.getpwnam("postgres")
            os.chown(self.root, user.pw_uid, user.pw_gid)
            self._as = ["runuser", "-u", "postgres", "--"]

    def _run(self, *argv: str) -> None:
        subprocess.run([*self._as, *argv], check=True, capture_output=True, timeout=120)

    def start(self) -> None:
        self._run(
            str(self.bin / "initdb"), "-D", str(self.data), "-A", "trust", "-U", "postgres",
            "--no-sync", "-E", "UTF8",
        )  # fmt: skip
        self.start_again()

    def start_again(self) -> None:
        """Start the server (again, after halt(): the same data, the same port)."""
        options = (
            f"-h 127.0.0.1 -p {self.port} -k {self.root} -c fsync=off "
            "-c max_connections=200 -c shared_buffers=32MB"
        )
        self._run(
            str(self.bin / "pg_ctl"), "-D", str(self.data), "-l", str(self.root / "log"),
            "-o", options, "-w", "-t", "60", "start",
        )  # fmt: skip

    def halt(self) -> None:
        """Stop the server, every connection cut, its data kept (start_again())."""
        self._run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", "fast", "-w", "stop")

    def url(self, dbname: str = "postgres") -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/{dbname}"

    def database(self) -> str:
        """A new, empty database: its URL."""
        name = f"test_{next(self._numbers)}"
        with psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute(f"CREATE DATABASE {name}".encode())  # (a name made here)
        return self.url(name)

    def role_with_password(self, role: str, password: str) -> None:
        """A role that must give `password` over TCP (the cluster trusts everyone else)."""
        with psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute(f"CREATE ROLE {role} LOGIN PASSWORD '{password}'".encode())  # (ours)
        hba = self.data / "pg_hba.conf"
        hba.write_text(f"host all {role} 127.0.0.1/32 scram-sha-256\n" + hba.read_text())
        self._run(str(self.bin / "pg_ctl"), "-D", str(self.data), "reload")

    def stop(self) -> None:
        try:
            self._run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", "immediate", "stop")
        finally:
            shutil.rmtree(self.root, ignore_errors=True)
