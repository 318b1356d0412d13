"""The game screen's key bar order: binding ids most important first, for
what the player is doing now (playing, looking at a finished game,
reviewing). Where the bar is narrow the last ones give way, and review
(`,`), analyse (`a`) and the lobby (`L`) only after all the others (KEPT):
they open the next thing a player looks for, at 60 columns too, with a
premove's `esc` in the bar."""

from __future__ import annotations

# Given way last, wherever they apply: the keys only `?` and the palette would show otherwise.
KEPT = ("review.back", "analysis.start", "lobby.open")

PLAYING = (
    "game.pause",
    "game.clear_premove",
    "game.new",
    "game.undo",
    "game.hint",
    "review.back",
    "lobby.open",
    "table.takeback",
    "table.resign",
    "table.chat",
    "game.save",
    "game.open",
    "game.export",
    "game.settings",
    "game.redo",
    "game.markers",
    "board.play",
)
OVER = (
    "table.rematch",
    "game.new",
    "review.back",
    "analysis.start",
    "analysis.graph",
    "lobby.open",
    "game.undo",
    "game.save",
    "game.export",
    "game.open",
    "game.settings",
    "table.chat",
    "game.redo",
    "game.markers",
)
# (esc and ⏎ give way before the lobby: the review's title bar names them too)
REVIEWING = (
    "review.back",
    "review.forward",
    "analysis.start",
    "analysis.graph",
    "lobby.open",
    "review.live",
    "review.continue",
    "game.new",
    "game.export",
)


def key_bar_order(*, reviewing: bool, over: bool) -> tuple[str, ...]:
    """The key bar's binding ids for now, most important first."""
    if reviewing:
        return REVIEWING
    return OVER if over else PLAYING
