"""How `tui-reversi` starts: the settings, then the flags; --load FILE|-,
--resume and --new; the `games` tool; bad input is one line and exit 2.
The app itself is not run: ReversiApp.run is replaced to catch the app."""

import io
import subprocess
import sys

import pytest

from tui_reversi import session as session_module
from tui_reversi.__main__ import main
from tui_reversi.app import ReversiApp
from tui_reversi.core import Game, Variant
from tui_reversi.storage import (
    Autosave,
    SavedGame,
    SavedGames,
    Settings,
    export_ggf,
    save_settings,
    settings_path,
)

OPENING = "f5d6c3d3c4"


@pytest.fixture
def start(monkeypatch):
    """main(argv) up to the point the app would run; returns the app."""
    started = []
    monkeypatch.setattr(ReversiApp, "run", lambda app, **kwargs: started.append(app))

    def run(*argv: str) -> ReversiApp:
        assert main(list(argv)) == 0
        return started[-1]

    return run


def run_cli(*args, stdin=None):
    return subprocess.run(
        [sys.executable, "-m", "tui_reversi", *args],
        capture_output=True,
        text=True,
        timeout=60,
        input=stdin,
    )


def test_the_settings_choose_the_game_and_the_flags_override_them(start):
    save_settings(Settings(white="human", variant=Variant.ANTI, ascii=True, legal_moves=False))
    app = start()
    assert (app.match.white, app.match.variant, app.settings.ascii) == ("human", Variant.ANTI, True)
    assert not app.settings.legal_moves
    before = settings_path().read_text()
    app = start("--white", "easy", "--variant", "othello", "--theme", "reversi-light")
    assert (app.match.white, app.match.variant, app.theme) == (
        "easy",
        Variant.OTHELLO,
        "reversi-light",
    )
    assert settings_path().read_text() == before  # for this run only


def test_load_plays_on_from_a_file_with_its_players(start, tmp_path):
    path = tmp_path / "game.ggf"
    path.write_text(export_ggf(SavedGame.from_game(Game.from_transcript(OPENING), "easy", "human")))
    app = start("--load", str(path))
    assert app.match.game.transcript() == OPENING and (app.match.black, app.match.white) == (
        "easy",
        "human",
    )
    assert app.session.offer is None
    app = start("--load", str(path), "--black", "human", "--white", "easy")  # the flags win
    assert (app.match.black, app.match.white) == ("human", "easy")


def test_load_a_transcript_in_a_variant(start, tmp_path):
    (tmp_path / "game.txt").write_text("f5 f4\n")
    app = start("--load", str(tmp_path / "game.txt"), "--variant", "anti")
    assert app.match.variant is Variant.ANTI and app.match.game.transcript() == "f5f4"


def test_load_dash_reads_standard_input(start, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.StringIO(OPENING))
    given_back = []
    monkeypatch.setattr(session_module, "reattach_terminal_stdin", lambda: given_back.append(1))
    app = start("--load", "-")
    assert app.match.game.transcript() == OPENING and given_back == [1]


def test_an_unfinished_game_is_offered_or_chosen_by_flag(start):
    Autosave().save(SavedGame.from_game(Game.from_transcript(OPENING), "human", "easy"))
    offered = start()
    assert offered.session.offer is not None
    assert offered.match.game.transcript() == OPENING  # shown behind the question
    resumed = start("--resume")
    assert resumed.session.offer is None and resumed.match.game.transcript() == OPENING
    new = start("--new")
    assert new.session.offer is None and new.match.game.transcript() == ""


def test_resume_with_nothing_to_resume_says_so_in_the_app(start):
    app = start("--resume")
    assert app.session.notes == ["There is no unfinished game to resume; a new game starts."]


@pytest.mark.parametrize(
    "args, stdin, words",
    [
        (["--load", "missing.ggf"], "", "cannot import missing.ggf: there is no such file"),
        (["--load", "-"], "hello", "cannot import standard input: the text is not a game"),
        (["--load", "-"], "f5f5", "the transcript's move 2 (f5) is illegal"),
        (["--load", "~nosuch-player/g.ggf"], "", "~nosuch-player names no user on this machine"),
        (["--load", "x" * 300], "", ": file name too long"),
        (["--load", "a\nb.ggf"], "", "cannot import a\\nb.ggf: there is no such file"),
        (["games", "import", "~nosuch-player/g.ggf", "--name", "g"], "", "names no user"),
        (["games", "import", "-", "--name", "g"], "(;GM[Othello]B[\nX];)", "(B[\\nX])"),
        (["--resume", "--new"], "", "not allowed with argument"),
        (["--load", "x.ggf", "--resume"], "", "not allowed with argument"),
        (["--load"], "", "expected one argument"),
        (["games", "export", "nosuch"], "", "there is no saved game called 'nosuch'"),
        (["games", "frobnicate"], "", "invalid choice"),
    ],
)
def test_bad_flags_and_files_are_one_line_and_exit_2(args, stdin, words, monkeypatch, capsys):
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    try:
        code = main(args)
    except SystemExit as exit:  # argparse
        code = exit.code
    err = capsys.readouterr().err
    assert code == 2
    assert len(err.strip().splitlines()) == 1, err
    assert words in err and "Traceback" not in err


def test_a_bad_theme_fails_before_any_file_is_touched(capsys):
    autosave = Autosave()
    autosave.directory.mkdir(parents=True, exist_ok=True)
    autosave.path.write_bytes(b"{damaged")  # a start would move it aside
    assert main(["--theme", "nosuch"]) == 2
    assert "unknown theme 'nosuch'" in capsys.readouterr().err
    assert autosave.path.read_bytes() == b"{damaged"
    assert sorted(p.name for p in autosave.directory.iterdir()) == ["autosave.json"]


def test_help_starts_with_one_usage_for_the_game_and_one_for_the_tools():
    usage = run_cli("--help").stdout.split("\n\n")[0]
    assert "[--theme NAME]" in usage and "tui-reversi TOOL ..." in usage
    assert "perft, arena" in usage


def test_the_real_command_fails_in_one_line_too(tmp_path):
    (tmp_path / "bad.ggf").write_text("(;GM[Othello]B[A1];)")
    done = run_cli("--load", str(tmp_path / "bad.ggf"))
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr.startswith(f"tui-reversi: cannot import {tmp_path / 'bad.ggf'}: ")
    assert len(done.stderr.strip().splitlines()) == 1


def test_the_games_tool_is_a_sub_command():
    SavedGames().save(SavedGame.from_game(Game.from_transcript(OPENING)), "Sunday")
    done = run_cli("games", "export", "Sunday", "--format", "transcript")
    assert done.returncode == 0 and done.stdout.strip() == OPENING
    assert "Sunday" in run_cli("games", "list").stdout


def test_help_names_every_start_option():
    done = run_cli("--help")
    for option in ("--load FILE|-", "--resume", "--new", "games"):
        assert option in done.stdout
