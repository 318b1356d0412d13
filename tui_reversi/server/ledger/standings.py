"""Who is good here and what a player has done: the records the store answers
`ssh host top` and `ssh host player NAME` with (store.py's `leaderboard`,
`profile` and `archived_game`), and the rule that keeps a new name out of the
ranks until its rating has settled.

Both stores answer from rows kept for it (`schema()`): each player's record,
whole and against each opponent, counted as each game ends; the ratings by
rating; each rated game's move of each rating; each player's games by date.
Nothing here counts a player's games, let alone reads every game.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable, Collection
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import Any

from ...core import Color, Ending, Game, Variant
from ...storage import SavedGame
from ...storage.ggf import export_ggf
from .ratings import FIRST, FIRST_RATING, Rating, kept, settled_until

# How many of a player's latest rated games their rating history shows (its
# sparkline, one mark more, fits the lobby at 60 columns).
HISTORY_GAMES = 50
# How many opponents a profile counts the record against, the most played first.
FREQUENT_OPPONENTS = 5


@dataclass(frozen=True, slots=True)
class Results:
    """A player's results on this server."""

    wins: int = 0
    losses: int = 0
    draws: int = 0

    def __str__(self) -> str:
        return f"{self.wins} won, {self.losses} lost, {self.draws} drawn"


@dataclass(frozen=True, slots=True)
class Standing:
    """One player on the leaderboard (or at the head of their profile)."""

    name: str
    rating: Rating  # as of now (its deviation widened by the time away)
    record: Results  # every finished game at the server's tables, rated or not
    last_seen: datetime | None  # when their latest game ended
    rank: int | None  # None while provisional (or never rated)

    @property
    def games(self) -> int:
        """The rated games the rating rests on."""
        return self.rating.games

    @property
    def shown_rating(self) -> str:
        return self.rating.shown


# The archive's `ending` column -> core.Ending's reason (archive.archived_ending's inverse).
_REASONS = {
    "board": "normal",
    "resigned": "resigned",
    "time": "flag",
    "forfeit": "left",
    "banned": "banned",
}


@dataclass(frozen=True, slots=True)
class ArchivedGame:
    """A finished game as the archive keeps it, by its id."""

    id: int
    code: str  # the table it was played at
    variant: str
    names: tuple[str, str]  # black, white
    moves: str  # the transcript
    winner: str | None  # 'black', 'white', 'draw', or None: no result
    ending: str  # board, resigned, time, forfeit, banned or left
    description: str  # the sentence both players were told
    started: datetime
    ended: datetime
    # How far the game moved each player's rating (black's, white's); None: unrated.
    changes: tuple[float | None, float | None] = (None, None)

    def game(self) -> Game:
        """The game itself, every move replayed. Raises ReversiError for a bad row."""
        return Game.from_transcript(self.moves, Variant(self.variant))

    def end(self) -> Ending:
        """How it ended, as core says it."""
        winner = None if self.winner in (None, "draw") else Color[str(self.winner).upper()]
        return Ending(_REASONS.get(self.ending, "left"), winner, self.description)

    def color_of(self, name: str) -> Color:
        """The colour `name` played (Black if they played both sides)."""
        return Color.BLACK if self.names[0] == name else Color.WHITE

    def result_for(self, name: str) -> str:
        """'won', 'lost', 'drawn' or 'no result', from `name`'s side."""
        if self.winner is None:
            return "no result"
        if self.winner == "draw":
            return "drawn"
        return "won" if self.winner == self.color_of(name).name.lower() else "lost"

    def ggf(self) -> str:
        """The game as GGF (storage/ggf.py), with both names, how it ended and its date.
        Raises ReversiError for a bad row."""
        record = replace(
            SavedGame.from_game(self.game()),
            names=self.names,
            ending=self.end(),
            date=f"{self.started:%Y.%m.%d_%H:%M:%S}.UTC",
        )
        return export_ggf(record)

    def change_for(self, name: str) -> float | None:
        """How far the game moved `name`'s rating; None if it was not rated for them."""
        return self.changes[self.color_of(name)]


@dataclass(frozen=True, slots=True)
class Profile:
    """A player as `ssh host player NAME` shows them."""

    standing: Standing
    history: tuple[float, ...]  # the rating after each of the latest rated games, oldest first
    start: float  # the rating before the first game of `history` (FIRST_RATING: none before)
    opponents: tuple[tuple[str, Results], ...]  # the most played first
    games: tuple[ArchivedGame, ...]  # the latest first


# -- the queries, one text for both stores: `?` for each value (postgres.py turns
# them into psycopg's), sums written as CASE, upserts as both know them.

