"""Reporting someone to a server's moderators, from the lobby, a profile or
the game-over dialog at a table: choose the reason from the server's list,
add a few words if you like; Enter sends it (as `ssh host report NAME REASON
words`), Esc cancels."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import Input

from ..net.lobby_link import LobbyLink
from ..net.remote import shown_name
from ..widgets.choice import ChoiceRow
from ..widgets.literal import Literal
from ..widgets.text_input import TextInput
from .form import FormScreen

# The reasons a report may give: the server's list (server/ledger/moderation.py's
# REPORT_REASONS, which the app does not import), in the same order.
REASONS = ("cheating", "stalling", "boosting", "abuse", "spam", "name", "other")
# What a report's words may hold (the server keeps at most 300 characters).
WORDS_LENGTH = 300


class ReportScreen(FormScreen[tuple[str, str] | None]):
    """Dismissed with (reason, words), or None."""

    BINDINGS = [
        Binding("enter", "submit", "Report", id="report.send", key_display="⏎"),
        Binding("escape", "cancel", "Cancel", id="report.cancel", key_display="esc"),
    ]

    def __init__(self, name: str) -> None:
        super().__init__()
        self.reported = name

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Literal(
                f"Report {shown_name(self.reported)} to the moderators", id="dialog-title"
            )
            yield ChoiceRow("Reason", [(r, r.capitalize()) for r in REASONS], "abuse", id="reason")
            yield TextInput(
                placeholder="what happened (optional)", id="words", max_length=WORDS_LENGTH
            )
            yield from self.footer(ok="Report")

    def on_mount(self) -> None:
        super().on_mount()
        self.query_one("#reason", ChoiceRow).focus()

    def done(self) -> None:
        words = " ".join(self.query_one("#words", Input).value.split())
        self.dismiss((self.query_one("#reason", ChoiceRow).value, words))


def report_someone(
    screen: Screen[Any], link: LobbyLink, name: str, say: Callable[[str], None]
) -> None:
    """Ask the reason (and words) for reporting `name` over `screen`, then send the
    report; `say` tells the player it is on its way (the server's answer follows)."""

    def chosen(report: tuple[str, str] | None) -> None:
        if report is not None:
            say(f"Reporting {shown_name(name)}…")
            link.report(name, *report)

    screen.app.push_screen(ReportScreen(name), chosen)
