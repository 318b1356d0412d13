"""The one exception family the rules raise for bad input."""


class ReversiError(ValueError):
    """Input that breaks the rules or the formats: a bad square, move,
    transcript or board string. The message is one sentence for a person."""


class IllegalMoveError(ReversiError):
    """A move that the rules do not allow in the position it was tried in."""