# Run one statement with its values; its rows (a store's own coroutine, raising StorageError).
Query = Callable[[str, tuple[object, ...]], Awaitable[list[tuple[Any, ...]]]]
# A store's SQL test that a row's `name` is one of many, and its one parameter
# (SQLite: a JSON array through json_each, any length; PostgreSQL: an array, = ANY).
Among = Callable[[list[str]], tuple[str, object]]


def schema(id_type: str, real_type: str, time_type: str) -> str:
    """The standings' tables and indexes, in a store's types: each player's games by
    date (their latest games), the ratings by rating, each rated game's move of
    each player's rating, and each player's record kept up to date as games end,
    whole and against each opponent. `top` and `player` read these rows and never
    count a player's games. SQLite's schema (archive.py) and PostgreSQL's
    migration (migrations.py) both make them."""
    return f"""
CREATE INDEX IF NOT EXISTS games_by_black ON games (black, ended);
CREATE INDEX IF NOT EXISTS games_by_white ON games (white, ended);
CREATE INDEX IF NOT EXISTS ratings_by_rating ON ratings (rating DESC, name, games);
{rating_changes_table(id_type, real_type)};
CREATE TABLE IF NOT EXISTS records (
    name TEXT NOT NULL,             -- a player name
    opponent TEXT NOT NULL,         -- against whom ('': the player's whole record)
    wins INTEGER NOT NULL,
    losses INTEGER NOT NULL,
    draws INTEGER NOT NULL,
    games INTEGER NOT NULL,         -- finished games, with a result or not
    last {time_type} NOT NULL,      -- when the latest of them ended
    PRIMARY KEY (name, opponent)
);
CREATE INDEX IF NOT EXISTS records_by_games ON records (name, games DESC, opponent);
"""


def rating_changes_table(id_type: str, real_type: str) -> str:
    """Each rated game's move of each player's rating, as first made (schema()'s part;
    deviation_columns() adds to it)."""
    return f"""CREATE TABLE IF NOT EXISTS rating_changes (
    name TEXT NOT NULL,             -- a player name
    game {id_type} NOT NULL,        -- games.id
    rating {real_type} NOT NULL,    -- the rating after the game
    change {real_type} NOT NULL,    -- how far the game moved it
    PRIMARY KEY (name, game)
)"""


def deviation_columns(real_type: str) -> list[str]:
    """The columns a rated game's row of `rating_changes` gained (a schema step of each
    store): each player's deviation and volatility before and after the game; NULL in
    the rows of games rated before, meaning not known."""
    return [
        f"ALTER TABLE rating_changes ADD COLUMN {column} {real_type}"
        for column in DEVIATION_COLUMNS.split(", ")
    ]


DEVIATION_COLUMNS = "deviation_before, deviation_after, volatility_before, volatility_after"

# Every player's records from the games archived before `records` was made.
_SIDES = """SELECT black AS name, white AS opponent,
                   CASE WHEN winner = 'black' THEN 1 ELSE 0 END AS won,
                   CASE WHEN winner = 'white' THEN 1 ELSE 0 END AS lost,
                   CASE WHEN winner = 'draw' THEN 1 ELSE 0 END AS drawn, ended FROM games
            UNION ALL
            SELECT white, black, CASE WHEN winner = 'white' THEN 1 ELSE 0 END,
                   CASE WHEN winner = 'black' THEN 1 ELSE 0 END,
                   CASE WHEN winner = 'draw' THEN 1 ELSE 0 END, ended FROM games"""
BACKFILL = f"""
INSERT INTO records (name, opponent, wins, losses, draws, games, last)
    SELECT name, opponent, sum(won), sum(lost), sum(drawn), count(*), max(ended)
    FROM ({_SIDES}) AS sides GROUP BY name, opponent;
INSERT INTO records (name, opponent, wins, losses, draws, games, last)
    SELECT name, '', sum(wins), sum(losses), sum(draws), sum(games), max(last)
    FROM records GROUP BY name;
"""
_COUNT_GAME = """INSERT INTO records (name, opponent, wins, losses, draws, games, last)
                 VALUES (?, ?, ?, ?, ?, 1, ?)
                 ON CONFLICT (name, opponent) DO UPDATE SET
                     wins = records.wins + excluded.wins,
                     losses = records.losses + excluded.losses,
                     draws = records.draws + excluded.draws,
                     games = records.games + 1, last = excluded.last"""
# A rating's columns, as kept (ratings.kept() reads them as of now).
RATING_COLUMNS = "rating, deviation, volatility, games, rated_at"
_STANDINGS = """SELECT ratings.name, ratings.rating, ratings.deviation, ratings.volatility,
                       ratings.games, ratings.rated_at,
                       records.wins, records.losses, records.draws, records.last
                FROM ratings LEFT JOIN records
                     ON records.name = ratings.name AND records.opponent = ''
                WHERE {which} ORDER BY ratings.rating DESC, ratings.name LIMIT ?"""
