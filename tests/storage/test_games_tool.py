"""`tui-reversi games`: list, export and import saved games from the shell.

The sub-command is registered in __main__.TOOLS in the app integration; until
then it is driven through its own parser, as __main__ would drive it."""

import argparse
import io
import re

import pytest

from tui_reversi.core import Game
from tui_reversi.storage import Autosave, SavedGame, SavedGames, StorageError
from tui_reversi.tools import games as tool

OPENING = "f5d6c3d3c4f4f6f3e6e7"


def run(*argv):
    parser = argparse.ArgumentParser(prog="tui-reversi games")
    tool.add_arguments(parser)
    return tool.run(parser.parse_args(argv))


def test_import_then_list_then_export_in_every_format(tmp_path, capsys):
    (tmp_path / "opening.txt").write_text(OPENING)
    assert run("import", str(tmp_path / "opening.txt"), "--name", "Opening") == 0
    assert "saved 'Opening' (10 moves) as " in capsys.readouterr().out
    run("list")
    heading, line = capsys.readouterr().out.splitlines()
    assert heading.split() == ["Name", "Saved", "Players", "Moves", "Result"]
    assert line.startswith("Opening") and "Human v Human" in line
    assert line.split()[-4:] == ["10", "Black", "to", "move"]
    run("export", "opening")
    ggf = capsys.readouterr().out
    assert ggf.startswith("(;GM[Othello]") and ggf.rstrip().endswith("W[E7];)")
    run("export", "Opening", "--format", "transcript")
    assert capsys.readouterr().out == OPENING + "\n"
    run("export", "Opening", "--format", "board")
    assert capsys.readouterr().out == str(Game.from_transcript(OPENING).position) + "\n"
    run("export", "Opening", "--format", "json")
    assert SavedGame.from_json(capsys.readouterr().out).transcript == OPENING


def test_import_from_standard_input_and_replace(monkeypatch, capsys):
    monkeypatch.setattr("sys.stdin", io.StringIO("(;GM[Othello]B[F5];)"))
    run("import", "-", "--name", "x")
    monkeypatch.setattr("sys.stdin", io.StringIO("f5d6"))
    with pytest.raises(StorageError, match=r"^a saved game called 'x' already exists$"):
        run("import", "-", "--name", "x")
    monkeypatch.setattr("sys.stdin", io.StringIO("f5d6"))
    run("import", "-", "--name", "x", "--replace")
    assert SavedGames().load("x").transcript == "f5d6"


def test_export_the_autosave(capsys):
    Autosave().save(SavedGame.from_game(Game.from_transcript("f5d6"), "human", "hard"))
    run("export", "--autosave", "--format", "transcript")
    assert capsys.readouterr().out == "f5d6\n"


def test_list_shows_an_unreadable_game_and_an_empty_list_says_so(isolated_home, capsys):
    run("list")
    assert capsys.readouterr().err.startswith("no saved games in ")
    SavedGames().directory.mkdir(parents=True)
    (SavedGames().directory / "broken.json").write_text("{")
    run("list")
    assert "broken.json is damaged" in capsys.readouterr().out


@pytest.mark.parametrize("columns", [80, 60])
def test_list_fits_the_terminal_a_game_a_line_long_names_cut(monkeypatch, capsys, columns):
    long_name = "A very long name for a game played on a Sunday afternoon at the club"
    odd_name = "[b]Bold[/b] [A1]"
    for name in (long_name, odd_name):
        SavedGames().save(SavedGame.from_game(Game.from_transcript(OPENING)), name)
    monkeypatch.setenv("COLUMNS", str(columns))
    run("list")
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert max(len(line) for line in lines) <= columns, out
    assert len(lines) == 3, out  # the heading, then one line a game: nothing folded
    assert lines[0].split() == ["Name", "Saved", "Players", "Moves", "Result"]
    assert "[b]Bold[/b]" in out  # as written, not markup
    (long_line,) = (line for line in lines if line.startswith("A very long"))
    assert "…" in long_line and "2026" not in long_line[: long_line.index("…")]
    assert all(re.search(r"\d{4}-\d\d-\d\d \d\d:\d\d  ", line) for line in lines[1:]), out
    if columns == 80:  # room for the players and the result whole
        assert all("Human v Human" in line and "Black to move" in line for line in lines[1:])


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (("export", "nothing"), r"^there is no saved game called 'nothing'$"),
        (("export",), r"^export needs a saved game.s name \(games list .*\), or --autosave for"),
        (("export", "x", "--autosave"), r"not both$"),
        (("export", "--autosave"), r"^there is no autosaved game$"),
        (("import", "/nonexistent/game.ggf", "--name", "x"), r"there is no such file$"),
        (("import", "-", "--name", "///"), r"needs a letter or a digit$"),
    ],
)
def test_bad_requests_are_one_sentence(argv, message, monkeypatch):
    monkeypatch.setattr("sys.stdin", io.StringIO("f5"))
    with pytest.raises(StorageError, match=message):
        run(*argv)


def test_an_imported_game_is_listed_and_exported_with_its_players(tmp_path, capsys):
    path = tmp_path / "saio.ggf"
    path.write_text(
        "(;GM[Othello]PC[GGS/os]DT[2003.12.15_13:24:03.MST]PB[Saio1200]PW[Saio3000]"
        "RB[2197.01]RW[2199.72]TI[05:00//02:00]TY[8]RE[?]B[d3//0.01]W[c5/-16.47/0.24];)"
    )
    assert run("import", str(path), "--name", "saio") == 0
    capsys.readouterr()
    assert run("list") == 0
    assert "Saio1200 v Saio3000" in capsys.readouterr().out
    assert run("export", "saio") == 0
    out = capsys.readouterr().out
    assert "PB[Saio1200]PW[Saio3000]RB[2197.01]RW[2199.72]" in out and "TI[05:00//02:00]" in out
    assert "DT[2003.12.15_13:24:03.MST]" in out and "B[D3//0.01]W[C5/-16.47/0.24]" in out
