"""Nothing is kept from one game to the next (issue 20): after each new game
started the way a player does, the live widgets, games and matches, and
the widgets' render caches are back to the same counts."""

from __future__ import annotations

import gc
from collections import Counter
from weakref import WeakSet

from textual._styles_cache import StylesCache
from textual.widget import Widget

from tui_reversi.core import Game
from tui_reversi.match import Match
from tui_reversi.screens.game_over import GameOverScreen

from .conftest import FirstMovePlayer, showing
from .test_computer import wait_until

KINDS = (Widget, Game, Match, StylesCache)


def live_objects(earlier: WeakSet[object]) -> Counter[str]:
    """How many widgets of each type, games, matches and StylesCaches (each
    holds a widget's rendered lines) are alive, garbage collected first,
    leaving out those in `earlier` (what other tests left)."""
    gc.collect()
    counts: Counter[str] = Counter()
    for thing in gc.get_objects():
        if isinstance(thing, KINDS) and thing not in earlier:
            counts[type(thing).__name__] += 1
    return counts


async def test_each_new_game_leaves_as_many_live_objects_as_the_last(make_app):
    gc.collect()
    earlier: WeakSet[object] = WeakSet(o for o in gc.get_objects() if isinstance(o, KINDS))
    app = make_app(player=FirstMovePlayer(), black="easy", white="easy")
    async with app.run_test(size=(100, 30)) as pilot:
        seen = []
        for _ in range(5):
            await wait_until(pilot, lambda: showing(app, GameOverScreen), rounds=2000)
            seen.append(live_objects(earlier))
            await pilot.press("escape", "n", "enter")  # close, new game, start
            await pilot.pause()
    assert seen[0]["Game"] >= 1 and seen[0]["Match"] >= 1 and seen[0]["GameScreen"] == 1
    # The first game makes what lives as long as the app; from then on, the same.
    for later in seen[2:]:
        grown = {kind: later[kind] - seen[1][kind] for kind in later | seen[1]}
        assert later == seen[1], {kind: more for kind, more in grown.items() if more}
