"""Keeping the player's games in the app: autosave after every change, the
resume offer, save/load/delete, import/export/copy, and the settings screen.
Every test runs in its own XDG directories (tests/conftest.py)."""

import json
import shutil
import tempfile
import tomllib
from dataclasses import replace
from pathlib import Path

import pytest
from textual import events
from textual.widgets import DataTable, Input
from textual.widgets._data_table import default_cell_formatter

from tui_reversi.core import Color, Game
from tui_reversi.match import Match
from tui_reversi.players.base import Limit
from tui_reversi.screens.game import GameScreen
from tui_reversi.session import AUTO_THEME, EARLIER_NAME, PREVIOUS_NAME, Session
from tui_reversi.storage import (
    Autosave,
    SavedGame,
    SavedGames,
    export_ggf,
    export_position,
    export_transcript,
    settings_path,
)
from tui_reversi.widgets.choice import ChoiceRow
from tui_reversi.widgets.themes import theme_names

from .conftest import (
    FirstMovePlayer,
    in_front,
    moves,
    settle,
    showing,
    status,
    title,
    until,
)

OPENING = "f5d6c3d3c4"


def autosaved(transcript: str, black: str = "human", white: str = "easy") -> SavedGame:
    record = SavedGame.from_game(Game.from_transcript(transcript), black, white)
    Autosave().save(record)
    return record


def on_disk() -> dict:
    return json.loads(Autosave().path.read_text())


@pytest.fixture
def keeping_app(make_app):
    """The app as the CLI builds it: a Session read from the (temporary) user
    directories, its game and options, and a computer that answers at once."""

    sessions: list[Session] = []

    def make(*, cli: dict | None = None, player=None, **session_args):
        for earlier in sessions:  # each start is a new process: the last one has ended
            earlier.close()
        session = Session.start(themes=theme_names(), **session_args)
        sessions.append(session)
        cli = cli or {}
        match = session.start_match(black=cli.get("black"), white=cli.get("white"))
        settings = session.settings_for(cli)
        if settings.theme == AUTO_THEME:
            settings = replace(settings, theme="reversi")  # the tests' theme, not the terminal's
        app = make_app(
            match=match, session=session, player=player or FirstMovePlayer(), settings=settings
        )
        return app, session

    return make


def row(table: DataTable, index: int) -> list[str]:
    """A row of the saved-games list as the player reads it."""
    return [str(cell) for cell in table.get_row_at(index)]


async def wait_saved(pilot, app, session):
    await settle(pilot, app)
    assert session.flush(5)


# -- autosave ------------------------------------------------------------------------


async def test_every_move_is_autosaved_with_its_players(keeping_app):
    app, session = keeping_app(cli={"white": "human"})
    async with app.run_test(size=(80, 24)) as pilot:
        assert not Autosave().path.exists()  # nothing is written before a move
        for square in ("f5", "d6", "c3"):
            await pilot.press(*square)
            await wait_saved(pilot, app, session)
            assert on_disk()["moves"] == moves(app)
        await pilot.press("u")
        await wait_saved(pilot, app, session)
        assert on_disk()["moves"] == "f5d6c3" and on_disk()["ply"] == 2  # redo survives
    assert (on_disk()["black"], on_disk()["white"]) == ("human", "human")


def test_a_finished_game_stays_in_the_autosave_but_is_not_offered():
    session = Session.start()
    match = Match("human", "human", Game.from_transcript("d3c3f5f4f3d2d1e3b3"))  # 64-0
    assert match.is_over
    session.match_changed(match)
    assert session.close()
    assert on_disk()["moves"] == "d3c3f5f4f3d2d1e3b3"
    assert Session.start().offer is None


async def test_a_game_open_in_another_session_is_kept_aside_and_the_player_told(keeping_app):
    autosaved(OPENING)
    elsewhere = Session.start(resume=True)  # the same game, open in another terminal
    elsewhere.match_changed(elsewhere.start_match())  # ... which has the autosave
    assert elsewhere.flush(5)
    app, session = keeping_app(resume=True, cli={"white": "human"})
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        await pilot.press("f", "4")
        await wait_saved(pilot, app, session)
        await pilot.pause()
        (notice,) = [n.message for n in app._notifications]
        assert "Another session is playing in this autosave" in notice and "(o lists it)" in notice
        await pilot.press("c", "5")
        await wait_saved(pilot, app, session)
        assert moves(app) == OPENING + "f4c5"
        assert len(app._notifications) == 1  # said once, not after every move
    assert on_disk()["moves"] == OPENING  # the other session's game is untouched
    (kept,) = Autosave().earlier_paths()
    assert json.loads(kept.read_text())["moves"] == moves(app)
    elsewhere.close()


