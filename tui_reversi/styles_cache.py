"""Textual's StylesCache without the memory it never gives back (textual#6665).

Every widget renders through a StylesCache, which keeps the widget's
rendered lines. Textual 8 caches `StylesCache.get_inner_outer(base, background)`
with `functools.lru_cache` on the method, so the cache's keys hold `self`:
the StylesCache of every widget ever drawn, with all its rendered lines,
stays alive long after the widget is gone (up to 1,024 of them). Each game
opens and closes dialogs (game over, new game: about 23 widgets), so memory
grew by about 360 kB of heap with every game.

The two styles it returns depend on the colours alone, so the same cache
keyed by the colours only gives the same answers and keeps no widget's
lines. Applied once, when the app is built; a Textual that no longer caches
the method that way is left alone.
"""

from __future__ import annotations

from functools import lru_cache

from textual._styles_cache import StylesCache

_COLOUR_PAIRS = 1024  # as Textual's own cache


def release_rendered_lines() -> None:
    """Make StylesCache.get_inner_outer cache by colours, not by StylesCache,
    so a widget's rendered lines go with the widget. Idempotent."""
    cached = StylesCache.__dict__.get("get_inner_outer")
    compute = getattr(cached, "__wrapped__", None)
    forget = getattr(cached, "cache_clear", None)
    if isinstance(cached, staticmethod) or compute is None or forget is None:
        return  # already done, or a Textual that caches it another way
    # `compute` never reads its first argument (the StylesCache).
    by_colours = lru_cache(_COLOUR_PAIRS)(lambda base, background: compute(None, base, background))
    StylesCache.get_inner_outer = staticmethod(by_colours)  # type: ignore[method-assign,assignment]
    forget()  # let go of the StylesCaches it holds already
