"""A table's finished game in its players' saved games: the server keeps it for
both with both names, the result and how it ended (a resignation here); the
list, the JSON, GGF's RE and loading it at home all say so, and it loads as
a finished game, to review and analyse at once. A game with no move is not
kept."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest

from tui_reversi.core import Color, Ending, Game
from tui_reversi.server.ledger.archive import Archive
from tui_reversi.server.ledger.store import PlayedGame
from tui_reversi.storage import SavedGames
from tui_reversi.storage.ggf import export_ggf, parse_ggf
from tui_reversi.widgets.analysis_panel import AnalysisPanel

from .conftest import settle, status
from .test_keeping import keeping_app as keeping_app  # the fixture

RESIGNED = "bob (White) resigned: alice (Black) wins."


async def kept(tmp_path, transcript: str = "f5d6c3d3") -> dict[str, SavedGames]:
    """alice (Black) and bob's game at table ABCDE, bob resigned: each one's saved games."""
    archive = Archive(tmp_path / "archive.sqlite3", tmp_path / "players")
    started = datetime(2026, 11, 26, 1, 0, tzinfo=UTC)
    end = Ending("resigned", Color.BLACK, RESIGNED)
    game = Game.from_transcript(transcript)
    assert await archive.keep(PlayedGame("ABCDE", game, ("alice", "bob"), started, end)) == []
    await archive.close()
    return {
        name: SavedGames(tmp_path / "players" / name / "data" / "tui-reversi" / "games")
        for name in ("alice", "bob")
    }


async def test_both_players_saved_games_name_both_and_say_who_won_and_how(tmp_path):
    for games in (await kept(tmp_path)).values():
        (entry,) = games.list()
        assert entry.players == "alice v bob"
        assert entry.status == "Black wins: White resigned"  # not "White to move"
        record = entry.record
        assert record.ending == Ending("resigned", Color.BLACK, RESIGNED)
        assert json.loads(entry.path.read_text())["result"] == {
            "reason": "resigned",
            "winner": "black",
            "text": RESIGNED,
        }
        ggf = export_ggf(record)
        assert "PB[alice]PW[bob]RE[+64.00:r]" in ggf  # not RE[?]
        assert parse_ggf(ggf).ending == Ending("resigned", Color.BLACK)


async def test_a_table_game_with_no_move_is_not_kept_in_anyones_saved_games(tmp_path):
    for games in (await kept(tmp_path, transcript="")).values():
        assert games.list() == []


@pytest.mark.asyncio
async def test_a_table_game_loaded_at_home_is_finished_and_analysed_at_once(tmp_path, keeping_app):
    path = (await kept(tmp_path))["bob"].list()[0].path
    app, _ = keeping_app(load=str(path))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        assert app.match.is_over and app.match.ending is not None
        over = app.screen
        assert over.headline == "alice wins." and RESIGNED in over.detail
        await pilot.press("escape")
        await settle(pilot, app)
        assert "Black alice vs White bob" in str(app.screen.query_one("#title-bar").content)
        assert status(app).startswith("Game over")  # no seat waits for a move nobody makes
        # the score panel keeps saying who won and how once the result is closed
        assert app.screen.query_one("ScorePanel").scoreboard.status == "Black wins: White resigned"
        await pilot.press("a")  # at once, not only after , (review)
        await settle(pilot, app)
        assert app.screen.query_one(AnalysisPanel).running or app.screen.analysis.known.moves
        assert status(app).startswith(("Analysing every move", "Analysis done"))


@pytest.mark.asyncio
async def test_a_finished_table_game_at_home_offers_review_not_undo_or_hint(tmp_path, keeping_app):
    path = (await kept(tmp_path))["bob"].list()[0].path
    app, _ = keeping_app(load=str(path))
    async with app.run_test(size=(120, 24)) as pilot:
        await settle(pilot, app)
        await pilot.press("escape")  # the game-over screen
        await settle(pilot, app)
        bar = app.screen.query_one("KeyBar").render().plain
        assert "Undo" not in bar and "Hint" not in bar and "Redo" not in bar
        assert "Analyse" in bar and "play" not in bar.lower()
        await pilot.press("u", "i")  # nothing drops the resignation
        await settle(pilot, app)
        assert app.match.ending == Ending("resigned", Color.BLACK, RESIGNED)
        assert app.match.game.length == 4
        await pilot.press("f1")
        await settle(pilot, app)
        keys = app.screen.query_one("#help-text").content.plain
        assert "Review" in keys or "review" in keys
        assert "Undo" not in keys and "Hint" not in keys
