"""Multi-ProbCut: its parameters file is read back as written and refused in
one sentence when damaged or fitted with other weights (the search then cuts
nothing); with it the fixed-depth search stays deterministic and legal and
searches fewer nodes; an engine without it cuts nothing."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tui_reversi.core import Variant
from tui_reversi.engine import pattern_weights, probcut
from tui_reversi.engine.pattern_weights import WEIGHTS_PATH, trained_evaluator
from tui_reversi.engine.probcut import (
    Pair,
    ProbCutError,
    ProbCutFit,
    load_probcut,
    read_probcut,
    weights_digest,
    write_probcut,
)
from tui_reversi.engine.search import Engine
from tui_reversi.players import alphabeta_player
from tui_reversi.players.alphabeta_player import HARD, engine_for

from .positions import position_with_empties

FIT = ProbCutFit(
    (
        Pair(0, 64, 3, 1, 1.0, 0.0, 300.0),
        Pair(0, 64, 4, 2, 0.95, -20.0, 250.0),
        Pair(0, 64, 5, 3, 1.02, 10.0, 260.0),
        Pair(0, 64, 6, 2, 0.9, 5.0, 400.0),
    )
)


def test_parameters_read_back_as_written(tmp_path: Path) -> None:
    path = tmp_path / "probcut.txt"
    write_probcut(path, FIT, "abc")
    assert read_probcut(path, "abc") == FIT


@pytest.mark.parametrize(
    ("damage", "sentence"),
    [
        (lambda data: data.replace(b"0.9500", b"0.9501"), r"damaged: its checksum does not match"),
        (lambda data: b"hello\n" + data, r"is not a ProbCut parameters file"),
        (lambda data: data.replace(b"PROBCUT 1", b"PROBCUT 9"), r"of another version \(9\)"),
        (lambda data: data.replace(b"weights abc", b"weights xyz"), r"fitted with other pattern"),
    ],
)
def test_a_damaged_file_is_refused_in_one_sentence(tmp_path: Path, damage, sentence) -> None:
    path = tmp_path / "probcut.txt"
    write_probcut(path, FIT, "abc")
    path.write_bytes(damage(path.read_bytes()))
    with pytest.raises(ProbCutError, match=sentence) as error:
        read_probcut(path, "abc")
    assert str(error.value).count(".") <= 2 and "\n" not in str(error.value)


def test_a_missing_file_is_one_sentence(tmp_path: Path) -> None:
    with pytest.raises(ProbCutError, match=r"cannot read the ProbCut parameters .*none\.txt"):
        read_probcut(tmp_path / "none.txt", "abc")


def test_the_shipped_parameters_fit_the_shipped_weights() -> None:
    assert read_probcut(probcut.PROBCUT_PATH, weights_digest(WEIGHTS_PATH)).pairs


def test_hard_plays_without_probcut_when_its_file_is_damaged(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "probcut.txt"
    path.write_bytes(probcut.PROBCUT_PATH.read_bytes()[:-20])
    monkeypatch.setattr(probcut, "PROBCUT_PATH", path)
    monkeypatch.setattr(probcut, "_loaded", {})
    monkeypatch.setattr(alphabeta_player, "_engines", {})
    with caplog.at_level(logging.WARNING):
        engine = engine_for(Variant.OTHELLO, "trained", HARD.selectivity)
    assert engine.probcut is None
    assert [r.getMessage() for r in caplog.records] == [
        f"{path} is damaged: its checksum does not match; the search runs without ProbCut."
    ]
    position = position_with_empties(40, 3)
    result = engine.search(position.own, position.opp, max_depth=6)
    plain = Engine(False, trained_evaluator(False)).search(position.own, position.opp, max_depth=6)
    assert (result.move, result.score, result.nodes) == (plain.move, plain.score, plain.nodes)
    assert load_probcut() is None  # read once: the same answer, no second sentence
    assert len(caplog.records) == 1


def test_the_variables_name_other_parameters_for_other_weights(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    weights = tmp_path / "w.bin"
    weights.write_bytes(WEIGHTS_PATH.read_bytes())
    path = tmp_path / "p.txt"
    write_probcut(path, FIT, weights_digest(weights))
    monkeypatch.setattr(probcut, "_loaded", {})
    monkeypatch.setenv(probcut.PROBCUT_VARIABLE, str(path))
    monkeypatch.setenv(pattern_weights.WEIGHTS_VARIABLE, str(weights))
    assert load_probcut() == FIT
    monkeypatch.setattr(probcut, "_loaded", {})
    monkeypatch.setenv(pattern_weights.WEIGHTS_VARIABLE, str(tmp_path / "other.bin"))
    assert load_probcut() is None  # fitted with other weights than those played with


def test_probcut_only_with_the_trained_evaluation_and_a_selectivity() -> None:
    assert engine_for(Variant.OTHELLO, "trained", HARD.selectivity).probcut is not None
    assert engine_for(Variant.OTHELLO, "trained").probcut is None
    assert engine_for(Variant.OTHELLO, "handmade", HARD.selectivity).probcut is None
    assert engine_for(Variant.ANTI, "trained", HARD.selectivity).probcut is None


@settings(max_examples=12, deadline=None)
@given(st.integers(min_value=16, max_value=52), st.integers(min_value=0, max_value=10**6))
def test_probcut_searches_are_deterministic_and_legal(empties: int, seed: int) -> None:
    position = position_with_empties(empties, seed)
    engine = engine_for(Variant.OTHELLO, "trained", HARD.selectivity)
    first = engine.search(position.own, position.opp, max_depth=7)
    again = engine.search(position.own, position.opp, max_depth=7)
    assert (first.move, first.score, first.nodes) == (again.move, again.score, again.nodes)
    assert first.move is not None and position.is_legal(first.move)


def test_probcut_cuts_nodes_at_a_fixed_depth() -> None:
    cut = engine_for(Variant.OTHELLO, "trained", HARD.selectivity)
    full = Engine(False, trained_evaluator(False))
    nodes = {"cut": 0, "full": 0}
    for seed in range(4):
        position = position_with_empties(36, seed)
        nodes["cut"] += cut.search(position.own, position.opp, max_depth=9).nodes
        nodes["full"] += full.search(position.own, position.opp, max_depth=9).nodes
    assert nodes["cut"] < 0.8 * nodes["full"]
