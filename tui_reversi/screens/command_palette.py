"""Textual's command palette, answering once like our dialogs (Enter twice
would pop the game), with PageUp/PageDown held back until its list has been
laid out (Textual 8.2: the list pages by lines it has not measured yet and
raises KeyError; same root as Textualize/textual#5794)."""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from textual import command, on
from textual.command import CommandInput, CommandList, SearchIcon
from textual.widgets import Button, Input

from .dialog import AnswersOnce

if TYPE_CHECKING:
    from .game_app import GameApp


class CommandPalette(command.CommandPalette, AnswersOnce[None]):
    """The palette (ctrl+p) and the theme search: dismissed once; a page key
    pressed before the list is drawn does nothing, as with an empty list, and
    so does a search that ends after its list has gone."""

    # Its search runs in a worker that may finish after the palette's widgets
    # have been taken down as it closes: then it has nothing left to show it
    # on (Textual 8.2 raises NoMatches 'CommandList', found by bench/fuzz.py).

    def on_mount(self) -> None:
        # ASCII mode: its edges and scrollbar are the app's CSS (app.tcss).
        app = cast("GameApp", self.app)
        if app.settings.ascii:
            self.query_one(SearchIcon).icon = ">"
            box = self.query_one(CommandInput)
            box.placeholder = app.text(box.placeholder)

    def _list_gone(self) -> bool:
        return not self.query(CommandList)

    def _refresh_command_list(
        self, command_list: CommandList, commands: list[command.Command], clear_current: bool
    ) -> None:
        if not self._list_gone():
            super()._refresh_command_list(command_list, commands, clear_current)

    def _watch__list_visible(self) -> None:
        if not self._list_gone():
            super()._watch__list_visible()

    async def _watch__show_busy(self) -> None:
        if not self._list_gone():
            await super()._watch__show_busy()

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
