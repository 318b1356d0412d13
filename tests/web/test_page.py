"""The game in a real browser: `tui-reversi web` seen through Chromium."""

from __future__ import annotations

import re
import signal
import time
from pathlib import Path
from urllib.parse import urlsplit

from .browser import DESKTOP, PHONE, WebTerminal


def open_page(
    browser, address: str, viewport: dict, *, phone: bool = False, shows: str = "Black to move"
):
    """A new tab (its own browser context) on the page, once the game `shows` its text."""
    context = browser.new_context(viewport=viewport, has_touch=phone, is_mobile=phone)
    page = context.new_page()
    terminal = WebTerminal(page)
    page.goto(address)
    terminal.wait_for(lambda text: shows in text, repr(shows))
    return context, page, terminal


def test_a_click_on_a_legal_square_plays_it_and_the_computer_answers(browser, page_server):
    context, page, terminal = open_page(browser, page_server.address, DESKTOP)
    try:
        terminal.wait_for(lambda text: "No moves yet" in text, "the empty move list")
        page.mouse.click(*terminal.square_point("d3"))
        terminal.wait_for(
            lambda text: (
                terminal.moves_played(2)
                and "Black to move" in text
                and re.search(r"\b1 d3 +2 [a-h][1-8]\b", text) is not None
            ),
            "d3 played and White's answer",
        )
    finally:
        context.close()
    # Everything the page loaded came from the game's own address.
    hosts = {urlsplit(url).hostname for url in terminal.requests}
    assert hosts == {"127.0.0.1"}, terminal.requests


def test_the_page_takes_the_keyboard_when_it_loads_and_after_a_click_anywhere(browser, page_server):
    context, page, terminal = open_page(browser, page_server.address, DESKTOP)
    try:
        page.keyboard.type("f5")  # no click first
        terminal.wait_for(lambda text: terminal.moves_played(1) and " 1 f5" in text, "f5 played")
        keys = "document.activeElement.classList.contains('xterm-helper-textarea')"
        assert page.evaluate(keys)
        page.evaluate("document.activeElement.blur()")  # (as after a click on another window)
        assert not page.evaluate(keys)
        page.mouse.click(DESKTOP["width"] - 2, DESKTOP["height"] - 2)  # the page's corner
        assert page.evaluate(keys)
        page.keyboard.type("?")
        terminal.wait_for(lambda text: "Keys" in text, "the help, opened from the keyboard")
    finally:
        context.close()


def test_white_discs_are_drawn_as_solid_as_black_ones_in_their_own_colour(browser, page_server):
    # A hollow white disc read as a zero on the page: both are solid, told apart by colour.
    context, _page, terminal = open_page(browser, page_server.address, DESKTOP)
    try:
        discs = {}
        for square in ("d4", "e4"):  # White's and Black's at the start
            row, column = terminal.square_cell(square)
            cells = [terminal.screen.buffer[row][x] for x in range(column - 2, column + 3)]
            discs[square] = ("".join(cell.data for cell in cells), {cell.fg for cell in cells})
        assert discs["d4"][0] == discs["e4"][0] and "█" in discs["d4"][0], discs
        assert discs["d4"][1] != discs["e4"][1], discs
    finally:
        context.close()


def test_on_a_phone_the_board_takes_the_width_and_taps_play(browser, page_server):
    context, page, terminal = open_page(browser, page_server.address, PHONE, phone=True)
    try:
        lines = terminal.text().splitlines()
        board_bottom = max(i for i, line in enumerate(lines) if line.lstrip().startswith("└"))
        score = next(i for i, line in enumerate(lines) if "Score" in line)
        assert score > board_bottom  # the score under the board, not beside it
        page.touchscreen.tap(*terminal.square_point("d3"))
        terminal.wait_for(
            lambda text: terminal.moves_played(2) and "Black to move" in text,
            "d3 played by a tap, and the answer",
        )
        assert " 1 d3 " in terminal.text()
        # The key bar's entries are buttons: a tap on "? Help" opens the help.
        keys = terminal.screen.lines - 1
        column = terminal.screen.display[keys].index("Help")
        box = page.locator(".xterm-screen").bounding_box()
        cell = box["width"] / terminal.screen.columns, box["height"] / terminal.screen.lines
        page.touchscreen.tap(box["x"] + (column + 1) * cell[0], box["y"] + (keys + 0.5) * cell[1])
        terminal.wait_for(lambda text: "Keys" in text, "the help")
    finally:
        context.close()


def test_a_visitor_who_closes_the_tab_leaves_no_game_running_and_the_game_saved(
    browser, page_server, isolated_home
):
    context, page, terminal = open_page(browser, page_server.address, DESKTOP)
    games = page_server.games()
    assert len(games) == 1
    page.mouse.click(*terminal.square_point("d3"))
    terminal.wait_for(lambda text: " 1 d3 " in text, "d3 played")
    context.close()
    deadline = time.monotonic() + 30
    while page_server.games() and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not page_server.games()
    # The game ended as a terminal's game does: saved, and offered at the next visit.
    context, _page, _terminal = open_page(
        browser, page_server.address, DESKTOP, shows="Resume your unfinished game?"
    )
    context.close()


def test_stopping_the_server_ends_every_open_game(browser, page_server):
    contexts = [open_page(browser, page_server.address, DESKTOP)[0] for _ in range(2)]
    games = page_server.games()
    assert len(games) == 2
    try:
        page_server.process.send_signal(signal.SIGINT)
        assert page_server.process.wait(timeout=30) == 0
        for pid in games:
            assert not Path(f"/proc/{pid}").exists() or "zombie" in _state(pid)
    finally:
        for context in contexts:
            context.close()


def _state(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/status").read_text().lower()
    except OSError:
        return "zombie"
