"""The command line: sub-commands print figures; bad input is one line, exit 2."""

import os
import subprocess
import sys

import pytest


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


GAME = (  # a whole game: every tool has lines to print
    "c4c5f6c3b5g7e3e6c2f3g3a5h8b3f4f2b4f5f7h3a3d2e2e1a6e7d7c1c6g8"
    "f1g4d1b6b1d3g6b7f8a7c7h6a8b2g5g2a1d6h2h5a4d8c8h7e8a2h4b8g1h1"
)


@pytest.mark.parametrize(
    "args",
    [
        ["--help"],
        ["games", "--help"],
        ["games", "list"],
        ["games", "export", "one"],
        ["games", "export", "--format", "transcript", "one"],
        ["perft", "3"],
        ["analyse", "GAME", "--time", "0.01"],
        ["analyse", "GAME", "--time", "0.01", "--format", "json"],
        ["arena", "-n", "2", "--time", "0.01", "--quiet", "easy", "easy"],
        ["engine", "easy"],
        ["nboard"],
    ],
    ids=" ".join,
)
def test_a_reader_gone_ends_every_command_quietly(tmp_path, args):
    """`tui-reversi ... | head`: the reader goes away, the command ends as a
    Unix tool does (exit 0 or 141 for SIGPIPE), with no crash report."""
    game = tmp_path / "game.txt"
    game.write_text(GAME + "\n")
    assert run_cli("games", "import", str(game), "--name", "one").returncode == 0
    args = [str(game) if arg == "GAME" else arg for arg in args]
    reader, writer = os.pipe()
    os.close(reader)  # gone before the command writes a line
    try:
        done = subprocess.run(
            [sys.executable, "-m", "tui_reversi", *args],
            stdout=writer,
            stderr=subprocess.PIPE,
            input="go\nquit\n",
            text=True,
            timeout=120,
        )
    finally:
        os.close(writer)
    assert done.returncode in (0, 141), done.stderr
    assert done.stderr == ""
    assert not list(tmp_path.rglob("crash-*"))


def test_perft_s_depth_range_is_the_one_its_help_gives():
    assert "plies to search (0-14)" in " ".join(run_cli("perft", "--help").stdout.split())
    done = run_cli("perft", "99")
    assert done.returncode == 2
    assert done.stderr == "tui-reversi: depth must be between 0 and 14, not 99\n"
