"""Refunds to a cheater's victims, after lichess's rule: when a moderator bans
a name for cheating or boosting, each opponent it beat in its last
REFUND_GAMES rated games of the last REFUND_DAYS days gets back what that game
cost them, at most REFUND_MOST points a game, and never so much that their
rating passes the best it has been (or FIRST_RATING, where every name began).

With Glicko-2 (ratings.py) a refund gives back rating points alone: the
deviation and volatility stay as the games left them, for those games did
tell how sure the rating is, whoever played them; so do the games counted.

Read from the store's rating history as it stands (the `rating_changes` of
standings.py: each rated game's move of each player's rating, and `ratings`):
`refunds_due` is the one place that reads it, so that a change of rating
system changes this function alone.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from .moderation import ModerationBook
from .ratings import FIRST_RATING

REFUND_GAMES = 40
REFUND_DAYS = 5
REFUND_MOST = 150.0
# The reasons of a ban (its first word) that refund its victims.
REFUNDED_REASONS = ("cheating", "boosting")


@dataclass(frozen=True, slots=True)
class Refund:
    """What one victim gets back, and for which games."""

    name: str
    points: float
    games: tuple[int, ...]


async def refunds_due(store: ModerationBook, cheat: str, now: float) -> list[Refund]:
    """What `cheat`'s victims are owed (see the module), the largest first."""
    rows = await store.run_query(
        """SELECT games.id, games.black, games.white, games.ended FROM rating_changes
           JOIN games ON games.id = rating_changes.game
           WHERE rating_changes.name = ? ORDER BY games.id DESC LIMIT ?""",
        (cheat, REFUND_GAMES),
    )
    since = now - REFUND_DAYS * 86400
    lost: dict[str, list[tuple[int, float]]] = {}
    for game_id, black, white, ended in rows:
        if _seconds(ended) < since:
            continue
        victim = white if black == cheat else black
        moved = await store.run_query(
            "SELECT change FROM rating_changes WHERE name = ? AND game = ?", (victim, game_id)
        )
        if moved and float(moved[0][0]) < 0:
            lost.setdefault(victim, []).append(
                (int(game_id), min(-float(moved[0][0]), REFUND_MOST))
            )
    refunds: list[Refund] = []
    for victim, games in lost.items():
        best = await store.run_query(
            "SELECT max(rating) FROM rating_changes WHERE name = ?", (victim,)
        )
        now_rated = await store.run_query("SELECT rating FROM ratings WHERE name = ?", (victim,))
        peak = max(FIRST_RATING, float(best[0][0]) if best and best[0][0] is not None else 0.0)
        current = float(now_rated[0][0]) if now_rated else FIRST_RATING
        points = min(sum(points for _, points in games), max(0.0, peak - current))
        if points >= 0.5:
            refunds.append(Refund(victim, round(points, 1), tuple(sorted(g for g, _ in games))))
    return sorted(refunds, key=lambda refund: (-refund.points, refund.name))


def _seconds(ended: Any) -> float:
    """A game's `ended` as either store gives it (PostgreSQL's datetime, SQLite's text)."""
    when = ended if isinstance(ended, datetime) else datetime.fromisoformat(str(ended))
    return (when if when.tzinfo is not None else when.replace(tzinfo=UTC)).timestamp()
