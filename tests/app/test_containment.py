"""What a player's fingers and terminal can send never ends the game: keys
that arrive after a dialog has gone, the command palette before it is drawn,
and an unexpected exception (saved game, one sentence, a crash report)."""

from __future__ import annotations

import threading
from dataclasses import replace

import pytest
from textual import events
from textual.command import CommandList

from tui_reversi.core import Game
from tui_reversi.crash import CRASH_STATUS
from tui_reversi.screens.game import GameScreen
from tui_reversi.session import Session
from tui_reversi.storage import SavedGame, SavedGames
from tui_reversi.widgets.themes import theme_names

from .conftest import FirstMovePlayer, moves, settle, status


def burst(app, *keys: str) -> None:
    """Queue keys before the app handles any, as a fast typist over SSH sends them."""
    named = {"enter": "\r", "escape": "\x1b", "pageup": None, "pagedown": None}
    for key in keys:
        app.post_message(events.Key(key, key if len(key) == 1 else named[key]))


def keeping_app(make_app):
    """The app with the player's files, as the command line builds it."""
    session = Session.start(themes=theme_names())
    match = session.start_match(black=None, white="human")
    settings = replace(session.settings_for({"white": "human"}), theme="reversi")
    return make_app(match=match, session=session, player=FirstMovePlayer(), settings=settings)


async def test_enter_twice_in_the_saved_games_loads_once_and_plays_on(make_app):
    SavedGames().save(SavedGame.from_game(Game.from_transcript("f5d6")), "Sunday")
    app = keeping_app(make_app)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("o")
        await pilot.pause()
        burst(app, "enter", "enter")
        await settle(pilot, app)
        assert app.is_running and app.return_code is None
        assert isinstance(app.screen, GameScreen) and len(app.screen_stack) == 1
        assert moves(app) == "f5d6" and status(app) == "Loaded 'Sunday'."
        await pilot.press("c", "3")
        await settle(pilot, app)
        assert moves(app) == "f5d6c3"


async def test_page_keys_right_after_the_command_palette_opens(make_app):
    """ctrl+p then PageUp before the palette's list is laid out: Textual's
    OptionList looks up a line it has not measured yet (KeyError: 0)."""
    for key in ("pageup", "pagedown"):
        app = make_app(white="human")
        async with app.run_test(size=(80, 24)) as pilot:
            burst(app, "f", "5")
            await pilot.pause()
            app.action_command_palette()
            burst(app, key, key)
            await pilot.pause()
            await pilot.pause()
            assert app.is_running and app.return_code is None
            await pilot.press("escape")
            await pilot.pause()
            assert isinstance(app.screen, GameScreen) and moves(app) == "f5"


async def test_page_keys_right_after_the_theme_search_opens(make_app):
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        app.search_themes()
        burst(app, "pageup", "pagedown")
        await pilot.pause()
        await pilot.pause()
        assert app.is_running and app.return_code is None


async def test_an_exception_in_a_thread_ends_the_app_as_a_crash(make_app):
    """The terminal's input thread dying must not leave a deaf app behind."""
    app = make_app(white="human")
    with pytest.raises(UnicodeDecodeError):
        async with app.run_test(size=(80, 24)) as pilot:
            error = UnicodeDecodeError("utf-8", b"\xff", 0, 1, "invalid start byte")
            thread = threading.Thread(target=app.thread_failed, args=(error,))
            thread.start()
            thread.join()
            await pilot.pause()
            await pilot.pause()
    assert isinstance(app.crash, UnicodeDecodeError) and app.return_code == CRASH_STATUS


async def test_the_terminal_gone_under_a_thread_is_a_hang_up_not_a_crash(make_app):
    """The output thread writing to a closed pty (EIO) after a dropped
    connection: the app ends as on SIGHUP, and no crash report is written."""
    import errno
    import signal

    app = make_app(white="human")
    async with app.run_test(size=(80, 24)) as pilot:
        ended = []
        app._signalled_to_end = ended.append
        app.thread_failed(OSError(errno.EIO, "Input/output error"))
        await pilot.pause()
        assert ended == [signal.SIGHUP] and app.crash is None


async def test_a_palette_search_that_ends_after_its_list_has_gone_does_nothing(make_app):
    """The palette's search is a worker; closing, the palette takes down its
    widgets and the search may end after that, with nothing to show its
    results on: NoMatches 'CommandList' (bench/fuzz.py --seed 5927), a crash.
    Here the list goes first and the search's last steps run after it."""
    app = make_app(white="human")
    async with app.run_test(size=(80, 24)) as pilot:
        app.action_command_palette()
        await settle(pilot, app)
        palette = app.screen
        listed = palette.query_one(CommandList)
        await listed.remove()
        palette._refresh_command_list(listed, [], False)  # the search's results
        palette._show_busy = True  # and its busy indicator
        await settle(pilot, app)
        assert app.is_running and app.crash is None
        await pilot.press("escape")
        await settle(pilot, app)
        assert isinstance(app.screen, GameScreen) and len(app.screen_stack) == 1


async def test_enter_twice_in_the_command_palette_runs_the_command_once(make_app):
    app = make_app(white="human")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("f", "5", "d", "6")
        app.action_command_palette()
        await settle(pilot, app)
        burst(app, *"Undo")
        await settle(pilot, app)  # the palette has searched
        burst(app, "enter", "enter")
        await settle(pilot, app)
        assert app.is_running and app.return_code is None
        assert isinstance(app.screen, GameScreen) and len(app.screen_stack) == 1
        assert app.match.game.ply == 1  # d6 taken back, once


