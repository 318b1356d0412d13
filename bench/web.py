"""The game in a browser: time from opening the page to a board that takes a
click, and memory per browser visitor (the RSS and PSS of the game processes
`tui-reversi web` starts, one per page), for 1 and for 20 pages in one
headless Chromium.

    .venv/bin/python bench/web.py [--runs 5] [--visitors 1,20] [--served]

--served measures a public server's page instead (`serve --web-port`): each
visitor's game is then forked from the server's preloaded parent, as an SSH
player's is, and shares most of its pages with it.

"Playable" is when the page's terminal (read back from the game's bytes by
the tests' emulator, tests/web/browser.py) shows "Black to move". Times are
medians over --runs single visitors; the 20 pages open at once, so their
figure is the time until the last of them is playable. PSS shares the pages
the processes have in common out between them, so it is the figure that
adds up; RSS counts every shared page once per process.
"""

from __future__ import annotations

import argparse
import os
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.web.browser import (  # noqa: E402
    CHROMIUM,
    CHROMIUM_ARGS,
    DESKTOP,
    WebTerminal,
    children_of,
)


def start_server(home: str, served: bool = False) -> tuple[subprocess.Popen[str], str, int]:
    """`tui-reversi web` (or `serve --web-port`): the process, the page's address,
    and the process whose children the visitors' games are."""
    environment = dict(
        os.environ, HOME=home, XDG_DATA_HOME=f"{home}/data", XDG_CONFIG_HOME=f"{home}/config"
    )
    command = ["web", "--port", "0"]
    if served:
        command = ["serve", "--port", "0", "--web-port", "0", "--data-dir", f"{home}/server"]
        command += ["--max-per-address", "100", "--max-sessions", "100"]
    server = subprocess.Popen(
        [sys.executable, "-m", "tui_reversi", *command],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        env=environment,
    )
    parent = server.pid
    said = []
    for line in server.stdout or []:
        said.append(line)
        if preloaded := re.search(r"preloaded parent \(pid (\d+)", line):
            parent = int(preloaded.group(1))
        if found := re.search(r"(http://\S+/)", line):
            return server, found.group(1), parent
    server.kill()
    sys.exit(f"bench/web.py: the page did not start: {''.join(said)!r}")


def memory_kib(pid: int) -> tuple[int, int]:
    """(RSS, PSS) of one process, in KiB."""
    figures = {}
    for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
        name, _, rest = line.partition(":")
        if name in ("Rss", "Pss"):
            figures[name] = int(rest.split()[0])
    return figures["Rss"], figures["Pss"]


def open_pages(browser, address: str, count: int) -> tuple[float, list]:
    """Open `count` pages at once; seconds until the last shows a playable board."""
    contexts, terminals = [], []
    started = time.perf_counter()
    for _ in range(count):
        context = browser.new_context(viewport=DESKTOP)
        page = context.new_page()
        terminal = WebTerminal(page)
        page.goto(address, wait_until="commit")
        contexts.append(context)
        terminals.append(terminal)
    for terminal in terminals:
        terminal.wait_for(lambda text: "Black to move" in text, "the board", timeout=300)
    return time.perf_counter() - started, contexts


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5, help="single visitors to time (median)")
    parser.add_argument("--visitors", default="1,20", help="page counts to measure memory for")
    parser.add_argument("--served", action="store_true", help="a public server's page")
    args = parser.parse_args()
    counts = [int(part) for part in args.visitors.split(",")]
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as home, sync_playwright() as playwright:
        server, address, parent = start_server(home, args.served)
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            times = []
            for _ in range(args.runs):
                seconds, contexts = open_pages(browser, address, 1)
                times.append(seconds)
                for context in contexts:
                    context.close()
                while children_of(parent):
                    time.sleep(0.05)
            print(
                f"page opened to playable board, 1 visitor: median {statistics.median(times):.2f} s"
                f" (min {min(times):.2f}, max {max(times):.2f}, {args.runs} runs)"
            )
            for count in counts:
                seconds, contexts = open_pages(browser, address, count)
                time.sleep(2)  # past start-up: the memory a visitor keeps
                figures = [memory_kib(pid) for pid in children_of(parent)]
                rss = sum(f[0] for f in figures) / len(figures) / 1024
                pss = sum(f[1] for f in figures) / len(figures) / 1024
                print(
                    f"{count:>2} visitor(s): all playable after {seconds:.2f} s; per visitor "
                    f"RSS {rss:.1f} MiB, PSS {pss:.1f} MiB ({len(figures)} game processes)"
                )
                for context in contexts:
                    context.close()
                while children_of(parent):
                    time.sleep(0.05)
        finally:
            browser.close()
            server.send_signal(signal.SIGINT)
            server.wait(timeout=60)
    return 0


if __name__ == "__main__":
    sys.exit(main())
