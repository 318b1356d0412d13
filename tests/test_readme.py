"""The README's two commands stay true, and CI runs the test command verbatim."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def readme_commands():
    text = (ROOT / "README.md").read_text()
    return re.findall(r"```sh\n(.+?)\n```", text)[:2]


def test_readme_opens_with_an_install_and_play_and_an_install_and_test_command():
    play, test = readme_commands()
    assert "pip install" in play and play.endswith("tui-reversi")
    assert "pip install" in test and "[test]" in test and "pytest" in test


def test_ci_runs_the_readme_test_command_exactly():
    _, test = readme_commands()
    ci_lines = (ROOT / ".ci" / "run").read_text().splitlines()
    assert test in ci_lines


def test_the_readme_gives_the_protocols_own_line_limit():
    from tui_reversi.net.server_line import MAX_LINE

    limits = re.findall(r"at most (\d+) bytes", (ROOT / "README.md").read_text())
    assert limits == [str(MAX_LINE)]
