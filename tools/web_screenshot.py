"""Take docs/web.png, docs/playing.md's picture: the page of `tui-reversi web`
in a real headless Chromium at a phone's size (390x844), after a few moves
played by taps on the board. Needs /usr/bin/chromium and Playwright.

    .venv/bin/python tools/web_screenshot.py [--out docs/web.png]
"""

from __future__ import annotations

import argparse
import re
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.web import start_server  # noqa: E402
from tests.web.browser import CHROMIUM, CHROMIUM_ARGS, PHONE, WebTerminal  # noqa: E402

MOVES = 3  # Black's moves, each on the first square the board marks as legal


def marked_square(terminal: WebTerminal) -> str:
    """A square the board marks as a legal move now (its marker: "▗▖" over "▝▘")."""
    lines = terminal.screen.display
    header = next(i for i, line in enumerate(lines) if re.search(r"a +b +c +d", line))
    letters = {lines[header].index(letter): letter for letter in "abcdefgh"}
    for i, line in enumerate(lines):
        if not line[:1].isdigit() or i <= header:
            continue
        # The rank's cell: its lines between the rules above and below the label.
        top = max(j for j in range(header, i) if lines[j][2:3] in "┌├")
        bottom = min(j for j in range(i, len(lines)) if lines[j][2:3] in "├└")
        for cell_line in lines[top + 1 : bottom]:
            at = cell_line.find("▗▖")
            if at >= 0:
                column = min(letters, key=lambda x: abs(x - at))
                return letters[column] + line[0]
    raise LookupError("no legal move is marked")


def take(out: Path) -> None:
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as home, sync_playwright() as playwright:
        server, address, _parent = start_server(home)
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
            page = context.new_page()
            terminal = WebTerminal(page)
            page.goto(address)
            terminal.wait_for(lambda text: "Black to move" in text, "the board")
            for number in range(1, MOVES + 1):
                page.touchscreen.tap(*terminal.square_point(marked_square(terminal)))
                terminal.wait_for(
                    lambda text, n=number: terminal.moves_played(2 * n) and "Black to move" in text,
                    f"move {number} and the answer",
                )
            page.wait_for_timeout(500)
            page.screenshot(path=str(out))
        finally:
            browser.close()
            server.terminate()
            server.wait(timeout=60)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path("docs/web.png"))
    out = parser.parse_args().out
    take(out)
    print(out)


if __name__ == "__main__":
    main()
