"""GGF as NBoard, Edax and the GGS archives write it: read it, write it, round-trip it."""

import re
from dataclasses import replace
from datetime import UTC, datetime

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tui_reversi.core import Game, Move, Position, Variant
from tui_reversi.players.analysis import GameAnalysis, MoveAnalysis
from tui_reversi.storage import SavedGame, StorageError, export_ggf, parse_ggf

from .strategies import imported_records, records

START = "---------------------------O*------*O--------------------------- *"
START_ROWS = "-------- -------- -------- ---O*--- ---*O--- -------- -------- -------- *"
# The shape NBoard writes (one move, an evaluation and a time after it).
NBOARD = (
    "(;GM[Othello]PC[NBoard]DT[2019-09-25 06:42:54 GMT]PB[Andy]PW[]RE[?]TI[5:00]"
    f"TY[8]BO[8 {START}]B[D3//2.991];)"
)
# The shape of a GGS archive line: ratings, a result with a flag, moves with
# /evaluation/time suffixes, rows separated by spaces.
GGS = (
    "(;GM[Othello]PC[GGS/os]DT[2000.4.16_11:13:00.EST]PB[fangr]PW[patzer]RB[1457.12]"
    f"RW[1631.74]TI[15:00//02:00]TY[8]RE[-40.00:r]BO[8 {START_ROWS}]"
    "B[F5//4.09]W[F6/-1.50/0.01]B[E6//1.67]W[F4/0.00/0.01]B[g5]W[e7];)"
)


def test_export_writes_the_tags_nboard_needs_and_upper_case_moves():
    record = SavedGame.from_game(Game.from_transcript("f5d6c3"), "human", "hard")
    text = export_ggf(record)
    assert text.startswith("(;GM[Othello]PC[tui-reversi]DT[")
    assert re.search(r"DT\[\d{4}\.\d\d\.\d\d_\d\d:\d\d:\d\d\.UTC\]", text)
    assert "PB[Human]PW[tui-reversi hard]RE[?]TI[0]TY[8]" in text
    assert f"BO[8 {START_ROWS}]" in text
    assert text.endswith("B[F5]W[D6]B[C3];)")
    assert "\n" not in text


def test_export_of_a_finished_game_has_the_result_from_blacks_side():
    game = Game()
    while not game.is_over:
        game.play(game.position.legal_moves()[-1])
    text = export_ggf(SavedGame.from_game(game))
    margin = game.result.margin
    assert f"RE[{margin:+.2f}]" in text


def test_export_writes_passes_as_pa_with_the_passing_colour():
    game = Game.from_transcript("d3c3e6d2d1e1b2c1")  # the side to move now has no move
    assert game.played[-1] == Move.null()
    mover = "BW"[game.positions[-2].to_move]
    assert export_ggf(SavedGame.from_game(game)).endswith(f"{mover}[PA];)")


def test_the_date_round_trips_to_the_second():
    record = SavedGame.from_game(Game.from_transcript("f5d6"))
    back = parse_ggf(export_ggf(record))
    assert back.created == record.created.replace(microsecond=0)
    assert parse_ggf(NBOARD).created.second == 54


def test_reading_the_nboard_shape():
    record = parse_ggf(NBOARD)
    assert record.transcript == "d3" and record.variant is Variant.OTHELLO
    assert record.start is None and record.players == ("human", "human")
    assert record.created.year == 2019


def test_reading_a_ggs_archive_game_with_evaluations_times_and_lower_case():
    record = parse_ggf(GGS)
    assert record.transcript == "f5f6e6f4g5e7"
    assert record.created.isoformat().startswith("2000-04-16T16:13")  # 11:13 EST


def test_reading_takes_the_first_game_of_several_and_tolerates_spacing():
    text = "1 " + GGS.replace("]", "]\n  ") + "\n2 " + NBOARD
    assert parse_ggf(text).transcript == "f5f6e6f4g5e7"


def test_passes_may_be_written_pa_pass_or_left_out():
    game = Game.from_transcript("d3c3e6d2d1e1b2c1")
    export = export_ggf(SavedGame.from_game(game))
    for spelling in ("PA", "pass", "pa//0.1"):
        assert parse_ggf(export.replace("PA", spelling)).moves == game.played
    without = re.sub(r"[BW]\[PA\]", "", export)
    assert parse_ggf(without).moves == game.played


