"""Mutation fuzz of every reader of player text and files.

Each reader gets thousands of inputs made from real games in every format
(a transcript, a board string, a GGF game, a saved game's JSON on many lines
and on one) with characters inserted, deleted, replaced and repeated, or cut
short. Every input must either load as a legal game or raise StorageError
with a one-line message, and a file read is never changed, moved without
its bytes, or lost. Seeded, so a failure names the input that caused it;
FUZZ_INPUTS scales the count (CI uses the default).
"""

from __future__ import annotations

import io
import json
import os
import random
from collections.abc import Callable, Iterator

import pytest

from tui_reversi.core import Game, Position, Variant
from tui_reversi.storage import (
    Autosave,
    SavedGame,
    SavedGames,
    StorageError,
    export_ggf,
    export_position,
    export_transcript,
    import_file,
    import_game,
    load_game_argument,
    load_settings,
)
from tui_reversi.storage.autosave import CLAIM_NAME
from tui_reversi.storage.paths import FILES_ROOT_VARIABLE
from tui_reversi.storage.settings import Settings, settings_to_toml

INPUTS = int(os.environ.get("FUZZ_INPUTS", "2000"))  # per reader

# What the formats are made of, and what damages them: separators, brackets,
# quotes, path characters, control characters, non-ASCII and markup.
TEXT_POOL = [
    *"abcdefghABCDEFGH12345678900xXoO*-.pasPAS;()[]{}\"',:=#/\\~ \t\n\r",
    *["\0", "\x1b", "\x7f", "\u00e9", "\u2603", "\U0001f600", "\ufeff"],
    *["[/b]", "[b]", "(;", ";)"],
]
BYTE_POOL = [ch.encode() for ch in TEXT_POOL] + [b"\xff", b"\xc3", b"\xe9", b"\x80\x80"]


def mutate(rnd: random.Random, original: list, pool: list) -> list:
    """`original` (characters or bytes) with one to four edits: pieces of
    `pool` inserted, a run deleted, one replaced, a run repeated, or the
    rest cut off."""
    items = list(original)
    for _ in range(rnd.randint(1, 4)):
        at = rnd.randint(0, len(items))
        edit = rnd.choice("idrpc")
        if edit == "i":
            items[at:at] = [rnd.choice(pool) for _ in range(rnd.randint(1, 6))]
        elif edit == "d":
            del items[at : at + rnd.randint(1, 12)]
        elif edit == "r" and items:
            items[min(at, len(items) - 1)] = rnd.choice(pool)
        elif edit == "p":
            items[at:at] = items[at : at + rnd.randint(1, 24)] * rnd.randint(2, 40)
        elif edit == "c":
            del items[at:]
    return items


def mutated_text(rnd: random.Random, original: str) -> str:
    return "".join(mutate(rnd, list(original), TEXT_POOL))


def mutated_bytes(rnd: random.Random, original: bytes) -> bytes:
    pool = BYTE_POOL + [bytes([value]) for value in range(256)]
    return b"".join(mutate(rnd, [bytes([value]) for value in original], pool))


def _records() -> list[SavedGame]:
    """Real games: every variant, short and long, finished, with passes, from
    a custom start, with the cursor moved back, between every kind of player."""
    rnd = random.Random(19)
    records = []
    for number in range(24):
        variant = list(Variant)[number % 3]
        start = None
        if number % 4 == 3:
            lead_in = Game(variant)
            for _ in range(rnd.randint(4, 20)):
                lead_in.play(rnd.choice(lead_in.position.legal_moves()))
            start = lead_in.position
        game = Game(variant, start)
        for _ in range(rnd.randint(0, 70)):
            if game.is_over:
                break
            game.play(rnd.choice(game.position.legal_moves()))
        if number % 5 == 4 and game.length:
            game.go_to(rnd.randint(0, game.length))
        players = ("human", "easy", "medium", "hard", "expert")
        name = rnd.choice([None, "Sunday", "x[/b]y", "caf\u00e9 \u2603"])
        records.append(
            SavedGame.from_game(game, rnd.choice(players), rnd.choice(players), name=name)
        )
    return records


RECORDS = _records()
EXPORTS: dict[str, Callable[[SavedGame], str]] = {
    "transcript": export_transcript,
    "board": export_position,
    "ggf": export_ggf,
    "json": SavedGame.to_json,
    "json on one line": lambda record: json.dumps(json.loads(record.to_json())),
}


def originals(rnd: random.Random, formats: list[str] | None = None) -> str:
    """A real game, exported in one of `formats` (default: any)."""
    chosen = rnd.choice(formats or list(EXPORTS))
    return EXPORTS[chosen](rnd.choice(RECORDS))


def one_line(message: str) -> bool:
    return bool(message) and "\n" not in message and "\r" not in message


