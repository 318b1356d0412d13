"""The one move of the Elo ratings kept before to Glicko-2, the same on both
stores (archive_schema.py's step for SQLite, migrations.py's for PostgreSQL):
each rating gains a deviation, a volatility, the time of its last rated game
and the time it stops being settled; each Elo rating keeps its number and is
as sure as the games it rests on make it (ratings.py's from_elo), its time
away counted from its last rated game.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, datetime
from typing import Any

from .ratings import FIRST_DEVIATION, FIRST_VOLATILITY, from_elo, settled_until


def new_columns(real_type: str) -> list[str]:
    """The statements that give `ratings` its Glicko-2 columns, in a store's type for
    reals; a rating written before (none rated yet) reads as a new player's."""
    return [
        f"ALTER TABLE ratings ADD COLUMN deviation {real_type} NOT NULL DEFAULT {FIRST_DEVIATION}",
        f"ALTER TABLE ratings ADD COLUMN volatility {real_type} NOT NULL "
        f"DEFAULT {FIRST_VOLATILITY}",
        f"ALTER TABLE ratings ADD COLUMN rated_at {real_type}",  # Unix time; NULL: never
        f"ALTER TABLE ratings ADD COLUMN settled_until {real_type}",  # NULL: provisional
    ]


# Each Elo rating with when its last rated game ended (games with a result).
ELO_RATINGS = """
SELECT ratings.name, ratings.rating, ratings.games, last.ended FROM ratings LEFT JOIN (
    SELECT name, max(ended) AS ended FROM (
        SELECT black AS name, ended FROM games WHERE winner IS NOT NULL
        UNION ALL SELECT white, ended FROM games WHERE winner IS NOT NULL
    ) AS sides GROUP BY name
) AS last ON last.name = ratings.name
"""
# Each rating's Glicko-2 values, by name (placeholders as the store writes them: {0}).
MOVE = (
    "UPDATE ratings SET deviation = {0}, volatility = {0}, rated_at = {0}, "
    "settled_until = {0} WHERE name = {0}"
)


def moved(rows: Iterable[tuple[Any, ...]], now: float) -> list[tuple[object, ...]]:
    """MOVE's values for each row of ELO_RATINGS: the Glicko-2 rating that Elo rating
    becomes, rated when its last game ended (`now` for a rating with none)."""
    values: list[tuple[object, ...]] = []
    for name, elo, games, ended in rows:
        rating = from_elo(float(elo), int(games))
        rated_at = _unix_time(ended) if ended is not None else now
        # (settled from its last game on: time away may have unsettled it since)
        until = settled_until(rating, rated_at)
        values.append((rating.deviation, rating.volatility, rated_at, until, name))
    return values


def _unix_time(value: object) -> float:
    """A time as either store gives it (PostgreSQL's datetime, SQLite's ISO text)."""
    when = value if isinstance(value, datetime) else datetime.fromisoformat(str(value))
    return (when if when.tzinfo is not None else when.replace(tzinfo=UTC)).timestamp()