# -- the resume offer ----------------------------------------------------------------


async def test_resume_offer_resume_carries_on_where_it_was(keeping_app):
    autosaved(OPENING)
    app, session = keeping_app()
    player = app.referee.seat(Color.WHITE).strategy
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert type(app.screen).__name__ == "ResumeScreen"
        assert "Move 6, White to move" in str(app.screen.query_one("#resume-game").content)
        offer = str(app.screen.query_one("#resume-new").content)
        assert "Human vs Easy, Othello" in offer  # the new game it offers instead
        bar = app.screen.query_one("KeyBar").render().plain
        assert "Resume" in bar and "New game" in bar and "Undo" not in bar, bar
        assert player.asked == 0  # nothing moves behind the question
        await pilot.press("r")
        await wait_saved(pilot, app, session)
        assert isinstance(app.screen, GameScreen)
        assert moves(app).startswith(OPENING) and app.match.game.length == 6  # Easy replied
        assert on_disk()["moves"] == moves(app)
    assert not Autosave().previous_path.exists()  # the same game, not another one


async def test_resume_offer_new_game_keeps_the_unfinished_one(keeping_app):
    autosaved(OPENING)
    app, session = keeping_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("n")
        await wait_saved(pilot, app, session)
        assert moves(app) == "" and app.match.white == "easy"
        assert "The unfinished one is kept" in status(app)
        await pilot.press("o")
        table = (await in_front(pilot, "SavedGamesScreen")).query_one(DataTable)
        assert row(table, 0)[0] == PREVIOUS_NAME
        await pilot.press("enter")  # it loads like a saved game
        await until(pilot, lambda: moves(app).startswith(OPENING), "the game loaded")
        await wait_saved(pilot, app, session)
    assert json.loads(Autosave().path.read_text())["moves"].startswith(OPENING)


async def test_three_new_games_in_a_row_lose_none_of_the_unfinished_ones(keeping_app):
    autosaved(OPENING)
    for _ in range(2):  # two more starts, each choosing a new game and playing f5
        app, session = keeping_app(new=True)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await pilot.press("f", "5")
            await wait_saved(pilot, app, session)
    app, session = keeping_app(new=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("o")
        await pilot.pause()
        table = app.screen.query_one(DataTable)
        names = [row(table, index)[0] for index in range(table.row_count)]
        # The last start's new game set the second f5 game aside at once, in
        # place of the first: the same moves by the same players (one copy).
        assert names == [PREVIOUS_NAME, EARLIER_NAME]
        await pilot.press("down", "enter")  # the first game is still there
        await wait_saved(pilot, app, session)
        assert moves(app).startswith(OPENING)


async def test_a_finished_game_is_listed_at_once_after_a_restart(keeping_app):
    autosaved("d3c3f5f4f3d2d1e3b3")  # over: 64-0, not offered for resume
    app, _ = keeping_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("o")  # before any move in the new game
        await pilot.pause()
        table = app.screen.query_one(DataTable)
        assert [row(table, i)[0] for i in range(table.row_count)] == [PREVIOUS_NAME]
        assert row(table, 0)[-2:] == ["64-0", "Black won"]


async def test_games_nobody_moved_in_are_not_listed(keeping_app):
    autosaved(OPENING)
    for _ in range(3):  # three starts that choose a new game and play nothing
        app, session = keeping_app(new=True)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await pilot.press("n", "enter")
            await wait_saved(pilot, app, session)
    app, session = keeping_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("o")
        await pilot.pause()
        table = app.screen.query_one(DataTable)
        assert [row(table, i)[0] for i in range(table.row_count)] == [PREVIOUS_NAME]
        assert row(table, 0)[3] == "5"  # the opening, not "0 moves"


async def test_resume_and_new_flags_do_not_ask(keeping_app):
    autosaved(OPENING)
    app, _ = keeping_app(resume=True, player=FirstMovePlayer())
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        assert isinstance(app.screen, GameScreen) and moves(app).startswith(OPENING)
    app, _ = keeping_app(new=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, GameScreen) and moves(app) == ""


def broken_files(settings: str, autosave: str) -> None:
    for path, text in ((settings_path(), settings), (Autosave().path, autosave)):
        path.parent.mkdir(parents=True)
        path.write_text(text)


def start_problems(app) -> list[str]:
    assert type(app.screen).__name__ == "StartProblemsScreen"
    return [str(p.content) for p in app.screen.query(".problem")]


async def test_start_notes_and_settings_warnings_are_shown_once(keeping_app):
    broken_files('white = "grandmaster"\n', "{broken")
    app, session = keeping_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        shown = start_problems(app)
        assert any('Sets white to "grandmaster"' in n for n in shown), shown
        assert any(n.startswith("The autosave is damaged") for n in shown), shown
        assert session.take_notes() == []
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, GameScreen)


