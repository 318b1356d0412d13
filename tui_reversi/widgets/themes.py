"""The app's colour themes: board colours as theme variables, a light
theme, and one for sixteen-colour terminals."""

from __future__ import annotations

from textual.theme import BUILTIN_THEMES, Theme

DEFAULT_THEME = "reversi"
SIXTEEN_COLOUR_THEME = "reversi-16"

# Board colours are theme variables: every theme may set them (app.tcss uses them).
BOARD_COLOURS = {
    "board-background": "#1d6b3a",
    "board-review-background": "#4a5a50",
    "board-grid": "#0e3d20",
    "board-coord": "#9e9e9e",
    "board-coord-typed": "#ffd54f",
    "disc-black": "#000000",
    "disc-white": "#ffffff",
    "board-legal": "#b9f6ca",
    "board-hint": "#ffd54f",
    "board-cursor": "#3b9a5c",
    "board-cursor-mark": "#ffeb3b",
    "board-last-mark": "#ff7043",
    "board-last": "#256f43",
    "board-flipped": "#2b7f85",
}

THEMES = (
    Theme(
        name=DEFAULT_THEME,
        primary="#43a047",
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
            "board-background": "#2e8b4e",
            "board-grid": "#14502a",
            "board-coord": "#555555",
            "board-coord-typed": "#e65100",
            "board-review-background": "#7d8c82",
            "board-cursor": "#52b474",
            "board-last": "#3a9a5d",
            "board-flipped": "#3c9aa0",
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
            "board-review-background": "ansi_bright_black",
            "board-grid": "ansi_black",
            "board-coord": "ansi_default",
            "board-coord-typed": "ansi_bright_yellow",
            "disc-black": "ansi_black",
            "disc-white": "ansi_bright_white",
            "board-legal": "ansi_bright_green",
            "board-hint": "ansi_bright_yellow",
            "board-cursor": "ansi_yellow",
            "board-cursor-mark": "ansi_bright_white",
            "board-last-mark": "ansi_bright_red",
            "board-last": "ansi_green",
            "board-flipped": "ansi_cyan",
            "footer-key-foreground": "ansi_bright_yellow",
        },
    ),
)


def theme_names() -> list[str]:
    """Every theme `--theme` and the settings accept."""
    return [theme.name for theme in THEMES] + sorted(BUILTIN_THEMES)
