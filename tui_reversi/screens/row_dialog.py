"""A dialog that is a list of rows, each with what ⏎ on it opens (its option id):
the lobby and the standings share the moving and the choosing."""

from __future__ import annotations

from textual import on
from textual.widgets import OptionList

from .dialog import Dialog


class RowDialog(Dialog[None]):
    """Arrows (its bindings' `cursor(±1)`) move along the list; ⏎ (`choose`) or a
    click on a row with an id calls `chosen(id)`; `close` dismisses it."""

    def chosen(self, row_id: str) -> None:
        """⏎ on the row with this id."""
        raise NotImplementedError

    def action_cursor(self, delta: int) -> None:
        options = self.query_one(OptionList)
        options.action_cursor_down() if delta > 0 else options.action_cursor_up()

    def action_close(self) -> None:
        self.dismiss(None)

    def action_choose(self) -> None:
        option = self.query_one(OptionList).highlighted_option
        if option is not None and option.id is not None:
            self.chosen(option.id)

    @on(OptionList.OptionSelected)
    def _selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        if event.option.id is not None:
            self.chosen(event.option.id)