def test_anti_othello_is_ty_8a_both_ways():
    record = SavedGame.from_game(Game.from_transcript("f5d6", Variant.ANTI))
    text = export_ggf(record)
    assert "TY[8a]" in text
    assert parse_ggf(text).variant is Variant.ANTI


def test_an_empty_starting_board_is_classic_reversi():
    record = SavedGame.from_game(Game.from_transcript("d4e4d5e5", Variant.REVERSI))
    text = export_ggf(record)
    assert f"BO[8 {' '.join(['--------'] * 8)} *]" in text
    again = parse_ggf(text)
    assert again.variant is Variant.REVERSI and again.transcript == "d4e4d5e5"


def test_a_custom_start_position_round_trips():
    start = Position.from_string("-" * 27 + "OX------XO" + "-" * 27 + " O")
    record = SavedGame.from_game(Game(Variant.OTHELLO, start))
    again = parse_ggf(export_ggf(record))
    assert again.start == start and again.variant is Variant.OTHELLO


@given(records())
def test_every_game_exported_as_ggf_reimports_identically(record):
    again = parse_ggf(export_ggf(record))
    game, other = record.to_game(), again.to_game()
    assert other.start == game.start and other.moves == game.moves
    assert again.variant.fewer_discs_win == record.variant.fewer_discs_win
    assert again.players == record.players
    if record.start is None:  # a custom start may read as Othello or Reversi: same rules
        assert again.variant is record.variant


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("f5d6", r"^the text is not a GGF game: it has no '\(;'$"),
        ("(;GM[Chess]BO[8 x];)", r"^the GGF game is 'Chess', not Othello$"),
        ("(;GM[Othello]BO[8 ----", r"^the GGF game is cut short: a property has no closing ']'$"),
        ("(;GM[Othello]B[F5]", r"^the GGF game is cut short: it has no closing ';\)'$"),
        ("(;GM[Othello]B[F5] junk ;)", r"^the GGF game has unexpected text at character 20"),
        ("(;TY[10]B[F5];)", r"^the GGF game is on a 10x10 board, not 8x8$"),
        ("(;TY[chess];)", r"^the GGF game type TY\[chess\] is not one for Othello$"),
        ("(;BO[10 --];)", r"^the GGF game's board BO\[10 --...\] is not 8x8$"),
        (
            "(;BO[8 " + "Z" * 64 + " *];)",
            r"^the GGF game's board \(BO\) is wrong: square a1 has 'Z'",
        ),
        ("(;BO[8 ---];)", r"^the GGF game's board \(BO\) is wrong: a board string is 64 squares"),
        ("(;B[F5]W[Z9];)", r"^the GGF game's move 2 \(W\[Z9\]\) is not a square or PA$"),
        ("(;B[F5]W[A1];)", r"^the GGF game's move 2 \(W\[A1\]\) is illegal: it flips nothing$"),
        (
            "(;B[F5]W[PA];)",
            r"^the GGF game's move 2 \(W\[PA\]\) is illegal: White has a legal move$",
        ),
        ("(;W[F5];)", r"^the GGF game's move 1 \(W\[F5\]\) is White's, but Black is to move$"),
        ("(;B[F5]B[D6];)", r"^the GGF game's move 2 \(B\[D6\]\) is Black's, but White is to move$"),
    ],
)
def test_a_bad_ggf_game_is_one_sentence(text, message):
    with pytest.raises(StorageError, match=message) as caught:
        parse_ggf(text)
    assert "\n" not in str(caught.value)


def test_players_named_by_our_export_come_back_as_levels_and_others_as_human():
    text = "(;GM[Othello]PB[tui-reversi expert]PW[Edax 4.4]B[F5];)"
    assert parse_ggf(text).players == ("expert", "human")


def test_escaped_brackets_in_a_value_do_not_end_it():
    assert parse_ggf(r"(;PB[a \] b]B[F5];)").transcript == "f5"


def test_a_date_that_cannot_be_read_is_replaced_by_now():
    for date in ("yesterday", "2020.13.45_99:99:99", "99999999999999999999"):
        assert parse_ggf(f"(;DT[{date}]B[F5];)").created.year >= 2024
    assert parse_ggf("(;DT[945277754]B[F5];)").created.year == 1999


