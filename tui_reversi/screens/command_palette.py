"""Textual's command palette, answering once like our dialogs (Enter twice
would pop the game), with PageUp/PageDown held back until its list has been
laid out (Textual 8.2: the list pages by lines it has not measured yet and
raises KeyError; same root as Textualize/textual#5794); and `KeyCommands`,
a screen's commands made from its own key bindings."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, cast

from textual import command, on
from textual.command import (
    CommandInput,
    CommandList,
    DiscoveryHit,
    Hit,
    Hits,
    Provider,
    SearchIcon,
)
from textual.widgets import Button, Input

from ..widgets.key_bar import own_bindings
from .dialog import AnswersOnce

if TYPE_CHECKING:
    from .game_app import GameApp


class KeyCommands(Provider):
    """A screen's commands (`COMMANDS = {KeyCommands}`): one for each of its
    shown key bindings whose action applies now (`check_action` True), named
    by the binding's description, with its tooltip and key; then the screen's
    `PALETTE_COMMANDS`, (action, title, help) for actions with no key of
    their own, filtered alike."""

    def _commands(self) -> list[tuple[str, str, Callable[[], object]]]:
        screen, app = self.screen, self.app
        commands: list[tuple[str, str, Callable[[], object]]] = []
        seen: set[str] = set()
        for _key, binding in own_bindings(screen):
            if not binding.show or binding.action in seen:
                continue
            seen.add(binding.action)
            if app._check_action_state(binding.action, screen) is not True:
                continue
            key = app.get_key_display(binding)
            help = f"{binding.tooltip} ({key})" if binding.tooltip else f"({key})"
            run = partial(app.run_action, binding.action, screen)
            commands.append((binding.description, help, run))
        for action, title, help in getattr(screen, "PALETTE_COMMANDS", ()):
            if app._check_action_state(action, screen) is True:
                commands.append((title, help, partial(app.run_action, action, screen)))
        return commands

    async def discover(self) -> Hits:
        for title, help, run in self._commands():
            yield DiscoveryHit(title, run, help=help)

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for title, help, run in self._commands():
            if (score := matcher.match(title)) > 0:
                yield Hit(score, matcher.highlight(title), run, help=help)


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
