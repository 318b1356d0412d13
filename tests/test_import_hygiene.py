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
