"""Reading the server's log as its operator's tools would (docs/hosting.md's format)."""

from __future__ import annotations

import re

# `2026-11-27 22:05:01 event key=value key="quoted \"value\"" ...`
_HEAD = re.compile(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d ([a-z][a-z-]*)")
_FIELD = re.compile(r' ([a-z]+)=("(?:[^"\\]|\\.)*"|[^" ]+)')
_ESCAPE = re.compile(r"\\(x[0-9a-f]{2}|u[0-9a-f]{4}|U[0-9a-f]{8}|.)")
_NAMED = {"n": "\n", "r": "\r", "t": "\t", '"': '"', "\\": "\\"}


def read_event(line: str) -> tuple[str, dict[str, str]]:
    """A log line's event and fields, values unescaped; AssertionError if the
    line is not one the server writes."""
    head = _HEAD.match(line)
    assert head is not None, f"not a log line: {line[:200]!r}"
    fields: dict[str, str] = {}
    rest = line[head.end() :]
    position = 0
    while position < len(rest):
        field = _FIELD.match(rest, position)
        assert field is not None, f"not a field at {position}: {rest[position:][:80]!r}"
        assert field[1] not in fields, f"{field[1]} twice in {line[:200]!r}"
        fields[field[1]] = _unquoted(field[2])
        position = field.end()
    return head[1], fields


def read_events(text: str) -> list[tuple[str, dict[str, str]]]:
    """The events of the log lines in `text` (a server's stderr or terminal),
    in order; its other lines (the banner, `tui-reversi serve: stopped`) skipped."""
    return [read_event(line) for line in text.splitlines() if _HEAD.match(line)]


def _unquoted(value: str) -> str:
    if not value.startswith('"'):
        return value
    return _ESCAPE.sub(_unescaped, value[1:-1])


def _unescaped(match: re.Match[str]) -> str:
    code = match[1]
    if code[0] in "xuU" and len(code) > 1:
        return chr(int(code[1:], 16))
    return _NAMED[code]
