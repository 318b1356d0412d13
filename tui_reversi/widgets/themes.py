"""The app's colour themes: board colours as theme variables, a light
theme, and one for sixteen-colour terminals."""

from __future__ import annotations

from textual.theme import BUILTIN_THEMES, Theme

DEFAULT_THEME = "reversi"
SIXTEEN_COLOUR_THEME = "reversi-16"

# Board colours are theme variables: every theme may set them (app.tcss uses them).
# Chosen for contrast (tests/app/test_contrast.py: 3:1 or better for discs,
# marks, lines and text) in true colour and as terminals with 256 or 16
# colours show them: each is a colour of the 256-colour cube, and each square
# background is one that both black and white discs stand out on, which in 16
# colours leaves green, brown (the cursor, a reviewed board) and bright blue
# (flipped discs). Marks on the green board are near-white or black.
BOARD_COLOURS = {
    "board-background": "#008700",
    "board-review-background": "#875f00",
    "board-grid": "#000000",
    "board-coord": "#9e9e9e",
    "board-coord-typed": "#ffd54f",
    "disc-black": "#000000",
    "disc-white": "#ffffff",
    "board-legal": "#d7ffd7",
    "board-hint": "#ffd54f",
    "board-hint-text": "#000000",
    "board-cursor": "#5f8700",
    "board-cursor-mark": "#ffff5f",
    "board-last-mark": "#ffd7d7",
    "board-last": "#008700",
    "board-flipped": "#5f5faf",
    "highlight-text": "#000000",  # on the warning colour: the reviewed move, the review banner
}

THEMES = (
    Theme(
        name=DEFAULT_THEME,
        primary="#5faf5f",
        secondary="#2e7d32",
        accent="#ffb300",
        warning="#ffb300",
        error="#ef5350",
        success="#66bb6a",
        foreground="#e6e6e6",
        background="#15191a",
        surface="#1d2224",
        panel="#26302b",
        dark=True,
        variables={"text-muted": "#a8a8a8", "text-disabled": "#8a8a8a", "text-error": "#ff5f5f"},
    ),
    Theme(
        name="reversi-light",
        primary="#2e7d32",
        secondary="#1b5e20",
        accent="#e65100",
        warning="#e65100",
        error="#c62828",
        success="#2e7d32",
        foreground="#1a1a1a",
        background="#f2f0e8",
        surface="#e8e5da",
        panel="#dcd8c8",
        dark=False,
        variables={
            "board-coord": "#4e4e4e",
            "board-coord-typed": "#af5f00",
            "text-muted": "#5a5a5a",
            "text-disabled": "#767676",
            "text-warning": "#af5f00",
            "footer-key-foreground": "#af3f00",
        },
    ),
    # Sixteen-colour terminals (TERM=xterm, many SSH set-ups): ANSI names only,
    # so the terminal's own palette draws the board.
    Theme(
        name=SIXTEEN_COLOUR_THEME,
        ansi=True,
        primary="ansi_green",
        secondary="ansi_cyan",
        accent="ansi_yellow",
        warning="ansi_yellow",
        error="ansi_red",
        success="ansi_green",
        foreground="ansi_default",
        background="ansi_default",
        surface="ansi_default",
        panel="ansi_default",
        boost="ansi_default",
        dark=True,
        variables={
            # Textual's own ANSI theme supplies what its widgets need (ansi-background...).
            **BUILTIN_THEMES["ansi-dark"].variables,
            "board-background": "ansi_green",
            "board-review-background": "ansi_yellow",
            "board-grid": "ansi_black",
            "board-coord": "ansi_default",
            "board-coord-typed": "ansi_bright_yellow",
            "disc-black": "ansi_black",
            "disc-white": "ansi_bright_white",
            "board-legal": "ansi_bright_white",
            "board-hint": "ansi_bright_yellow",
            "board-hint-text": "ansi_black",
            "highlight-text": "ansi_black",
            "text-error": "ansi_bright_red",
            "board-cursor": "ansi_yellow",
            "board-cursor-mark": "ansi_bright_white",
            "board-last-mark": "ansi_bright_white",
            "board-last": "ansi_green",
            "board-flipped": "ansi_bright_blue",
            "footer-key-foreground": "ansi_bright_yellow",
        },
    ),
)


def theme_names() -> list[str]:
    """Every theme `--theme` and the settings accept."""
    return [theme.name for theme in THEMES] + sorted(BUILTIN_THEMES)
