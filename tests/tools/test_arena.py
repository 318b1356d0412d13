"""The arena: its statistics, its openings, and a tiny match from the CLI."""

import json
import math
import subprocess
import sys
from pathlib import Path

import pytest

from tui_reversi.core import Game, Variant
from tui_reversi.players.external import serve
from tui_reversi.players.random_player import RandomPlayer
from tui_reversi.tools.arena import (
    canonical,
    elo_from_score,
    elo_interval,
    format_elo,
    make_openings,
    score_interval,
)


def test_elo_from_score_matches_the_logistic_formula():
    assert elo_from_score(0.5) == 0
    assert elo_from_score(0.75) == pytest.approx(190.85, abs=0.01)
    assert elo_from_score(0.25) == pytest.approx(-190.85, abs=0.01)
    assert elo_from_score(0.9) == pytest.approx(381.70, abs=0.01)
    assert elo_from_score(1.0) == math.inf and elo_from_score(0.0) == -math.inf


def test_elo_is_printed_signed_and_an_even_score_is_plus_zero():
    assert [format_elo(e) for e in (-0.0, -0.4, 0.4, 190.85, -190.85)] == [
        "+0",
        "+0",
        "+0",
        "+191",
        "-191",
    ]
    assert (format_elo(math.inf), format_elo(-math.inf)) == ("+inf", "-inf")


def test_score_interval_from_the_games_own_variance():
    # 60 wins, 20 draws, 20 losses: p = 0.7; per-game variance
    # (60 * 0.3**2 + 20 * 0.2**2 + 20 * 0.7**2) / 100 = 0.16.
    low, high = score_interval(60, 20, 20)
    half = 1.959964 * math.sqrt(0.16 / 100)
    assert low == pytest.approx(0.7 - half) and high == pytest.approx(0.7 + half)
    # Draws narrow the interval compared with the same score from wins/losses.
    assert score_interval(0, 100, 0) != (0.5, 0.5)
    wide, narrow = score_interval(50, 0, 50), score_interval(25, 50, 25)
    assert wide[1] - wide[0] > narrow[1] - narrow[0]


def test_a_clean_sweep_keeps_an_honest_finite_lower_bound():
    low, high = elo_interval(100, 0, 0)
    assert high == math.inf
    assert 500 < low < 900  # 100 straight wins: at least several hundred Elo
    low, high = elo_interval(0, 0, 10)
    assert low == -math.inf and high < 0


def test_more_games_narrow_the_interval():
    small = elo_interval(15, 0, 5)
    large = elo_interval(150, 0, 50)
    assert small[0] < large[0] < elo_from_score(0.75) < large[1] < small[1]


def test_openings_are_seeded_distinct_up_to_symmetry_and_legal():
    openings = make_openings(12, 6, seed=5, variant=Variant.OTHELLO)
    assert openings == make_openings(12, 6, seed=5, variant=Variant.OTHELLO)
    assert openings != make_openings(12, 6, seed=6, variant=Variant.OTHELLO)
    keys = set()
    for transcript in openings:
        position = Game.from_transcript(transcript).position
        assert len(transcript) == 12
        keys.add(canonical(position.black, position.white, int(position.to_move)))
    assert len(keys) == 12


def run_cli(*args):
    return subprocess.run(
        [sys.executable, "-m", "tui_reversi", *args], capture_output=True, text=True, timeout=300
    )


def test_a_tiny_match_reports_results_and_writes_json_lines(tmp_path):
    out = tmp_path / "games.jsonl"
    done = run_cli("arena", "medium", "easy", "-n", "4", "-j", "2", "--json", str(out), "--quiet")
    assert done.returncode == 0, done.stderr
    assert "medium vs easy: +" in done.stdout and "Elo" in done.stdout
    games = [json.loads(line) for line in out.read_text().splitlines()]
    assert sorted(g["game"] for g in games) == [0, 1, 2, 3]
    for game in games:
        replay = Game.from_transcript(game["transcript"])
        assert replay.is_over and str(replay.result) == game["result"]
        assert game["transcript"].startswith(game["opening"])
    # Each opening is played once with each colour.
    assert games[0]["opening"] in {g["opening"] for g in games if g["black"] == "easy"}