async def test_many_start_problems_are_one_dialog_readable_at_80x24(keeping_app):
    broken_files('ascii = "banana"\ncolour = 3\nwhite = "god"\n', '{"format": "tui-rev')
    app, _ = keeping_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert not app._notifications  # no toasts stacked over the board
        shown = start_problems(app)
        assert len(shown) == 5 and shown[0].startswith("The settings file "), shown
        assert shown[1].startswith('Sets ascii to "banana"'), shown  # the file named once
        assert not any(" at at " in n for n in shown), shown
        screen = app.screen
        for problem in screen.query(".problem"):  # every line of every one on screen
            assert screen.region.contains_region(problem.region), problem.region
        assert screen.query_one("#problems").max_scroll_y == 0
        bar = screen.query_one("KeyBar").render().plain
        assert "OK" in bar and "New game" not in bar


# -- save, load, delete -----------------------------------------------------------------


async def test_save_under_a_name_asks_before_replacing_and_loads_back(keeping_app):
    app, _ = keeping_app(cli={"white": "human"})
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("f", "5", "s")
        await in_front(pilot, "SaveGameScreen")
        await pilot.pause()  # (its key bar drawn)
        bar = app.screen.query_one("KeyBar").render().plain
        assert "Save" in bar and "Cancel" in bar and "Undo" not in bar, bar
        name = app.screen.query_one("#name", Input)
        name.value = "Sunday"
        await pilot.press("enter")
        await until(pilot, lambda: said(app) == "Saved as 'Sunday'.", "the game saved")
        await pilot.press("d", "6", "s")
        dialog = await in_front(pilot, "SaveGameScreen")
        assert dialog.query_one("#name", Input).value == "Sunday"  # its name by now
        await pilot.press("enter")
        question = await in_front(pilot, "ConfirmScreen")
        assert "already exists. Replace it?" in str(question.query_one("#dialog-title").content)
        await pilot.press("y")
        await pilot.pause()
        assert SavedGames().load("sunday").transcript == "f5d6"
        await pilot.press("n", "enter")  # a new game, then back to Sunday
        await pilot.pause()
        await pilot.press("o")
        await pilot.pause()
        table = app.screen.query_one(DataTable)
        assert row(table, 0)[:5] == [
            "Sunday",
            row(table, 0)[1],
            "Human v Human",
            "2",
            "3-3",
        ]
        await pilot.press("enter")
        await pilot.pause()
        assert moves(app) == "f5d6" and status(app) == "Loaded 'Sunday'."


async def test_delete_asks_first_and_unreadable_games_say_why(keeping_app):
    games = SavedGames()
    games.save(SavedGame.from_game(Game.from_transcript("f5")), "keep me")
    games.save(SavedGame.from_game(Game.from_transcript("f5d6")), "delete me")
    (games.directory / "broken.json").write_text('{"format": "tui-reversi game"}')
    app, _ = keeping_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("o")
        await pilot.pause()
        table = app.screen.query_one(DataTable)
        rows = {row(table, i)[0]: i for i in range(table.row_count)}
        assert set(rows) == {"keep me", "delete me", "broken"}
        table.move_cursor(row=rows["broken"])
        await pilot.pause()
        assert row(table, rows["broken"])[-1] == "unreadable"
        describe = str(app.screen.query_one("#describe").content)
        assert describe.startswith("broken cannot be read: broken.json is damaged: its")
        await pilot.press("enter")
        await pilot.pause()
        problem = str(app.screen.query_one("#problem").content)
        assert problem.startswith("'broken' cannot be loaded: "), problem  # its name as written
        table.move_cursor(row=rows["delete me"])
        await pilot.press("d")
        await in_front(pilot, "ConfirmScreen")
        await pilot.press("n")  # no: nothing happens
        await in_front(pilot, "SavedGamesScreen")
        assert games.exists("delete me")
        await pilot.press("d")
        await in_front(pilot, "ConfirmScreen")
        await pilot.press("y")
        await until(pilot, lambda: not games.exists("delete me"), "the game deleted")
        await in_front(pilot, "SavedGamesScreen")
        assert games.exists("keep me")
        assert table.row_count == 2


