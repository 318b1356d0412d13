"""Tournaments as the store keeps them, fleet-wide: the events (`Tournament`),
who entered each and what they are doing now (`Entry`), and their games
(`TournamentGame`), from which the standings are counted (arena.py's and
swiss.py's rules). The hall's director (hall/tournaments.py) runs them on every
node through these records only, so a player on one node meets one on another.

An entry's state says where its player is: `waiting` (their session waits in the
tournament: free to be paired), `playing`, `over` (their game has ended and their
session has not come back to the wait yet), or `paused` (they left; they may come
back). A pairing takes two `waiting` entries at once (claim_pair: both or
neither) and leaves each a `seat` ('NODE SECRET'), which the director on the
player's node hands to their session.

The queries are one text for both stores (`?` for each value), as browser_passes.py's.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from .kept_queries import KeptQueries
from .standings import Query

ARENA, SWISS = "arena", "swiss"
COMING, RUNNING, FINISHED = "coming", "running", "finished"
WAITING, PLAYING, OVER, PAUSED = "waiting", "playing", "over", "paused"
# How a tournament game ended, from Black's side of the row: a colour that won, a
# draw, a bye (no game: the one player scores), or none (no move was played).
BLACK_WON, WHITE_WON, DRAWN, BYE, NO_RESULT = "black", "white", "draw", "bye", "none"
# Finished tournaments `tournaments` still lists.
FINISHED_LISTED = 10
# What an operator's recurring arena is made by, before its schedule (hall/arena_schedule.py).
SCHEDULED = "schedule: "

SCHEMA = """
CREATE TABLE IF NOT EXISTS tournaments (
    id {serial} PRIMARY KEY,
    kind {text} NOT NULL,            -- 'arena' or 'swiss'
    variant {text} NOT NULL,
    clock {text} NOT NULL,           -- '3+2'
    rated INTEGER NOT NULL,          -- 1: its games are rated
    rounds INTEGER NOT NULL,         -- a Swiss's rounds (0: an arena)
    round INTEGER NOT NULL,          -- the round being played (0: none yet)
    starts {real} NOT NULL,          -- Unix time
    ends {real},                     -- an arena's end (Unix time), NULL for a Swiss
    state {text} NOT NULL,           -- 'coming', 'running', 'finished'
    made_by {text} NOT NULL,         -- who made it ('' for the operator's schedule)
    winner {text}                    -- once finished
);
CREATE TABLE IF NOT EXISTS tournament_entries (
    tournament INTEGER NOT NULL,
    name {text} NOT NULL,
    rating {real} NOT NULL,          -- when they entered: for the first pairings
    state {text} NOT NULL,           -- 'waiting', 'playing', 'over', 'paused'
    node {text} NOT NULL,            -- the node of their session
    berserk INTEGER NOT NULL,        -- 1: their next game starts on half their clock
    seat {text},                     -- 'NODE SECRET' of a seat found, not handed over yet
    joined {real} NOT NULL,
    PRIMARY KEY (tournament, name)
);
CREATE TABLE IF NOT EXISTS tournament_games (
    id {serial} PRIMARY KEY,
    tournament INTEGER NOT NULL,
    round INTEGER NOT NULL,          -- a Swiss's round (0 in an arena)
    black {text} NOT NULL,
    white {text} NOT NULL,           -- '' for a bye
    code {text} NOT NULL,            -- the table's code ('' for a bye)
    node {text} NOT NULL,            -- the node of the table
    black_berserk INTEGER NOT NULL,
    white_berserk INTEGER NOT NULL,
    result {text},                   -- 'black', 'white', 'draw', 'bye', 'none' (NULL: in play)
    moves INTEGER NOT NULL,
    started {real} NOT NULL,
    ended {real}
);
CREATE INDEX IF NOT EXISTS tournament_games_of ON tournament_games (tournament);
CREATE UNIQUE INDEX IF NOT EXISTS tournaments_scheduled ON tournaments (made_by, starts)
    WHERE made_by LIKE 'schedule: %'
"""


def schema(text: str, real: str, serial: str) -> str:
    """The tournaments' tables, in a store's types."""
    return SCHEMA.format(text=text, real=real, serial=serial)


@dataclass(frozen=True, slots=True)
class Tournament:
    """One event, as made and as it stands."""

    id: int
    kind: str  # ARENA or SWISS
    variant: str
    clock: str
    rated: bool
    rounds: int
    round: int
    starts: float
    ends: float | None
    state: str  # COMING, RUNNING, FINISHED
    made_by: str
    winner: str | None = None


@dataclass(frozen=True, slots=True)
class Entry:
    """One player in a tournament."""

    name: str
    rating: float
    state: str
    node: str
    berserk: bool
    seat: str | None
    joined: float


@dataclass(frozen=True, slots=True)
class TournamentGame:
    """One game of a tournament (or a Swiss's bye: `white` and `code` empty)."""

    id: int
    round: int
    black: str
    white: str
    code: str
    node: str
    berserk: tuple[bool, bool]  # (Black's, White's)
    result: str | None
    moves: int


class TournamentBook(Protocol):
    """Where tournaments are kept (archive.py's SQLite, postgres.py's). Methods raise
    StorageError (one sentence) when the store fails. Times are Unix time."""

    async def new_tournament(self, made: Tournament) -> int:
        """Keep `made` (its id ignored); its id."""

    async def schedule_tournament(self, made: Tournament) -> bool:
        """Keep `made`, an operator's recurring arena, unless it is kept already (the
        same schedule and start: of two nodes making it, one does): True if it was new."""

    async def tournament(self, tournament_id: int) -> Tournament | None:
        """The tournament with that id, None if there is none."""

    async def tournaments(self) -> list[Tournament]:
        """Those coming and running, then the last FINISHED_LISTED finished."""

    async def advance(
        self, tournament_id: int, state: str, round: int, was: tuple[str, int]
    ) -> bool:
        """Move the tournament to `state` and `round` if it is still at `was` (state,
        round): True if this call moved it (of two nodes, one does)."""

    async def finish(self, tournament_id: int, winner: str | None) -> bool:
        """The tournament is over, won by `winner`: True if this call ended it."""

    async def enter(
        self, tournament_id: int, name: str, rating: float, node: str, now: float
    ) -> None:
        """`name` waits in the tournament from `node` (entering it, or back); one
        still playing a game of it (their session left it) is `over` when it ends."""

    async def set_entry(
        self, tournament_id: int, name: str, state: str, *, was: str | None = None
    ) -> None:
        """`name`'s entry to `state` (only from `was`, if given)."""

    async def want_berserk(self, tournament_id: int, name: str, berserk: bool) -> None:
        """Whether `name`'s next game starts on half their clock."""

    async def entries(self, tournament_id: int) -> list[Entry]:
        """Everyone who entered, the first to enter first."""

    async def tournament_games(self, tournament_id: int) -> list[TournamentGame]:
        """Its games, in the order they began."""

    async def claim_pair(self, tournament_id: int, names: tuple[str, str]) -> bool:
        """Take both players, if both are `waiting`, to be seated (both or neither)."""

    async def start_game(
        self, tournament_id: int, game: TournamentGame, seats: dict[str, str], now: float
    ) -> int:
        """Keep a game begun (a bye: a game with its result) and each player's seat
        (name -> 'NODE SECRET'); the game's id."""

    async def seat_taken(self, tournament_id: int, name: str) -> None:
        """`name`'s seat has been handed to their session."""

    async def end_game(
        self, tournament_id: int, game_id: int, result: str, moves: int, now: float
    ) -> None:
        """The game is over: its result, and its players `over` (those still playing)."""


_TOURNAMENT = "id, kind, variant, clock, rated, rounds, round, starts, ends, state, made_by, winner"
_ENTRY = "name, rating, state, node, berserk, seat, joined"
_GAME = "id, round, black, white, code, node, black_berserk, white_berserk, result, moves"


def _tournament(row: tuple[Any, ...]) -> Tournament:
    tid, kind, variant, clock, rated, rounds, rnd, starts, ends, state, made_by, winner = row
    return Tournament(
        int(tid),
        str(kind),
        str(variant),
        str(clock),
        bool(rated),
        int(rounds),
        int(rnd),
        float(starts),
        float(ends) if ends is not None else None,
        str(state),
        str(made_by),
        winner,
    )


class KeptTournaments(KeptQueries):
    """A `TournamentBook` for a store that runs these queries: one statement by
    `_rows`, several in one transaction by `_transaction` (archive.py's, postgres.py's)."""

    async def new_tournament(self, made: Tournament) -> int:
        rows = await self._insert_tournament(made, "")
        return int(rows[0][0])

    async def schedule_tournament(self, made: Tournament) -> bool:
        return bool(await self._insert_tournament(made, " ON CONFLICT DO NOTHING"))

    async def _insert_tournament(self, made: Tournament, conflict: str) -> list[tuple[Any, ...]]:
        return await self._rows(
            f"""INSERT INTO tournaments (kind, variant, clock, rated, rounds, round, starts, ends,
                   state, made_by) VALUES (?, ?, ?, ?, ?, 0, ?, ?, ?, ?){conflict} RETURNING id""",
            (
                made.kind,
                made.variant,
                made.clock,
                int(made.rated),
                made.rounds,
                made.starts,
                made.ends,
                made.state,
                made.made_by,
            ),
        )

    async def tournament(self, tournament_id: int) -> Tournament | None:
        rows = await self._rows(
            f"SELECT {_TOURNAMENT} FROM tournaments WHERE id = ?", (tournament_id,)
        )
        return _tournament(rows[0]) if rows else None

    async def tournaments(self) -> list[Tournament]:
        live = await self._rows(
            f"SELECT {_TOURNAMENT} FROM tournaments WHERE state <> ? ORDER BY starts, id",
            (FINISHED,),
        )
        done = await self._rows(
            f"SELECT {_TOURNAMENT} FROM tournaments WHERE state = ? ORDER BY id DESC LIMIT ?",
            (FINISHED, FINISHED_LISTED),
        )
        return [_tournament(row) for row in [*live, *done]]

    async def advance(
        self, tournament_id: int, state: str, round: int, was: tuple[str, int]
    ) -> bool:
        rows = await self._rows(
            """UPDATE tournaments SET state = ?, round = ? WHERE id = ? AND state = ? AND round = ?
               RETURNING id""",
            (state, round, tournament_id, *was),
        )
        return bool(rows)

    async def finish(self, tournament_id: int, winner: str | None) -> bool:
        rows = await self._rows(
            "UPDATE tournaments SET state = ?, winner = ? WHERE id = ? AND state <> ? RETURNING id",
            (FINISHED, winner, tournament_id, FINISHED),
        )
        return bool(rows)

    async def enter(
        self, tournament_id: int, name: str, rating: float, node: str, now: float
    ) -> None:
        await self._rows(
            """INSERT INTO tournament_entries (tournament, name, rating, state, node, berserk,
                   seat, joined) VALUES (?, ?, ?, ?, ?, 0, NULL, ?)
               ON CONFLICT (tournament, name) DO UPDATE SET state = excluded.state,
                   node = excluded.node, seat = NULL
               WHERE tournament_entries.state <> ?""",
            (tournament_id, name, rating, WAITING, node, now, PLAYING),
        )

    async def set_entry(
        self, tournament_id: int, name: str, state: str, *, was: str | None = None
    ) -> None:
        query = "UPDATE tournament_entries SET state = ? WHERE tournament = ? AND name = ?"
        if was is None:
            await self._rows(query, (state, tournament_id, name))
        else:
            await self._rows(f"{query} AND state = ?", (state, tournament_id, name, was))

    async def want_berserk(self, tournament_id: int, name: str, berserk: bool) -> None:
        await self._rows(
            "UPDATE tournament_entries SET berserk = ? WHERE tournament = ? AND name = ?",
            (int(berserk), tournament_id, name),
        )

    async def entries(self, tournament_id: int) -> list[Entry]:
        rows = await self._rows(
            f"SELECT {_ENTRY} FROM tournament_entries WHERE tournament = ? ORDER BY joined, name",
            (tournament_id,),
        )
        return [
            Entry(str(n), float(r), str(s), str(node), bool(b), seat, float(j))
            for n, r, s, node, b, seat, j in rows
        ]

    async def tournament_games(self, tournament_id: int) -> list[TournamentGame]:
        rows = await self._rows(
            f"SELECT {_GAME} FROM tournament_games WHERE tournament = ? ORDER BY id",
            (tournament_id,),
        )
        return [
            TournamentGame(
                int(gid),
                int(rnd),
                str(b),
                str(w),
                str(c),
                str(node),
                (bool(bb), bool(wb)),
                res,
                int(m),
            )
            for gid, rnd, b, w, c, node, bb, wb, res, m in rows
        ]

    async def claim_pair(self, tournament_id: int, names: tuple[str, str]) -> bool:
        async def claim(run: Query) -> bool:
            taken = await run(
                """UPDATE tournament_entries SET state = ? WHERE tournament = ? AND name IN (?, ?)
                   AND state = ? RETURNING name""",
                (PLAYING, tournament_id, *names, WAITING),
            )
            if len(taken) == 2:
                return True
            for (name,) in taken:  # (the other was taken elsewhere meanwhile: put back)
                await run(
                    "UPDATE tournament_entries SET state = ? WHERE tournament = ? AND name = ?",
                    (WAITING, tournament_id, name),
                )
            return False

        return await self._transaction(claim, "pair two players of a tournament")

    async def start_game(
        self, tournament_id: int, game: TournamentGame, seats: dict[str, str], now: float
    ) -> int:
        async def start(run: Query) -> int:
            rows = await run(
                """INSERT INTO tournament_games (tournament, round, black, white, code, node,
                       black_berserk, white_berserk, result, moves, started, ended)
                   VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?, ?) RETURNING id""",
                (
                    tournament_id,
                    game.round,
                    game.black,
                    game.white,
                    game.code,
                    game.node,
                    int(game.berserk[0]),
                    int(game.berserk[1]),
                    game.result,
                    now,
                    now if game.result is not None else None,
                ),
            )
            for name, seat in seats.items():
                await run(
                    """UPDATE tournament_entries SET seat = ?, state = ?, berserk = 0
                       WHERE tournament = ? AND name = ?""",
                    (seat, PLAYING, tournament_id, name),
                )
            return int(rows[0][0])

        return await self._transaction(start, "keep a tournament's game")

    async def seat_taken(self, tournament_id: int, name: str) -> None:
        await self._rows(
            "UPDATE tournament_entries SET seat = NULL WHERE tournament = ? AND name = ?",
            (tournament_id, name),
        )

    async def end_game(
        self, tournament_id: int, game_id: int, result: str, moves: int, now: float
    ) -> None:
        async def end(run: Query) -> None:
            rows = await run(
                """UPDATE tournament_games SET result = ?, moves = ?, ended = ?
                   WHERE id = ? AND result IS NULL RETURNING black, white""",
                (result, moves, now, game_id),
            )
            for name in rows[0] if rows else ():
                await run(
                    """UPDATE tournament_entries SET state = ?, seat = NULL
                       WHERE tournament = ? AND name = ? AND state = ?""",
                    (OVER, tournament_id, name, PLAYING),
                )

        await self._transaction(end, "keep a tournament game's result")
