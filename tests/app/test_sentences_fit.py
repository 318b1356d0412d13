"""Every sentence a player must read fits, or wraps whole, at 80x24 and 60x21:
read off the rendered screen, as the player sees it."""

from __future__ import annotations

import io
import re

import pytest
from rich.console import Console

from tui_reversi.core import Color, Game
from tui_reversi.players.analysis import GameAnalysis, analyse_game
from tui_reversi.players.base import Limit
from tui_reversi.screens.game import GameScreen
from tui_reversi.widgets.analysis_panel import summary_text

from .test_at_table import at_table, wait_for  # noqa: F401 (a fixture)

SIZES = [(80, 24), (60, 21)]
# A whole game (random moves, so the analysis finds much to say).
WHOLE_GAME = (
    "c4c5f6c3b5g7e3e6c2f3g3a5h8b3f4f2b4f5f7h3a3d2e2e1a6e7d7c1c6g8f1g4d1b6b1d3g6b7"
    "f8a7c7h6a8b2g5g2a1d6h2h5a4d8c8h7e8a2h4b8g1h1"
)


def screen_lines(app) -> list[str]:
    """The screen's lines as the player reads them."""
    width, height = app.size
    console = Console(
        width=width, height=height, file=io.StringIO(), force_terminal=True, record=True
    )
    console.print(app.screen._compositor.render_update(full=True))
    return console.export_text().splitlines()


def panel(lines: list[str], title: str) -> list[str]:
    """The text inside the bordered panel called `title`, a line each."""
    top = next(i for i, line in enumerate(lines) if f"─ {title} ─" in line)
    left = lines[top].index("╭")
    right = lines[top].index("╮", left)
    inside = []
    for line in lines[top + 1 :]:
        if line[left] == "╰":
            break
        inside.append(line[left + 1 : right].strip(" ▁▄█"))
    return inside


@pytest.mark.parametrize("size", SIZES)
async def test_after_an_analysis_the_moves_keep_their_room_and_the_summary_its_sentences_whole(
    make_app, size
):
    app = make_app(transcript=WHOLE_GAME, white="human")
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        screen = next(each for each in app.screen_stack if isinstance(each, GameScreen))
        game = app.match.game
        screen.analysis.known = GameAnalysis(tuple(analyse_game(game, Limit(depth=3))))
        screen.show()
        await pilot.press("escape")  # the game-over dialog
        await pilot.pause()
        lines = screen_lines(app)
        moves = panel(lines, "Moves")
        assert len(moves) >= 4, "\n".join(lines)  # the heading and three moves
        assert any(re.search(r"\b60\b.*h1", line) for line in moves), "\n".join(lines)
        shown = " ".join(panel(lines, "Analysis"))
        said = summary_text(game, screen.analysis.known).split("\n")
        left_out = [sentence for sentence in said if sentence not in shown]
        assert said[0] in shown, shown  # Black's line at least
        # What is shown is whole sentences, in order; a sentence left out is said
        # to be (at 60x21 both players' lines leave no room to say so).
        assert shown.startswith(" ".join(said[: len(said) - len(left_out)]))
        if left_out and size == (80, 24):
            assert shown.endswith("(more with g Graph)"), shown


# (tables.py's words when a relayed game's node goes quiet)
CUT_OFF = (
    "bob cannot be heard (the server lost its database): the game is adjourned until bob is back."
)


@pytest.mark.parametrize("size", SIZES)
async def test_a_table_s_news_longer_than_the_line_wraps_whole(at_table, size):  # noqa: F811
    app, server = at_table(Color.WHITE, game=Game.from_transcript("d3"))
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        server.say(f"adjourned {CUT_OFF}")
        await wait_for(pilot, lambda: "cannot be heard" in " ".join(screen_lines(app)), "the news")
        await pilot.pause()
        lines = screen_lines(app)
        keys = len(lines) - 1  # the key bar's line
        said = [line.strip() for line in lines[:keys] if line.strip()]
        start = next(i for i, line in enumerate(said) if line.startswith("bob cannot be heard"))
        assert " ".join(said[start:]) == CUT_OFF, "\n".join(lines)
        if size == (80, 24):  # room to spare: the board stays whole
            assert any("└───┴" in line for line in lines), "\n".join(lines)
        assert "Help" in lines[keys]  # the key bar stays


@pytest.mark.parametrize("size", SIZES)
async def test_the_title_gives_way_by_whole_parts_not_cut(make_app, size):
    app = make_app(transcript="d3c3f5f4f3d2d1e3", white="human")  # the Diagonal Opening
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        title = screen_lines(app)[0].strip()
        assert "…" not in title and title.endswith("Black Human vs White Human · Diagonal Opening")
        await pilot.press("comma")  # the review banner, its keys in short
        await pilot.pause()
        banner = screen_lines(app)[0].strip()
        assert "…" not in banner and banner.startswith("REVIEWING MOVE 7 OF 8"), banner


@pytest.mark.parametrize("size", SIZES)
async def test_the_score_panel_s_result_wraps_whole(make_app, size):
    app = make_app(transcript="d3c3f5f4f3d2d1e3", white="human")  # Black's b3 ends it 64-0
    async with app.run_test(size=size) as pilot:
        await pilot.press("b", "3", "escape")  # the game-over dialog closed
        await pilot.pause()
        score = panel(screen_lines(app), "Score")
        assert " ".join(line for line in score[2:] if line) == "Black wins 64-0 (discs 13-0)"
