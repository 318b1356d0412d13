"""The weights file: what is written is read back, and a missing or damaged
file is refused in one sentence while the engine keeps the hand-made
evaluation."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from tui_reversi.core import Position
from tui_reversi.engine import pattern_weights
from tui_reversi.engine.evaluation import make_evaluator
from tui_reversi.engine.pattern_weights import (
    WeightsError,
    load_tables,
    read_weights,
    trained_evaluator,
    write_weights,
)
from tui_reversi.engine.patterns import PHASE_SIZE, PHASES, PatternEvaluator, pack
from tui_reversi.engine.search import Engine


def _tables() -> list[list[int]]:
    return [[(i * 7 + phase) % 201 - 100 for i in range(PHASE_SIZE)] for phase in range(PHASES)]


def test_weights_read_back_as_written(tmp_path: Path) -> None:
    path = tmp_path / "w.bin"
    size = write_weights(path, _tables())
    assert path.stat().st_size == size
    assert read_weights(path) == [pack(table) for table in _tables()]


def test_a_missing_file_is_one_sentence(tmp_path: Path) -> None:
    with pytest.raises(WeightsError, match=r"cannot read the pattern weights .*missing\.bin"):
        read_weights(tmp_path / "missing.bin")


def test_a_changed_byte_fails_the_checksum(tmp_path: Path) -> None:
    path = tmp_path / "w.bin"
    write_weights(path, _tables())
    data = bytearray(path.read_bytes())
    data[-10] ^= 0x40
    path.write_bytes(bytes(data))
    with pytest.raises(WeightsError, match="checksum does not match"):
        read_weights(path)


def test_another_version_or_another_file_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "w.bin"
    write_weights(path, _tables())
    data = path.read_bytes()
    path.write_bytes(data.replace(b"PATTERNS 1", b"PATTERNS 9", 1))
    with pytest.raises(WeightsError, match=r"another version \(9\)"):
        read_weights(path)
    path.write_text("[settings]\ntheme = dark\n\n")
    with pytest.raises(WeightsError, match="is not a pattern weights file"):
        read_weights(path)


def test_without_weights_the_engine_keeps_the_handmade_evaluation(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setattr(pattern_weights, "WEIGHTS_PATH", tmp_path / "gone.bin")
    monkeypatch.setattr(pattern_weights, "_loaded", {})
    with caplog.at_level(logging.WARNING):
        evaluator = trained_evaluator(False)
    assert evaluator is None
    engine = Engine(False, evaluator)
    assert engine.evaluator is make_evaluator(False)
    assert len(caplog.records) == 1
    assert "the hand-made evaluation is used instead" in caplog.records[0].getMessage()
    start = Position.initial()
    assert engine.search(start.own, start.opp, max_depth=3).move is not None
    assert load_tables() is None  # asked again: no second message
    assert len(caplog.records) == 1


def test_with_weights_the_engine_searches_with_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "w.bin"
    write_weights(path, _tables())
    monkeypatch.setattr(pattern_weights, "WEIGHTS_PATH", path)
    monkeypatch.setattr(pattern_weights, "_loaded", {})
    evaluator = trained_evaluator(False)
    assert isinstance(evaluator, PatternEvaluator)
    assert trained_evaluator(True) is None  # anti keeps its own evaluation
    start = Position.initial()
    assert Engine(False, evaluator).search(start.own, start.opp, max_depth=3).move is not None


def test_the_weights_variable_names_another_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "other.bin"
    write_weights(path, _tables())
    monkeypatch.setattr(pattern_weights, "_loaded", {})
    monkeypatch.setenv(pattern_weights.WEIGHTS_VARIABLE, str(path))
    assert load_tables() == [pack(table) for table in _tables()]
    monkeypatch.setenv(pattern_weights.WEIGHTS_VARIABLE, str(tmp_path / "gone.bin"))
    assert load_tables() is None
    assert "gone.bin" in (pattern_weights.weights_problem() or "")
    monkeypatch.delenv(pattern_weights.WEIGHTS_VARIABLE)
    assert load_tables() == read_weights(pattern_weights.WEIGHTS_PATH)


def test_the_trained_engine_never_needs_numpy() -> None:
    import subprocess
    import sys

    code = (
        "import sys\n"
        "from tui_reversi.engine.search import Engine\n"
        "from tui_reversi.engine.pattern_weights import trained_evaluator\n"
        "from tui_reversi.core import Position\n"
        "p = Position.initial()\n"
        "Engine(False, trained_evaluator(False)).search(p.own, p.opp, max_depth=2)\n"
        "print('numpy' in sys.modules)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "False"


def test_the_shipped_weights_load() -> None:
    tables = read_weights(pattern_weights.WEIGHTS_PATH)
    assert len(tables) == PHASES and all(len(t) == 2 * PHASE_SIZE for t in tables)
    assert any(any(t) for t in tables)


def test_the_package_data_ships_the_weights_the_book_and_probcut() -> None:
    # A wheel (setuptools) carries only the package data pyproject.toml names.
    import fnmatch
    import tomllib

    import tui_reversi

    root = Path(tui_reversi.__file__).parent
    pyproject = tomllib.loads((root.parent / "pyproject.toml").read_text())
    globs = pyproject["tool"]["setuptools"]["package-data"]["tui_reversi"]
    shipped = sorted(p.relative_to(root).as_posix() for p in (root / "engine" / "data").iterdir())
    assert shipped == [
        "engine/data/book.txt",
        "engine/data/patterns.bin",
        "engine/data/probcut.txt",
    ]
    for name in shipped:
        assert any(fnmatch.fnmatch(name, glob) for glob in globs), name


def test_the_pages_name_the_shipped_weights_by_their_checksum() -> None:
    # The README and docs/engine.md say which weights ship and how they were
    # made: they must name the file that is there.
    import hashlib
    import re

    digest = hashlib.sha256(pattern_weights.WEIGHTS_PATH.read_bytes()).hexdigest()
    root = pattern_weights.WEIGHTS_PATH.parents[3]
    for page in (root / "README.md", root / "docs" / "engine.md"):
        named = re.findall(r"`([0-9a-f]{8})…([0-9a-f]{6})`", page.read_text())
        assert named, page.name
        assert all(digest.startswith(head) and digest.endswith(tail) for head, tail in named)
