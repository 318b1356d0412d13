"""Bad input and no data loss: mutations of valid files never crash a loader
and never change (or lose) the original file."""

import json
import tempfile
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tui_reversi.storage import (
    Autosave,
    SavedGames,
    StorageError,
    export_ggf,
    export_transcript,
    import_file,
    load_settings,
)
from tui_reversi.storage.settings import Settings, settings_to_toml

from .strategies import records

JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3)
    ),
    max_leaves=8,
)


@st.composite
def mutations(draw, original: bytes) -> bytes:
    """`original` damaged the ways files get damaged: cut short, bytes changed,
    inserted or removed, made huge, or not UTF-8 at all."""
    kind = draw(st.sampled_from(["cut", "flip", "insert", "delete", "huge", "latin", "garbage"]))
    at = draw(st.integers(0, len(original)))
    if kind == "cut":
        return original[:at]
    if kind == "flip":
        byte = draw(st.integers(0, 255))
        return original[:at] + bytes([byte]) + original[at + 1 :]
    if kind == "insert":
        return original[:at] + draw(st.binary(min_size=1, max_size=20)) + original[at:]
    if kind == "delete":
        return original[:at] + original[at + draw(st.integers(1, 20)) :]
    if kind == "huge":
        return original + b" " * (300 * 1024) + original
    if kind == "latin":
        return original.replace(b"e", b"\xe9")
    return draw(st.binary(max_size=200))


@st.composite
def wrong_fields(draw, original: bytes) -> bytes:
    """A record with one field replaced by a value of any JSON type, or its
    moves replaced by random squares (mostly illegal moves)."""
    fields = json.loads(original)
    if draw(st.booleans()):
        squares = st.sampled_from([f"{c}{r}" for c in "abcdefgh" for r in "12345678"] + ["pa"])
        fields["moves"] = "".join(draw(st.lists(squares, max_size=70)))
    else:
        fields[draw(st.sampled_from(sorted(fields)))] = draw(JSON_VALUES)
    return json.dumps(fields).encode()


@st.composite
def damaged_records(draw):
    original = draw(records()).to_json().encode()
    return draw(st.one_of(mutations(original), wrong_fields(original)))


def one_sentence(text: str) -> bool:
    return bool(text) and "\n" not in text and "Traceback" not in text


def scratch() -> Path:
    """A fresh directory removed after the test (tmp_path is per test, not per example)."""
    holder = tempfile.TemporaryDirectory()
    _HOLDERS.append(holder)
    return Path(holder.name)


_HOLDERS: list = []


@pytest.fixture(autouse=True)
def _clean_scratch():
    yield
    while _HOLDERS:
        _HOLDERS.pop().cleanup()


@given(damaged_records())
def test_a_damaged_autosave_never_crashes_the_start_and_is_never_lost(data):
    directory = scratch()
    (directory / "autosave.json").write_bytes(data)
    outcome = Autosave(directory).load()
    if outcome.problem is None:
        outcome.game.transcript()  # it loaded: a playable game
        assert (directory / "autosave.json").read_bytes() == data
    else:
        assert one_sentence(outcome.problem)
        assert outcome.moved_to.read_bytes() == data
        assert not (directory / "autosave.json").exists()


@given(damaged_records())
def test_a_damaged_saved_game_is_listed_never_raised_and_never_changed(data):
    directory = scratch()
    (directory / "game.json").write_bytes(data)
    games = SavedGames(directory)
    (entry,) = games.list()
    if entry.readable:
        assert games.load("game").to_game() is not None
    else:
        assert one_sentence(entry.status)
        try:
            games.load("game")
        except StorageError as error:
            assert one_sentence(str(error))
    assert (directory / "game.json").read_bytes() == data


@given(st.data())
def test_damaged_settings_never_crash_and_are_never_changed(data):
    original = settings_to_toml(Settings(white="hard", ascii=True)).encode()
    content = data.draw(mutations(original))
    path = scratch() / "settings.toml"
    path.write_bytes(content)
    settings, warnings = load_settings(path)
    assert isinstance(settings, Settings)
    assert all(one_sentence(w) for w in warnings)
    assert path.read_bytes() == content


@given(st.data())
def test_damaged_imports_are_one_sentence_and_never_changed(data):
    record = data.draw(records())
    original = data.draw(
        st.sampled_from([export_ggf(record), export_transcript(record), record.to_json()])
    ).encode()
    content = data.draw(mutations(original))
    path = scratch() / "game.ggf"
    path.write_bytes(content)
    try:
        import_file(path).to_game()
    except StorageError as error:
        assert one_sentence(str(error))
    assert path.read_bytes() == content
