"""core/, engine/, players/, net/ and storage/ stay pure: no Textual, no rich, no UI."""

import subprocess
import sys

import pytest

UI_MODULES = ("textual", "rich", "tui_reversi.widgets", "tui_reversi.screens", "tui_reversi.app")


@pytest.mark.parametrize(
    "package",
    [
        "tui_reversi.core",
        "tui_reversi.engine",
        "tui_reversi.players",
        "tui_reversi.net",
        "tui_reversi.storage",
    ],
)
def test_rules_and_players_import_nothing_from_the_ui(package):
    code = (
        f"import sys, {package}, pkgutil, importlib\n"
        f"for m in pkgutil.walk_packages({package}.__path__, '{package}.'):\n"
        "    importlib.import_module(m.name)\n"
        f"bad = sorted(n for n in sys.modules if n.split('.')[0] in ('textual', 'rich')"
        f" or n.startswith({UI_MODULES[2:]!r}))\n"
        "print(','.join(bad))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""


def test_the_session_imports_nothing_from_the_ui():
    code = (
        "import sys, tui_reversi.session\n"
        "print(','.join(sorted(n for n in sys.modules if n.split('.')[0] in ('textual', 'rich'))))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""


def test_a_move_is_a_move_outside_the_rules_and_the_engine():
    # A pass is Move.null() from the engine to the widgets: the game record's
    # raw PASS index is read only by core/ and engine/.
    import ast
    from pathlib import Path

    import tui_reversi

    root = Path(tui_reversi.__file__).parent
    readers = []
    for path in sorted(root.rglob("*.py")):
        if path.relative_to(root).parts[0] in ("core", "engine"):
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        names = {node.id for node in ast.walk(tree) if isinstance(node, ast.Name)}
        imported = {
            alias.name
            for node in ast.walk(tree)
            if isinstance(node, ast.ImportFrom)
            for alias in node.names
        }
        if "PASS" in names | imported:
            readers.append(str(path.relative_to(root)))
    assert readers == []