# -- import, export, copy ----------------------------------------------------------------


async def test_import_pasted_text_or_a_path_with_chosen_players(keeping_app, tmp_path):
    app, _ = keeping_app(cli={"white": "human"})
    ggf = export_ggf(SavedGame.from_game(Game.from_transcript(OPENING), "human", "hard"))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("o", "i")
        dialog = await in_front(pilot, "ImportScreen")
        source = dialog.query_one("#source", Input)
        source.value = "f5 f5"
        await pilot.press("enter")
        problem = dialog.query_one("#problem")
        await until(pilot, lambda: "illegal" in str(problem.content), "the import's problem")
        source.value = ggf
        await pilot.press("enter")
        await settle(pilot, app)
        assert moves(app).startswith(OPENING)  # and Hard, its White, has replied
        assert (app.match.black, app.match.white) == ("human", "hard")
        path = tmp_path / "game.txt"
        path.write_text("f5d6\nc3\n")
        app.post_message(events.Paste(str(path)))  # as the terminal sends a paste
        dialog = await in_front(pilot, "ImportScreen")
        source = dialog.query_one("#source", Input)
        await until(pilot, lambda: source.value == str(path), "the path pasted in")
        await pilot.press("tab", "right")  # Black: As saved -> Human... then White
        await pilot.press("down", "right", "right")  # White: Easy
        await pilot.press("enter")
        await settle(pilot, app)
        assert moves(app).startswith("f5d6c3")
        assert (app.match.black, app.match.white) == ("human", "easy")


async def test_a_long_pasted_line_or_odd_file_name_is_one_sentence_in_the_import_box(
    keeping_app, tmp_path, monkeypatch
):
    """Issue 19: a one-line paste of 256+ characters used to crash the app
    (it was tried as a file name first); a file name that looks like markup
    is shown as typed."""
    monkeypatch.chdir(tmp_path)
    app, _ = keeping_app(cli={"white": "human"})
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("f", "5")
        app.post_message(events.Paste(json.dumps({"note": "x" * 300, "moves": ["f5"]})))
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()
        problem = app.screen.query_one("#problem")
        assert str(problem.content) == "The saved game is not a tui-reversi saved game."
        source = app.screen.query_one("#source", Input)
        for name, shown in [
            ("saves/[/b].ggf", "Cannot import saves/[/b].ggf: there is no such file."),
            ("x" * 300 + ".ggf", f"Cannot import {'x' * 99}…{'x' * 96}.ggf: file name too long."),
        ]:
            source.value = name
            await pilot.press("enter")
            await pilot.pause()
            assert str(problem.content) == shown
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, GameScreen) and moves(app) == "f5"


async def test_a_saved_game_named_like_markup_is_listed_as_named(keeping_app):
    record = SavedGame.from_game(Game.from_transcript(OPENING), "human", "hard")
    SavedGames().save(record, "[/b] [b]x")
    app, _ = keeping_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("o")
        await pilot.pause()
        table = app.screen.query_one(DataTable)
        assert default_cell_formatter(table.get_row_at(0)[0]).plain == "[/b] [b]x"
        assert str(app.screen.query_one("#describe").content).startswith("[/b] [b]x: ")


async def test_a_pasted_transcript_keeps_your_colour_and_your_opponent(keeping_app):
    app, _ = keeping_app(cli={"black": "medium", "white": "human"})
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)  # Medium (Black) has opened
        app.post_message(events.Paste("f5d6c3"))  # as the terminal sends a paste
        dialog = await in_front(pilot, "ImportScreen")
        assert "keeps yours: Medium vs Human" in str(dialog.query_one("#describe").content)
        await pilot.press("enter")
        await settle(pilot, app)
        assert (app.match.black, app.match.white) == ("medium", "human")
        assert moves(app) == "f5d6c3"  # White (you) to move: nothing played for you


