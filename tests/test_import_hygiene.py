"""core/, engine/, players/, net/, storage/ and nboard/ stay pure: no Textual, no rich, no UI."""

import pkgutil
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
        "tui_reversi.nboard",
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


def _layers(container: str | None = None) -> list[set[str]]:
    """The layers of the contract over `container`'s modules (None: the package's)."""
    import tomllib
    from pathlib import Path

    config = tomllib.loads(Path(__file__).parent.parent.joinpath("pyproject.toml").read_text())
    contracts = config["tool"]["importlinter"]["contracts"]
    (layers,) = [
        c["layers"]
        for c in contracts
        if c["type"] == "layers" and c.get("containers", [None]) == [container]
    ]
    return [{name.strip() for name in layer.split("|")} for layer in layers]


def test_every_module_of_the_package_is_in_a_layer_of_the_contract():
    import tui_reversi

    listed = set().union(*_layers())
    top = {f"tui_reversi.{module.name}" for module in pkgutil.iter_modules(tui_reversi.__path__)}
    assert top - listed == set()


def test_every_module_of_the_server_is_in_one_of_its_rooms_edge_hall_ledger_or_below():
    import tui_reversi.server

    rooms = _layers("tui_reversi.server")
    assert [room for room in rooms if room & {"edge", "hall", "ledger"}] == [
        {"edge"},
        {"hall"},
        {"ledger"},
    ]
    listed = set().union(*rooms)
    top = {module.name for module in pkgutil.iter_modules(tui_reversi.server.__path__)}
    assert top - listed == set()


def test_the_servers_modules_import_each_other_in_no_circle_even_for_the_type_checker():
    import grimp

    graph = grimp.build_graph("tui_reversi", exclude_type_checking_imports=False)
    server = {module for module in graph.modules if module.startswith("tui_reversi.server.")}
    imports = {
        module: graph.find_modules_directly_imported_by(module) & server for module in server
    }
    # A module is in a circle when it is among what it imports, however far.
    in_circles = []
    for module in sorted(server):
        seen: set[str] = set()
        todo = list(imports[module])
        while todo:
            other = todo.pop()
            if other not in seen:
                seen.add(other)
                todo += imports[other]
        if module in seen:
            in_circles.append(module)
    assert in_circles == []


def test_the_archive_keeps_a_tables_game_under_the_player_kinds_saved_games_know():
    # The ledger names the two sides in its own words; a saved game must still
    # open at home as a human against a person across the network.
    from tui_reversi.players.kinds import HUMAN, PERSON
    from tui_reversi.server.ledger.archive import ACROSS_NETWORK, AT_KEYBOARD

    assert (AT_KEYBOARD, ACROSS_NETWORK) == (HUMAN, PERSON)


def test_screens_and_widgets_do_not_import_the_app_even_for_the_type_checker():
    import grimp

    graph = grimp.build_graph("tui_reversi", exclude_type_checking_imports=False)
    importers = {
        module
        for module in graph.find_modules_that_directly_import("tui_reversi.app")
        if module.startswith(("tui_reversi.screens", "tui_reversi.widgets"))
    }
    assert importers == set()


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
