"""A one-line input that keeps the whole of a multi-line paste.

Textual's Input keeps only the first line of a paste; a GGF game or a
transcript copied from a web page often spans several. Whitespace means
nothing inside any game format, so the lines are joined with spaces.
"""

from __future__ import annotations

from textual import events

from .text_input import TextInput


class PasteInput(TextInput):
    """An Input for a pasted game or a file path."""

    def _on_paste(self, event: events.Paste) -> None:
        event.stop()
        event.prevent_default()  # Input's own handler would paste the first line again
        self.paste(" ".join(event.text.split()))