def test_hard_with_each_evaluation_plays_a_match():
    done = run_cli("arena", "hard:trained", "hard:handmade", "-n", "2", "--time", "0.05", "--quiet")
    assert done.returncode == 0, done.stderr
    assert "hard:trained@0.05s vs hard:handmade@0.05s" in done.stdout


def test_an_outside_engine_plays_through_the_line_protocol(tmp_path):
    engine = f"cmd:{sys.executable} -m tui_reversi engine easy --seed 3"
    done = run_cli("arena", "easy", engine, "-n", "2", "--variant", "anti", "--quiet")
    assert done.returncode == 0, done.stderr
    assert "+" in done.stdout and "forfeits" not in done.stdout


def test_an_engine_that_breaks_the_protocol_forfeits(tmp_path):
    liar = tmp_path / "liar.py"
    liar.write_text(
        "import sys\n"
        "for line in sys.stdin:\n"
        "    if line.startswith('tui-reversi'): print('ok liar', flush=True)\n"
        "    elif line.startswith('go'): print('move a1', flush=True)\n"
        "    else: break\n"
    )
    done = run_cli("arena", "easy", f"cmd:{sys.executable} {liar}", "-n", "2", "--quiet")
    assert done.returncode == 0, done.stderr
    assert "B forfeits" in done.stdout and "+2 =0 -0" in done.stdout


def test_an_engine_that_forfeits_starts_afresh_for_the_next_game(tmp_path):
    # Its first process answers its first request twice, both times with an
    # illegal a1; any later process plays its first legal move. The second
    # answer must not become the next game's first move.
    stutter = tmp_path / "stutter.py"
    stutter.write_text(
        "import os, sys\n"
        "from tui_reversi.core import Position, square_name\n"
        "marker = sys.argv[1]\n"
        "twice = not os.path.exists(marker)\n"
        "open(marker, 'a').close()\n"
        "for line in sys.stdin:\n"
        "    words = line.split()\n"
        "    if words[:1] == ['tui-reversi']: print('ok stutter', flush=True)\n"
        "    elif words[:1] == ['go'] and twice:\n"
        "        twice = False\n"
        "        print('move a1', flush=True)\n"
        "        print('move a1', flush=True)\n"
        "    elif words[:1] == ['go']:\n"
        "        moves = Position.from_string(words[2] + ' ' + words[3]).legal_moves()\n"
        "        print('move', square_name(moves[0]) if moves else 'pass', flush=True)\n"
        "    else: break\n"
    )
    out = tmp_path / "games.jsonl"
    engine = f"cmd:{sys.executable} {stutter} {tmp_path / 'started'}"
    done = run_cli("arena", "easy", engine, "-n", "2", "--json", str(out), "--quiet")
    assert done.returncode == 0, done.stderr
    games = sorted(
        (json.loads(line) for line in out.read_text().splitlines()), key=lambda g: g["game"]
    )
    assert games[0]["forfeit"] == "B forfeits: a1 flips nothing"
    assert not games[1]["forfeit"]
    assert Game.from_transcript(games[1]["transcript"]).is_over


@pytest.mark.parametrize(
    "args",
    [
        ["arena", "hard", "grandmaster"],
        ["arena", "hard", "easy", "-n", "3"],
        ["arena", "hard", "easy", "--variant", "chess"],
        ["arena", "hard", "easy", "--time", "-1"],
        ["arena", "hard", "easy", "-j", "0"],
        ["arena", "hard", "cmd:"],
        ["arena", "hard:neural", "hard"],
        ["arena", "medium:trained", "hard"],
        ["arena", "hard", "cmd:/nonexistent/engine", "-n", "2", "--quiet"],
        ["engine", "grandmaster"],
    ],
)
def test_bad_arguments_are_one_line_and_exit_2(args):
    done = run_cli(*args)
    assert done.returncode == 2, (args, done.stdout, done.stderr)
    assert len(done.stderr.strip().splitlines()) == 1, done.stderr
    assert "Traceback" not in done.stderr