async def test_export_copies_each_format_and_says_what(keeping_app, tmp_path, monkeypatch):
    app, _ = keeping_app(cli={"white": "human"})
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press(*"f5d6c3")
        await until(pilot, lambda: moves(app) == "f5d6c3", "the moves played")
        record = SavedGame.from_game(app.match.game, "human", "human")
        await pilot.press("x", "c")  # GGF first
        ggf = export_ggf(app.session.record_for(app.match))
        await until(pilot, lambda: app.clipboard == ggf, "the GGF game copied")
        assert status(app).startswith("Copied the GGF game to the clipboard: (;GM[Othello]")
        await pilot.press("x", "left", "left", "enter")
        await until(pilot, lambda: app.clipboard == "f5d6c3", "the transcript copied")
        assert export_transcript(record) == "f5d6c3"
        assert status(app) == "Copied the transcript to the clipboard: f5d6c3"
        await pilot.press("x", "left", "c")
        position = export_position(record)
        await until(pilot, lambda: app.clipboard == position, "the position copied")
        await in_front(pilot, "GameScreen")
        monkeypatch.chdir(tmp_path)
        await pilot.press("x", "w")
        await until(pilot, lambda: isinstance(app.focused, Input), "the file's box")
        file = app.screen.query_one("#file", Input)
        assert file.has_focus and file.value.endswith(".ggf")
        file.value = "out.ggf"
        await pilot.press("enter")
        wrote = f"Wrote the GGF game to {tmp_path / 'out.ggf'}."
        await until(pilot, lambda: said(app) == wrote, "the file written")
        assert (tmp_path / "out.ggf").read_text().startswith("(;GM[Othello]")
        await pilot.press("x", "w")  # the same file again: asks first
        await until(pilot, lambda: isinstance(app.focused, Input), "the file's box")
        app.screen.query_one("#file", Input).value = "out.ggf"
        await pilot.press("enter")
        question = await in_front(pilot, "ConfirmScreen")
        assert "already exists. Replace it?" in str(question.query_one("#dialog-title").content)


@pytest.fixture
def short_data_home(monkeypatch):
    """A data folder as long as a player's (/home/alice/.local/share), not pytest's."""
    short = Path(tempfile.mkdtemp(prefix="data-", dir="/tmp"))
    monkeypatch.setenv("XDG_DATA_HOME", str(short))
    yield short
    shutil.rmtree(short, ignore_errors=True)


@pytest.mark.parametrize("size", [(80, 24), (60, 21)])
async def test_an_export_is_offered_the_games_folder_and_says_where_it_went(
    keeping_app, tmp_path, monkeypatch, short_data_home, size
):
    from tui_reversi.storage import games_dir

    from .test_sentences_fit import screen_lines

    monkeypatch.chdir(tmp_path)  # where the app was started: not where the file goes
    app, _ = keeping_app(cli={"white": "human"})
    async with app.run_test(size=size) as pilot:
        await pilot.press(*"f5d6c3")
        await pilot.press("x", "w")
        await pilot.pause()
        offered = Path(app.screen.query_one("#file", Input).value)
        assert offered.parent == games_dir() and offered.suffix == ".ggf"
        await pilot.press("enter")  # the games folder is made for it
        await pilot.pause()
        said = f"Wrote the GGF game to {offered}."
        assert status(app) == said
        lines = screen_lines(app)
        start = next(i for i, line in enumerate(lines) if line.startswith(" Wrote"))
        shown = "".join(line.strip() for line in lines[start:-1]).replace(" ", "")
        assert shown == said.replace(" ", "")  # whole, over lines (the path folded)
        assert offered.read_text().startswith("(;GM[Othello]")
        assert not list(tmp_path.glob("*.ggf"))
    assert [entry.name for entry in SavedGames().list()] == []  # not a saved game


def test_a_path_at_home_is_shown_from_home(monkeypatch, tmp_path):
    from tui_reversi.storage import shown_path

    monkeypatch.setenv("HOME", str(tmp_path))
    assert shown_path(tmp_path / "games" / "x.ggf") == "~/games/x.ggf"
    assert shown_path(Path("/elsewhere/x.ggf")) == "/elsewhere/x.ggf"


# -- settings ----------------------------------------------------------------------------


def saved_settings() -> dict:
    return tomllib.loads(settings_path().read_text())


