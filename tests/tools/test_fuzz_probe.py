"""bench/fuzz.py's probe of a live app: a stack of dialogs, each closed by
one Esc (F1 does nothing over them), is an app that answers; a screen that
answers neither F1 nor Esc is a hang (seed 6131, step 903025514 was called
a hang with five dialogs stacked)."""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import pytest

FUZZ = Path(__file__).resolve().parents[2] / "bench" / "fuzz.py"


@pytest.fixture(scope="module")
def fuzz() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_fuzz", FUZZ)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["bench_fuzz"] = module  # its dataclass looks itself up there
    spec.loader.exec_module(module)
    return module


class Terminal:
    """The app as the probe sees it: the game with screens stacked over it.
    F1 toggles help only where no dialog is in front; Esc closes the one in
    front. A frozen app answers nothing."""

    def __init__(self, dialogs: int, *, frozen: bool = False) -> None:
        self.stack = ["game", *(f"dialog {n}" for n in range(dialogs))]
        self.frozen = frozen

    def screen(self) -> str:
        top = self.stack[-1]
        return "Keys (esc closes)" if top == "help" else f"{top}\n"

    def send(self, data: bytes) -> None:
        if self.frozen:
            return
        top = self.stack[-1]
        if data == b"\x1bOP" and top == "help":
            self.stack.pop()
        elif data == b"\x1bOP" and top == "game":
            self.stack.append("help")
        elif data == b"\x1b" and top != "game":
            self.stack.pop()

    def wait_until(self, check: Callable[[str], bool], timeout: float = 0.0) -> str | None:
        # The fake answers at once: one look is as good as waiting.
        shown = self.screen()
        return shown if check(shown) else None


def probe(fuzz: ModuleType, terminal: Terminal, monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setattr(fuzz, "screen", terminal.screen)
    monkeypatch.setattr(fuzz, "send", terminal.send)
    monkeypatch.setattr(fuzz, "wait_until", terminal.wait_until)
    problem, _retries = fuzz.alive()
    return str(problem)


def test_five_stacked_dialogs_are_closed_one_esc_each_and_are_no_hang(
    fuzz: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    terminal = Terminal(dialogs=5)
    assert probe(fuzz, terminal, monkeypatch) == ""
    assert terminal.stack == ["game"]  # help opened over the game, and closed


def test_an_app_that_answers_no_key_is_a_hang(
    fuzz: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert "neither F1 nor Esc" in probe(fuzz, Terminal(dialogs=1, frozen=True), monkeypatch)
