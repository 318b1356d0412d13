"""The terms a game between two people is played on: who takes which colour,
the variant and the clock.

One representation for everything that sets a game up: `ssh -t host table
white 5+3 anti`, an invitation in the lobby (the invite dialog,
the lobby's `invite` and `invited` lines, both ends), and the archive (which
keeps an adjourned game's clock). `TableTerms.words()` writes terms as
protocol words and `TableTerms.parse()` reads them back, in any order:

    black | white | random     the colour of whoever opens the table (or invites);
                               default black
    M+S | clock M+S            M minutes each (1-180), S seconds added a move (0-60):
                               digits alone, or digits and a +, are a clock; none by default
    variant NAME               othello (default), reversi or anti; the bare name works too

The server and the games both read terms with it (a game may not import the
server's modules, nor the server trust a game's words unread).
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import Enum

from ..core import Color, ReversiError, Variant
from .typed_number import typed_number

# A clock given without the word `clock`: `5+3` or `10` (and `5+x`, to be refused as one).
_BARE_CLOCK = re.compile(r"[0-9]+(\+.*)?")
# The time controls a player is offered (the invite dialog) and shown (`help`), bullet
# to classical, as game servers usually offer them; any other M+S may be typed.
USUAL_CLOCKS = ("1+0", "3+2", "5+3", "10+5", "15+10", "30+20")

USAGE = (
    "table [black|white|random] [5+3] [variant othello|reversi|anti], "
    "then look options (ascii, no-mouse, no-animation, theme NAME)"
)


class TableRefused(ReversiError):
    """Why a player cannot open or join a table, in one sentence."""


class TermsRefused(TableRefused):
    """Terms that cannot be read, in one sentence."""


class ColourChoice(Enum):
    """The colour the one who sets the game up asks for."""

    BLACK = "black"
    WHITE = "white"
    RANDOM = "random"

    def resolve(self, choose: Callable[[Sequence[Color]], Color] | None = None) -> Color:
        """The colour they get: the one asked for, or one drawn (by `choose`,
        else secrets.choice) for RANDOM."""
        if self is ColourChoice.RANDOM:
            return (choose or secrets.choice)((Color.BLACK, Color.WHITE))
        return Color.BLACK if self is ColourChoice.BLACK else Color.WHITE


@dataclass(frozen=True, slots=True)
class TimeControl:
    """Minutes each and seconds added after every move: `5+3`."""

    base: float  # seconds each player starts with
    increment: float  # seconds added to the mover's clock after each move

    @classmethod
    def parse(cls, text: str) -> TimeControl:
        """`5+3` (5 minutes each, 3 s a move) or `10`. Raises TermsRefused."""
        minutes, _, seconds = text.partition("+")
        base = typed_number(minutes, 3)
        increment = typed_number(seconds or "0", 2)
        if base is None or increment is None or not (1 <= base <= 180 and 0 <= increment <= 60):
            raise TermsRefused(
                f"{text[:20]!r} is not a time control: minutes (1-180), then +seconds a move "
                "(0-60), e.g. 5+3"
            )
        return cls(base * 60.0, float(increment))

    def __str__(self) -> str:
        return f"{self.base / 60:g}+{self.increment:g}"


@dataclass(frozen=True, slots=True)
class TableTerms:
    """Colour asked for, variant and clock (None: no clock) of one game."""

    colour: ColourChoice = ColourChoice.BLACK
    variant: Variant = Variant.OTHELLO
    clock: TimeControl | None = None

    @classmethod
    def parse(cls, words: Sequence[str]) -> tuple[TableTerms, list[str]]:
        """The terms among `words`, and the words that are not terms (in order).
        Raises TermsRefused for a term given twice or one that cannot be read."""
        colour: ColourChoice | None = None
        variant: Variant | None = None
        clock: TimeControl | None = None
        rest: list[str] = []
        index = 0
        while index < len(words):
            word = words[index]
            name, equals, value = word.removeprefix("--").partition("=")
            takes_value = name in ("clock", "variant")
            if takes_value and not equals:
                index += 1
                if index == len(words):
                    example = "clock 5+3" if name == "clock" else "variant anti"
                    raise TermsRefused(f"{name} needs a value, e.g. {example}")
                value = words[index]
            index += 1
            if name in ("black", "white", "random") and not equals:
                if colour is not None:
                    raise TermsRefused("choose one colour: black, white or random")
                colour = ColourChoice(name)
            elif name == "clock" or (_BARE_CLOCK.fullmatch(name) and not equals):
                if clock is not None:
                    raise TermsRefused("choose one clock, e.g. 5+3")
                clock = TimeControl.parse(value if name == "clock" else name)
            elif name == "variant" or (name in _VARIANTS and not equals):
                if variant is not None:
                    raise TermsRefused("choose one variant: othello, reversi or anti")
                variant = _variant(value if name == "variant" else name)
            else:
                rest.append(word)
        terms = cls(colour or ColourChoice.BLACK, variant or Variant.OTHELLO, clock)
        return terms, rest

    def for_guest(self) -> str:
        """The terms in words for the one who sits opposite whoever set them:
        'you play White, othello, clock 5+3'."""
        if self.colour is ColourChoice.RANDOM:
            colour = "a colour drawn at random"
        else:
            colour = self.colour.resolve().other.label
        clock = f"clock {self.clock}" if self.clock is not None else "no clock"
        return f"you play {colour}, {self.variant.value}, {clock}"

    def words(self) -> list[str]:
        """The terms as words `parse` reads back: `white variant anti clock 5+3`."""
        words = [self.colour.value, "variant", self.variant.value]
        return words + (["clock", str(self.clock)] if self.clock is not None else [])


_VARIANTS = tuple(variant.value for variant in Variant)


def _variant(name: str) -> Variant:
    try:
        return Variant(name.lower())
    except ValueError:
        names = ", ".join(_VARIANTS)
        raise TermsRefused(f"there is no variant {name!r}: choose one of {names}") from None