async def test_settings_screen_saves_and_applies_by_keyboard(keeping_app):
    app, _ = keeping_app(new=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("t")
        await pilot.pause()
        assert app.screen.query_one("#black", ChoiceRow).has_focus
        await pilot.press("down", "left")  # White: Easy -> Human
        await pilot.press("down", "down", "right")  # Theme: default -> the next one
        await pilot.press("down", "right")  # ASCII: off -> on
        await pilot.press("enter")
        await pilot.pause()
        assert status(app) == "Settings saved."
        saved = saved_settings()
        assert saved["white"] == "human" and saved["ascii"] is True
        assert saved["theme"] == theme_names()[0] == app.theme
        assert app.settings.ascii and app.settings.white == "human"
        assert app.match.white == "easy"  # the game in progress keeps its players
        await pilot.press("t")
        await pilot.pause()
        await pilot.press("right", "escape")  # Esc leaves them as they were
        await pilot.pause()
        assert saved_settings()["black"] == "human"


async def test_the_last_new_game_choice_is_the_next_starts_default(keeping_app):
    app, _ = keeping_app(new=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("n")
        await pilot.pause()
        await pilot.press("down", "right", "enter")  # White: Easy -> Medium
        await settle(pilot, app)
        assert (app.match.black, app.match.white) == ("human", "medium")
        assert saved_settings()["white"] == "medium"
        await pilot.press("t")  # and the settings show it
        await pilot.pause()
        assert app.screen.query_one("#white", ChoiceRow).value == "medium"
    app, _ = keeping_app(new=True)  # the next start
    assert (app.match.black, app.match.white) == ("human", "medium")


async def test_the_invitations_clock_is_remembered_and_the_settings_dialog_keeps_it(
    keeping_app,
):
    app, _ = keeping_app(new=True)
    async with app.run_test(size=(80, 24)) as pilot:
        app.change_settings(clock="10+5")  # (as the lobby does once an invitation is sent)
        assert saved_settings()["clock"] == "10+5"
        await pilot.press("t")
        dialog = await in_front(pilot, "SettingsScreen")
        white = dialog.query_one("#white", ChoiceRow)
        await pilot.press("down", "left")  # White: Easy -> Human
        await until(pilot, lambda: white.value == "human", "White chosen")
        await pilot.press("enter")  # the clock stays
        await until(pilot, lambda: saved_settings()["white"] == "human", "the settings saved")
        assert saved_settings()["clock"] == "10+5"
    app, session = keeping_app(new=True)  # the next start offers it first again
    assert session.settings_for().clock == "10+5" and app.settings.clock == "10+5"


async def test_command_line_options_hold_for_the_run_only(keeping_app):
    app, _ = keeping_app(cli={"ascii": True, "white": "human"}, new=True)
    async with app.run_test(size=(80, 24)) as pilot:
        assert app.settings.ascii
        await pilot.press("m")  # markers off: saved, and only that
        await pilot.pause()
        assert saved_settings()["legal_moves"] is False
        assert saved_settings()["ascii"] is False and saved_settings()["white"] == "easy"
        await pilot.press("t")
        await pilot.pause()
        held = str(app.screen.query_one("#held").content)
        assert "--ascii" in held and "--white" in held and "hold until you quit" in held
        await pilot.press("enter")
        await pilot.pause()
        assert app.settings.ascii  # unchanged in the dialog: the flag still holds


async def test_a_theme_chosen_in_the_palette_is_remembered(keeping_app):
    app, _ = keeping_app(new=True)
    async with app.run_test(size=(80, 24)) as pilot:
        app.theme = "nord"
        await pilot.pause()
    assert saved_settings()["theme"] == "nord"
    assert Session.start(themes=theme_names()).settings_for().theme == "nord"


def test_the_session_writes_where_xdg_says(isolated_home):
    session = Session.start(themes=["reversi"])
    assert session.autosave.path == isolated_home / "data" / "tui-reversi" / "autosave.json"
    assert Path(session.settings_file).parent == isolated_home / "config" / "tui-reversi"


async def test_a_game_loaded_from_a_file_is_autosaved_before_any_move(keeping_app, tmp_path):
    (tmp_path / "game.txt").write_text(OPENING)
    app, session = keeping_app(load=str(tmp_path / "game.txt"), cli={"white": "human"})
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_saved(pilot, app, session)
        assert on_disk()["moves"] == OPENING


async def test_every_dialog_is_plain_ascii_in_ascii_mode(keeping_app):
    import html
    import re

    autosaved(OPENING)
    SavedGames().save(SavedGame.from_game(Game.from_transcript("f5")), "a very long name " * 3)
    app, _ = keeping_app(cli={"ascii": True})
    seen = []
    async with app.run_test(size=(80, 24)) as pilot:
        # Each key once the screen before it is in front (each dialog seen in turn).
        dialogs = (
            ([], "ResumeScreen"),
            (["r", "s"], "SaveGameScreen"),
            (["escape", "o"], "SavedGamesScreen"),
            (["i"], "ImportScreen"),
            (["escape", "x"], "ExportScreen"),
            (["escape", "t"], "SettingsScreen"),
        )
        for keys, dialog in dialogs:
            for key in keys[:-1]:
                await pilot.press(key)
                await in_front(pilot, "GameScreen")
            await pilot.press(*keys[-1:])
            await in_front(pilot, dialog)
            await pilot.pause()  # (drawn)
            seen.append(type(app.screen).__name__)
            svg = app.export_screenshot()
            text = html.unescape("".join(re.findall(r"<text[^>]*>([^<]*)</text>", svg)))
            odd = {char for char in text if ord(char) > 127 and char != "\xa0"}
            assert not odd, (type(app.screen).__name__, odd)
    assert seen == [
        "ResumeScreen",
        "SaveGameScreen",
        "SavedGamesScreen",
        "ImportScreen",
        "ExportScreen",
        "SettingsScreen",
    ]


async def test_an_autosave_that_cannot_be_written_is_said_once_and_play_goes_on(
    keeping_app, tmp_path, monkeypatch
):
    (tmp_path / "file").write_text("")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "file" / "data"))
    app, session = keeping_app(cli={"white": "human"})
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("f", "5")
        await wait_saved(pilot, app, session)
        await pilot.press("d", "6")
        await wait_saved(pilot, app, session)
        await pilot.pause()
        failures = [n for n in app._notifications if "could not be autosaved" in n.message]
        assert len(failures) == 1, [n.message for n in app._notifications]
        assert moves(app) == "f5d6"


