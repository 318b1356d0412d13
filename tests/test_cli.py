"""The command line: sub-commands print figures; bad input is one line, exit 2."""

import subprocess
import sys


def run_cli(*args):
    return subprocess.run(
        [sys.executable, "-m", "tui_reversi", *args], capture_output=True, text=True, timeout=120
    )


def test_perft_prints_the_count_and_a_speed():
    done = run_cli("perft", "5")
    assert done.returncode == 0
    assert "perft(5) = 1396" in done.stdout
    assert "leaves/s" in done.stdout


def test_perft_from_a_given_position():
    done = run_cli("perft", "1", "--position", "XXXXXXO-" + "X" * 56 + " O")
    assert done.returncode == 0 and "perft(1) = 1" in done.stdout


def test_a_bad_argument_is_one_line_on_stderr_and_exit_2():
    for args in (["perft", "x"], ["perft", "3", "--position", "nonsense"], ["frobnicate"]):
        done = run_cli(*args)
        assert done.returncode == 2, args
        assert len(done.stderr.strip().splitlines()) == 1, done.stderr
        assert "Traceback" not in done.stderr
