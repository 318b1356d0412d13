"""Who is good here and what a player has done: the records the store answers
`ssh host top` and `ssh host player NAME` with (store.py's `leaderboard`,
`profile` and `archived_game`), and the rule that keeps a new name out of the
ranks until its rating has settled.

Both stores answer from indexes (archive.py's and migrations.py's): the
ratings by rating, each player's games by name and date, each player's rating
after every rated game by name and game. Nothing here reads every game.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from ...core import Color, Ending, Game, Variant

# Everyone's rating starts here (archive.py rates from it too).
FIRST_RATING = 1500.0
# A rating resting on fewer rated games than this is provisional: shown with a
# question mark and left out of the ranks until it settles.
PROVISIONAL_GAMES = 10
# How many of a player's latest rated games their rating history shows.
HISTORY_GAMES = 60
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


def provisional(games: int) -> bool:
    """True for a rating resting on fewer than PROVISIONAL_GAMES rated games."""
    return games < PROVISIONAL_GAMES


def shown_rating(rating: float, games: int) -> str:
    """A rating as people read it: '1624', or '1500?' while provisional."""
    return f"{round(rating)}{'?' if provisional(games) else ''}"


@dataclass(frozen=True, slots=True)
class Standing:
    """One player on the leaderboard (or at the head of their profile)."""

    name: str
    rating: float
    games: int  # rated games the rating rests on
    record: Results  # every finished game at the server's tables, rated or not
    last_seen: datetime | None  # when their latest game ended
    rank: int | None  # None while provisional (or never rated)

    @property
    def shown_rating(self) -> str:
        return shown_rating(self.rating, self.games)


# The archive's `ending` column -> core.Ending's reason (archive.archived_ending's inverse).
_REASONS = {"board": "normal", "resigned": "resigned", "time": "flag", "forfeit": "left"}


@dataclass(frozen=True, slots=True)
class ArchivedGame:
    """A finished game as the archive keeps it, by its id."""

    id: int
    code: str  # the table it was played at
    variant: str
    names: tuple[str, str]  # black, white
    moves: str  # the transcript
    winner: str | None  # 'black', 'white', 'draw', or None: no result
    ending: str  # board, resigned, time, forfeit or left
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

    def change_for(self, name: str) -> float | None:
        """How far the game moved `name`'s rating; None if it was not rated for them."""
        return self.changes[self.color_of(name)]


@dataclass(frozen=True, slots=True)
class Profile:
    """A player as `ssh host player NAME` shows them."""

    standing: Standing
    history: tuple[float, ...]  # the rating after each of the latest rated games, oldest first
    opponents: tuple[tuple[str, Results], ...]  # the most played first
    games: tuple[ArchivedGame, ...]  # the latest first


# -- the queries, one text for both stores: `?` for each value (postgres.py turns
# them into psycopg's), sums written as CASE (SQLite has no FILTER before 3.30).

# Run one statement with its values; its rows (a store's own, raising StorageError).
Query = Callable[[str, tuple[object, ...]], list[tuple[Any, ...]]]

# Each player's games by date (the record, the last seen, the latest games and the
# opponents all read only these), the ratings by rating, and each rated game's move
# of each player's rating. SQLite's schema and PostgreSQL's migration both make them.
INDEXES = """
CREATE INDEX IF NOT EXISTS games_by_black ON games (black, ended, white, winner);
CREATE INDEX IF NOT EXISTS games_by_white ON games (white, ended, black, winner);
CREATE INDEX IF NOT EXISTS ratings_by_rating ON ratings (rating DESC, name, games);
"""


def rating_changes_table(id_type: str, real_type: str) -> str:
    """The table of each rated game's move of each player's rating, in a store's types."""
    return f"""
CREATE TABLE IF NOT EXISTS rating_changes (
    name TEXT NOT NULL,             -- a player name
    game {id_type} NOT NULL,        -- games.id
    rating {real_type} NOT NULL,    -- the rating after the game
    change {real_type} NOT NULL,    -- how far the game moved it
    PRIMARY KEY (name, game)
);
"""


