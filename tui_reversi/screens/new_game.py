"""The new-game modal: who plays Black, who plays White, which variant. All
by keyboard: up/down pick the row, left/right the option, Enter starts."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Static

from ..core import Variant
from ..players.kinds import KINDS, label, player_kind
from ..widgets.choice import ChoiceRow
from ..widgets.key_bar import KeyLine
from ..widgets.literal import Literal
from .dialog import Dialog


@dataclass(frozen=True, slots=True)
class NewGame:
    """The choices for a new game."""

    black: str
    white: str
    variant: Variant


class NewGameScreen(Dialog[NewGame | None]):
    """Choose the players and the variant; Enter starts, Esc cancels."""

    BINDINGS = [
        # Not a priority binding: it waits for the keys typed before it (a priority one
        # would act before them when they arrive together, as over SSH).
        Binding("enter", "start", "Start", id="new-game.start", key_display="⏎"),
        Binding("escape", "cancel", "Cancel", id="new-game.cancel", key_display="esc"),
        Binding(
            "L",
            "lobby",
            "Lobby",
            id="new-game.lobby",
            tooltip="Play a person on the server: invite one, or take a table (when served)",
        ),
    ]

    def __init__(
        self,
        current: NewGame,
        check: Callable[[NewGame], str | None],
        lobby: Callable[[], None] | None = None,
    ) -> None:
        super().__init__()
        self.current = current
        self.check = check
        self.lobby = lobby  # opens the server's lobby; None: not served

    def compose(self) -> ComposeResult:
        levels = [(kind.name, kind.label) for kind in KINDS]
        variants = [(v.value, v.value.capitalize()) for v in Variant]
        with Vertical(id="dialog"):
            yield Static("[b]New game[/b]", id="dialog-title")
            yield ChoiceRow("Black", levels, self.current.black, id="black")
            yield ChoiceRow("White", levels, self.current.white, id="white")
            yield ChoiceRow("Variant", variants, self.current.variant.value, id="variant")
            yield Literal(id="describe")
            yield Literal(id="problem")
            yield KeyLine(id="dialog-keys")
            with Horizontal(id="dialog-buttons"):
                yield Button("Start", variant="primary", id="start")
                if self.lobby is not None:
                    yield Button("Lobby", id="lobby")
                yield Button("Cancel", id="cancel")

    def on_mount(self) -> None:
        self.query_one("#black", ChoiceRow).focus()
        self._describe()

    def _choice(self) -> NewGame:
        return NewGame(
            self.query_one("#black", ChoiceRow).value,
            self.query_one("#white", ChoiceRow).value,
            Variant.parse(self.query_one("#variant", ChoiceRow).value),
        )

    @on(ChoiceRow.Changed)
    def _changed(self) -> None:
        self.query_one("#problem", Literal).update("")
        self._describe()

    def on_descendant_focus(self) -> None:
        self._describe()

    def _describe(self) -> None:
        focused = self.focused
        if isinstance(focused, ChoiceRow) and focused.id == "variant":
            text = Variant.parse(focused.value).description
        elif isinstance(focused, ChoiceRow):
            text = f"{focused.label}: {player_kind(focused.value).description}"
        else:
            choice = self._choice()
            players = f"{label(choice.black)} vs {label(choice.white)}"
            text = f"{players}, {choice.variant.value.capitalize()}"
        self.query_one("#describe", Literal).update(text)

    def action_start(self) -> None:
        focused = self.focused
        if isinstance(focused, Button) and focused.id == "cancel":
            self.dismiss(None)
            return
        choice = self._choice()
        problem = self.check(choice)
        if problem:
            self.query_one("#problem", Literal).update(problem)
            return
        self.dismiss(choice)

    def action_cancel(self) -> None:
        self.dismiss(None)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return self.lobby is not None if action == "lobby" else True

    def action_lobby(self) -> None:
        lobby = self.lobby
        if lobby is not None and self._in_front():
            self.dismiss(None)
            lobby()

    @on(Button.Pressed, "#lobby")
    def _lobby_pressed(self) -> None:
        self.action_lobby()

    @on(Button.Pressed, "#start")
    def _start_pressed(self) -> None:
        self.action_start()

    @on(Button.Pressed, "#cancel")
    def _cancel_pressed(self) -> None:
        self.dismiss(None)