async def test_a_click_on_a_widget_being_removed_does_nothing(make_app, monkeypatch):
    """Textual 8.2 starts a text selection under a mouse press and reads the
    parent of the widget there, which a widget being removed (until the next
    frame) no longer has: AttributeError 'NoneType' object has no attribute
    'region' (found by bench/fuzz.py). The screen here answers as it does
    in that moment."""
    from textual.geometry import Offset
    from textual.widgets import Static

    app = make_app(white="human")
    async with app.run_test(size=(80, 24)) as pilot:
        removed = Static("gone")
        monkeypatch.setattr(
            app.screen, "get_widget_and_offset_at", lambda x, y: (removed, Offset(0, 0))
        )
        app.post_message(events.MouseDown(None, 5, 5, 0, 0, 1, False, False, False))
        await pilot.pause()
        monkeypatch.undo()
        assert app.is_running and app.return_code is None
        await pilot.press("f", "5")
        assert moves(app) == "f5"


async def test_ctrl_p_with_the_palette_behind_another_screen_opens_no_second(make_app):
    """The terminal shrinks while the palette is open (the size notice goes
    in front of it), then ctrl+p: Textual would push a second palette with
    the same id (DuplicateIds) (found by bench/fuzz.py --ssh)."""
    app = make_app(white="human")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("ctrl+p")
        await settle(pilot, app)
        await pilot.resize_terminal(50, 15)
        await settle(pilot, app)
        await pilot.press("ctrl+p")
        await settle(pilot, app)
        assert app.is_running and app.return_code is None
        palettes = [s for s in app.screen_stack if s.id == "--command-palette"]
        assert len(palettes) == 1


async def test_help_does_not_open_over_the_size_notice(make_app):
    """? in a terminal too small for the game: help would be drawn too small
    and bury the notice, which then stayed after the terminal grew (found by
    the Pilot fuzz)."""
    from tui_reversi.screens.too_small import TooSmallScreen

    app = make_app(white="human")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.resize_terminal(50, 12)
        await settle(pilot, app)
        await pilot.press("question_mark", "f1", "ctrl+p")
        await settle(pilot, app)
        assert isinstance(app.screen, TooSmallScreen)
        await pilot.resize_terminal(80, 24)
        await settle(pilot, app)
        assert isinstance(app.screen, GameScreen) and len(app.screen_stack) == 1


async def test_a_dialog_the_game_opens_while_the_terminal_is_too_small_stays_behind_the_notice(
    make_app,
):
    """The last move arrives while the terminal is too small: the game-over
    dialog opens behind the size notice, and both go their way once the
    terminal grows (found by bench/fuzz.py --ssh: no notice over a dialog)."""
    from tui_reversi.screens.game_over import GameOverScreen
    from tui_reversi.screens.too_small import TooSmallScreen

    game = Game()
    while not game.is_over:
        game.play(game.position.legal_moves()[0])
    app = make_app(white="human", transcript=game.transcript())
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        if isinstance(app.screen, GameOverScreen):  # the loaded game's end, announced
            app.screen.dismiss(None)
            await settle(pilot, app)
        await pilot.resize_terminal(50, 12)
        await settle(pilot, app)
        app.push_screen(GameOverScreen(app.match, app.match.ended))
        await settle(pilot, app)
        assert isinstance(app.screen, TooSmallScreen)
        await pilot.resize_terminal(44, 29)
        await settle(pilot, app)
        assert isinstance(app.screen, TooSmallScreen)
        await pilot.resize_terminal(80, 24)
        await settle(pilot, app)
        assert isinstance(app.screen, GameOverScreen)
        await pilot.press("escape")  # the notice left behind it goes too
        await settle(pilot, app)
        assert isinstance(app.screen, GameScreen) and len(app.screen_stack) == 1


async def test_enter_before_the_import_dialog_is_drawn_does_nothing(make_app):
    """Enter reaching the import dialog before it was composed (after a paste
    of binary data, bench/fuzz.py): NoMatches '#source'. It is ignored, and the
    dialog works once it is there."""
    from tui_reversi.screens.import_game import ImportScreen

    app = keeping_app(make_app)
    async with app.run_test(size=(80, 24)) as pilot:
        app.screen.action_import("f5d6c3")  # as a paste onto the board does
        dialog = app.screen
        assert isinstance(dialog, ImportScreen)
        dialog.action_submit()  # at once: nothing composed yet
        await settle(pilot, app)
        assert app.is_running and app.screen is dialog
        await pilot.press("enter")
        await settle(pilot, app)
        assert moves(app) == "f5d6c3"


def test_a_dialog_closed_before_it_was_mounted_mounts_nothing():
    """F1 twice in a burst: help is closed before its mount handler runs,
    which then mounted the key bar into a screen no longer attached
    (MountError, found by bench/fuzz.py)."""
    from tui_reversi.screens.help import HelpScreen

    HelpScreen().on_mount()  # as it runs on a screen already taken away


async def test_a_key_before_the_size_notice_is_up_opens_nothing_behind_it(make_app):
    """? or the palette asked while the terminal is already too small but the
    notice is not in front yet (its turn has not come) opens nothing that
    would stay behind it: the size is asked, not the screen (found under
    load: help came back once the terminal grew)."""
    from tui_reversi.screens.help import HelpScreen

    app = make_app(white="human")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        app._check_size = lambda size: None  # the notice's turn has not come yet
        await pilot.resize_terminal(50, 12)
        assert isinstance(app.screen, GameScreen)
        app.action_help()
        app.action_command_palette()
        await pilot.pause()
        assert not any(isinstance(screen, HelpScreen) for screen in app.screen_stack)
        assert not any(screen.id == "--command-palette" for screen in app.screen_stack)
