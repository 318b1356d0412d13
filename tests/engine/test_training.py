"""The training pipeline: self-play is reproducible from its seed and resumes
after a stop, and the fit turns its positions into a weights file the engine
plays with."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from tui_reversi.core.bitboard import native
from tui_reversi.engine import pattern_weights
from tui_reversi.engine.book import BOOK_PATH, read_book
from tui_reversi.engine.evaluation import SCALE
from tui_reversi.engine.pattern_weights import read_weights
from tui_reversi.engine.patterns import PatternEvaluator

TOOLS = Path(__file__).resolve().parents[2] / "tools"


def _tool(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"tools_{name}", TOOLS / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # for its dataclasses
    spec.loader.exec_module(module)
    return module


selfplay = _tool("selfplay")


def _play(folder: Path, games: int = 5, **settings: object) -> None:
    how = selfplay.Settings(depth=1, solve=6, **settings)
    selfplay.run(folder, seed=3, first=0, games=games, chunk=2, jobs=1, settings=how)


def test_self_play_is_a_function_of_its_seed(tmp_path: Path) -> None:
    _play(tmp_path / "a")
    _play(tmp_path / "b")
    names = sorted(p.name for p in (tmp_path / "a").iterdir())
    assert names == [
        "games-000000-000001.txt",
        "games-000002-000003.txt",
        "games-000004-000004.txt",
    ]
    for name in names:
        assert (tmp_path / "a" / name).read_bytes() == (tmp_path / "b" / name).read_bytes()
    lines = (tmp_path / "a" / names[0]).read_text().splitlines()
    own, opp, margin = lines[-1].split()  # the last position: solved exactly
    assert int(own, 16) & int(opp, 16) == 0 and -64 <= int(margin) <= 64


def test_search_labels_start_from_the_book_and_are_reproducible(tmp_path: Path) -> None:
    settings = {"openings": "book", "evaluation": "trained", "labels": "search"}
    _play(tmp_path / "a", games=2, **settings)
    _play(tmp_path / "b", games=2, **settings)
    a = (tmp_path / "a" / "games-000000-000001.txt").read_text()
    assert a == (tmp_path / "b" / "games-000000-000001.txt").read_text()
    lines = [line.split() for line in a.splitlines()]
    first = (int(lines[0][0], 16), int(lines[0][1], 16))
    assert first in read_book(BOOK_PATH)  # the first game starts at a book position
    assert all(-64 <= int(margin) <= 64 for *_, margin in lines)


def test_a_stopped_run_resumes_at_its_first_missing_chunk(tmp_path: Path) -> None:
    _play(tmp_path / "whole")
    stopped = tmp_path / "stopped"
    _play(stopped)
    middle = stopped / "games-000002-000003.txt"
    kept = stopped / "games-000000-000001.txt"
    middle.unlink()
    kept.write_text("kept as it was\n")  # a whole chunk is never played again
    (stopped / "games-000002-000003.part").write_text("half a chunk\n")
    _play(stopped)
    assert middle.read_bytes() == (tmp_path / "whole" / middle.name).read_bytes()
    assert kept.read_text() == "kept as it was\n"
    assert not (stopped / "games-000002-000003.part").exists()


def test_the_fit_writes_weights_the_engine_plays_with(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("numpy")
    _play(tmp_path / "games", games=40)
    out = tmp_path / "w.bin"
    done = subprocess.run(
        [sys.executable, str(TOOLS / "fit.py"), str(tmp_path / "games"), "--iterations", "30",
         "--out", str(out)],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    assert "wrote" in done.stdout
    evaluator = PatternEvaluator(read_weights(out))
    # The fitted evaluation follows its training labels far better than none.
    errors, baseline = 0.0, 0.0
    for path in (tmp_path / "games").glob("*.txt"):
        for line in path.read_text().splitlines():
            own, opp, margin = line.split()
            score = evaluator.evaluate(native(int(own, 16)), native(int(opp, 16))) / SCALE
            errors += (score - int(margin)) ** 2
            baseline += int(margin) ** 2
    assert errors < 0.5 * baseline
    monkeypatch.setattr(pattern_weights, "WEIGHTS_PATH", out)
    monkeypatch.setattr(pattern_weights, "_loaded", {})
    assert isinstance(pattern_weights.trained_evaluator(False), PatternEvaluator)