def assert_legal(game: Game) -> None:
    """Every move in `game` is legal where it was played, passes only when
    the side to move had none, and the cursor is inside the game."""
    for ply, move in enumerate(game.played):
        before, after = game.positions[ply], game.positions[ply + 1]
        if move.is_pass:
            assert after == before.pass_turn()  # raises unless forced
        else:
            assert move.square in before.legal_moves() and after == before.play(move.square)
    assert 0 <= game.ply <= game.length


def loads_or_says_why(load: Callable[[], SavedGame], shown: object) -> None:
    """`load()` gives a legal game or a one-line StorageError, nothing else."""
    try:
        record = load()
    except StorageError as error:
        assert one_line(str(error)), (shown, str(error))
        return
    except Exception as error:  # pragma: no cover - the failure this test exists for
        pytest.fail(f"{type(error).__name__}: {error} for {shown!r}")
    assert_legal(record.to_game())


def seeded(count: int, seed: int) -> Iterator[random.Random]:
    rnd = random.Random(seed)
    for _ in range(count):
        yield rnd


# -- text: the import box ------------------------------------------------------------------


def test_the_import_box_never_crashes_on_a_pasted_text(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # text read as a file name finds nothing of the tests
    for rnd in seeded(INPUTS, 1):
        text = mutated_text(rnd, originals(rnd))
        loads_or_says_why(lambda text=text: import_game(text), text)


def test_a_long_line_that_is_no_file_name_is_read_as_text():
    """The issue's reproduction: no file can have this name (256+ characters),
    so it is the game itself, and not a game."""
    text = json.dumps({"note": "x" * 300, "moves": ["f5"]})
    with pytest.raises(StorageError, match=r"^the saved game is not a tui-reversi saved game$"):
        import_game(text)
    record = SavedGame.from_game(Game.from_transcript("f5d6c3d3c4"))
    assert import_game(json.dumps(json.loads(record.to_json()))).moves == record.moves
    with pytest.raises(StorageError, match=r"^the text is not a game"):
        import_game("garbage " * 40)


def test_binary_data_pasted_on_one_line_is_no_file_name(tmp_path, monkeypatch):
    """Bytes pasted into the import box (undecodable ones arrive as U+FFFD,
    control characters as themselves) are the text of no game, said so in
    one sentence: not `cannot import <the bytes>: there is no such file`,
    however many slashes or a .txt end they happen to hold."""
    monkeypatch.chdir(tmp_path)
    pasted = [
        "\ufffd\ufffdx/y\ufffd",
        "ab\x10cd/ef",
        "~\x07home",
        "m%\ufffdsLI.txt",
        "a\x00b/c",
    ]
    for rnd in seeded(50, 3):  # as the app gets it: invalid bytes as U+FFFD, lines joined
        data = rnd.randbytes(rnd.randint(16, 400)).replace(b"\x1b", b"") + b"/"
        pasted.append(" ".join(data.decode("utf-8", "replace").split()))
    for text in pasted:
        with pytest.raises(StorageError) as raised:
            import_game(text)
        said = str(raised.value)  # a "{" first is read as a saved game's JSON
        assert said.startswith(("the text is not a game: ", "the saved game is ")), said
        assert one_line(said), said


def test_file_names_no_file_can_have_are_one_sentence(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    names = [
        "~nosuchuser-fuzz/game.ggf",
        "saves/" + "x" * 300 + ".ggf",
        "a\0b.ggf",
        "~\0/game.ggf",
        "\ud800.ggf",
        "game\n.ggf",
        "x/[/b].ggf",
    ]
    for name in names:
        for load in (import_game, import_file, load_game_argument):
            with pytest.raises(StorageError) as raised:
                load(name)
            assert one_line(str(raised.value)), (load, name, str(raised.value))
    with pytest.raises(StorageError, match=r"^cannot import x+…x+\.ggf: file name too long$"):
        import_game("x" * 300 + ".ggf")
    with pytest.raises(
        StorageError, match=r"^cannot import (~nosuchuser-fuzz)/game.ggf: \1 names no user on"
    ):
        import_game(names[0])


@pytest.mark.parametrize("served", [False, True], ids=["local", "served"])
def test_file_names_typed_in_the_import_box_or_given_to_load(tmp_path, monkeypatch, served):
    """Mutated file names (the import box, --load, `games import`), on the
    player's own machine and on a server that keeps them in their folder."""
    home = tmp_path / "player"
    (home / "saves").mkdir(parents=True)
    (home / "saves" / "game.ggf").write_text(export_ggf(RECORDS[3]))
    (home / "loop").symlink_to(home / "loop")
    monkeypatch.chdir(home)
    monkeypatch.setenv("HOME", str(home))
    if served:
        monkeypatch.setenv(FILES_ROOT_VARIABLE, str(home))
    seeds = ["saves/game.ggf", "~/saves/game.ggf", "game.json", "loop/x.txt", str(home / "saves")]
    for rnd in seeded(INPUTS // 4, 2):
        name = mutated_text(rnd, rnd.choice(seeds))
        loads_or_says_why(lambda name=name: import_game(name), name)
        loads_or_says_why(lambda name=name: load_game_argument(name), name)


# -- files: import of each format, --load -, settings, autosave, saved games --------------


@pytest.mark.parametrize("format_name", list(EXPORTS))
def test_importing_a_damaged_file_of_each_format(tmp_path, format_name):
    path = tmp_path / "game.ggf"
    for rnd in seeded(INPUTS // len(EXPORTS) * 2, 3):
        data = mutated_bytes(rnd, originals(rnd, [format_name]).encode())
        path.write_bytes(data)
        loads_or_says_why(lambda: import_file(path), data)
        assert path.read_bytes() == data


def test_loading_a_damaged_game_from_standard_input():
    for rnd in seeded(INPUTS, 4):
        data = mutated_bytes(rnd, originals(rnd).encode())
        loads_or_says_why(lambda data=data: load_game_argument("-", io.BytesIO(data)), data)


def test_a_damaged_settings_file_gives_one_line_warnings_and_is_never_changed(tmp_path):
    path = tmp_path / "settings.toml"
    toml = [
        settings_to_toml(Settings()),
        settings_to_toml(Settings("expert", "human", Variant.ANTI, "reversi-16", True, False)),
    ]
    themes = ("default", "reversi", "reversi-16")
    for rnd in seeded(INPUTS, 5):
        data = mutated_bytes(rnd, rnd.choice(toml).encode())
        path.write_bytes(data)
        try:
            settings, warnings = load_settings(path, themes=rnd.choice([None, themes]))
        except Exception as error:  # pragma: no cover - what this test is for
            pytest.fail(f"{type(error).__name__}: {error} for {data!r}")
        assert isinstance(settings, Settings) and isinstance(settings.variant, Variant)
        assert all(one_line(warning) for warning in warnings), (data, warnings)
        assert path.read_bytes() == data


def test_a_damaged_autosave_is_kept_whole_and_reported_in_one_line(tmp_path):
    for number, rnd in enumerate(seeded(INPUTS, 6)):
        directory = tmp_path / str(number)
        directory.mkdir()
        data = mutated_bytes(rnd, originals(rnd, ["json", "json on one line"]).encode())
        (directory / "autosave.json").write_bytes(data)
        try:
            outcome = Autosave(directory).load()
        except Exception as error:  # pragma: no cover - what this test is for
            pytest.fail(f"{type(error).__name__}: {error} for {data!r}")
        if outcome.problem is None:
            assert_legal(outcome.game)
            assert (directory / "autosave.json").read_bytes() == data
        else:
            assert one_line(outcome.problem), (data, outcome.problem)
            assert outcome.moved_to is not None and outcome.moved_to.read_bytes() == data
        kept = [p.read_bytes() for p in directory.iterdir() if p.name != CLAIM_NAME]
        assert kept == [data]  # nothing else, nothing lost


def test_a_damaged_saved_game_is_listed_with_why_and_never_changed(tmp_path):
    games = SavedGames(tmp_path)
    path = tmp_path / "game.json"
    for rnd in seeded(INPUTS, 7):
        data = mutated_bytes(rnd, originals(rnd, ["json", "json on one line"]).encode())
        path.write_bytes(data)
        os.utime(path, ns=(rnd.randrange(1 << 40), rnd.randrange(1 << 40)))  # no stale entry
        try:
            (entry,) = games.list()
        except Exception as error:  # pragma: no cover - what this test is for
            pytest.fail(f"{type(error).__name__}: {error} for {data!r}")
        if entry.readable:
            assert entry.record is not None
            assert_legal(entry.record.to_game())
        else:
            assert one_line(entry.status), (data, entry.status)
        loads_or_says_why(lambda: games.load("game"), data)
        assert path.read_bytes() == data


def test_the_fuzz_inputs_reach_every_outcome():
    """The mutations are neither all harmless nor all fatal: each format
    yields games that load and games that are refused."""
    for format_name in EXPORTS:
        loaded = refused = 0
        for rnd in seeded(300, 8):
            text = mutated_text(rnd, originals(rnd, [format_name]))
            try:
                import_game(text)
                loaded += 1
            except StorageError:
                refused += 1
        assert loaded > 0 and refused > 0, format_name


def test_positions_read_back_are_positions():
    # assert_legal compares with Position.play: make sure it can fail.
    game = Game.from_transcript("f5d6")
    game.positions[2] = Position.initial()
    with pytest.raises(AssertionError):
        assert_legal(game)