_SETTLED_UNBANNED = """ratings.settled_until > ? AND NOT EXISTS (
                          SELECT 1 FROM sanctions WHERE sanctions.kind = 'ban'
                              AND sanctions.scope = 'name' AND sanctions.subject = ratings.name
                              AND (sanctions.until IS NULL OR sanctions.until > ?))"""
_KEEP_RATING = """INSERT INTO ratings
                       (name, rating, deviation, volatility, games, rated_at, settled_until)
                   VALUES (?, ?, ?, ?, ?, ?, ?)
                   ON CONFLICT (name) DO UPDATE SET
                       rating = excluded.rating, deviation = excluded.deviation,
                       volatility = excluded.volatility, games = excluded.games,
                       rated_at = excluded.rated_at, settled_until = excluded.settled_until"""
_OPPONENTS = """SELECT opponent, wins, losses, draws FROM records
                WHERE name = ? AND opponent <> '' ORDER BY games DESC, opponent LIMIT ?"""
_GAME_COLUMNS = """games.id, games.code, games.variant, games.black, games.white, games.moves,
    games.winner, games.ending, games.description, games.started, games.ended,
    by_black.change, by_white.change"""
_CHANGES = """LEFT JOIN rating_changes AS by_black
                   ON by_black.name = games.black AND by_black.game = games.id
              LEFT JOIN rating_changes AS by_white
                   ON by_white.name = games.white AND by_white.game = games.id"""
_LATEST = f"""SELECT * FROM (SELECT {_GAME_COLUMNS} FROM games {_CHANGES}
                  WHERE games.black = ? ORDER BY games.ended DESC, games.id DESC LIMIT ?) AS b
             UNION ALL
             SELECT * FROM (SELECT {_GAME_COLUMNS} FROM games {_CHANGES}
                  WHERE games.white = ? ORDER BY games.ended DESC, games.id DESC LIMIT ?) AS w
             ORDER BY 11 DESC, 1 DESC LIMIT ?"""


async def ratings(
    query: Query, among: Among, names: Collection[str], now: float | None = None
) -> dict[str, Rating]:
    """store.Store.ratings, over `query`: one statement for any number of names, each
    rating as of Unix time `now` (None: now)."""
    wanted = list(dict.fromkeys(names))
    test, value = among(wanted)
    rows = await query(f"SELECT name, {RATING_COLUMNS} FROM ratings WHERE {test}", (value,))
    now = time.time() if now is None else now
    found = {str(row[0]): kept_rating(row[1:], now) for row in rows}
    return {name: found.get(name, FIRST) for name in wanted}


def kept_rating(row: tuple[Any, ...], now: float) -> Rating:
    """A row of RATING_COLUMNS as the rating it is at Unix time `now`."""
    rating, deviation, volatility, games, rated_at = row
    when = float(rated_at) if rated_at is not None else None
    return kept(float(rating), float(deviation), float(volatility), int(games), when, now)


async def records(query: Query, among: Among, names: Collection[str]) -> dict[str, Results]:
    """store.Store.records, over `query`: each name's row of the records (an index
    lookup each), one statement for any number of names."""
    wanted = list(dict.fromkeys(names))
    test, value = among(wanted)
    rows = await query(
        f"SELECT name, wins, losses, draws FROM records WHERE opponent = '' AND {test}",
        (value,),
    )
    found = {str(row[0]): Results(*(int(count) for count in row[1:])) for row in rows}
    return {name: found.get(name, Results()) for name in wanted}


async def leaderboard(query: Query, count: int) -> list[Standing]:
    """store.Store.leaderboard, over `query`: settled ratings only (a deviation of at
    most 110 now, as the `settled_until` kept beside each rating says), of names not
    banned now (a cheat's rating is no standing; it comes back when the ban ends)."""
    now = time.time()
    ranked = await query(_STANDINGS.format(which=_SETTLED_UNBANNED), (now, now, count))
    standings: list[Standing] = []
    rank = 0
    for position, row in enumerate(ranked, 1):
        if position == 1 or row[1] < ranked[position - 2][1]:
            rank = position  # (equal ratings share a rank)
        standings.append(_standing(row, rank, now))
    return standings


