"""The README's two commands stay true, CI runs the test command verbatim,
and the README's links lead to pages that are there."""

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


def test_the_hosting_page_gives_the_protocols_own_line_limit():
    from tui_reversi.net.server_line import MAX_LINE

    limits = re.findall(r"at most (\d+) bytes", (ROOT / "docs" / "hosting.md").read_text())
    assert limits == [str(MAX_LINE)]


def test_every_link_between_the_pages_leads_to_a_file_and_a_heading():
    pages = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    assert len(pages) == 5
    for page in pages:
        for target in re.findall(r"\]\(([^)#:]*)(?:#([^)]*))?\)", page.read_text()):
            path, anchor = target
            linked = (page.parent / path).resolve() if path else page
            assert linked.is_file(), (page.name, path)
            if anchor:
                headings = re.findall(r"^#+ (.+)$", linked.read_text(), re.MULTILINE)
                slugs = {re.sub(r"[^a-z0-9 -]", "", h.lower()).replace(" ", "-") for h in headings}
                assert anchor in slugs, (page.name, path, anchor)


def test_the_hosting_page_names_every_option_of_serve():
    import argparse

    from tui_reversi.tools.serve import add_arguments

    parser = argparse.ArgumentParser()
    add_arguments(parser)
    text = (ROOT / "docs" / "hosting.md").read_text()
    shown = [
        option
        for action in parser._actions
        if action.help != argparse.SUPPRESS
        for option in action.option_strings
        if option.startswith("--") and option != "--help"
    ]
    assert [option for option in shown if not re.search(rf"{option}(?![\w-])", text)] == []
