"""Textual's command palette, answering once like our dialogs (Enter twice
would pop the game), with PageUp/PageDown held back until its list has been
laid out (Textual 8.2: the list pages by lines it has not measured yet and
raises KeyError; same root as Textualize/textual#5794)."""

from __future__ import annotations

from textual import command, on
from textual.command import CommandList
from textual.widgets import Button, Input

from .dialog import AnswersOnce


class CommandPalette(command.CommandPalette, AnswersOnce[None]):
    """The palette (ctrl+p) and the theme search: dismissed once; a page key
    pressed before the list is drawn does nothing, as with an empty list."""

    def _action_command_list(self, action: str) -> None:
        commands = self.query_one(CommandList)
        if action.startswith("page_") and not commands.scrollable_content_region:
            return
        super()._action_command_list(action)

    @on(Input.Submitted)
    @on(Button.Pressed)
    def _select_or_command(self, event: Input.Submitted | Button.Pressed | None = None) -> None:
        # Once it has answered, a second Enter would run the command again.
        if event is not None:
            event.prevent_default()  # Textual's handler runs from here, not as well
        if self._answered:
            if event is not None:
                event.stop()
            return
        super()._select_or_command(event)
