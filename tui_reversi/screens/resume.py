"""At start: an unfinished game was autosaved. Resume it, or start a new one, in one key."""

from __future__ import annotations

from datetime import datetime

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Static

from ..core import Color
from ..match import Match
from ..players.kinds import label
from ..storage import Settings
from ..widgets.key_bar import KeyLine
from ..widgets.literal import Literal
from .dialog import Dialog


def when(moment: datetime) -> str:
    """A saved time as the player reads it, in local time: '14:03 today',
    '3 Jan 14:03', '3 Jan 2024'."""
    local = moment.astimezone()
    now = datetime.now().astimezone()
    if local.date() == now.date():
        return f"{local:%H:%M} today"
    if local.year == now.year:
        return f"{local.day} {local:%b %H:%M}"
    return f"{local.day} {local:%b %Y}"


def describe_match(match: Match) -> tuple[str, str]:
    """('Black Human vs White Easy, Othello', 'Move 5, White to move: Black 3, White 4'),
    the move to play numbered as the log will number it (four moves played: move 5)."""
    position = match.position
    players = (
        f"Black {match.player_label(Color.BLACK)} vs White {match.player_label(Color.WHITE)}, "
        f"{match.variant.value.capitalize()}"
    )
    state = f"Move {match.game.move_number() + 1}, {match.to_move.label} to move"
    counts = f"Black {position.count(Color.BLACK)}, White {position.count(Color.WHITE)}"
    return players, f"{state}: {counts}"


class ResumeScreen(Dialog[bool]):
    """Dismissed with True to resume the game behind, False for a new game."""

    AUTO_FOCUS = "#resume"

    BINDINGS = [
        Binding(
            "r,enter,escape",
            "choose(True)",
            "Resume",
            id="resume.resume",
            key_display="r",
            tooltip="Carry on with the unfinished game where it was",
        ),
        Binding(
            "n",
            "choose(False)",
            "New game",
            id="resume.new",
            tooltip="Start a new game; the unfinished one stays in the saved-games list",
        ),
    ]

    def __init__(self, match: Match, saved: datetime, settings: Settings) -> None:
        super().__init__()
        self.match = match
        self.saved = saved
        self.new_game = (
            f"{label(settings.black)} vs {label(settings.white)}, "
            f"{settings.variant.value.capitalize()}"
        )

    def compose(self) -> ComposeResult:
        players, state = describe_match(self.match)
        with Vertical(id="dialog"):
            yield Static("[b]Resume your unfinished game?[/b]", id="dialog-title")
            yield Literal(f"{players}\n{state}\nSaved {when(self.saved)}", id="resume-game")
            yield Literal(f"A new game would be {self.new_game}.", id="resume-new")
            yield KeyLine(id="dialog-keys")
            with Horizontal(id="dialog-buttons"):
                yield Button("Resume", variant="primary", id="resume")
                yield Button("New game", id="new")

    def action_choose(self, resume: bool) -> None:
        self.dismiss(resume)

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "resume")