_COUNTS = """SELECT sum(CASE WHEN winner = ? THEN 1 ELSE 0 END),
                    sum(CASE WHEN winner = ? THEN 1 ELSE 0 END),
                    sum(CASE WHEN winner = 'draw' THEN 1 ELSE 0 END), max(ended)
             FROM games WHERE {side} = ?"""

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
_OPPONENTS = """SELECT opponent, sum(won), sum(lost), sum(drawn), count(*) AS played FROM (
                  SELECT white AS opponent,
                         CASE WHEN winner = 'black' THEN 1 ELSE 0 END AS won,
                         CASE WHEN winner = 'white' THEN 1 ELSE 0 END AS lost,
                         CASE WHEN winner = 'draw' THEN 1 ELSE 0 END AS drawn
                    FROM games WHERE black = ?
                  UNION ALL
                  SELECT black, CASE WHEN winner = 'white' THEN 1 ELSE 0 END,
                         CASE WHEN winner = 'black' THEN 1 ELSE 0 END,
                         CASE WHEN winner = 'draw' THEN 1 ELSE 0 END
                    FROM games WHERE white = ?
                ) AS faced GROUP BY opponent ORDER BY played DESC, opponent LIMIT ?"""


def leaderboard(query: Query, count: int) -> list[Standing]:
    """store.Store.leaderboard, over `query`."""
    ranked = query(
        """SELECT name, rating, games FROM ratings WHERE games >= ?
           ORDER BY rating DESC, name LIMIT ?""",
        (PROVISIONAL_GAMES, count),
    )
    unsettled = query(
        """SELECT name, rating, games FROM ratings WHERE games < ?
           ORDER BY rating DESC, name LIMIT ?""",
        (PROVISIONAL_GAMES, count),
    )
    standings: list[Standing] = []
    rank = 0
    for position, (name, rating, games) in enumerate(ranked, 1):
        if position == 1 or rating < ranked[position - 2][1]:
            rank = position  # (equal ratings share a rank)
        standings.append(_standing(query, str(name), float(rating), int(games), rank))
    for name, rating, games in unsettled:
        standings.append(_standing(query, str(name), float(rating), int(games), None))
    return standings


def profile(query: Query, name: str, games: int) -> Profile | None:
    """store.Store.profile, over `query`."""
    rated = query("SELECT rating, games FROM ratings WHERE name = ?", (name,))
    rating, rated_games = (float(rated[0][0]), int(rated[0][1])) if rated else (FIRST_RATING, 0)
    rank = None
    if not provisional(rated_games):
        ((higher,),) = query(
            "SELECT count(*) FROM ratings WHERE games >= ? AND rating > ?",
            (PROVISIONAL_GAMES, rating),
        )
        rank = int(higher) + 1
    standing = _standing(query, name, rating, rated_games, rank)
    if standing.last_seen is None and not rated:
        return None
    history = query(
        "SELECT rating FROM rating_changes WHERE name = ? ORDER BY game DESC LIMIT ?",
        (name, HISTORY_GAMES),
    )
    faced = query(_OPPONENTS, (name, name, FREQUENT_OPPONENTS))
    latest = query(_LATEST, (name, games, name, games, games))
    return Profile(
        standing,
        tuple(float(row[0]) for row in reversed(history)),
        tuple((str(row[0]), Results(int(row[1]), int(row[2]), int(row[3]))) for row in faced),
        tuple(_archived(row) for row in latest),
    )


def archived_game(query: Query, game_id: int) -> ArchivedGame | None:
    """store.Store.archived_game, over `query`."""
    rows = query(f"SELECT {_GAME_COLUMNS} FROM games {_CHANGES} WHERE games.id = ?", (game_id,))
    return _archived(rows[0]) if rows else None


def note_rating_changes(
    query: Query, game_id: int, before: dict[str, float], after: dict[str, float]
) -> None:
    """Keep how far game `game_id` moved each of its players' ratings (name -> rating)."""
    for name, rating in after.items():
        query(
            "INSERT INTO rating_changes (name, game, rating, change) VALUES (?, ?, ?, ?)",
            (name, game_id, rating, rating - before[name]),
        )


def _standing(query: Query, name: str, rating: float, games: int, rank: int | None) -> Standing:
    """`name`'s standing: their record and last game from the two indexes of their games."""
    wins = losses = draws = 0
    last: datetime | None = None
    for side, won, lost in (("black", "black", "white"), ("white", "white", "black")):
        ((side_wins, side_losses, side_draws, ended),) = query(
            _COUNTS.format(side=side), (won, lost, name)
        )
        wins, losses, draws = (
            wins + (side_wins or 0),
            losses + (side_losses or 0),
            draws + (side_draws or 0),
        )
        if ended is not None:
            last = max(last, _when(ended)) if last is not None else _when(ended)
    return Standing(name, rating, games, Results(wins, losses, draws), last, rank)


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
