"""A real Chromium (Debian's `chromium`) driven by Playwright, looking at the
game's page: the terminal the page draws is read back by feeding the bytes the
game sends into a terminal emulator (pyte) of the page's size, so a test reads
the screen as the player sees it and clicks where a square is drawn."""

from __future__ import annotations

import json
import os
import re
import shutil
import time
from collections.abc import Callable
from pathlib import Path
from urllib.parse import urlsplit

import pytest

CHROMIUM = "/usr/bin/chromium"
# Headless, and nothing the browser would fetch on its own behalf.
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
PHONE = {"width": 390, "height": 844}  # an upright phone, in CSS pixels
DESKTOP = {"width": 1000, "height": 700}

_COLUMN_LETTERS = re.compile(r"a +b +c +d +e +f +g +h")


def chromium_or_skip() -> str:
    """The browser's path; the test is skipped (with why) where it is missing."""
    pytest.importorskip("playwright.sync_api", reason="Playwright for Python is not installed")
    pytest.importorskip("pyte", reason="pyte (the test's terminal emulator) is not installed")
    if not (os.access(CHROMIUM, os.X_OK) or shutil.which("chromium")):
        pytest.skip(f"no Chromium at {CHROMIUM} (apt-get install chromium)")
    return CHROMIUM if os.access(CHROMIUM, os.X_OK) else str(shutil.which("chromium"))


class WebTerminal:
    """The screen of one page's game, as the page shows it."""

    def __init__(self, page) -> None:
        import pyte

        self.page = page
        self._pyte = pyte
        self.screen = pyte.Screen(80, 24)
        self._stream = pyte.ByteStream(self.screen)
        self.requests: list[str] = []
        page.on("request", lambda request: self.requests.append(request.url))
        page.on("websocket", self._watch)

    def _watch(self, socket) -> None:
        query = dict(
            part.split("=", 1) for part in urlsplit(socket.url).query.split("&") if "=" in part
        )
        if "width" in query:
            self.screen.resize(int(query["height"]), int(query["width"]))
        socket.on("framesent", self._sent)
        socket.on("framereceived", self._received)

    def _sent(self, payload) -> None:
        message = json.loads(payload) if isinstance(payload, str) else None
        if message and message[0] == "resize":
            self.screen.resize(message[1]["height"], message[1]["width"])

    def _received(self, payload) -> None:
        if isinstance(payload, bytes):
            self._stream.feed(payload)

    def text(self) -> str:
        """The screen's lines, as text."""
        return "\n".join(self.screen.display)

    def wait_for(self, check: Callable[[str], bool], what: str, timeout: float = 30.0) -> str:
        """Wait (letting the page run) until `check(screen text)`; fail saying `what`."""
        deadline = time.monotonic() + timeout
        while True:
            text = self.text()
            if check(text):
                return text
            if time.monotonic() > deadline:
                pytest.fail(f"timed out waiting for {what}; the screen:\n{text}")
            self.page.wait_for_timeout(100)

    def moves_played(self, plies: int) -> bool:
        """Whether the move log shows at least `plies` moves (a pass counts)."""
        return re.search(rf"\b{plies} +(?:[a-h][1-8]|pass)\b", self.text()) is not None

    def board_drawn(self) -> bool:
        """Whether the whole board is on the screen (output may come in pieces)."""
        lines = self.screen.display
        labels = {line[:1] for line in lines}
        return (
            any(_COLUMN_LETTERS.search(line) for line in lines)
            and set("12345678") <= labels
            and any(line[2:3] == "└" for line in lines)
        )

    def square_cell(self, square: str) -> tuple[int, int]:
        """The screen's (line, column) at the middle of `square` ("d3"), once the board is drawn."""
        self.wait_for(lambda _text: self.board_drawn(), "the whole board")
        lines = self.screen.display
        header = next(i for i, line in enumerate(lines) if _COLUMN_LETTERS.search(line))
        column = lines[header].index(square[0], _COLUMN_LETTERS.search(lines[header]).start())
        row = next(i for i in range(header + 1, len(lines)) if lines[i][:1] == square[1])
        return row, column

    def square_point(self, square: str) -> tuple[float, float]:
        """The page's pixel at the middle of `square` ("d3"), once the board is drawn."""
        row, column = self.square_cell(square)
        box = self.page.locator(".xterm-screen").bounding_box()
        cell_width = box["width"] / self.screen.columns
        cell_height = box["height"] / self.screen.lines
        return box["x"] + (column + 0.5) * cell_width, box["y"] + (row + 0.5) * cell_height


def children_of(pid: int) -> set[int]:
    """The ids of the processes whose parent is `pid` (a page server's games)."""
    children = set()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue  # ended while we looked
        # The parent's id is the second field after the name, which may hold spaces.
        if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
            children.add(int(entry.name))
    return children
