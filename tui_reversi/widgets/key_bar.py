"""The keys that work now, generated from the active bindings like Textual's
Footer: the key bar at the bottom of every screen and a dialog's line of keys
(`KeyLine`) are both drawn from `shown_keys`, so neither is a second list.
(The Footer builds a widget per key and rebuilds them all whenever the
bindings change, which cost a tenth of a second at start-up and on every move.)

A screen orders its keys by what matters there with `KEY_BAR_ORDER`, binding
ids most important first; the rest follow in the order of the bindings.
Where the bar is too narrow, the least important give way first; the keys a
screen names in `KEY_BAR_KEPT` give way only after all its others, as the
app's own do. Bindings in one `Binding.Group` (a choice's ←→) show as one entry."""

from __future__ import annotations

from typing import NamedTuple

from textual import events
from textual.binding import Binding
from textual.content import Content
from textual.dom import DOMNode
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Static

from .glyphs import ascii_text


class ShownKey(NamedTuple):
    """One entry of a key bar: `keys` (as the terminal shows them) and what they do."""

    keys: str
    description: str
    key: str  # the key a click on the entry presses
    id: str | None  # the binding's id (KEY_BAR_ORDER ranks by it)
    app_wide: bool  # the app's own (quit, help): last in the bar, and not in a dialog's line
    group: Binding.Group | None


def own_bindings(screen: Screen) -> list[tuple[str, Binding]]:
    """(key, binding) for the bindings of `screen` itself, after the app's keymap."""
    for node, bindings in screen._binding_chain:
        if node is screen:
            return list(bindings)
    return []


def key_for(screen: Screen, action: str) -> str | None:
    """The key shown for `action` (as bound: "review_step(-1)") in the focused
    chain of `screen`, after the keymap, if it applies now; else None."""
    app = screen.app
    for node, bindings in screen._binding_chain:
        for _key, binding in bindings:
            if binding.action == action and app._check_action_state(action, node) is True:
                return app.get_key_display(binding)
    return None


def shown_keys(screen: Screen) -> list[ShownKey]:
    """What `screen` offers now: every shown binding of the focused chain whose
    action applies now (`check_action` True), once per action, most important first."""
    app = screen.app
    active = screen.active_bindings
    # A focused widget's hidden key (a text box's Enter submits, a list's
    # Enter selects) hides the dialog's own binding of it, which the dialog
    # runs when the widget submits or selects: show the dialog's, if it applies now.
    shown: list[tuple[DOMNode, Binding, bool]] = [
        (screen, binding, app._check_action_state(binding.action, screen) is True)
        for key, binding in own_bindings(screen)
        if binding.show
        and key in active
        and active[key].node is not screen
        and not active[key].binding.show
    ]
    shown += [(node, binding, enabled) for node, binding, enabled, _tooltip in active.values()]
    if screen.is_modal:  # a dialog's chain stops at it: only priority keys get past
        shown += [(app, b, True) for _key, b in app._bindings if b.priority]
    keys: list[ShownKey] = []
    seen: set[str] = set()
    for node, binding, enabled in shown:
        if not binding.show or not enabled or binding.action in seen:
            continue
        seen.add(binding.action)
        display = app.get_key_display(binding)
        group = binding.group
        last = keys[-1] if keys else None
        if group is not None and last is not None and last.group == group:
            # ←→ compact; spelled out (ASCII mode: left/right), apart
            joined = last.keys + ("" if group.compact and len(display) == 1 else "/") + display
            keys[-1] = last._replace(keys=joined)
            continue
        description = group.description if group is not None else binding.description
        keys.append(ShownKey(display, description, binding.key, binding.id, node is app, group))
    # The screen's order (KEY_BAR_ORDER) first, the rest as bound; the app's own last.
    order = getattr(screen, "KEY_BAR_ORDER", ())
    ranks = {id: rank for rank, id in enumerate(order)}
    return sorted(keys, key=lambda key: (key.app_wide, ranks.get(key.id, len(order))))


def _part(key: ShownKey) -> Content:
    return Content.from_markup(
        "[b $footer-key-foreground]$key[/] $text", key=key.keys, text=key.description
    )


def _drawn(parts: list[tuple[Content, ShownKey]]) -> int:
    """Columns `parts` take, a space apart."""
    return sum(part.cell_length for part, _ in parts) + max(0, len(parts) - 1)


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
        # when the bar is too narrow; the screen's others give way from the right,
        # those it keeps (KEY_BAR_KEPT) only once all the rest have gone.
        keys = shown_keys(self.screen)
        kept = set(getattr(self.screen, "KEY_BAR_KEPT", ()))
        parts = [(_part(key), key) for key in keys if not key.app_wide]
        ends = [(_part(key), key) for key in keys if key.app_wide]
        width = self.size.width or 10_000
        while parts and _drawn(parts + ends) > width:
            goes = next(
                (i for i in reversed(range(len(parts))) if parts[i][1].id not in kept),
                len(parts) - 1,
            )
            del parts[goes]
        self._spans = []
        x = 0
        for part, key in parts + ends:  # (a click on the space after a key presses it)
            self._spans.append((x, x + part.cell_length + 1, key.key))
            x += part.cell_length + 1
        bar = Content(" ").join(part for part, _ in parts + ends)
        return bar + " " if bar.cell_length < width else bar  # (a space after, where it fits)

    def on_click(self, event: events.Click) -> None:
        for start, end, key in self._spans:
            if start <= event.x < end:
                self.app.simulate_key(key)
                return


class KeyLine(Static):
    """A dialog's line of keys: the dialog's own from `shown_keys` (not the
    app-wide ones), `key Description` apart by dots, kept up to date."""

    def on_mount(self) -> None:
        self.screen.bindings_updated_signal.subscribe(self, self._bindings_changed)
        self._show()

    def _bindings_changed(self, screen: Screen) -> None:
        if screen is self.screen:
            self._show()

    def _show(self) -> None:
        keys = [key for key in shown_keys(self.screen) if not key.app_wide]
        dot = ascii_text(" · ") if self.app.has_class("-ascii") else " · "
        self.update(Content(dot).join(_part(key) for key in keys))
