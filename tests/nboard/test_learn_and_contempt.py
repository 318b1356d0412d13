"""NBoard's `learn` and `set contempt`, from protocol transcripts: learning a
game puts its line in a learned book the engine plays from afterwards, and
the contempt changes which solved move the engine chooses."""

from pathlib import Path

import pytest

from tui_reversi.core import Game, ReversiError, Variant
from tui_reversi.engine.book import book_scores
from tui_reversi.engine.evaluation import SCALE
from tui_reversi.players.alphabeta_player import EXPERT_SELECTIVITY, engine_for
from tui_reversi.players.learned_book import LEARNED_NAME, SOLVED_EMPTIES, learn_game
from tui_reversi.storage.paths import data_dir

from .test_protocol import SEARCH, Transcript, answer, ggf

# Random moves (seed 7), 30 plies: after 14 of them, out of the shipped book.
ODD_GAME = "f5f4f3f6d3f2g6c3b3b2g4g3b1d2c4c5f1g2g1g5c6a1h6a2b5c7f7d6c2h5"
# White to move with 10 empties: h6 wins by 2, e8 draws, the rest lose.
WIN_OR_DRAW = (
    "f5f4g3d6c3g4d3f3h4h5c5b4a5a3h3g5c7c2g6e7b6c4f2e6a4h2e2g7b1g2b2d1f6e3c6f7a2b3d2g1"
    "b5b8c8a1g8f8a8a6h1e1"
)
# Black to move: a8 draws, e1, g1 and e2 lose by 2.
DRAW_OR_LOSS = (
    "f5f6e6f4g3c6c4d3g4b5f3c3b3g5h6g2f2h5d6c5d2d7b6c7c8h2b2a6f7g7f8h4a5g8h1e3d8f1h8a1"
    "b1g6h3a2e7e8h7b7b4b8"
)


def test_a_learned_game_is_played_from_the_learned_book_afterwards():
    opening = ODD_GAME[:28]  # 14 plies
    nboard = Transcript("nboard 2", "set depth 4", f"set game {ggf(opening)}")
    before = nboard.send("hint 3")
    assert not any(line.startswith("book") for line in before), before  # searched
    assert nboard.send(f"set game {ggf(ODD_GAME)}", "learn") == ["learned"]
    assert (data_dir() / LEARNED_NAME).is_file()
    # The game's next move (15. c4) is in the engine's book now, with the line's value.
    nboard.send(f"set game {ggf(opening)}")
    after = nboard.send("hint 20")
    booked = {line.split()[1]: float(line.split()[2]) for line in after if line.startswith("book")}
    assert "C4" in booked, after
    # A new session (NBoard started again) plays it at once, from the book.
    again = Transcript("nboard 2", "set depth 4", f"set game {ggf(opening)}")
    said = again.send("go")
    assert not any(line.startswith(("search", "nodestats")) for line in said), said
    found = answer(said)
    assert found[1] in booked and float(found[2]) == max(booked.values())
    assert not nboard.complaints and not again.complaints


def test_the_played_move_takes_the_value_of_the_line_from_the_solved_end(tmp_path: Path):
    game = Game.from_transcript(ODD_GAME)
    while game.position.empty_count > SOLVED_EMPTIES - 1 and not game.is_over:
        game.play(sorted(game.position.legal_moves())[0])
    path = tmp_path / "learned.txt"
    assert learn_game(game, path, depth=2) >= 40
    cut = next(p for p in game.positions if p.empty_count <= SOLVED_EMPTIES)
    ply = game.positions.index(cut) - 1
    engine = engine_for(game.variant, "trained", EXPERT_SELECTIVITY)
    exact = engine.search(cut.own, cut.opp, exact_empties=SOLVED_EMPTIES)
    assert exact.exact
    before = game.positions[ply]
    learned = book_scores(before.own, before.opp, path)
    assert learned[game.move_at(ply).square] == -(exact.score // SCALE) * SCALE


def test_a_game_that_cannot_be_learned_is_one_sentence_and_nothing_is_written(tmp_path: Path):
    path = tmp_path / "learned.txt"
    with pytest.raises(ReversiError, match=r"^only games of Othello from the standard start"):
        learn_game(Game.from_transcript("f5f4e3", Variant.ANTI), path)
    assert not path.exists()


def played(transcript: str, contempt: int) -> tuple[str, str]:
    nboard = Transcript("nboard 2", "set depth 60", f"set game {ggf(transcript)}")
    assert nboard.send(f"set contempt {contempt}") == []
    found = answer(nboard.send("go"))
    assert not nboard.complaints
    return found[1], found[2]


def test_a_negative_contempt_takes_a_draw_over_a_small_win():
    assert played(WIN_OR_DRAW, 0) == ("H6", "2.00")
    assert played(WIN_OR_DRAW, -100) == ("H6", "2.00")  # a draw worth 1 disc: still the win
    assert played(WIN_OR_DRAW, -300) == ("E8", "0.00")  # worth 3: the draw


def test_a_positive_contempt_risks_a_small_loss_rather_than_draw():
    assert played(DRAW_OR_LOSS, 0) == ("A8", "0.00")
    move, value = played(DRAW_OR_LOSS, 300)
    assert move in {"E1", "G1", "E2"} and value == "-2.00"


def test_the_search_lines_are_unchanged_by_contempt():
    nboard = Transcript("nboard 2", "set depth 60", "set contempt -300")
    nboard.send(f"set game {ggf(WIN_OR_DRAW)}")
    said = nboard.send("hint 1")
    assert [found[1] for line in said if (found := SEARCH.match(line))][-1] == "H6"
