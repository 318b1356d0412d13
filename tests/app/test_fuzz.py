"""The app under random input, through Pilot: a hypothesis state machine
presses keys (alone and in bursts that arrive before the app handles any),
pastes text and binary junk, resizes down to 40x10 and clicks, across every
screen and dialog. After each step the app is alive, the game record is
legal and the screen stack is sane.

CI runs a fixed slice (derandomized, under a minute); for a longer hunt:

    FUZZ_EXAMPLES=100 FUZZ_STEPS=100 .venv/bin/python -m pytest tests/app/test_fuzz.py

bench/fuzz.py does the same to the real app in a real terminal, with bytes.
"""

from __future__ import annotations

import asyncio
import os
import string
from dataclasses import replace

import pytest
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule
from textual import events

from tui_reversi.app import create_app
from tui_reversi.core import Game
from tui_reversi.match import Pacing
from tui_reversi.screens.game import GameScreen
from tui_reversi.screens.too_small import MIN_HEIGHT, MIN_WIDTH, TooSmallScreen
from tui_reversi.session import Session
from tui_reversi.storage import SavedGame, SavedGames
from tui_reversi.widgets.themes import theme_names

from .conftest import FirstMovePlayer, FrozenClock, engine_working

# Keys that reach every screen: the game's, the dialogs', the palette's and
# help's. q and ctrl+q quit (by design), so they are left out.
KEYS = [
    *"abcdefgh12345678",
    *"nurimpsoxtdyjklcw",
    "comma",
    "full_stop",
    "question_mark",
    "f1",
    "enter",
    "escape",
    "space",
    "tab",
    "shift+tab",
    "up",
    "down",
    "left",
    "right",
    "home",
    "end",
    "pageup",
    "pagedown",
    "backspace",
    "delete",
    "ctrl+p",
    "ctrl+u",
    "ctrl+c",
]
# Keys that open each screen and dialog from the game.
OPENERS = {
    "new game": ["n"],
    "saved games": ["o"],
    "import": ["o", "i"],
    "export": ["x"],
    "settings": ["t"],
    "help": ["question_mark"],
    "review": ["comma"],
    "command palette": ["ctrl+p"],
    "save": ["s"],
}
CHARACTERS = {"comma": ",", "full_stop": ".", "question_mark": "?", "space": " "}
CONTROL = {"enter": "\r", "tab": "\t", "escape": "\x1b", "backspace": "\x7f", "ctrl+u": "\x15"}


def finished_game() -> str:
    """A whole game's transcript: pasting it ends in the game-over dialog."""
    game = Game()
    while not game.is_over:
        game.play(game.position.legal_moves()[0])
    return game.transcript()


FINISHED = finished_game()
PASTES = st.one_of(
    st.sampled_from(["f5d6c3d3c4f4", FINISHED, FINISHED[:-2], "not a game", "(;GM[Othello]"]),
    st.binary(max_size=200).map(lambda data: data.decode("utf-8", errors="replace")),
    st.text(alphabet=string.printable + "é●\ufffd\x00", max_size=100),
)
STEPS = int(os.environ.get("FUZZ_STEPS", "25"))


def key_event(key: str) -> events.Key:
    if len(key) == 1:
        return events.Key(key, key)
    return events.Key(key, CHARACTERS.get(key) or CONTROL.get(key))


