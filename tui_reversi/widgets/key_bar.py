"""The key bar: one line of the keys that work now, generated from the active
bindings like Textual's Footer, but drawn as a single widget. (The Footer
builds a widget per key and rebuilds them all whenever the bindings change,
which cost a tenth of a second at start-up and on every move.)

A screen orders its keys by what matters there with `KEY_BAR_ORDER`, binding
ids most important first; the rest follow in the order of the bindings.
Where the bar is too narrow, the least important give way first."""

from __future__ import annotations

from textual import events
from textual.binding import Binding
from textual.content import Content
from textual.dom import DOMNode
from textual.screen import Screen
from textual.widget import Widget


class KeyBar(Widget):
    """`key Description` for every shown, enabled binding of the focused chain."""

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self._spans: list[tuple[int, int, str]] = []  # (start, end, key) for clicks

    def on_mount(self) -> None:
        self.screen.bindings_updated_signal.subscribe(self, self._bindings_changed)

    def _bindings_changed(self, screen: Screen) -> None:
        if screen is self.screen:
            self.refresh()

    def render(self) -> Content:
        # App-wide keys (quit, help) come last but are the last to be left out
        # when the bar is too narrow; the others give way from the right.
        screen_keys: list[tuple[Content, str, str | None]] = []  # (part, keys, id)
        app_keys: list[tuple[Content, str, str | None]] = []
        seen: set[str] = set()
        active = self.screen.active_bindings
        # A focused widget's hidden key (a text box's Enter submits, a list's
        # Enter selects) hides the dialog's own binding of it, which the dialog
        # runs when the widget submits or selects: show the dialog's.
        shown: list[tuple[DOMNode, Binding, bool]] = [
            (self.screen, binding, True)
            for key, binding in self.screen._bindings
            if binding.show
            and key in active
            and active[key].node is not self.screen
            and not active[key].binding.show
        ]
        shown += [(node, binding, enabled) for node, binding, enabled, _tooltip in active.values()]
        if self.screen.is_modal:  # a dialog's chain stops at it: only priority keys get past
            shown += [(self.app, b, True) for _key, b in self.app._bindings if b.priority]
        for node, binding, enabled in shown:
            if not binding.show or not enabled or binding.action in seen:
                continue
            seen.add(binding.action)
            part = Content.from_markup(
                "[b $footer-key-foreground]$key[/] $text ",
                key=self.app.get_key_display(binding),
                text=binding.description,
            )
            (app_keys if node is self.app else screen_keys).append((part, binding.key, binding.id))
        order = getattr(self.screen, "KEY_BAR_ORDER", ())
        ranks = {id: rank for rank, id in enumerate(order)}
        screen_keys.sort(key=lambda part: ranks.get(part[2], len(order)))  # stable
        width = self.size.width or 10_000
        while screen_keys and sum(p.cell_length for p, *_ in screen_keys + app_keys) > width:
            screen_keys.pop()
        self._spans = []
        x = 0
        for part, keys, _id in screen_keys + app_keys:
            self._spans.append((x, x + part.cell_length, keys.split(",")[0]))
            x += part.cell_length
        return Content("").join(part for part, *_ in screen_keys + app_keys)

    def on_click(self, event: events.Click) -> None:
        for start, end, key in self._spans:
            if start <= event.x < end:
                self.app.simulate_key(key)
                return
