"""Textual's command palette, with PageUp/PageDown held back until its list
has been laid out (Textual 8.2: the list pages by lines it has not measured
yet and raises KeyError; same root as Textualize/textual#5794)."""

from __future__ import annotations

from textual import command
from textual.command import CommandList


class CommandPalette(command.CommandPalette):
    """The palette (ctrl+p) and the theme search: a page key pressed before
    the list is drawn does nothing, as it would with an empty list."""

    def _action_command_list(self, action: str) -> None:
        commands = self.query_one(CommandList)
        if action.startswith("page_") and not commands.scrollable_content_region:
            return
        super()._action_command_list(action)
