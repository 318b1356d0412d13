"""The one table of what the board is drawn with: Unicode and plain ASCII.

Without colour (NO_COLOR) and in ASCII, Black and White differ by shape
(filled / hollow, X / O), never by colour alone. In colour the board draws
both discs solid (SOLID): their colours tell them apart, and a hollow white
disc reads as a zero, in the page's font above all. The score panel and the
move log keep the shapes, their text being uncoloured. Colours live in the
theme (app.tcss).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

# Cell interiors (width, height) the board can be drawn at, smallest first.
CELL_SIZES = ((3, 1), (5, 2), (7, 3), (9, 4), (11, 5))


@dataclass(frozen=True, slots=True)
class Glyphs:
    """Everything the board draws, for one kind of terminal."""

    name: str
    black: str
    white: str
    empty: str
    legal: str
    hint: str
    premove: str  # a move typed ahead, to be played on the player's turn
    flipping: str  # a disc seen edge-on, halfway through turning over
    cursor: tuple[str, str]  # either side of the square under the cursor
    # The same in tall cells (top left, top right, bottom left, bottom right);
    # None puts `cursor` either side of the middle row instead.
    cursor_corners: tuple[str, str, str, str] | None
    last: tuple[str, str]  # either side of the last move
    # Box-drawing grid: top, between rows, bottom (left, joint, right, rule), and the bar.
    grid: tuple[tuple[str, str, str, str], ...] | None
    bar: str
    # Big discs for tall cells: cell size -> (black, white, flipping) rows.
    art: dict[tuple[int, int], tuple[tuple[str, ...], ...]]
    # The legal-move marker in tall cells, grown with the discs: cell size -> rows.
    legal_art: dict[tuple[int, int], tuple[str, ...]]


# Rows of the big discs, centred in the cell; the cell's outer columns stay
# free for the cursor and last-move marks. Black is filled, White a ring.
_ART: dict[tuple[int, int], tuple[tuple[str, ...], ...]] = {
    (5, 2): (("▄█▄", "▀█▀"), ("▄▀▄", "▀▄▀"), ("───", "")),
    (7, 3): (
        ("▄███▄", "█████", "▀███▀"),
        ("▄▀▀▀▄", "█   █", "▀▄▄▄▀"),
        ("", "─────", ""),
    ),
    (9, 4): (
        ("▄█████▄", "███████", "███████", "▀█████▀"),
        ("▄▀▀▀▀▀▄", "█     █", "█     █", "▀▄▄▄▄▄▀"),
        ("", "▄▄▄▄▄▄▄", "▀▀▀▀▀▀▀", ""),
    ),
    (11, 5): (
        ("▄▄▄▄▄", "▄███████▄", "█████████", "▀███████▀", "▀▀▀▀▀"),
        ("▄▄▄▄▄", "▄▀     ▀▄", "█       █", "▀▄     ▄▀", "▀▀▀▀▀"),
        ("", "", "─────────", "", ""),
    ),
}


# A small square, centred: half blocks make it as tall as it is wide.
_LEGAL_ART = {
    (5, 2): ("▗▖", "▝▘"),
    (7, 3): ("", "▐█▌", ""),
    (9, 4): ("", "▗▄▄▖", "▝▀▀▘", ""),
    (11, 5): ("", "▗▄▄▄▖", "▐███▌", "▝▀▀▀▘", ""),
}


UNICODE = Glyphs(
    name="unicode",
    black="●",
    white="○",
    empty=" ",
    legal="·",
    hint="*",
    premove="^",
    flipping="─",
    cursor=("[", "]"),
    cursor_corners=("┌", "┐", "└", "┘"),
    last=("\u203a", "\u2039"),  # single angle quotes pointing in at the disc
    grid=(("┌", "┬", "┐", "─"), ("├", "┼", "┤", "─"), ("└", "┴", "┘", "─")),
    bar="│",
    art=_ART,
    legal_art=_LEGAL_ART,
)

ASCII = Glyphs(
    name="ascii",
    black="X",
    white="O",
    empty=".",
    legal="+",
    hint="*",
    premove="^",
    flipping="-",
    cursor=("[", "]"),
    cursor_corners=None,
    last=(">", "<"),
    grid=None,
    bar=" ",
    art={},
    legal_art={},
)


# The board in colour: White's disc as solid as Black's (and as big).
SOLID = replace(
    UNICODE,
    name="solid",
    white=UNICODE.black,
    art={cell: (black, black, flipping) for cell, (black, _, flipping) in _ART.items()},
)


# Symbols used in messages and key names, and their plain-ASCII words.
_ASCII_WORDS = (
    ("↑↓", "up/down"),
    ("←→", "left/right"),
    ("⏎", "enter"),
    ("↑", "up"),
    ("↓", "down"),
    ("←", "left"),
    ("→", "right"),
    ("·", "|"),
    ("…", "..."),
)


def ascii_text(text: str) -> str:
    """`text` with the symbols above spelled out, for ASCII mode."""
    for symbol, word in _ASCII_WORDS:
        text = text.replace(symbol, word)
    return text


def glyphs_for(ascii_mode: bool) -> Glyphs:
    """The score panel's and the move log's: their discs differ by shape."""
    return ASCII if ascii_mode else UNICODE


def board_glyphs(ascii_mode: bool, *, colour: bool) -> Glyphs:
    """The board's: in colour both discs solid, else told apart by shape."""
    if ascii_mode:
        return ASCII
    return SOLID if colour else UNICODE
