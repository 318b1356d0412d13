"""Atomic writes survive a crash; reads refuse what is not a sane regular file."""

import errno
import os
import signal
import stat
import subprocess
import sys
import time

import pytest

from tui_reversi.storage import StorageError, files
from tui_reversi.storage.files import move_aside, read_limited, write_atomic

# Dies the way a kill -9 would, after the temp file is written and fsynced
# but before it is renamed over the target.
CRASH_BEFORE_RENAME = """
import os, sys
from pathlib import Path
from tui_reversi.storage import files
os.replace = lambda source, target: os._exit(9)
files.write_atomic(Path(sys.argv[1]), b"the new content")
"""


def test_write_atomic_creates_the_directory_and_a_private_file(tmp_path):
    target = tmp_path / "a" / "b" / "game.json"
    write_atomic(target, b"hello")
    assert target.read_bytes() == b"hello"
    assert stat.S_IMODE(target.stat().st_mode) == 0o600
    write_atomic(target, b"again")
    assert target.read_bytes() == b"again"
    assert [p.name for p in target.parent.iterdir()] == ["game.json"]  # no temp left


def test_a_crash_between_write_and_rename_leaves_the_old_file_intact(tmp_path):
    target = tmp_path / "autosave.json"
    target.write_bytes(b"the old content")
    done = subprocess.run(
        [sys.executable, "-c", CRASH_BEFORE_RENAME, str(target)], capture_output=True, timeout=60
    )
    assert done.returncode == 9, done.stderr
    assert target.read_bytes() == b"the old content"
    # The new content never replaced the target; it sits in a temp file.
    temps = [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]
    assert len(temps) == 1 and temps[0].read_bytes() == b"the new content"
    assert temps[0].name.startswith(".autosave.json.")


def test_a_failed_write_keeps_the_old_file_says_why_and_leaves_no_temp(tmp_path, monkeypatch):
    target = tmp_path / "autosave.json"
    target.write_bytes(b"old")

    def disk_full(fd):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(files.os, "fsync", disk_full)
    with pytest.raises(StorageError, match="no space left on device"):
        write_atomic(target, b"new")
    assert target.read_bytes() == b"old"
    assert [p.name for p in tmp_path.iterdir()] == ["autosave.json"]


def test_an_interrupt_during_the_write_keeps_the_old_file(tmp_path, monkeypatch):
    target = tmp_path / "autosave.json"
    target.write_bytes(b"old")

    def interrupted(fd):
        raise KeyboardInterrupt

    monkeypatch.setattr(files.os, "fsync", interrupted)
    with pytest.raises(KeyboardInterrupt):
        write_atomic(target, b"new")
    assert target.read_bytes() == b"old"
    assert [p.name for p in tmp_path.iterdir()] == ["autosave.json"]


def test_a_write_into_an_unwritable_place_is_one_sentence(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    for target in (blocker / "autosave.json", blocker / "deeper" / "autosave.json"):
        with pytest.raises(StorageError, match=r"^could not write .*/file is not a directory$"):
            write_atomic(target, b"x")


def test_read_limited_reads_a_file_and_follows_a_symlink_to_one(tmp_path):
    (tmp_path / "real").write_bytes(b"content")
    (tmp_path / "link").symlink_to(tmp_path / "real")
    assert read_limited(tmp_path / "real", 100) == b"content"
    assert read_limited(tmp_path / "link", 100) == b"content"


def test_read_limited_raises_file_not_found_for_a_missing_file(tmp_path):
    with pytest.raises(FileNotFoundError):
        read_limited(tmp_path / "nothing", 100)


@pytest.mark.parametrize("kind", ["fifo", "directory", "device", "dangling"])
def test_read_limited_refuses_what_is_not_a_regular_file_without_hanging(tmp_path, kind):
    path = tmp_path / "autosave.json"
    if kind == "fifo":
        os.mkfifo(path)  # opening it for a blocking read would hang forever
    elif kind == "directory":
        path.mkdir()
    elif kind == "device":
        path.symlink_to("/dev/zero")  # endless bytes
    else:
        path.symlink_to(tmp_path / "gone")
    if kind == "dangling":
        with pytest.raises(FileNotFoundError):
            read_limited(path, 100)
        return
    with pytest.raises(StorageError, match="the autosave is not a regular file"):
        read_limited(path, 100, "the autosave")


def test_read_limited_refuses_a_huge_file_without_reading_it(tmp_path):
    path = tmp_path / "huge.json"
    with path.open("wb") as file:
        file.truncate(5 << 30)  # 5 GiB, sparse: reading it would exhaust memory
    with pytest.raises(StorageError, match=r"huge.json is too large \(5120.0 MiB\)"):
        read_limited(path, 1 << 20)


def test_move_aside_uses_a_timestamped_name_and_never_replaces_a_file(tmp_path, monkeypatch):
    monkeypatch.setattr(files, "timestamp", lambda moment=None: "20250102T030405Z")
    bad = tmp_path / "autosave.json"
    taken = tmp_path / "autosave.json.damaged-20250102T030405Z"
    taken.write_bytes(b"an earlier damaged autosave")
    bad.write_bytes(b"this one")
    moved = move_aside(bad, "damaged")
    assert moved.name == "autosave.json.damaged-20250102T030405Z-2"
    assert moved.read_bytes() == b"this one" and not bad.exists()
    assert taken.read_bytes() == b"an earlier damaged autosave"


def test_move_aside_moves_a_symlink_itself_not_its_target(tmp_path):
    target = tmp_path / "elsewhere"
    target.write_bytes(b"precious")
    link = tmp_path / "autosave.json"
    link.symlink_to(target)
    moved = move_aside(link, "damaged")
    assert moved.is_symlink() and target.read_bytes() == b"precious"


def test_timestamps_are_utc_and_sortable():
    from datetime import UTC, datetime

    assert files.timestamp(datetime(2025, 1, 2, 3, 4, 5, tzinfo=UTC)) == "20250102T030405Z"


def test_writers_killed_at_random_moments_always_leave_a_whole_file(tmp_path):
    """kill -9 a process that rewrites the file as fast as it can: every
    survivor is one of the complete versions it wrote."""
    target = tmp_path / "autosave.json"
    writer = (
        "import sys\nfrom pathlib import Path\nfrom tui_reversi.storage.files import write_atomic\n"
        "i = 0\n"
        "while True:\n"
        "    write_atomic(Path(sys.argv[1]), (str(i) * 5000).encode())\n"
        "    i = (i + 1) % 10\n"
    )
    for delay in (0.05, 0.12, 0.2, 0.31):
        process = subprocess.Popen([sys.executable, "-c", writer, str(target)])
        deadline = time.monotonic() + 30
        while not target.exists() and time.monotonic() < deadline:
            time.sleep(0.01)
        time.sleep(delay)
        process.send_signal(signal.SIGKILL)
        process.wait(timeout=30)
        data = target.read_bytes()
        assert len(data) == 5000 and len(set(data)) == 1, data[:20]
