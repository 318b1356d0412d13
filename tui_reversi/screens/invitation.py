"""Invitations between people on a server: choosing the terms, waiting for
the answer, answering one (the lobby, screens/lobby.py, opens them)."""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Button

from ..core import Variant
from ..net.lobby_link import Invitation
from ..net.remote import rating_aside, shown_name
from ..net.terms import USUAL_CLOCKS, ColourChoice, TableTerms, TimeControl
from ..widgets.choice import ChoiceRow
from ..widgets.key_bar import KeyLine
from ..widgets.literal import Literal
from .confirm import ConfirmScreen
from .dialog import Dialog

# The time controls offered (minutes + seconds a move); '' is none.
CLOCKS = ("", *USUAL_CLOCKS)


class InviteScreen(Dialog[TableTerms | None]):
    """Choose your colour, the variant and the clock; Enter invites, Esc cancels."""

    BINDINGS = [
        # Not a priority binding: it waits for the keys typed before it (a priority one
        # would act before them when they arrive together).
        Binding("enter", "invite", "Invite", id="invite.send", key_display="⏎"),
        Binding("escape", "cancel", "Cancel", id="invite.cancel", key_display="esc"),
    ]

    def __init__(self, name: str, rating: str = "", clock: str = "") -> None:
        """Terms for inviting `name`, whose rating (as the server wrote it; '' none)
        the title shows; `clock` is chosen at first (the last one the player chose:
        none if it is not among CLOCKS)."""
        super().__init__()
        self.invitee = name
        self.rating = rating
        self.clock = clock if clock in CLOCKS else ""

    def compose(self) -> ComposeResult:
        invitee = _named(self.invitee, self.rating)
        colours = [(colour.value, colour.value.capitalize()) for colour in ColourChoice]
        variants = [(v.value, v.value.capitalize()) for v in Variant]
        clocks = [(clock, clock or "None") for clock in CLOCKS]
        with Vertical(id="dialog"):
            yield Literal(f"Invite {invitee} to a game", id="dialog-title")
            yield ChoiceRow("You play", colours, ColourChoice.RANDOM.value, id="colour")
            yield ChoiceRow("Variant", variants, Variant.OTHELLO.value, id="variant")
            yield ChoiceRow("Clock", clocks, self.clock, id="clock")
            yield Literal(id="describe")
            yield KeyLine(id="dialog-keys")
            with Horizontal(id="dialog-buttons"):
                yield Button("Invite", variant="primary", id="invite")
                yield Button("Cancel", id="cancel")

    def on_mount(self) -> None:
        super().on_mount()
        self.query_one("#colour", ChoiceRow).focus()
        self._describe()

    def terms(self) -> TableTerms:
        clock = self.query_one("#clock", ChoiceRow).value
        return TableTerms(
            ColourChoice(self.query_one("#colour", ChoiceRow).value),
            Variant(self.query_one("#variant", ChoiceRow).value),
            TimeControl.parse(clock) if clock else None,
        )

    @on(ChoiceRow.Changed)
    def _describe(self) -> None:
        terms = self.terms()
        clock = f"{terms.clock}: minutes each + seconds a move" if terms.clock else "no clock"
        if terms.colour is ColourChoice.RANDOM:
            colour = "a colour drawn at random"
        else:
            colour = terms.colour.resolve().label
        self.query_one("#describe", Literal).update(
            f"You play {colour}; {terms.variant.value}, {clock}."
        )

    def action_invite(self) -> None:
        focused = self.focused
        if isinstance(focused, Button) and focused.id == "cancel":
            self.dismiss(None)
        else:
            self.dismiss(self.terms())

    def action_cancel(self) -> None:
        self.dismiss(None)

    @on(Button.Pressed, "#invite")
    def _invite_pressed(self) -> None:
        self.dismiss(self.terms())

    @on(Button.Pressed, "#cancel")
    def _cancel_pressed(self) -> None:
        self.dismiss(None)


class WaitingScreen(Dialog[bool]):
    """Waiting for the answer to an invitation; Esc withdraws it (True)."""

    BINDINGS = [
        Binding("escape", "withdraw", "Withdraw", id="waiting.withdraw", key_display="esc"),
    ]

    def __init__(self, name: str, rating: str = "") -> None:
        super().__init__()
        self.invitee = name
        self.rating = rating

    def compose(self) -> ComposeResult:
        invitee = _named(self.invitee, self.rating)
        with Vertical(id="dialog"):
            yield Literal(f"Waiting for {invitee} to answer your invitation…", id="dialog-title")
            yield KeyLine(id="dialog-keys")

    def action_withdraw(self) -> None:
        self.dismiss(True)


class InvitedScreen(ConfirmScreen):
    """Someone's invitation: y or Enter accepts, n or Esc declines."""

    def __init__(self, invitation: Invitation) -> None:
        inviter = _named(invitation.inviter, invitation.rating)
        question = f"{inviter} invites you to a game: {invitation.terms.for_guest()}."
        super().__init__(question, yes="Accept", no="Decline")
        self.invitation = invitation


def _named(name: str, rating: str) -> str:
    """'bob (1484?)', 'guest-7f3a9c (a guest, unrated)': someone in an invitation."""
    return f"{shown_name(name)}{rating_aside(name, rating)}"