def said(app) -> str | None:
    """The status line's text once the game's screen is back in front (None before)."""
    return status(app) if showing(app, "GameScreen") else None


def burst(app, *keys: str) -> None:
    """Queue keys before the app handles any, as a slow SSH link delivers them."""
    named = {"ctrl+u": "\x15", "enter": "\r"}
    for key in keys:
        app.post_message(events.Key(key, key if len(key) == 1 else named[key]))


async def test_a_name_and_enter_typed_together_save_under_that_name(keeping_app):
    app, _ = keeping_app(cli={"white": "human"})
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("f", "5", "s")
        await in_front(pilot, "SaveGameScreen")
        burst(app, "ctrl+u", *"Sunday", "enter")
        await until(pilot, lambda: said(app) == "Saved as 'Sunday'.", "the game saved")


async def test_a_transcript_and_enter_typed_together_import_it(keeping_app):
    app, _ = keeping_app(cli={"white": "human"})
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("o", "i")
        await in_front(pilot, "ImportScreen")
        burst(app, *"f5d6c3", "enter")
        await until(pilot, lambda: moves(app) == "f5d6c3", "the game imported")


async def test_enter_twice_in_the_save_dialog_saves_once_and_asks_nothing(keeping_app):
    # The second Enter reached the dialog after it had saved: it asked, over
    # the board, to replace the game just saved; with a taken name it asked twice.
    app, _ = keeping_app(cli={"white": "human"})
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("f", "5", "s")
        await in_front(pilot, "SaveGameScreen")
        burst(app, "ctrl+u", *"Sunday", "enter", "enter")
        await until(pilot, lambda: said(app) == "Saved as 'Sunday'.", "the game saved")
        await settle(pilot, app)
        assert isinstance(app.screen, GameScreen)
        await pilot.press("s")
        await pilot.pause()
        burst(app, "enter", "enter")  # the name is taken now: one question
        await settle(pilot, app)
        assert [type(screen).__name__ for screen in app.screen_stack] == [
            "GameScreen",
            "SaveGameScreen",
            "ConfirmScreen",
        ]


