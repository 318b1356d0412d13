"""A bug anywhere under `tui-reversi` ends in a report and one sentence,
never a traceback; the exit status says it was a crash."""

from __future__ import annotations

import os
import re
import stat

import pytest

from tui_reversi.__main__ import main
from tui_reversi.crash import CRASH_STATUS, REPORT_VARIABLE, crash_sentence
from tui_reversi.storage.paths import data_dir


def test_a_bug_in_a_tool_is_one_sentence_and_a_report(monkeypatch, capsys):
    from tui_reversi.tools import perft

    def broken(args):
        raise ZeroDivisionError("a bug")

    monkeypatch.setattr(perft, "run", broken)
    assert main(["perft", "1"]) == CRASH_STATUS
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and "Traceback" not in err
    (report,) = (data_dir() / "crash-reports").iterdir()
    assert f"the crash report is in {report}." in err
    assert "ZeroDivisionError: a bug" in report.read_text()


def test_a_served_game_names_no_server_path_to_the_player(monkeypatch, tmp_path, capsys):
    named = tmp_path / "server" / "crash-reports" / "alice-1.txt"
    monkeypatch.setenv(REPORT_VARIABLE, str(named))
    from tui_reversi.tools import perft

    monkeypatch.setattr(perft, "run", lambda args: {}["missing"])
    assert main(["perft", "1"]) == CRASH_STATUS
    err = capsys.readouterr().err
    assert str(tmp_path) not in err and "the server's operator has the crash report" in err
    assert "KeyError" in named.read_text()


@pytest.mark.parametrize("saved", [True, False])
def test_the_sentence_is_one_sentence(saved, tmp_path):
    said = crash_sentence(tmp_path / "r.txt", saved=saved)
    assert said.count(". ") == 0 and said.endswith(".") and "\n" not in said


def test_a_worker_s_error_is_in_the_report():
    from textual.worker import WorkerFailed

    from tui_reversi.crash import describe

    try:
        {}["CommandList"]
    except KeyError as error:
        failed = WorkerFailed(error)
    report = describe(failed)
    assert "raised in the worker" in report and "KeyError: 'CommandList'" in report
    assert 'File "' in report.split("raised in the worker")[1]  # where, not only what


def test_sigusr1_writes_every_threads_stack_where_the_variable_says(tmp_path):
    import subprocess
    import sys

    stacks = tmp_path / "stacks.txt"
    code = (
        "import os, signal, threading, time\n"
        "from tui_reversi.crash import stacks_on_signal\n"
        "stacks_on_signal()\n"
        "def busy_elsewhere():\n"
        "    time.sleep(5)\n"
        "threading.Thread(target=busy_elsewhere, daemon=True).start()\n"
        "time.sleep(0.1)\n"
        "os.kill(os.getpid(), signal.SIGUSR1)\n"
        "time.sleep(0.1)\n"
    )
    env = {**os.environ, "TUI_REVERSI_STACKS": str(stacks)}
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, timeout=60)
    assert done.returncode == 0, done.stderr
    text = stacks.read_text()
    # One stack per thread: the main one (current) and the other.
    assert sorted(re.findall(r"^(Current thread|Thread) 0x", text, re.M)) == [
        "Current thread",
        "Thread",
    ]
    assert "busy_elsewhere" in text
    assert text.endswith("App state:\nnot running\n")  # then what the app says of itself
    env.pop("TUI_REVERSI_STACKS")
    unset = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, timeout=60)
    assert (
        unset.returncode != 0
    )  # without the variable SIGUSR1 keeps its default: it ends the process


def test_a_report_is_its_readers_alone_even_over_an_older_one(monkeypatch, tmp_path):
    from tui_reversi.crash import write_report

    named = tmp_path / "server" / "crash-reports" / "alice-1.txt"
    named.parent.mkdir(parents=True)
    named.write_text("an older report")
    named.chmod(0o644)
    monkeypatch.setenv(REPORT_VARIABLE, str(named))
    old_umask = os.umask(0o022)
    try:
        assert write_report("the report") == named
        monkeypatch.delenv(REPORT_VARIABLE)
        local = write_report("another")
    finally:
        os.umask(old_umask)
    assert named.read_text() == "the report"
    assert stat.S_IMODE(named.stat().st_mode) == 0o600
    assert local is not None and stat.S_IMODE(local.stat().st_mode) == 0o600
    assert stat.S_IMODE(local.parent.stat().st_mode) == 0o700