def _tally(*files):
    root = Path(__file__).resolve().parents[2]
    return subprocess.run(
        [sys.executable, str(root / "bench" / "arena_tally.py"), *map(str, files)],
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_runs_in_parts_add_up_over_whole_opening_pairs(tmp_path):
    parts = []
    for seed in (1, 2):
        out = tmp_path / f"part{seed}.jsonl"
        done = run_cli(
            "arena", "medium", "easy", "-n", "4", "--seed", str(seed), "--json", str(out), "--quiet"
        )
        assert done.returncode == 0, done.stderr
        parts.append(out)
    lines = parts[1].read_text().splitlines()
    parts[1].write_text("\n".join(line for line in lines if json.loads(line)["game"] != 3))
    kept = [json.loads(line) for line in parts[0].read_text().splitlines()] + [
        json.loads(line) for line in lines if json.loads(line)["game"] in (0, 1)
    ]
    wins = sum(g["score_a"] == 1 for g in kept)
    draws = sum(g["score_a"] == 0.5 for g in kept)
    done = _tally(*parts)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(
        f"medium vs easy (othello): 6 games, +{wins} ={draws} -{6 - wins - draws}, "
    )
    assert "time/move A avg" in done.stdout
    assert done.stdout.rstrip().endswith("(1 unpaired games left out)")  # game 2 lost its pair


def test_a_tally_leaves_out_an_opening_another_seed_drew_again(tmp_path):
    """Seeds 41 and 42 of the 1 s match drew two of the same openings: the
    tally refused the second part outright instead of leaving those out."""
    run = tmp_path / "run.jsonl"
    done = run_cli("arena", "medium", "easy", "-n", "6", "--json", str(run), "--quiet")
    assert done.returncode == 0, done.stderr
    lines = run.read_text().splitlines()
    games = [json.loads(line) for line in lines]
    first, second = tmp_path / "first.jsonl", tmp_path / "second.jsonl"
    first.write_text("\n".join(lines[:4]))
    second.write_text("\n".join(lines[:2] + lines[4:]))  # one opening of two is first's
    wins = sum(g["score_a"] == 1 for g in games)
    draws = sum(g["score_a"] == 0.5 for g in games)
    done = _tally(first, second)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(
        f"medium vs easy (othello): 6 games, +{wins} ={draws} -{6 - wins - draws}, "
    )
    assert done.stdout.rstrip().endswith("(2 games of openings an earlier file played left out)")


def test_a_tally_refuses_repeated_openings_and_another_match_in_one_sentence(tmp_path):
    out = tmp_path / "run.jsonl"
    assert (
        run_cli("arena", "medium", "easy", "-n", "2", "--json", str(out), "--quiet").returncode == 0
    )
    done = _tally(out, out)
    assert done.returncode == 1
    assert done.stderr == (
        f"arena_tally: {out} repeats another file's openings: give each run its own seed.\n"
    )
    other = tmp_path / "other.jsonl"
    other.write_text(out.read_text().replace('"medium"', '"hard"'))
    done = _tally(out, other)
    assert done.returncode == 1
    assert "is hard against easy in othello, not medium against easy" in done.stderr
    (tmp_path / "junk.jsonl").write_text("{not json\n")
    done = _tally(tmp_path / "junk.jsonl")
    assert (
        done.stderr
        == f"arena_tally: {tmp_path / 'junk.jsonl'} line 1 is not a game of an arena run.\n"
    )


def test_the_engine_answers_a_go_line_it_cannot_read_with_an_error_and_no_move():
    """A malformed `go` got `move pass` besides the error: a caller took it for a move."""
    board = "-" * 27 + "OX------XO" + "-" * 27
    said: list[str] = []
    requests = [
        f"go chess {board} X 100",
        f"go othello {board} X",
        f"go othello {board} X 10",
        "quit",
    ]
    serve(lambda variant: RandomPlayer(seed=1), requests, said.append)
    assert [line.split(" ")[0] for line in said] == ["error", "error", "move"], said
    assert said[0].startswith("error bad go line: ") and "chess" in said[0]
    assert said[1] == "error bad go line: go takes VARIANT BOARD SIDE MILLISECONDS"