async def test_loading_the_previous_autosave_again_and_again_keeps_one_copy_of_it(keeping_app):
    """Each load of the previous autosave, then a new game, set another copy
    of the same game aside as an earlier autosave."""
    autosaved(OPENING, white="human")
    app, session = keeping_app(new=True, cli={"white": "human"})

    async def listed() -> list[tuple[str, str]]:
        await pilot.press("o")
        table = (await in_front(pilot, "SavedGamesScreen")).query_one(DataTable)
        rows = [row(table, index) for index in range(table.row_count)]
        await pilot.press("escape")
        await in_front(pilot, "GameScreen")
        return [(cells[0], cells[3]) for cells in rows]

    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("f", "5", "d", "6")
        await wait_saved(pilot, app, session)
        for _ in range(3):
            await pilot.press("o")  # the first game, previous or earlier: load it
            table = (await in_front(pilot, "SavedGamesScreen")).query_one(DataTable)
            shown = [row(table, index)[3] for index in range(table.row_count)]
            await pilot.press(*["down"] * shown.index(str(len(OPENING) // 2)), "enter")
            await wait_saved(pilot, app, session)
            assert moves(app) == OPENING
            await pilot.press("n", "enter")  # a new game: the loaded one is set aside
            await wait_saved(pilot, app, session)
            await pilot.press("f", "5", "d", "6")
            await wait_saved(pilot, app, session)
        kept = await listed()
    assert sorted(moves_count for _, moves_count in kept) == ["2", str(len(OPENING) // 2)], kept


async def test_the_resume_offer_numbers_moves_as_the_log_does(keeping_app):
    """The offer names the move to play as the log will number it: after
    the log's 9 moves (Black's pass takes no number) it is move 10, not 11
    (the pass counted) nor 9 (the moves played)."""
    autosaved("d3c3e6d2d1e1b2c1a3", white="human")  # Black passes after c1; a3 is move 9
    app, _ = keeping_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        offer = str(app.screen.query_one("#resume-game").content)
        assert "Move 10, Black to move" in offer, offer
        await pilot.press("r")
        await settle(pilot, app)
        assert status(app) == "Resumed at move 10."


async def test_a_stored_analysis_read_in_part_is_said_when_the_game_comes_back(keeping_app):

    from tui_reversi.players.analysis import GameAnalysis, analyse_game

    game = Game.from_transcript(OPENING)
    analysis = GameAnalysis(tuple(analyse_game(game, Limit(depth=1))))
    fields = json.loads(replace(SavedGame.from_game(game), analysis=analysis).to_json())
    fields["analysis"][1]["played"] = 71.3
    Autosave().path.parent.mkdir(parents=True, exist_ok=True)
    Autosave().path.write_text(json.dumps(fields))
    app, _ = keeping_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        said = [n.message for n in app._notifications]
        assert any("stored analysis of move 2 (d6) was left out" in m for m in said), said
        await pilot.press("r")
        await settle(pilot, app)
        known = app.screen.analysis.known
        assert [m.ply for m in known.moves] == [1, 3, 4, 5]


SAIO = (
    "(;GM[Othello]PC[GGS/os]DT[2003.12.15_13:24:03.MST]PB[Saio1200]PW[Saio3000]"
    "RB[2197.01]RW[2199.72]TI[05:00//02:00]TY[8]RE[?]"
    "BO[8 -------- -------- -------- ---O*--- ---*O--- -------- -------- -------- *]"
    "B[d3//0.01]W[c5/-16.47/0.24]B[f6//1.5]W[f5/2.00/0.30];)"
)


async def test_an_imported_game_shows_who_played_it_in_the_title_the_list_and_the_export(
    keeping_app,
):
    """A GGS game imported as "Human v Human", and with your opponent at
    White's seat: it names its players, so they are kept."""
    app, _ = keeping_app(cli={"white": "easy"})
    async with app.run_test(size=(80, 24)) as pilot:
        app.post_message(events.Paste(SAIO))  # as the terminal sends a paste
        await in_front(pilot, "ImportScreen")
        await pilot.press("enter")
        await settle(pilot, app)
        assert moves(app) == "d3c5f6f5" and (app.match.black, app.match.white) == ("human", "human")
        assert "Black Saio1200 vs White Saio3000" in title(app)
        await pilot.press("s")
        (await in_front(pilot, "SaveGameScreen")).query_one("#name", Input).value = "saio"
        await pilot.press("enter")
        await until(pilot, lambda: said(app) == "Saved as 'saio'.", "the game saved")
        await pilot.press("o")
        listed = (await in_front(pilot, "SavedGamesScreen")).query_one(DataTable)
        assert row(listed, 0)[2] == "Saio1200 v Saio3000"
    ggf = export_ggf(SavedGames().load("saio"))
    assert "PB[Saio1200]PW[Saio3000]RB[2197.01]RW[2199.72]" in ggf
    assert "DT[2003.12.15_13:24:03.MST]" in ggf and "TI[05:00//02:00]" in ggf
