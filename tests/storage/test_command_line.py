"""The CLI's storage pieces: --load FILE|-, --resume / --new, and the terminal
given back to stdin after --load -."""

import io
import os
import pty
import subprocess
import sys

import pytest

from tui_reversi.core import Game
from tui_reversi.storage import (
    Autosave,
    SavedGame,
    StorageError,
    export_ggf,
    load_game_argument,
    plan_start,
)

from .strategies import same_game

OPENING = "f5d6c3d3c4f4f6f3e6e7"


def test_load_argument_reads_a_file(tmp_path):
    path = tmp_path / "game.ggf"
    path.write_text(export_ggf(SavedGame.from_game(Game.from_transcript(OPENING))))
    assert load_game_argument(str(path)).transcript == OPENING
    with pytest.raises(StorageError, match=r"^cannot import .*nope.ggf: there is no such file$"):
        load_game_argument(str(tmp_path / "nope.ggf"))


def test_load_argument_dash_reads_standard_input():
    stdin = io.TextIOWrapper(io.BytesIO(f"{OPENING}\n".encode()))
    record = load_game_argument("-", stdin=stdin)
    assert same_game(record.to_game(), Game.from_transcript(OPENING))
    plain = io.StringIO("(;GM[Othello]B[F5];)")  # a text stream with no .buffer
    assert load_game_argument("-", stdin=plain).transcript == "f5"


def test_load_argument_dash_errors_are_one_sentence():
    with pytest.raises(StorageError, match=r"^cannot import standard input: the transcript's"):
        load_game_argument("-", stdin=io.StringIO("f5f5"))
    with pytest.raises(StorageError, match=r"^cannot import standard input: .* too large"):
        load_game_argument("-", stdin=io.BytesIO(b"f5" * (1 << 20)))
    closed = io.StringIO("")
    closed.close()
    with pytest.raises(StorageError, match=r"^--load - reads a game from standard input, but"):
        load_game_argument("-", stdin=closed)


def test_load_argument_dash_refuses_a_terminal_instead_of_waiting():
    main, side = os.openpty()
    try:
        with (
            open(side, closefd=False) as terminal,
            pytest.raises(StorageError, match=r"but it is a terminal; pipe one in"),
        ):
            load_game_argument("-", stdin=terminal)
    finally:
        os.close(main)
        os.close(side)


def unfinished(tmp_path, transcript="f5d6"):
    autosave = Autosave(tmp_path)
    autosave.save(SavedGame.from_game(Game.from_transcript(transcript), "human", "hard"))
    return Autosave(tmp_path)


def test_with_no_flags_an_unfinished_game_is_offered(tmp_path):
    plan = plan_start(autosave=unfinished(tmp_path))
    assert plan.record is None and plan.offer.transcript == "f5d6" and plan.notes == ()
    assert plan.offer.players == ("human", "hard")


def test_with_no_flags_and_no_autosave_a_new_game_starts_quietly(tmp_path):
    plan = plan_start(autosave=Autosave(tmp_path))
    assert (plan.record, plan.offer, plan.notes, plan.used_stdin) == (None, None, (), False)


def test_resume_starts_the_autosaved_game_without_asking(tmp_path):
    plan = plan_start(resume=True, autosave=unfinished(tmp_path))
    assert plan.record.transcript == "f5d6" and plan.offer is None


def test_resume_with_nothing_to_resume_says_so_and_starts_a_new_game(tmp_path):
    plan = plan_start(resume=True, autosave=Autosave(tmp_path))
    assert plan.record is None
    assert plan.notes == ("there is no unfinished game to resume; a new game starts",)


def test_new_starts_a_new_game_and_the_unfinished_one_is_kept_when_it_is_replaced(tmp_path):
    autosave = unfinished(tmp_path)
    plan = plan_start(new=True, autosave=autosave)
    assert plan.record is None and plan.offer is None
    autosave.save(SavedGame.from_game(Game()))  # the new game's first autosave
    assert Autosave(tmp_path).load().game.transcript() == ""
    assert "f5d6" in autosave.previous_path.read_text()


def test_load_starts_that_game_and_still_reports_a_bad_autosave(tmp_path):
    (tmp_path / "autosave.json").write_bytes(b"\xff")
    (tmp_path / "game.txt").write_text(OPENING)
    plan = plan_start(load=str(tmp_path / "game.txt"), autosave=Autosave(tmp_path))
    assert plan.record.transcript == OPENING and not plan.used_stdin
    (note,) = plan.notes
    assert note.startswith("the autosave is damaged: it is not UTF-8 text; it was kept as ")


def test_load_dash_marks_stdin_as_used(tmp_path):
    plan = plan_start(load="-", autosave=Autosave(tmp_path), stdin=io.StringIO(OPENING))
    assert plan.used_stdin and plan.record.transcript == OPENING


def test_contradicting_flags_and_a_bad_file_are_one_sentence(tmp_path):
    with pytest.raises(StorageError, match=r"^choose one of --load, --resume and --new$"):
        plan_start(resume=True, new=True, autosave=Autosave(tmp_path))
    with pytest.raises(StorageError, match=r"^cannot import .*missing: there is no such file$"):
        plan_start(load=str(tmp_path / "missing"), autosave=Autosave(tmp_path))


# A child on its own pseudo-terminal whose stdin is a pipe, as after `--load -`.
REATTACH = """
import os
from tui_reversi.storage import reattach_terminal_stdin
read_end, write_end = os.pipe()
os.dup2(read_end, 0)
before = os.isatty(0)
reattach_terminal_stdin()
print(f"before={before} after={os.isatty(0)}", flush=True)
"""


def test_reattach_gives_stdin_back_to_the_terminal():
    pid, terminal = pty.fork()
    if pid == 0:  # the child: its controlling terminal is the pty
        os.execv(sys.executable, [sys.executable, "-c", REATTACH])
    output = b""
    try:
        while b"after=" not in output:
            try:
                chunk = os.read(terminal, 1024)
            except OSError:
                break
            if not chunk:
                break
            output += chunk
    finally:
        os.waitpid(pid, 0)
        os.close(terminal)
    assert b"before=False after=True" in output, output


def test_reattach_without_a_terminal_is_one_sentence():
    code = (
        "from tui_reversi.storage import reattach_terminal_stdin, StorageError\n"
        "try:\n    reattach_terminal_stdin()\n"
        "except StorageError as e:\n    print(e)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, start_new_session=True
    )
    assert done.stdout.startswith(
        "--load - read the game from standard input, and there is no terminal to play on ("
    ), done.stdout + done.stderr


def test_load_takes_the_variant_for_a_transcript(tmp_path):
    (tmp_path / "game.txt").write_text("f5f4")  # in anti-Othello too
    plan = plan_start(load=str(tmp_path / "game.txt"), autosave=Autosave(tmp_path), variant="anti")
    assert plan.record.variant.value == "anti"
