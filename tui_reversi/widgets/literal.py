"""Text shown exactly as written. Names, messages and whatever a player or a
file supplies may hold square brackets ('W[A1]', '[b]Bold[/b]') that Textual
and rich would read as markup and drop. Every widget shows such text through
this module: `Literal` for a line of its own, `literal_cell()` for a table
cell. Our own styled text is built with `Content.from_markup(template,
name=value)`, whose values are literal too."""

from __future__ import annotations

from rich.text import Text
from textual.content import Content
from textual.widgets import Static


def literal_cell(text: str) -> Text:
    """`text` for a DataTable cell (the table parses a plain str as markup)."""
    return Text(text, end="")


class Literal(Static):
    """A Static whose str content is shown as written; styled text comes as Content."""

    def __init__(self, content: str | Content = "", **kwargs) -> None:
        kwargs.setdefault("markup", False)
        super().__init__(content, **kwargs)
