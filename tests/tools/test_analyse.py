"""`tui-reversi analyse FILE`: the annotated game as a table or JSON."""

import json
from dataclasses import replace

import pytest

from tui_reversi.__main__ import main
from tui_reversi.core import Game
from tui_reversi.players import analysis as analysis_module
from tui_reversi.players.analysis import GameAnalysis, analyse_game
from tui_reversi.players.base import Limit
from tui_reversi.storage import SavedGame, export_ggf

# White's last move, h7, lets Black take the h8 corner.
BLUNDERED = "d3c5f6e3c4b3f3d2c2f2e2f5e6f4c3d6g6g5h4f1e1h5h6h7"
KEYS = ["number", "side", "move", "best", "played_score", "best_score", "loss", "label", "exact"]

# `--time` is a node budget (analysis.NODES_PER_SECOND), not a clock: a small one
# gives the same verdicts on any machine, and h7's 20-odd discs stand out at any.


def analyse(capsys, *args):
    code = main(["analyse", *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_json_is_one_object_per_move_with_exactly_the_documented_keys(tmp_path, capsys):
    path = tmp_path / "game.txt"
    path.write_text(BLUNDERED)
    code, out, _ = analyse(capsys, str(path), "--time", "0.02", "--format", "json")
    assert code == 0
    moves = json.loads(out)
    assert [list(m) for m in moves] == [KEYS] * 24
    assert [m["number"] for m in moves] == list(range(1, 25))
    assert [m["side"] for m in moves[:2]] == ["black", "white"]
    # The moves read back are the game, and every figure is what it claims.
    assert Game.from_transcript("".join(m["move"] for m in moves)).transcript() == BLUNDERED
    for m in moves:
        assert m["loss"] == max(0, round(m["best_score"] - m["played_score"], 1))
        assert m["label"] in (None, "inaccuracy", "mistake", "blunder")
    assert moves[-1]["move"] == "h7" and moves[-1]["label"] in ("mistake", "blunder")


def test_json_round_trips_through_a_saved_game(tmp_path, capsys):
    game = Game.from_transcript("f5d6c3d3c4f4c5b3c2")
    analysis = GameAnalysis(tuple(analyse_game(game, Limit(depth=2))))
    path = tmp_path / "analysed.json"
    path.write_text(replace(SavedGame.from_game(game), analysis=analysis).to_json())
    code, out, _ = analyse(capsys, str(path), "--format", "json")
    assert code == 0
    assert json.loads(out) == [m.as_json(number) for number, m in enumerate(analysis.moves, 1)]


def test_a_saved_analysis_is_not_searched_again(tmp_path, capsys, monkeypatch):
    game = Game.from_transcript("f5d6c3d3c4")
    analysis = GameAnalysis(tuple(analyse_game(game, Limit(depth=1))))
    path = tmp_path / "analysed.json"
    path.write_text(replace(SavedGame.from_game(game), analysis=analysis).to_json())

    def searched(*args, **kwargs):
        raise AssertionError("searched again")

    monkeypatch.setattr(analysis_module, "analyse_move", searched)
    assert analyse(capsys, str(path))[0] == 0


def test_the_table_names_the_opening_the_blunder_and_each_players_summary(tmp_path, capsys):
    path = tmp_path / "game.ggf"
    path.write_text(export_ggf(SavedGame.from_game(Game.from_transcript("f5d6c3d3c4f4f6"))))
    code, out, _ = analyse(capsys, str(path), "--time", "0.02")
    assert code == 0
    assert "Opening: Stephenson" in out
    assert "Black: average loss" in out and "White: average loss" in out
    path.write_text(BLUNDERED)
    out = analyse(capsys, str(path), "--time", "0.02")[1]
    assert "h7" in out and ("blunder" in out or "mistake" in out)


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["/no/such/file"], "no such file"),
        (["GAME", "--time", "0"], "--time"),
        (["GAME", "--time", "nan"], "--time"),
        (["GAME", "--format", "xml"], "invalid choice"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(tmp_path, capsys, args, words):
    path = tmp_path / "game.txt"
    path.write_text("f5d6")
    try:
        code = main(["analyse", *(str(path) if a == "GAME" else a for a in args)])
    except SystemExit as stop:  # argparse's own refusals
        code = stop.code
    err = capsys.readouterr().err
    assert code == 2 and words in err and len(err.strip().splitlines()) == 1


def test_moves_are_numbered_as_the_app_s_log_numbers_them(tmp_path, capsys):
    """Numbered by ply, a pass counted, a3 was 10 here where the app's log
    says 9 (Black passes after c1)."""
    path = tmp_path / "game.txt"
    path.write_text("d3c3e6d2d1e1b2c1a3a1")
    code, out, _ = analyse(capsys, str(path), "--time", "0.02", "--format", "json")
    assert code == 0
    moves = json.loads(out)
    assert [(m["number"], m["move"]) for m in moves][-2:] == [(9, "a3"), (10, "a1")]
    code, out, _ = analyse(capsys, str(path), "--time", "0.02")
    rows = [line.split() for line in out.splitlines() if "a3" in line.split()]
    assert rows and rows[0][1] == "9", out


def test_a_stored_analysis_read_in_part_is_said_and_only_the_rest_searched(
    tmp_path, capsys, monkeypatch
):
    game = Game.from_transcript("f5d6c3d3c4")
    analysis = GameAnalysis(tuple(analyse_game(game, Limit(depth=1))))
    fields = json.loads(replace(SavedGame.from_game(game), analysis=analysis).to_json())
    fields["analysis"][3]["played"] = 71.3
    path = tmp_path / "analysed.json"
    path.write_text(json.dumps(fields))
    searched = []
    real = analysis_module.analyse_move

    def counted(position, move, ply, limit, **kwargs):
        searched.append(ply)
        return real(position, move, ply, Limit(depth=1), **kwargs)

    monkeypatch.setattr(analysis_module, "analyse_move", counted)
    code, out, err = analyse(capsys, str(path), "--format", "json")
    assert code == 0 and searched == [4]
    assert err.strip() == (
        "tui-reversi analyse: the stored analysis of move 4 (d3) was left out: "
        "its score 71.3 is not a disc margin (-64 to 64); searched again."
    )
    assert len(json.loads(out)) == 5