def test_each_moves_evaluation_is_written_in_ggf_and_read_back():
    game = Game.from_transcript("f5d6c3d3c4f4")
    analysis = GameAnalysis(
        tuple(
            MoveAnalysis(
                ply, game.positions[ply - 1].to_move, move, ply - 3.25, Move.parse("a1"), 9
            )
            for ply, move in enumerate(game.played, start=1)
            if ply != 2
        )
    )
    text = export_ggf(replace(SavedGame.from_game(game), analysis=analysis))
    assert "B[F5/-2.25]W[D6]B[C3/-0.25]" in text
    back = parse_ggf(text).analysis
    assert [(m.ply, m.side, m.move, m.played_score) for m in back.moves] == [
        (m.ply, m.side, m.move, m.played_score) for m in analysis.moves
    ]
    assert all(m.best is None and m.label is None for m in back.moves)
    nboard = parse_ggf(text.replace("/-2.25", "/x/1.0").replace("/-0.25", "//3"))
    assert [m.ply for m in nboard.analysis.moves] == [4, 5, 6]


def test_an_evaluation_that_is_not_a_disc_margin_is_left_out_and_said():
    text = GGS.replace("W[F6/-1.50/0.01]", "W[F6/71.3/0.01]")
    analysis = parse_ggf(text).analysis
    assert [(str(m.move), m.played_score) for m in analysis.moves] == [("f4", 0.0)]
    assert analysis.unread == (
        "the evaluation of the GGF game's move 2 (W[F6/71.3/0.01]) was left out: "
        "71.3 is not a disc margin (-64 to 64)"
    )
    assert parse_ggf(GGS).analysis.unread == ""


# A game as GGS archives it: the players, their ratings, the time control, the
# date in the server's zone, and moves with /evaluation/seconds.
SAIO = (
    "(;GM[Othello]PC[GGS/os]DT[2003.12.15_13:24:03.MST]PB[Saio1200]PW[Saio3000]"
    f"RB[2197.01]RW[2199.72]TI[05:00//02:00]TY[8]RE[?]BO[8 {START_ROWS}]"
    "B[d3//0.01]W[c5/-16.47/0.24]B[f6//1.5]W[f5/2.00/0.30];)"
)


def test_an_imported_game_keeps_who_played_it_their_ratings_the_clock_and_the_date():
    """It imported as "Human v Human": exported PB[Human]PW[Human], without
    ratings and time control, and the date relabelled UTC unconverted."""
    record = parse_ggf(SAIO)
    assert record.names == ("Saio1200", "Saio3000")
    assert record.ratings == ("2197.01", "2199.72")
    assert record.time_control == "05:00//02:00"
    assert record.date == "2003.12.15_13:24:03.MST"
    assert record.created == datetime(2003, 12, 15, 20, 24, 3, tzinfo=UTC)  # MST is UTC-7
    assert record.times == ("0.01", "0.24", "1.5", "0.30")
    assert [(str(m.move), m.played_score) for m in record.analysis.moves] == [
        ("c5", -16.47),
        ("f5", 2.0),
    ]
    text = export_ggf(record)
    for tag in (
        "PB[Saio1200]PW[Saio3000]",
        "RB[2197.01]RW[2199.72]",
        "TI[05:00//02:00]",
        "DT[2003.12.15_13:24:03.MST]",
        "B[D3//0.01]W[C5/-16.47/0.24]B[F6//1.5]W[F5/2.00/0.30]",
    ):
        assert tag in text, (tag, text)
    again = SavedGame.from_json(record.to_json())
    assert (again.names, again.ratings, again.time_control, again.date, again.times) == (
        record.names,
        record.ratings,
        record.time_control,
        record.date,
        record.times,
    )


def test_an_nboard_game_keeps_the_name_it_has_and_the_move_times():
    record = parse_ggf(NBOARD)
    assert record.names == ("Andy", "")
    assert (record.time_control, record.date, record.times) == (
        "5:00",
        "2019-09-25 06:42:54 GMT",
        ("2.991",),
    )
    assert "PB[Andy]PW[Human]" in export_ggf(record) and "B[D3//2.991]" in export_ggf(record)


def test_our_own_players_come_back_as_levels_not_as_names():
    game = Game.from_transcript("f5d6")
    record = parse_ggf(export_ggf(SavedGame.from_game(game, "human", "hard")))
    assert record.players == ("human", "hard") and record.names is None
    assert record.ratings is None and record.time_control is None and record.times == ()


