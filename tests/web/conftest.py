"""A `tui-reversi web` of the test's own (its games in the test's temporary
home) and one headless Chromium for the module's tests."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys

import pytest

from .browser import CHROMIUM_ARGS, children_of, chromium_or_skip


class PageServer:
    """A running `tui-reversi web --port 0`: where it is, and what it runs."""

    def __init__(self, process: subprocess.Popen[str], address: str) -> None:
        self.process = process
        self.address = address

    def games(self) -> set[int]:
        """The ids of the game processes it runs now (its children)."""
        return children_of(self.process.pid)


@pytest.fixture
def page_server(isolated_home):
    process = subprocess.Popen(
        [sys.executable, "-m", "tui_reversi", "web", "--port", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        line = process.stdout.readline() if process.stdout else ""
        found = re.search(r"http://127\.0\.0\.1:\d+/", line)
        assert found, f"no address in {line!r}"
        yield PageServer(process, found.group(0))
    finally:
        process.send_signal(signal.SIGINT)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
            pytest.fail("tui-reversi web did not stop on ctrl+c")


@pytest.fixture(scope="module")
def browser():
    path = chromium_or_skip()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=path, args=CHROMIUM_ARGS)
        try:
            yield chromium
        finally:
            chromium.close()


@pytest.fixture(autouse=True)
def _no_proxy(monkeypatch):
    # The browser and the page's games talk to 127.0.0.1 directly.
    for name in ("http_proxy", "https_proxy", "HTTP_PROXY", "HTTPS_PROXY"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setitem(os.environ, "NO_PROXY", "127.0.0.1,localhost")


def pytest_configure(config):
    config.addinivalue_line(
        "markers", "serve_options(*options): more options for the served page's server"
    )
