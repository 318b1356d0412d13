"""The game in a real browser: `tui-reversi web` seen through Chromium."""

from __future__ import annotations

import re
import time
from urllib.parse import urlsplit

from .browser import DESKTOP, PHONE, WebTerminal


def open_page(browser, address: str, viewport: dict, *, phone: bool = False):
    context = browser.new_context(viewport=viewport, has_touch=phone, is_mobile=phone)
    page = context.new_page()
    terminal = WebTerminal(page)
    page.goto(address)
    terminal.wait_for(lambda text: "Black to move" in text, "the board")
    return context, page, terminal


def test_a_click_on_a_legal_square_plays_it_and_the_computer_answers(browser, page_server):
    context, page, terminal = open_page(browser, page_server.address, DESKTOP)
    try:
        assert "No moves yet" in terminal.text()
        page.mouse.click(*terminal.square_point("d3"))
        text = terminal.wait_for(
            lambda text: terminal.moves_played(2) and "Black to move" in text,
            "d3 played and White's answer",
        )
        assert re.search(r"\b1 d3 +2 [a-h][1-8]\b", text), text
    finally:
        context.close()
    # Everything the page loaded came from the game's own address.
    hosts = {urlsplit(url).hostname for url in terminal.requests}
    assert hosts == {"127.0.0.1"}, terminal.requests


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
    # The game ended as a terminal's game does: saved, offered at the next visit.
    context, page, terminal = open_page_to_resume(browser, page_server.address)
    context.close()


def open_page_to_resume(browser, address: str):
    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    terminal = WebTerminal(page)
    page.goto(address)
    terminal.wait_for(lambda text: "Resume your unfinished game?" in text, "the resume offer")
    return context, page, terminal
