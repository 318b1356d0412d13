"""A one-line choice: a label and every option in a row, the chosen one
bracketed (or, `compact`, only the chosen one between arrows, for a long
list such as the themes). Left/right (or h/l) change it; up/down move to
the next row."""

from __future__ import annotations

from dataclasses import dataclass

from textual import events
from textual.binding import Binding
from textual.content import Content
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget

CHOOSE = Binding.Group("Choose", compact=True)
ROW = Binding.Group("Row", compact=True)
LABEL_WIDTH = 10  # "> " and the longest label, "Variant", with a space after it


class ChoiceRow(Widget, can_focus=True):
    """Pick one of a few options with the keyboard (or a click)."""

    # Shown as one entry each in the key bars: "←→ Choose", "↑↓ Row".
    BINDINGS = [
        Binding("left,h", "cycle(-1)", "Previous option", id="choice.previous", group=CHOOSE),
        Binding("right,l,space", "cycle(1)", "Next option", id="choice.next", group=CHOOSE),
        Binding("up,k", "app.focus_previous", "Previous row", id="choice.up", group=ROW),
        Binding("down,j", "app.focus_next", "Next row", id="choice.down", group=ROW),
    ]

    @dataclass
    class Changed(Message):
        row: ChoiceRow
        value: str

        @property
        def control(self) -> ChoiceRow:
            return self.row

    value: reactive[str] = reactive("", init=False)

    def __init__(
        self,
        label: str,
        options: list[tuple[str, str]],
        value: str,
        *,
        compact: bool = False,
        **kwargs,
    ) -> None:
        super().__init__(**kwargs)
        self.label = label
        self.options = options
        self.compact = compact
        self.set_reactive(ChoiceRow.value, value)

    @property
    def _values(self) -> list[str]:
        return [value for value, _ in self.options]

    def render(self) -> Content:
        # The focused row is marked by shape too, for terminals without colour.
        pointer = ">" if self.has_focus else " "
        parts = [
            Content.from_markup(
                "[b]$pointer $label[/b]", pointer=pointer, label=f"{self.label:<{LABEL_WIDTH - 2}}"
            )
        ]
        if self.compact:
            text = dict(self.options)[self.value]
            count = f" ({self._values.index(self.value) + 1} of {len(self.options)})"
            parts.append(Content.from_markup("[b reverse]$text[/]", text=f"< {text} >"))
            parts.append(Content(count))
            return Content("").join(parts)
        for value, text in self.options:
            if value == self.value:
                parts.append(Content.from_markup("[b reverse]$text[/]", text=f"[{text}]"))
            else:
                parts.append(Content(f" {text} "))
        return Content("").join(parts)

    def on_focus(self) -> None:
        self.refresh()

    def on_blur(self) -> None:
        self.refresh()

    def watch_value(self, value: str) -> None:
        self.post_message(self.Changed(self, value))

    def action_cycle(self, step: int) -> None:
        values = self._values
        self.value = values[(values.index(self.value) + step) % len(values)]

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None or offset.x < LABEL_WIDTH:
            return
        if self.compact:  # the left arrow goes back, anything to its right forward
            self.action_cycle(-1 if offset.x < LABEL_WIDTH + 2 else 1)
            return
        x = LABEL_WIDTH
        for value, text in self.options:
            width = len(text) + 2
            if x <= offset.x < x + width:
                self.value = value
                return
            x += width