@given(imported_records())
def test_who_played_their_ratings_the_clock_the_date_and_the_times_survive_ggf_and_json(record):
    kept = ("names", "ratings", "time_control", "date", "times")
    for back in (parse_ggf(export_ggf(record)), SavedGame.from_json(record.to_json())):
        assert [getattr(back, key) for key in kept] == [getattr(record, key) for key in kept]


def analysed(transcript: str) -> SavedGame:
    from tui_reversi.players.analysis import analyse_game
    from tui_reversi.players.base import Limit

    game = Game.from_transcript(transcript)
    analysis = GameAnalysis(tuple(analyse_game(game, Limit(depth=2))))
    return replace(SavedGame.from_game(game), analysis=analysis)


# At depth 2, a mistake (9. c2) and an inaccuracy (10. e6) among its moves
# (f5d6c3d3c4f4f6f3e6e7 had two inaccuracies with the weights before the
# deeper labels, none with the refined ones).
LABELLED = "f5d6c3d3c4f4c5b3c2e6"


def test_an_analysed_game_keeps_its_best_moves_lines_and_labels_through_ggf():
    """Exported and imported, a game lost its best moves and ?!/??
    labels: analysed again, about 33 s."""
    record = analysed(LABELLED)
    text = export_ggf(record)
    assert "ANALYSIS[1/" in text and "B[F5/" in text
    back = parse_ggf(text).analysis
    assert back == record.analysis and back.unread == ""
    assert [m.label for m in back.moves] == [m.label for m in record.analysis.moves]
    assert any(m.label for m in back.moves)
    # Read by a program that skips the property, the game is the same game.
    assert parse_ggf(re.sub(r"ANALYSIS\[[^\]]*\]", "", text)).moves == record.moves


@pytest.mark.parametrize(
    ("entry", "why"),
    [
        ("2/A1/1.00//A1", "a1 cannot be played there"),
        ("2/F6/99//F6", "99 is not a disc margin (-64 to 64)"),
        ("2/F6/x//F6", "x is not a disc margin (-64 to 64)"),
        ("2/F6/1.00/!/F6", "its exact mark is neither = nor empty"),
        ("2/F6/1.00//E6", "its line does not start with its best move"),
        ("2/Z9/1.00//", "a move in it is not a square or PA"),
        ("40/F6/1.00//", "move 40 has no evaluation to go with it"),
        ("two", "it is not ply/best/score/exact/line"),
    ],
)
def test_an_analysis_entry_that_does_not_fit_the_game_is_left_out_in_one_sentence(entry, why):
    record = analysed(LABELLED)
    text = re.sub(r" 2/[^ ]*", f" {entry}", export_ggf(record), count=1)
    back = parse_ggf(text).analysis
    assert back.unread == f"the GGF game's analysis entry {entry!r} was left out: {why}"
    assert back.at(2) == replace(record.analysis.at(2), best=None, best_score=None, pv=())
    assert back.at(3) == record.analysis.at(3)


@given(records(), st.randoms(use_true_random=False))
def test_any_analysis_of_any_game_comes_back_from_ggf_as_it_was(record, rnd):
    """Scores to the hundredth, best moves and lines legal where they start:
    what GGF keeps comes back whole, labels and all."""
    game = record.to_game()
    scored = []
    for ply, move in enumerate(game.played, start=1):
        if move.is_pass or rnd.random() < 0.3:
            continue
        position, line = game.positions[ply - 1], []
        for _ in range(rnd.randint(0, 4)):
            if position.is_game_over():
                break
            if position.must_pass:
                line.append(Move.null())
                position = position.pass_turn()
                continue
            square = rnd.choice(position.legal_moves())
            line.append(Move.of(square))
            position = position.play(square)
        best = line[0] if line else Move.of(rnd.choice(game.positions[ply - 1].legal_moves()))
        played, best_score = (round(rnd.uniform(-64, 64), 2) for _ in range(2))
        exact = rnd.random() < 0.5
        side = game.positions[ply - 1].to_move
        scored.append(MoveAnalysis(ply, side, move, played, best, best_score, exact, tuple(line)))
    analysis = GameAnalysis(tuple(scored))
    back = parse_ggf(export_ggf(replace(record, analysis=analysis))).analysis
    assert back == analysis
    assert [m.label for m in back.moves] == [m.label for m in analysis.moves]
