"""A number a person typed (a count, a game's number, the minutes of a clock),
read only when it is a few ASCII digits, never by handing `int()` whatever came:
`int()` refuses a string of more than 4,300 digits with a ValueError nobody
expects there, and `str.isdigit()` says yes to '²', which `int()` refuses too.
"""

from __future__ import annotations


def typed_number(text: str, digits: int) -> int | None:
    """`text` as a whole number if it is 1 to `digits` ASCII digits (0-9); else None."""
    if 0 < len(text) <= digits and text.isascii() and text.isdigit():
        return int(text)
    return None
