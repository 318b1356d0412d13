"""The one exception family: everything a person may be told went wrong.

Every error whose message reaches a person (a bad move or file, a server
that refuses, an operator's bad flag) derives from `ReversiError`, and its
message is one sentence; `reason` is the one way an OS or library error
becomes a phrase inside such a sentence, `sentence` the one way a phrase
becomes a whole one (`capitalised` for its first letter alone). Anything
else is a bug.
"""

import os


class ReversiError(ValueError):
    """Input that breaks the rules or the formats (a bad square, move,
    transcript or board string), or anything else a person is told went
    wrong. The message is one sentence for a person."""


class IllegalMoveError(ReversiError):
    """A move that the rules do not allow in the position it was tried in."""


def reason(error: BaseException) -> str:
    """Why `error` happened, as a phrase that follows a colon in a sentence:
    the OS's explanation of an OSError ('no space left on device'), else the
    error's own message (or its kind, when it has none)."""
    if isinstance(error, OSError) and error.errno:
        text = os.strerror(error.errno)  # not asyncio's "error while attempting to bind..."
    else:
        text = getattr(error, "strerror", None) or str(error)
    return text[:1].lower() + text[1:] if text else type(error).__name__


def capitalised(text: str) -> str:
    """`text` with its first letter a capital (the rest as it is: names stay)."""
    return text[:1].upper() + text[1:]


def sentence(text: str) -> str:
    """`text` as a sentence: capital first letter, final full stop."""
    text = text.strip()
    if not text:
        return text
    text = capitalised(text)
    return text if text.endswith((".", "!", "?")) else f"{text}."
