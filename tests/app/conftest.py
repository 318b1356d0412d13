"""Deterministic apps for Pilot and snapshot tests: frozen clock, no
animation, no pacing delays, fixed theme, and fake players that answer when
the test says so."""

from __future__ import annotations

import threading
from dataclasses import fields, replace

import pytest
from textual.screen import Screen

from tui_reversi.app import create_app
from tui_reversi.core import Game, Move, Variant
from tui_reversi.match import Match, Pacing
from tui_reversi.storage import Settings


class FrozenClock:
    """A clock that only moves when a test moves it."""

    def __init__(self, now: float = 1000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


class FirstMovePlayer:
    """Plays the first legal move (in a1..h8 order) at once."""

    notice: str | None = None

    def __init__(self, level: str = "easy") -> None:
        self.level, self.variant = level, None
        self.asked = 0

    def choose_move(self, position, limit, *, cancelled=None, progress=None):
        self.asked += 1
        moves = position.legal_moves()
        return Move.of(moves[0]) if moves else Move.null()


class GatedPlayer(FirstMovePlayer):
    """Thinks until the test opens the gate. A polite one stops when
    cancelled; a stubborn one ignores cancellation and answers anyway (so the
    app must drop its stale answer)."""

    def __init__(self, *, stubborn: bool = False) -> None:
        super().__init__("hard")
        self.gate = threading.Event()
        self.thinking = threading.Event()
        self.saw_cancel = threading.Event()
        self.stubborn = stubborn

    def choose_move(self, position, limit, *, cancelled=None, progress=None):
        self.thinking.set()
        if progress is not None:
            from tui_reversi.players import SearchInfo

            progress(SearchInfo(depth=3, nodes=1000, best=None))
        while not self.gate.wait(0.01):
            if cancelled is not None and cancelled():
                self.saw_cancel.set()
                if not self.stubborn:
                    return Move.null()
        return super().choose_move(position, limit)


@pytest.fixture
def clock():
    return FrozenClock()


@pytest.fixture
def make_app(clock):
    """Build the app the way the CLI does, but deterministic."""

    def make(*, player=None, transcript=None, settings=None, match=None, **kwargs):
        # Settings by name (black="easy", ascii=True...), over the tests' own defaults.
        chosen = {"black": "human", "white": "easy", "theme": "reversi", "animation": False}
        if settings is not None:
            chosen = {}
        names = {field.name for field in fields(Settings)}
        chosen.update({name: kwargs.pop(name) for name in list(kwargs) if name in names})
        if "variant" in chosen:
            chosen["variant"] = Variant.parse(chosen["variant"])
        settings = replace(settings or Settings(), **chosen)
        if transcript is not None:
            match = Match(settings.black, settings.white, Game.from_transcript(transcript))
        if player is not None:
            kwargs["player_factory"] = lambda level, variant: player
        kwargs.setdefault("seed", 7)
        return create_app(
            settings=settings,
            match=match,
            clock=clock,
            pacing=Pacing(reply=0, watch=0),
            **kwargs,
        )

    return make


async def until(pilot, condition, what: str, rounds: int = 500) -> None:
    """Poll `condition` between pauses until it holds; fail saying `what` never came.
    What a key or a message does lands later than a pause on a loaded machine:
    Textual's pause waits for an idle CPU, and a starved process looks idle."""
    for _ in range(rounds):
        if condition():
            return
        await pilot.pause(0.01)
    raise AssertionError(f"never: {what}")


def showing(app, kind) -> bool:
    """A screen of `kind` (a class, or its class's name) is in front, composed and
    mounted: a screen pushed is the app's screen at once and has its widgets a
    moment later (under load a test could look in between, and find none)."""
    screen = app.screen
    named = type(screen).__name__ == kind if isinstance(kind, str) else isinstance(screen, kind)
    return named and screen.is_mounted


async def in_front(pilot, kind) -> Screen:
    """Wait until `showing(app, kind)`, and return that screen (a dialog opened from
    another, saved games -> import, comes after that one has gone)."""
    name = kind if isinstance(kind, str) else kind.__name__
    await until(pilot, lambda: showing(pilot.app, kind), f"the {name} in front")
    return pilot.app.screen


async def settle(pilot, app, *, rounds: int = 50) -> None:
    """Let worker threads finish and their messages land."""
    for _ in range(rounds):
        await pilot.pause(0.01)
        running = any(w.is_running for w in app.workers)
        if not running and not computer_thinking(app) and not engine_working(app):
            break
    await pilot.pause()


def engine_working(app) -> bool:
    """True while the hint or the analysis still searches in the background."""
    from tui_reversi.screens.game import GameScreen
    from tui_reversi.widgets.analysis_panel import AnalysisPanel

    for screen in app.screen_stack:
        if isinstance(screen, GameScreen):
            panels = screen.query(AnalysisPanel)
            if screen.hints.search.busy or any(panel.analysis.busy for panel in panels):
                return True
    return False


def computer_thinking(app) -> bool:
    """True while a computer seat works on the current turn (its answer not yet played)."""
    from tui_reversi.players.computer import ComputerPlayer

    referee = app.referee
    return referee.asked is not None and isinstance(referee.to_move, ComputerPlayer)


def status(app) -> str:
    """The status line's text."""
    from textual.widgets import Static

    return str(app.screen.query_one("#status", Static).content).strip()


def title(app) -> str:
    from textual.widgets import Static

    return str(app.screen.query_one("#title-bar", Static).content).strip()


def moves(app) -> str:
    return app.match.game.transcript(app.match.game.length)