class AppUnderFuzz(RuleBasedStateMachine):
    """One app per example, driven through Pilot on a loop of its own."""

    @initialize(white=st.sampled_from(["human", "easy"]))
    def start(self, white: str) -> None:
        SavedGames().save(SavedGame.from_game(Game.from_transcript("f5d6")), "Sunday", replace=True)
        self.session = session = Session.start(new=True, themes=theme_names())
        match = session.start_match(black="human", white=white)
        settings = session.settings_for({"white": white})
        settings = replace(settings, theme="reversi", animation=False)
        player = FirstMovePlayer()
        self.app = create_app(
            settings=settings,
            match=match,
            session=session,
            player_factory=lambda level, variant: player,
            clock=FrozenClock(),
            pacing=Pacing(reply=0, watch=0),
        )
        self.loop = asyncio.new_event_loop()
        self.jobs: asyncio.Queue = asyncio.Queue()
        self.host = self.loop.create_task(self._host())
        self.size = (80, 24)
        self.run(self.settle())

    async def _host(self) -> None:
        """The app's whole life in one task (Textual's context variables
        belong to the task that entered run_test); the rules send it jobs."""
        async with self.app.run_test(size=(80, 24)) as pilot:
            self.pilot = pilot
            while True:
                job, done = await self.jobs.get()
                if job is None:
                    break
                try:
                    await job
                except BaseException as error:  # handed to the rule
                    done.set_exception(error)
                else:
                    done.set_result(None)

    def teardown(self) -> None:
        if hasattr(self, "loop"):
            try:
                self.jobs.put_nowait((None, None))
                self.loop.run_until_complete(self.host)
            finally:
                self.loop.close()
                self.session.close()  # the next example is the next run of the app

    def run(self, coroutine) -> None:
        """Run `coroutine` in the app's task; its exception is the rule's."""
        if self.host.done():
            coroutine.close()
            self.host.result()  # the app's failure, if it failed
            raise AssertionError("the app has stopped")
        done = self.loop.create_future()
        self.jobs.put_nowait((coroutine, done))
        self.loop.run_until_complete(asyncio.wait([done, self.host], return_when="FIRST_COMPLETED"))
        if done.done():
            done.result()
        else:
            coroutine.close()
            self.host.result()

    async def settle(self) -> None:
        for _ in range(20):
            await self.pilot.pause(0.005)
            running = any(worker.is_running for worker in self.app.workers)
            if not running and not engine_working(self.app):
                break
        await self.pilot.pause()

    # -- what a player (or their terminal) does ------------------------------------

    @rule(keys=st.lists(st.sampled_from(KEYS), min_size=1, max_size=6))
    def press(self, keys: list[str]) -> None:
        self.run(self.pilot.press(*keys))

    @rule(keys=st.lists(st.sampled_from(KEYS), min_size=2, max_size=40))
    def burst(self, keys: list[str]) -> None:
        """Keys that all arrive before the app handles the first, as over a slow link."""
        for key in keys:
            self.app.post_message(key_event(key))
        self.run(self.settle())

    @rule(screen=st.sampled_from(sorted(OPENERS)))
    def open(self, screen: str) -> None:
        self.run(self.pilot.press("escape", "escape", *OPENERS[screen]))

    @rule(text=PASTES)
    def paste(self, text: str) -> None:
        self.app.post_message(events.Paste(text))
        self.run(self.settle())

    @rule(width=st.integers(40, 120), height=st.integers(10, 40))
    def resize(self, width: int, height: int) -> None:
        self.size = (width, height)
        self.run(self.pilot.resize_terminal(width, height))
        self.run(self.settle())

    @rule(x=st.integers(0, 79), y=st.integers(0, 23))
    def click(self, x: int, y: int) -> None:
        width, height = self.size
        self.run(self.pilot.click(offset=(x % width, y % height)))

    @rule()
    def back_to_80x24(self) -> None:
        self.resize(80, 24)

    # -- what must always hold ----------------------------------------------------------

    @invariant()
    def alive(self) -> None:
        if not hasattr(self, "app"):
            return
        self.run(self.settle())
        assert self.app._exception is None, self.app._exception
        assert self.app.is_running and self.app.return_code is None

    @invariant()
    def record_is_legal(self) -> None:
        if not hasattr(self, "app"):
            return
        game = self.app.match.game
        replay = Game.from_transcript(game.transcript(game.length), game.variant, game.start)
        assert replay.moves == game.moves and replay.positions == game.positions
        assert 0 <= game.ply <= game.length

    @invariant()
    def screen_stack_is_sane(self) -> None:
        if not hasattr(self, "app"):
            return
        stack = self.app.screen_stack
        assert isinstance(stack[0], GameScreen) and len(stack) == len(set(map(id, stack)))
        assert not any(isinstance(screen, GameScreen) for screen in stack[1:])
        kinds = [type(screen) for screen in stack]
        dialogs = [kind for kind in kinds if kind is not TooSmallScreen]
        assert len(dialogs) == len(set(dialogs)), kinds  # no dialog over a copy of itself
        width, height = self.app.size
        too_small = width < MIN_WIDTH or height < MIN_HEIGHT
        if too_small:  # whatever else is open, the notice is in front
            assert isinstance(self.app.screen, TooSmallScreen), stack
        else:
            assert not isinstance(self.app.screen, TooSmallScreen), stack


AppUnderFuzz.TestCase.settings = settings(
    max_examples=int(os.environ.get("FUZZ_EXAMPLES", "6")),
    stateful_step_count=STEPS,
    derandomize="FUZZ_EXAMPLES" not in os.environ,  # CI's slice is the same every run
    database=None,
    deadline=None,
)


@pytest.fixture(autouse=True)
def files_in_tmp(tmp_path, monkeypatch):
    """Export writes files where the player types: here, never the checkout."""
    monkeypatch.chdir(tmp_path)


class TestAppUnderFuzz(AppUnderFuzz.TestCase):  # type: ignore[name-defined]
    pass
