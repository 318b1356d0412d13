"""Every dialog fits and reads at 60x21, the smallest terminal the app
plays in: an SVG snapshot of each (look at them after --snapshot-update),
and a check that no dialog is cut off at the screen's edges.

Dates and names are fixed so the snapshots do not change from day to day."""

from dataclasses import replace
from datetime import UTC, datetime

import pytest
from textual.containers import ScrollableContainer
from textual.widgets import Input

from tui_reversi.core import Game
from tui_reversi.storage import Autosave, SavedGame, SavedGames, settings_path
from tui_reversi.storage.files import ensure_dir
from tui_reversi.widgets.choice import ChoiceRow
from tui_reversi.widgets.literal import Literal

from .conftest import in_front, until
from .test_keeping import keeping_app  # noqa: F401 (a fixture)

SIZE = (60, 21)
LONG_AGO = datetime(2024, 1, 3, 12, 0, tzinfo=UTC)
ALMOST_OVER = "d3c3f5f4f3d2d1e3"  # Black's b3 ends it 64-0


def record(transcript: str, black: str = "human", white: str = "easy", **changes) -> SavedGame:
    game = SavedGame.from_game(Game.from_transcript(transcript), black, white)
    return replace(game, created=LONG_AGO, updated=LONG_AGO, **changes)


def saved_games() -> None:
    """A list with long names and both kinds of kept autosave."""
    games = SavedGames()
    ensure_dir(games.directory)
    for name, transcript in (
        ("Sunday at the club against Marie, the long one", "f5d6c3d3c4f4f6f3e6e7"),
        ("Quick", "f5d6"),
    ):
        games.path_for(name).write_text(record(transcript, name=name).to_json())
    autosave = Autosave()
    autosave.previous_path.write_text(record("f5f6e6f4", white="hard").to_json())
    ensure_dir(autosave.earlier_dir)
    (autosave.earlier_dir / "20240103-120000-0001.json").write_text(record("c4e3").to_json())


def keys(*pressed: str, dialog: str):
    async def open_dialog(pilot) -> None:
        await pilot.pause()
        await pilot.press(*pressed)
        screen = await in_front(pilot, dialog)
        # A text box's cursor blinks every half second: held still (shown), the
        # picture is the same however late a loaded machine takes it.
        for box in screen.query(Input):
            box.cursor_blink = False
        await pilot.pause()

    return open_dialog


async def save_under_a_fixed_name(pilot) -> None:
    await keys("f", "5", "s", dialog="SaveGameScreen")(pilot)
    pilot.app.screen.query_one(Input).value = "Human vs Easy 2024-01-03 12:00"


async def import_something_wrong(pilot) -> None:
    await keys("o", "i", dialog="ImportScreen")(pilot)
    screen = pilot.app.screen
    screen.query_one(Input).value = "f5 f5"
    await pilot.press("enter")
    problem = screen.query_one("#problem", Literal)
    await until(pilot, lambda: str(problem.content), "the import's problem")


async def export_to_a_fixed_file(pilot) -> None:
    await keys("f", "5", "x", dialog="ExportScreen")(pilot)
    chosen = pilot.app.screen.query_one("#format", ChoiceRow)
    await pilot.press("left")
    await until(pilot, lambda: chosen.value != "ggf", "another format")
    pilot.app.screen.query_one(Input).value = "reversi-20240103-1200.txt"
    await pilot.pause()


def bad_settings() -> None:
    ensure_dir(settings_path().parent)
    settings_path().write_text('black = "grandmaster"\ntheme = 7\nlegal_moves = "maybe"\n')


# A move's flipped discs stay marked while they turn over (animated: 1.44 s in all),
# then settle: a loaded machine took its picture after, so where a move comes just
# before the dialog, they turn at once (marked until the next move).
STILL = {"animation": False}

# How to open each dialog, and what to put on disk first.
DIALOGS = {
    "new game": dict(open=keys("n", dialog="NewGameScreen")),
    "save": dict(open=save_under_a_fixed_name, cli=STILL),
    "saved games": dict(open=keys("o", dialog="SavedGamesScreen"), before=saved_games),
    "delete question": dict(open=keys("o", "d", dialog="ConfirmScreen"), before=saved_games),
    "import": dict(open=import_something_wrong),
    "export": dict(open=export_to_a_fixed_file, cli=STILL),
    "settings": dict(open=keys("t", dialog="SettingsScreen")),
    "game over": dict(
        open=keys("b", "3", dialog="GameOverScreen"), transcript=ALMOST_OVER, cli=STILL
    ),
    "resume": dict(
        open=keys(dialog="ResumeScreen"), before=lambda: Autosave().save(record("f5d6c3"))
    ),
    "start problems": dict(open=keys(dialog="StartProblemsScreen"), before=bad_settings),
    "help": dict(open=keys("question_mark", dialog="HelpScreen")),
}


def build(keeping_app, name: str, monkeypatch, tmp_path):  # noqa: F811
    # The settings file's path is shown: under HOME it reads the same every run.
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "home" / ".config"))
    how = DIALOGS[name]
    if "before" in how:
        how["before"]()
    cli = {"white": "human", **how.get("cli", {})}
    if "transcript" in how:
        Autosave().save(record(how["transcript"], white="human"))
        app, _ = keeping_app(resume=True, cli=cli)
    else:
        app, _ = keeping_app(cli=cli)
    return app, how


@pytest.mark.parametrize("name", list(DIALOGS))
def test_each_dialog_at_60x21(snap_compare, keeping_app, name, monkeypatch, tmp_path):  # noqa: F811
    app, how = build(keeping_app, name, monkeypatch, tmp_path)
    assert snap_compare(app, terminal_size=SIZE, run_before=how["open"])


@pytest.mark.parametrize("name", list(DIALOGS))
async def test_each_dialog_fits_inside_60x21(keeping_app, name, monkeypatch, tmp_path):  # noqa: F811
    app, how = build(keeping_app, name, monkeypatch, tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await how["open"](pilot)
        screen = app.screen
        assert type(screen).__name__ != "GameScreen", name
        dialog = screen.query_one("#dialog, #games-dialog, #help-dialog")
        assert screen.region.contains_region(dialog.region), (name, dialog.region)
        inside = dialog.content_region
        for widget in dialog.query("*"):  # nothing cut off by the dialog's edges
            scrolled = any(isinstance(up, ScrollableContainer) for up in widget.ancestors)
            if widget.display and not scrolled:
                region = widget.region  # what shows of it on the screen
                assert region.size == widget.outer_size, (name, widget, region)
                assert not region or inside.contains_region(region), (name, widget, region)
        for button in screen.query("Button"):
            label = str(button.label)
            assert button.content_region.width >= len(label), (name, label)
