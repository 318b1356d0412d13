"""Import detects the format of a path, stdin or pasted text; export round-trips."""

import pytest
from hypothesis import assume, given

from tui_reversi.core import Game, Position, Variant
from tui_reversi.storage import (
    NameTakenError,
    SavedGame,
    StorageError,
    export_ggf,
    export_position,
    export_transcript,
    import_file,
    import_game,
    import_text,
    write_export,
)

from .strategies import played_games, records

OPENING = "f5d6c3d3c4f4f6f3e6e7"


def test_a_transcript_is_exported_canonically_with_every_move():
    game = Game.from_transcript("F5 d6 C3")
    game.undo()  # the export still has every move
    assert export_transcript(game) == "f5d6c3"
    assert export_transcript(SavedGame.from_game(game)) == "f5d6c3"


def test_the_position_export_is_the_board_string_at_the_cursor():
    game = Game.from_transcript("f5d6")
    game.undo()
    assert export_position(game) == str(Game.from_transcript("f5").position)
    assert export_position(Game()) == "-" * 27 + "OX------XO" + "-" * 27 + " X"


@given(played_games(custom_start=False))
def test_a_transcript_export_reimports_as_the_same_game(game):
    assume(game.transcript(game.length))  # an empty text is nothing to import
    again = import_text(export_transcript(game), variant=game.variant).to_game()
    assert again.moves == game.moves and again.variant is game.variant


def test_a_reversi_transcript_is_recognised_without_being_told():
    record = import_text("d4 e4 d5 e5 f3")
    assert record.variant is Variant.REVERSI and record.transcript == "d4e4d5e5f3"
    assert import_text(OPENING).variant is Variant.OTHELLO


@given(records())
def test_the_text_of_every_export_is_detected_and_reimported(record):
    game = record.to_game()
    from_ggf = import_text(export_ggf(record)).to_game()
    assert (from_ggf.start, from_ggf.moves) == (game.start, game.moves)
    from_json = import_text(record.to_json())
    assert from_json == record
    position = import_text(export_position(record)).to_game()
    assert position.start == game.position and position.length in (0, 1)  # 1: a forced pass


def test_a_board_string_becomes_a_game_starting_there():
    text = "-" * 27 + "OX------XO" + "-" * 27 + " O"
    record = import_text(text)
    assert record.start == Position.from_string(text) and record.moves == ()
    assert import_text("." * 64 + " x").variant is Variant.REVERSI
    spaced = " ".join(text[i : i + 8] for i in range(0, 64, 8)) + "\n" + text[-1]
    assert import_text(spaced).start == record.start


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", r"^there is nothing to import: the text is empty$"),
        ("   \n ", r"^there is nothing to import"),
        ("f5d6a1", r"^the transcript's move 3 \(a1\) is illegal: it flips nothing$"),
        ("f5 f5", r"^the transcript's move 2 \(f5\) is illegal: it is occupied$"),
        ("XO-" * 20, r"^the board string is wrong: a board string is 64 squares"),
        ("hello world", r"^the text is not a game: expected a transcript \(f5d6c3...\), a board"),
        ('{"format": 1}', r"^the saved game is not a tui-reversi saved game$"),
        ("(;GM[Othello]B[A1];)", r"^the GGF game's move 1 \(B\[A1\]\) is illegal"),
    ],
)
def test_bad_text_is_one_sentence(text, message):
    with pytest.raises(StorageError, match=message) as caught:
        import_text(text)
    assert "\n" not in str(caught.value)


def test_an_unknown_variant_is_one_sentence():
    with pytest.raises(StorageError, match=r"^unknown variant 'chess'"):
        import_text("f5", variant="chess")


def test_import_file_reads_every_format(tmp_path):
    record = SavedGame.from_game(Game.from_transcript(OPENING), "human", "hard")
    for name, text in [
        ("game.ggf", export_ggf(record)),
        ("game.txt", export_transcript(record) + "\n"),
        ("game.json", record.to_json()),
    ]:
        (tmp_path / name).write_text(text)
        assert import_file(tmp_path / name).transcript == OPENING
    (tmp_path / "bom.txt").write_bytes(b"\xef\xbb\xbf" + OPENING.encode())
    assert import_file(tmp_path / "bom.txt").transcript == OPENING
    # An old GGF file in Latin-1: only the player names differ.
    (tmp_path / "latin.ggf").write_bytes(
        export_ggf(record).replace("Human", "J\xe9r\xf4me").encode("latin-1")
    )
    assert import_file(tmp_path / "latin.ggf").transcript == OPENING


def test_import_file_errors_name_the_file(tmp_path):
    with pytest.raises(
        StorageError, match=r"^cannot import .*/missing.ggf: there is no such file$"
    ):
        import_file(tmp_path / "missing.ggf")
    (tmp_path / "binary").write_bytes(b"\x7fELF\x00\x00")
    with pytest.raises(StorageError, match=r"^cannot import .*/binary: it is not a text file$"):
        import_file(tmp_path / "binary")
    (tmp_path / "bad.txt").write_text("f5d6a1")
    with pytest.raises(StorageError, match=r"bad.txt: the transcript's move 3 \(a1\) is illegal"):
        import_file(tmp_path / "bad.txt")
    with pytest.raises(StorageError, match=r"^cannot import .*: it is not a regular file$"):
        import_file(tmp_path)
    with (tmp_path / "huge.txt").open("wb") as file:
        file.truncate(50 << 20)
    with pytest.raises(StorageError, match=r"huge.txt: it is too large \(50.0 MiB\)$"):
        import_file(tmp_path / "huge.txt")


def test_import_game_takes_a_path_or_the_text(tmp_path, monkeypatch):
    (tmp_path / "game.txt").write_text(OPENING)
    assert import_game(str(tmp_path / "game.txt")).transcript == OPENING
    monkeypatch.setenv("HOME", str(tmp_path))
    assert import_game("~/game.txt").transcript == OPENING
    assert import_game(OPENING).transcript == OPENING
    assert import_game(f"  {OPENING}\n").transcript == OPENING
    with pytest.raises(StorageError, match=r"^cannot import ~/nothing.ggf: there is no such file$"):
        import_game("~/nothing.ggf")
    with pytest.raises(StorageError, match=r"^cannot import saves/x: there is no such file$"):
        import_game("saves/x")


def test_write_export_never_replaces_a_file_without_being_told(tmp_path):
    path = write_export(tmp_path / "game.ggf", "(;GM[Othello];)")
    assert path == tmp_path / "game.ggf" and path.read_text() == "(;GM[Othello];)\n"
    with pytest.raises(NameTakenError, match=r"game.ggf already exists$"):
        write_export(path, "f5")
    assert path.read_text() == "(;GM[Othello];)\n"
    write_export(path, "f5", replace=True)
    assert path.read_text() == "f5\n"
    with pytest.raises(StorageError, match=r"there is no directory .*nowhere$"):
        write_export(tmp_path / "nowhere" / "game.txt", "f5")
    with pytest.raises(StorageError, match=r"it is a directory$"):
        write_export(tmp_path, "f5")


def test_a_transcript_with_a_bad_square_names_it():
    with pytest.raises(StorageError, match=r"move 7 \('z9'\)"):
        import_text("f5d6c3d3c4f4z9")
    with pytest.raises(StorageError, match="the text is not a game"):
        import_text("hello world")