async def profile(query: Query, name: str, games: int) -> Profile | None:
    """store.Store.profile, over `query`."""
    rows = await query(_STANDINGS.format(which="ratings.name = ?"), (name, 1))
    if not rows:  # never rated: their record alone (games with guests, with no result)
        rows = await query(
            """SELECT name, ?, ?, ?, 0, NULL, wins, losses, draws, last FROM records
               WHERE name = ? AND opponent = ''""",
            (FIRST.rating, FIRST.deviation, FIRST.volatility, name),
        )
    if not rows:
        return None
    now = time.time()
    rating = kept_rating(rows[0][1:6], now)
    rank = None
    if not rating.provisional:
        ((higher,),) = await query(
            "SELECT count(*) FROM ratings WHERE settled_until > ? AND rating > ?",
            (now, rating.rating),
        )
        rank = int(higher) + 1
    history = await query(
        "SELECT rating, change FROM rating_changes WHERE name = ? ORDER BY game DESC LIMIT ?",
        (name, HISTORY_GAMES),
    )
    start = float(history[-1][0]) - float(history[-1][1]) if history else FIRST_RATING
    faced = await query(_OPPONENTS, (name, FREQUENT_OPPONENTS))
    latest = await query(_LATEST, (name, games, name, games, games))
    return Profile(
        _standing(rows[0], rank, now),
        tuple(float(row[0]) for row in reversed(history)),
        start,
        tuple((str(row[0]), Results(int(row[1]), int(row[2]), int(row[3]))) for row in faced),
        tuple(_archived(row) for row in latest),
    )


async def archived_game(query: Query, game_id: int) -> ArchivedGame | None:
    """store.Store.archived_game, over `query`."""
    rows = await query(
        f"SELECT {_GAME_COLUMNS} FROM games {_CHANGES} WHERE games.id = ?", (game_id,)
    )
    return _archived(rows[0]) if rows else None


async def count_game(
    query: Query, names: tuple[str, str], winner: str | None, ended: object
) -> None:
    """Count a finished game in both players' records, whole and against each other;
    `winner` is 'black', 'white', 'draw' or None (no result); `ended` as the store
    writes the games' `ended`."""
    for side, (name, opponent) in enumerate((names, names[::-1])):
        won, lost = winner == ("black", "white")[side], winner == ("white", "black")[side]
        for against in ("", opponent):
            await query(
                _COUNT_GAME, (name, against, int(won), int(lost), int(winner == "draw"), ended)
            )


async def keep_ratings(query: Query, rated: dict[str, Rating], now: float) -> None:
    """Keep each name's rating after a rated game that ended at Unix time `now`, with
    when it stops being settled (the leaderboard's test, ratings.settled_until)."""
    for name, rating in rated.items():
        await query(
            _KEEP_RATING,
            (
                name,
                rating.rating,
                rating.deviation,
                rating.volatility,
                rating.games,
                now,
                settled_until(rating, now),
            ),
        )


async def note_rating_changes(
    query: Query, game_id: int, before: dict[str, Rating], after: dict[str, Rating]
) -> None:
    """Keep how far game `game_id` moved each of its players' ratings (name -> rating),
    with their deviation and volatility before and after it (what `mod void` gives back)."""
    for name, rating in after.items():
        was = before[name]
        await query(
            """INSERT INTO rating_changes (name, game, rating, change, deviation_before,
                   deviation_after, volatility_before, volatility_after)
               VALUES (?, ?, ?, ?, ?, ?, ?, ?)""",
            (
                name,
                game_id,
                rating.rating,
                rating.rating - was.rating,
                was.deviation,
                rating.deviation,
                was.volatility,
                rating.volatility,
            ),
        )


def _standing(row: tuple[Any, ...], rank: int | None, now: float) -> Standing:
    """A row of (name, RATING_COLUMNS, wins, losses, draws, last) as a Standing."""
    name, *rating, wins, losses, draws, last = row
    record = Results(int(wins or 0), int(losses or 0), int(draws or 0))
    seen = _when(last) if last is not None else None
    return Standing(str(name), kept_rating(tuple(rating), now), record, seen, rank)


def _archived(row: tuple[Any, ...]) -> ArchivedGame:
    (game_id, code, variant, black, white, moves, winner, ending, text, started, ended) = row[:11]
    changes = tuple(None if change is None else float(change) for change in row[11:13])
    return ArchivedGame(
        int(game_id),
        str(code),
        str(variant),
        (str(black), str(white)),
        str(moves),
        winner,
        str(ending),
        str(text),
        _when(started),
        _when(ended),
        (changes[0], changes[1]),
    )


def _when(value: object) -> datetime:
    """A time as either store gives it: PostgreSQL's datetime, SQLite's ISO text."""
    when = value if isinstance(value, datetime) else datetime.fromisoformat(str(value))
    return when if when.tzinfo is not None else when.replace(tzinfo=UTC)
