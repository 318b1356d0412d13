"""An arena's rules, as lichess's arenas have them, pure (no store, no clock):
how a player's games score, and who is paired with whom among the players free
at a moment. The hall's director (hall/tournaments.py) applies them to what the
store holds (tournaments.py).

Scoring: a win is 2 points, a draw 1, a loss 0; after two wins in a row a player
is "on fire" and every game scores double until one is not a win. A player who
berserks (their clock halved at the start of the game) earns a point more for a
win of at least BERSERK_LEAST_MOVES moves.

Pairing: the free players in the order of the standings, each with the nearest
free one below or above them who was not their last opponent: never the same
opponent twice in a row.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

WIN, DRAW, LOSS = "win", "draw", "loss"
OUTCOMES = (WIN, DRAW, LOSS)
POINTS = {WIN: 2, DRAW: 1, LOSS: 0}
# Wins in a row after which games score double (lichess: the third win is worth 4).
FIRE_AFTER = 2
# A berserk win earns its point only if the game had at least this many moves.
BERSERK_LEAST_MOVES = 7


@dataclass(frozen=True, slots=True)
class ArenaGame:
    """One finished game of a player in an arena, from their side."""

    outcome: str  # WIN, DRAW or LOSS
    berserk: bool = False  # they halved their clock at the start
    moves: int = 0  # moves played in the game (both sides)


def on_fire(games: Sequence[ArenaGame]) -> bool:
    """True if the player's next game scores double: their last FIRE_AFTER games
    (or more) were all wins."""
    streak = 0
    for game in reversed(games):
        if game.outcome != WIN:
            break
        streak += 1
    return streak >= FIRE_AFTER


def game_points(before: Sequence[ArenaGame], game: ArenaGame) -> int:
    """What `game` scores for a player whose earlier games were `before`."""
    return _points(game, on_fire(before))


def _points(game: ArenaGame, fire: bool) -> int:
    points = POINTS[game.outcome] * (2 if fire else 1)
    if game.berserk and game.outcome == WIN and game.moves >= BERSERK_LEAST_MOVES:
        points += 1
    return points


def arena_score(games: Sequence[ArenaGame]) -> int:
    """A player's score from their games, in the order played."""
    total = streak = 0
    for game in games:  # (one pass: the standings count every player's every look)
        total += _points(game, streak >= FIRE_AFTER)
        streak = streak + 1 if game.outcome == WIN else 0
    return total


@dataclass(frozen=True, slots=True)
class FreePlayer:
    """A player free to be paired now: their name, their last opponent (None before
    their first game)."""

    name: str
    last_opponent: str | None = None


def arena_pairs(free: Sequence[FreePlayer]) -> list[tuple[FreePlayer, FreePlayer]]:
    """The pairs to seat among `free`, given in the order of the standings (the
    leader first): each player, from the top, with the nearest-ranked free player
    left who was not their last opponent. Players left over (an odd one, or two who
    just played each other) wait for the next look."""
    left = list(free)
    found: list[tuple[FreePlayer, FreePlayer]] = []
    while left:
        one = left.pop(0)
        # (left is in standings order below `one`: the first that fits is the nearest)
        other = next((player for player in left if not _just_met(one, player)), None)
        if other is not None:
            left.remove(other)
            found.append((one, other))
    return found


def _just_met(one: FreePlayer, other: FreePlayer) -> bool:
    return one.last_opponent == other.name or other.last_opponent == one.name
