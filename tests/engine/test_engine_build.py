"""The compiled engine (mypyc) and the interpreted one are the same engine:
identical perft counts, searches, endgame scores and evaluations (the
trained pattern evaluation too); and the command line says which one runs."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tui_reversi import __version__
from tui_reversi.core.perft import OTHELLO_PERFT

ROOT = Path(__file__).resolve().parents[2]


def run(*args: str, pure: bool) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "TUI_REVERSI_PURE"}
    if pure:
        env["TUI_REVERSI_PURE"] = "1"
    return subprocess.run(
        [sys.executable, *args],
        capture_output=True,
        text=True,
        timeout=600,
        cwd=ROOT,
        env=env,
        check=True,
    )


def figures(*, pure: bool) -> dict:
    code = "from tests.engine.engine_figures import main; main()"
    return json.loads(run("-c", code, pure=pure).stdout)


@pytest.fixture(scope="module")
def both() -> tuple[dict, dict]:
    compiled = figures(pure=False)
    if not compiled["engine"].startswith("compiled"):
        if os.environ.get("CI"):
            # CI installs with the README command on a machine with gcc.
            pytest.fail(f"CI must run the compiled engine, not: {compiled['engine']}")
        pytest.skip(f"the engine is not compiled here: {compiled['engine']}")
    return compiled, figures(pure=True)


def test_the_interpreted_engine_is_the_one_asked_for():
    engine = figures(pure=True)["engine"]
    assert engine == "interpreted (TUI_REVERSI_PURE=1)"


def test_perft_counts_are_the_known_ones_and_identical(both):
    compiled, interpreted = both
    assert compiled["perft"] == interpreted["perft"] == list(OTHELLO_PERFT[1:8])
    assert compiled["perft_counted"] == interpreted["perft_counted"] == OTHELLO_PERFT[8]
    assert compiled["perft_corners"] == interpreted["perft_corners"]


def test_fixed_depth_searches_choose_score_and_count_nodes_identically(both):
    compiled, interpreted = both
    assert compiled["searches"] == interpreted["searches"]


def test_exact_endgame_scores_are_identical(both):
    compiled, interpreted = both
    assert compiled["solves"] == interpreted["solves"]


def test_evaluations_are_identical(both):
    compiled, interpreted = both
    assert compiled["evaluations"] == interpreted["evaluations"]


def test_trained_evaluations_and_searches_are_identical(both):
    compiled, interpreted = both
    assert compiled["trained"] == interpreted["trained"]


def test_version_says_which_engine_runs(both):
    # `both` skips where nothing is compiled (and fails CI then).
    pure = run("-m", "tui_reversi", "--version", pure=True).stdout.strip()
    assert pure == f"tui-reversi {__version__}, engine: interpreted (TUI_REVERSI_PURE=1)"
    plain = run("-m", "tui_reversi", "--version", pure=False).stdout.strip()
    assert plain == f"tui-reversi {__version__}, engine: compiled (mypyc)"


def test_an_edited_source_runs_interpreted_until_reinstalled(both, tmp_path):
    # A copy of the package with one compiled module's source changed: the
    # stale extension beside it must not run.
    import shutil

    import tui_reversi

    package = Path(tui_reversi.__file__).parent
    copy = tmp_path / "tui_reversi"
    shutil.copytree(package, copy, ignore=shutil.ignore_patterns("__pycache__"))
    for shared in package.parent.glob("tui_reversi_engine__mypyc*"):
        shutil.copy(shared, tmp_path)
    search = copy / "engine" / "search.py"
    search.write_text(search.read_text() + "\n# edited\n")
    code = (
        f"import sys; sys.path.insert(0, {str(tmp_path)!r}); "
        "from tui_reversi.engine.build import engine_build; "
        "import tui_reversi.engine.search as s; print(engine_build()); print(s.__file__)"
    )
    said, loaded = run("-c", code, pure=False).stdout.splitlines()
    assert said == (
        "interpreted (tui_reversi/engine/search.py changed since it was compiled: "
        "reinstall to compile it)"
    )
    assert loaded == str(search)
