"""The opening book: moves come back through the board's symmetries, only
near-equal moves are chosen (with the seed), and a bad book is refused in
one sentence."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from tui_reversi.core import Position, Variant
from tui_reversi.core.bitboard import canonical_image, flip_table, image_square, symmetries
from tui_reversi.engine import book as book_module
from tui_reversi.engine.book import (
    HEADER,
    NEAR_EQUAL,
    BookError,
    book_move,
    book_scores,
    read_book,
)
from tui_reversi.players import Limit, create_player


def _after(own: int, opp: int, sq: int) -> tuple[int, int]:
    f = flip_table()[sq](own, opp)
    return opp ^ f, own | f | (1 << sq)


@pytest.fixture
def tiny_book(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Position:
    """A book with one position after f5 (Black's first move): d6 and f6
    near-equal, f4 far worse. Returns that position."""
    start = Position.initial()
    own, opp = _after(start.own, start.opp, 37)  # f5
    c_own, c_opp, k = canonical_image(own, opp)

    def image(sq: int) -> int:
        return image_square(sq, k)

    d6, f6, f4 = 43, 45, 29
    line = f"{c_own:x} {c_opp:x} {image(d6)}:-300 {image(f6)}:{-300 - NEAR_EQUAL} {image(f4)}:-900"
    path = tmp_path / "book.txt"
    path.write_text(f"{HEADER}\n{line}\n")
    monkeypatch.setattr(book_module, "BOOK_PATH", path)
    monkeypatch.setattr(book_module, "_books", {})
    return start.play(37)


def test_every_symmetric_image_gets_the_image_of_a_book_move(tiny_book: Position) -> None:
    own, opp = tiny_book.own, tiny_book.opp
    for k in range(8):
        i_own, i_opp = symmetries(own)[k], symmetries(opp)[k]
        allowed = {image_square(sq, k) for sq in (43, 45)}
        seen = {book_move(i_own, i_opp, random.Random(seed)) for seed in range(30)}
        assert seen == allowed  # both near-equal moves, never f4's image


def test_the_book_s_scores_come_back_on_the_real_board_in_every_image(
    tiny_book: Position,
) -> None:
    own, opp = tiny_book.own, tiny_book.opp
    for k in range(8):
        i_own, i_opp = symmetries(own)[k], symmetries(opp)[k]
        d6, f6, f4 = (image_square(sq, k) for sq in (43, 45, 29))
        assert book_scores(i_own, i_opp) == {d6: -300, f6: -300 - NEAR_EQUAL, f4: -900}
    assert book_scores(opp, own) == {}  # the other side to move: not in the book


def test_positions_outside_the_book_are_searched(tiny_book: Position) -> None:
    start = Position.initial()
    assert book_move(start.own, start.opp, random.Random(1)) is None


def test_hard_with_the_trained_evaluation_plays_from_the_book(tiny_book: Position) -> None:
    anti = create_player("hard", variant=Variant.ANTI, evaluation="trained")
    assert anti.choose_move(tiny_book, Limit(depth=1))
    handmade = create_player("hard", seed=1, evaluation="handmade")
    assert handmade.choose_move(tiny_book, Limit(depth=1)).square in tiny_book.legal_moves()
    assert book_module._books == {}  # neither anti nor the hand-made setting opened the book
    moves = {
        create_player("hard", seed=seed, evaluation="trained").choose_move(tiny_book, Limit())
        for seed in range(12)
    }
    assert {str(move) for move in moves} == {"d6", "f6"}


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "is not an opening book of version 1"),
        ("tui-reversi book 2\n", "is not an opening book of version 1"),
        (f"{HEADER}\n10 20 x:y\n", "line 2 is not a book entry"),
        (f"{HEADER}\n10 20\n", "line 2 has no moves or a square off the board"),
        (f"{HEADER}\n10 20 64:5\n", "line 2 has no moves or a square off the board"),
    ],
)
def test_a_bad_book_is_one_sentence(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "book.txt"
    path.write_text(text)
    with pytest.raises(BookError, match=message):
        read_book(path)
    with pytest.raises(BookError, match="cannot read the opening book"):
        read_book(tmp_path / "missing.txt")


def test_a_bad_book_is_the_players_notice_and_every_move_is_searched(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "book.txt"
    path.write_text("tui-reversi book 2\n")
    monkeypatch.setattr(book_module, "BOOK_PATH", path)
    monkeypatch.setattr(book_module, "_books", {})
    monkeypatch.setattr(book_module, "_problems", {})
    hard = create_player("hard", seed=1, evaluation="trained")
    assert hard.notice is None  # nothing read yet, nothing to tell
    assert str(hard.choose_move(Position.initial(), Limit(depth=2))) in {"c4", "d3", "e6", "f5"}
    assert hard.notice == (
        f"{path} is not an opening book of version 1; hard searches its opening moves"
    )
    handmade = create_player("hard", seed=1, evaluation="handmade")
    assert handmade.notice is None  # it never uses the book


def test_the_shipped_book_starts_at_the_start_and_holds_legal_moves() -> None:
    from tui_reversi.core.bitboard import legal_moves

    entries = read_book(book_module.BOOK_PATH)
    start = Position.initial()
    assert canonical_image(start.own, start.opp)[:2] in entries
    for (own, opp), moves in entries.items():
        assert all(legal_moves(own, opp) >> sq & 1 for sq, _ in moves)


def test_hard_and_expert_play_from_the_book_by_default(
    tiny_book: Position, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("TUI_REVERSI_EVALUATION", raising=False)
    for level in ("hard", "expert"):
        player = create_player(level, seed=1)
        assert str(player.choose_move(tiny_book, Limit(depth=1))) in {"d6", "f6"}
        assert player.last_result is None  # from the book, not searched
    monkeypatch.setenv("TUI_REVERSI_EVALUATION", "handmade")  # the way back
    player = create_player("hard", seed=1)
    player.choose_move(tiny_book, Limit(depth=1))
    assert player.last_result is not None


def test_the_book_variable_names_the_book_hard_plays_from(
    tiny_book: Position, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    own, opp = tiny_book.own, tiny_book.opp
    c_own, c_opp, k = canonical_image(own, opp)
    f4 = image_square(29, k)
    other = tmp_path / "other.txt"
    other.write_text(f"{HEADER}\n{c_own:x} {c_opp:x} {f4}:0\n")
    monkeypatch.setenv(book_module.BOOK_VARIABLE, str(other))
    assert {
        str(create_player("hard", seed=s).choose_move(tiny_book, Limit(depth=1))) for s in range(8)
    } == {"f4"}
    monkeypatch.delenv(book_module.BOOK_VARIABLE)
    assert str(create_player("hard", seed=1).choose_move(tiny_book, Limit(depth=1))) in {"d6", "f6"}


def test_a_learned_entry_comes_before_the_shipped_one_and_no_file_is_no_entry(
    tiny_book: Position, tmp_path: Path
) -> None:
    own, opp = tiny_book.own, tiny_book.opp
    learned = tmp_path / "learned.txt"
    assert book_scores(own, opp, learned) == book_scores(own, opp)  # nothing learned yet
    c_own, c_opp, k = canonical_image(own, opp)
    f4 = image_square(29, k)
    book_module.keep_learned(learned, {(c_own, c_opp): [(f4, 200)]})
    assert book_scores(own, opp, learned) == {29: 200}
    assert read_book(learned) == {(c_own, c_opp): [(f4, 200)]}  # written for the next process
    assert book_move(own, opp, random.Random(1), learned) == 29


def test_the_shipped_book_is_wide_and_deep_and_its_first_replies_are_the_known_good_ones() -> None:
    entries = read_book(book_module.BOOK_PATH)
    assert len(entries) >= 1000
    start = Position.initial()
    after_f5 = start.play(37)
    scores = book_scores(after_f5.own, after_f5.opp)
    d6, f6, f4 = 43, 45, 29
    best = max(scores.values())
    # The perpendicular and diagonal openings are the even ones; the parallel (f4) is worse.
    assert scores[d6] >= best - NEAR_EQUAL and scores[f6] >= best - NEAR_EQUAL
    assert scores.get(f4, best - 2 * NEAR_EQUAL) < min(scores[d6], scores[f6])
    # The Tiger (f5 d6 c3 d3 c4) is in it, and so are lines 12 plies deep.
    tiger = start
    for square in (37, 43, 18, 19, 26):
        tiger = tiger.play(square)
    assert book_scores(tiger.own, tiger.opp)
    assert max((own | opp).bit_count() - 4 for own, opp in entries) >= 12  # plies


def test_the_builder_negamaxes_every_move_that_leads_into_the_book(tmp_path: Path) -> None:
    import subprocess
    import sys

    tool = Path(__file__).resolve().parents[2] / "tools" / "book.py"
    out = tmp_path / "book.txt"
    done = subprocess.run(
        [sys.executable, str(tool), "--positions", "60", "--depth", "2", "--out", str(out)],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    assert "60 positions searched 2 deep" in done.stdout
    entries = read_book(out)
    start = Position.initial()
    # Every position of the first two plies (all moves followed), up to symmetry.
    firsts = [start.play(37)] + [start.play(37).play(sq) for sq in (43, 45, 29)]
    assert all(canonical_image(p.own, p.opp)[:2] in entries for p in [start, *firsts])
    backed = 0
    for (own, opp), moves in entries.items():
        for sq, score in moves:
            child = canonical_image(*_after(own, opp, sq))[:2]
            if child in entries:
                assert score == -max(s for _, s in entries[child])
                backed += 1
    assert backed >= 10
