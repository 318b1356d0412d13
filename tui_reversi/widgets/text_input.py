"""A one-line input whose editing keys keep their place among typed ones.

Textual's Input inserts a printable key at once, in its own key handler, but
lets a bound key (ctrl+u, backspace, arrows, enter...) bubble up to the app
before its action runs. When keys arrive together, as they do over a slow
SSH link, the next characters are inserted before the bound key acts:
ctrl+u then "game" gave "game" and then an empty box. Here the input runs its
own (non-priority) bindings inline, so every key acts in the order typed.
See Textualize/textual issue #6605.
"""

from __future__ import annotations

from textual import events
from textual.widgets import Input


class TextInput(Input):
    """An Input that handles its own bound keys in order with typed ones."""

    async def _on_key(self, event: events.Key) -> None:
        # Textual calls Input._on_key after this (a handler per class in the
        # MRO) unless the default is prevented: it inserts printable keys.
        if event.is_printable:
            return
        for binding in self._bindings.key_to_bindings.get(event.key, ()):
            if not binding.priority and await self.app.run_action(binding.action, self):
                event.stop()
                event.prevent_default()
                return
