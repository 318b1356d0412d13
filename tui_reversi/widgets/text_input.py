"""A one-line input whose editing keys keep their place among typed ones.

Textual's Input inserts a printable key at once, in its own key handler, but
lets a bound key (ctrl+u, backspace, arrows, enter...) bubble up to the app
before its action runs. When keys arrive together, as they do over a slow
SSH link, the next characters are inserted before the bound key acts:
ctrl+u then "game" gave "game" and then an empty box. Here the input runs its
own (non-priority) bindings inline, so every key acts in the order typed.
See Textualize/textual issue #6605.

A paste keeps all its lines (joined by spaces; Textual's Input keeps the
first) and, where the box has a limit, as much as fits, and says what was
left out: Textual's Input drops a paste that does not fit whole, without a word.
"""

from __future__ import annotations

from dataclasses import dataclass

from textual import events
from textual.message import Message
from textual.widgets import Input


class TextInput(Input):
    """An Input that handles its own bound keys in order with typed ones."""

    @dataclass
    class PasteCut(Message):
        """A paste did not fit in the box: the sentence says what was kept."""

        sentence: str

    def _on_paste(self, event: events.Paste) -> None:
        event.stop()
        event.prevent_default()  # Input's own handler would paste the first line again
        self.paste(" ".join(event.text.splitlines()))

    def paste(self, text: str) -> None:
        """Put `text` in place of the selection (at the cursor), as much of
        it as the box has room for; a cut is posted as PasteCut."""
        if not text:
            return
        start, end = sorted(self.selection)
        if self.max_length:
            room = max(0, self.max_length - (len(self.value) - (end - start)))
            if len(text) > room:
                self.post_message(
                    self.PasteCut(
                        f"Only {room:,} of the {len(text):,} characters pasted fit "
                        f"(this box holds {self.max_length:,}); the rest were left out."
                    )
                )
                text = text[:room]
        self.replace(text, start, end)

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
