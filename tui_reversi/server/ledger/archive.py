"""The server's record of the games people played at its tables.

Every table's game that ends with both seats taken is kept twice: a row in
the archive (SQLite, the standard library's sqlite3, in WAL mode, at
`<data dir>/archive.sqlite3`), and a saved game in each player's own
saved games (so `o` at home lists it and `x` exports it as GGF with both
names). Results and Elo ratings are counted per player name, a name being
its keys' (accounts.py); games with a guest are not rated. The archive also
keeps which keys are which name's (table `account_keys`, the AccountStore).

A game not over yet is kept too, from the moment both seats are taken and
again after every move, takeback and adjournment (table `unfinished`): when
the server starts, each one found there comes back adjourned, clocks as they
were, for its players to resume. Its row goes in the transaction that
archives the game's end. `Archive` is the SQLite `Store` (store.py); the
PostgreSQL one (postgres.py) shares the Elo and the players' saved games.
"""

from __future__ import annotations

import json
import os
import sqlite3
import time
from collections.abc import Awaitable, Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, TypeVar

from ...core import Color, Ending, Game, Variant
from ...net.remote import is_guest
from ...net.terms import TimeControl
from ...storage import NameTakenError, SavedGame, SavedGames, StorageError
from ...storage.paths import APP_NAME, GAMES_DIR
from . import browser_passes, playbans, standings
from .account_keys import AccountKey, KeyCodes
from .archive_schema import upgrade
from .browser_passes import KeptPasses
from .fleet_messages import FleetMessage, Hearing
from .moderation import KeptModeration, LogEntry
from .names import name_key
from .penalties import Penalty, Subject, change_kept
from .playbans import Ban, Outcome
from .ratings import PAIR_WINDOW, Rating, rated_game
from .renames import KeptRenames, Rename
from .seekers import Seeker, SeekersHere
from .standings import ArchivedGame, Profile, Query, Standing
from .store import PlayedGame, Presence, Results, TableView, UnfinishedGame
from .tournaments import KeptTournaments

T = TypeVar("T")

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    code TEXT NOT NULL,             -- the table's code
    variant TEXT NOT NULL,          -- othello, reversi or anti
    black TEXT NOT NULL,            -- player names, as SSH authenticated them
    white TEXT NOT NULL,
    moves TEXT NOT NULL,            -- the transcript (passes implied)
    winner TEXT,                    -- 'black', 'white', 'draw', or NULL: no result
    ending TEXT NOT NULL,           -- board (played out), resigned, time, forfeit, banned, left
    black_score INTEGER,            -- World Othello Federation count, when played out
    white_score INTEGER,
    description TEXT NOT NULL,      -- the sentence both players were told
    started TEXT NOT NULL,          -- UTC, ISO 8601
    ended TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS games_black ON games (black);
CREATE INDEX IF NOT EXISTS games_white ON games (white);
CREATE TABLE IF NOT EXISTS unfinished (
    code TEXT PRIMARY KEY,          -- the table's code, kept across a restart
    variant TEXT NOT NULL,
    black TEXT NOT NULL,
    white TEXT NOT NULL,
    moves TEXT NOT NULL,            -- the transcript so far
    clock TEXT,                     -- the time control ('5+3'), NULL: none
    black_left REAL,                -- seconds on each clock, as of the last move or stop
    white_left REAL,
    adjourned INTEGER NOT NULL,     -- 1: adjourned; 0: in play when last written
    started TEXT NOT NULL,          -- UTC, ISO 8601
    saved TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS account_keys (
    key TEXT PRIMARY KEY,           -- an OpenSSH public key, 'ssh-ed25519 AAAA...' (no comment)
    name TEXT NOT NULL,             -- the player name it logs in as
    added TEXT NOT NULL             -- UTC, ISO 8601
);
CREATE INDEX IF NOT EXISTS account_keys_name ON account_keys (name);
CREATE TABLE IF NOT EXISTS ratings (
    name TEXT PRIMARY KEY,          -- a player name
    rating REAL NOT NULL,           -- Elo until version 3 (archive_schema.py), Glicko-2 since
    games INTEGER NOT NULL          -- rated games played
);
"""
# The one node of a server on its own.
LOCAL_NODE = "local"
# How a table's game is kept in each player's saved games: they were the one at
# the keyboard, the other a person across the network (the player kinds saved
# games name: players/kinds.py's HUMAN and PERSON, which the ledger does not import).
AT_KEYBOARD = "human"
ACROSS_NETWORK = "person"


# How a game ended (core.Ending's reason) -> the archive's `ending` column; a
# player who left and did not come back in time, with a winner, is a forfeit.
_ARCHIVED = {"normal": "board", "resigned": "resigned", "flag": "time", "banned": "banned"}


def archived_ending(end: Ending) -> str:
    """The archive's word for how the game ended (the games table's `ending`)."""
    if end.reason == "left":
        return "forfeit" if end.winner is not None else "left"
    return _ARCHIVED[end.reason]


class Archive(KeptPasses, KeptTournaments, KeptModeration, KeptRenames):
    """The archive file and the players' saved games: keep(game), results(name).

    Its coroutines run sqlite3 at once, never waiting: a local file answers in well
    under a millisecond, and its one connection is the event loop's thread's. So a
    transaction here is never interleaved with another task's statements either."""

    def __init__(self, path: Path, players_dir: Path) -> None:
        self.path = path
        self.where = str(path)
        self.codes = KeyCodes()  # (one process: its memory will do)
        self._queue = SeekersHere()  # (the same: a wait never outlives the process)
        self.players_dir = players_dir
        # The file and its journals are the server user's alone (SQLite gives the
        # journals the file's mode), whatever mode an older file had.
        os.close(os.open(path, os.O_RDWR | os.O_CREAT, 0o600))
        for kept in (path, path.with_name(f"{path.name}-wal"), path.with_name(f"{path.name}-shm")):
            if kept.exists():
                kept.chmod(0o600)
        self._db = sqlite3.connect(path, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.executescript(SCHEMA)
        upgrade(self._db)
        self._add_standings()

    def _add_standings(self) -> None:
        """The standings' tables and indexes (standings.py), the players' records
        counted from the games already archived when the file had none."""
        with self._db:
            self._db.execute("BEGIN IMMEDIATE")
            new = not self._db.execute(
                "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'records'"
            ).fetchone()
            script = standings.schema("INTEGER", "REAL", "TEXT")
            if new:
                script += standings.BACKFILL
            for statement in script.split(";"):  # (executescript would commit half-way)
                if statement.strip():
                    self._db.execute(statement)

    async def close(self) -> None:
        self._db.close()

    async def keep(self, played: PlayedGame) -> list[str]:
        """Archive `played` and save it in both players' saved games; the
        problems met (one sentence each, for the log), if any."""
        problems: list[str] = []
        try:
            await self._insert(played)
        except (sqlite3.Error, StorageError) as error:
            problems.append(f"cannot archive table {played.code}'s game in {self.path}: {error}")
        return problems + save_for_players(played, self.players_dir)

    async def save_table(self, unfinished: UnfinishedGame) -> None:
        """Keep (or replace) a game not over yet. Raises StorageError."""
        game, clock = unfinished.game, unfinished.time_control
        try:
            self._db.execute(
                """INSERT OR REPLACE INTO unfinished (code, variant, black, white, moves, clock,
                       black_left, white_left, adjourned, started, saved)
                   VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""",
                (
                    unfinished.code,
                    game.variant.value,
                    *unfinished.names,
                    game.transcript(),
                    str(clock) if clock is not None else None,
                    *(unfinished.left if clock is not None else (None, None)),
                    int(unfinished.adjourned),
                    unfinished.started.isoformat(timespec="seconds"),
                    datetime.now(UTC).isoformat(timespec="seconds"),
                ),
            )
        except sqlite3.Error as error:
            code = unfinished.code
            raise StorageError(f"cannot keep table {code}'s game in {self.path}: {error}") from None

    async def forget_table(self, code: str) -> None:
        """Forget the game kept not over at table `code`. Raises StorageError."""
        try:
            self._db.execute("DELETE FROM unfinished WHERE code = ?", (code,))
        except sqlite3.Error as error:
            raise StorageError(
                f"cannot forget table {code}'s game in {self.path}: {error}"
            ) from None

    async def unfinished_tables(self) -> tuple[list[UnfinishedGame], list[str]]:
        """Every game kept not over, and a sentence for each row that cannot be read."""
        try:
            rows = self._db.execute(
                """SELECT code, variant, black, white, moves, clock, black_left, white_left,
                          adjourned, started FROM unfinished ORDER BY started"""
            ).fetchall()
        except sqlite3.Error as error:
            return [], [f"cannot read the unfinished games in {self.path}: {error}"]
        return read_unfinished(rows)

    async def rating(self, name: str) -> Rating:
        return (await standings.ratings(self._rows, _among, [name]))[name]

    async def ratings(self, names: Collection[str]) -> dict[str, Rating]:
        return await standings.ratings(self._rows, _among, names)

    def _among(self, names: list[str]) -> tuple[str, object]:
        return _among(names)

    async def results(self, name: str) -> Results:
        """`name`'s wins, losses and draws at this server's tables."""
        row = self._db.execute(
            """SELECT
                 SUM((black = :n AND winner = 'black') OR (white = :n AND winner = 'white')),
                 SUM((black = :n AND winner = 'white') OR (white = :n AND winner = 'black')),
                 SUM(winner = 'draw')
               FROM games WHERE black = :n OR white = :n""",
            {"n": name},
        ).fetchone()
        return Results(*(count or 0 for count in row))

    async def records(self, names: Collection[str]) -> dict[str, Results]:
        return await standings.records(self._rows, _among, names)

    # -- the standings (standings.py): the same queries as PostgreSQL's ---------------

    async def leaderboard(self, count: int) -> list[Standing]:
        return await standings.leaderboard(self._rows, count)

    async def profile(self, name: str, games: int) -> Profile | None:
        return await standings.profile(self._rows, name, games)

    async def archived_game(self, game_id: int) -> ArchivedGame | None:
        return await standings.archived_game(self._rows, game_id)

    async def _rows(self, sql: str, parameters: tuple[object, ...]) -> list[tuple[Any, ...]]:
        try:
            return self._db.execute(sql, parameters).fetchall()
        except sqlite3.Error as error:
            raise StorageError(f"cannot read the archive in {self.path}: {error}") from None

    # -- the fleet's part: one machine has no other node --------------------------------

    @property
    def node(self) -> str:
        return LOCAL_NODE

    @property
    def alone(self) -> bool:
        return True  # (one process's file: a fleet of one)

    async def orphaned(self, name: str) -> list[UnfinishedGame]:
        return []  # every kept game came back when the server started

    async def take_over(self, code: str) -> UnfinishedGame | None:
        return None

    async def hand_table(self, unfinished: UnfinishedGame, node: str) -> bool:
        return False  # (there is no other node to hand it to)

    async def holders(self, codes: list[str]) -> dict[str, str]:
        return {}  # (asked only in a fleet, when a node is back from being cut off)

    async def share(self, people: list[Presence], tables: list[TableView]) -> None:
        pass

    async def shared(self) -> tuple[list[Presence], list[TableView]]:
        return [], []

    async def send(self, node: str, message: FleetMessage) -> None:
        raise StorageError(f"there is no node {node!r}: this server is on its own")

    async def listen(self, heard: Hearing) -> None:
        pass

    async def leave(self) -> None:
        pass

    async def live_nodes(self) -> set[str]:
        return {LOCAL_NODE}

    async def ping(self) -> None:
        try:
            self._db.execute("SELECT 1 FROM sqlite_master LIMIT 1").fetchall()
        except sqlite3.Error as error:
            raise StorageError(f"{self.path}: {error}") from None

    # The pairing queue (seekers.py's SeekerBook): this process's, in memory.

    async def seek(self, seekers: list[Seeker], now: float) -> None:
        await self._queue.seek(seekers, now)

    async def unseek(self, seeker_id: str) -> bool:
        return await self._queue.unseek(seeker_id)

    async def seekers(self, now: float) -> list[Seeker]:
        return await self._queue.seekers(now)

    async def claim_pairs(self, pairs: list[tuple[str, str]]) -> list[tuple[str, str]]:
        return await self._queue.claim_pairs(pairs)

    async def rename_player(self, rename: Rename, log: LogEntry) -> None:
        await super().rename_player(rename, log)
        # (this process's memory keeps the codes to add a key, and the pairing queue)
        self.codes.rename(rename.old, rename.new)
        self._queue.forget_name(rename.old)

    # The players' conduct in rated games (playbans.py): one row a player.

    async def record_conduct(self, outcomes: Mapping[str, Outcome]) -> dict[str, Ban]:
        return await self._transaction(
            lambda run: playbans.record(run, outcomes, time.time()), "keep the players' conduct"
        )

    async def playban(self, name: str) -> Ban | None:
        return (await playbans.read(self._rows, name)).ban_at(time.time())

    async def playbans_among(self, names: Collection[str]) -> dict[str, Ban]:
        return await playbans.bans_among(self._rows, _among, names, time.time())

    # The accounts (account_keys.py's AccountStore): which keys are which name's.

    async def key_owner(self, key: str) -> str | None:
        row = self._query("SELECT name FROM account_keys WHERE key = ?", (key,)).fetchone()
        return str(row[0]) if row else None

    async def keys_of(self, name: str) -> list[AccountKey]:
        rows = self._query(
            "SELECT key, added FROM account_keys WHERE name = ? ORDER BY added, key", (name,)
        ).fetchall()
        return [AccountKey(str(key), str(added)) for key, added in rows]

    async def claim(self, name: str, key: str) -> bool:
        return self._bind(name, key, only_if_free=True)

    async def add_key(self, name: str, key: str) -> bool:
        return self._bind(name, key, only_if_free=False)

    async def remove_key(self, name: str, key: str) -> bool:
        return await self._transaction(
            lambda run: browser_passes.remove_key(run, name, key), f"remove {name}'s key"
        )

    async def _transaction(self, work: Callable[[Query], Awaitable[T]], what: str) -> T:
        """`work`'s statements in one transaction (KeptPasses'); StorageError saying
        it could not `what` if SQLite fails."""
        try:
            with self._db:
                self._db.execute("BEGIN IMMEDIATE")
                return await work(self._rows)
        except sqlite3.Error as error:
            raise StorageError(f"cannot {what} in {self.path}: {error}") from None

    def _bind(self, name: str, key: str, *, only_if_free: bool) -> bool:
        """Bind `key` to `name` unless the key has a name (or, `only_if_free`, the name a key)."""
        try:
            with self._db:  # the check and the binding: one transaction
                self._db.execute("BEGIN IMMEDIATE")
                taken = self._db.execute(
                    "SELECT 1 FROM account_keys WHERE key = ? OR (? AND name = ?)",
                    (key, only_if_free, name),
                ).fetchone()
                if taken:
                    return False
                self._db.execute(
                    "INSERT INTO account_keys (key, name, added) VALUES (?, ?, ?)",
                    (key, name, datetime.now(UTC).isoformat(timespec="seconds")),
                )
                return True
        except sqlite3.Error as error:
            raise StorageError(f"cannot keep {name}'s key in {self.path}: {error}") from None

    # One person, one name (names.py), and what guessing costs (guessing.py).

    async def look_alike(self, name: str) -> str | None:
        return self._look_alike(name)

    def _look_alike(self, name: str) -> str | None:
        rows = self._query(
            "SELECT name FROM names WHERE key = ? AND name <> ? ORDER BY twin LIMIT 1",
            (name_key(name), name),
        ).fetchall()
        known = self._query("SELECT 1 FROM names WHERE name = ?", (name,)).fetchone()
        return None if known or not rows else str(rows[0][0])

    async def enter_name(self, name: str, *, new: bool = False) -> str | None:
        try:
            with self._db:
                self._db.execute("BEGIN IMMEDIATE")
                holder = self._look_alike(name)
                if holder is None:
                    entered = self._db.execute(
                        "INSERT OR IGNORE INTO names (name, key) VALUES (?, ?)",
                        (name, name_key(name)),
                    )
                    holder = name if new and entered.rowcount == 0 else None
                return holder
        except sqlite3.Error as error:
            raise StorageError(f"cannot keep the name {name} in {self.path}: {error}") from None

    async def change_penalties(
        self, subjects: Sequence[Subject], change: Callable[[dict[Subject, Penalty]], T]
    ) -> T:
        async def read(subject: Subject) -> sqlite3.Row | None:
            return self._db.execute(
                "SELECT failures, last_failure, next_try FROM penalties "
                "WHERE scope = ? AND subject = ?",
                subject,
            ).fetchone()

        async def write(subject: Subject, penalty: Penalty | None) -> None:
            if penalty is None:
                self._db.execute("DELETE FROM penalties WHERE scope = ? AND subject = ?", subject)
                return
            self._db.execute(
                """INSERT OR REPLACE INTO penalties
                   (scope, subject, failures, last_failure, next_try) VALUES (?, ?, ?, ?, ?)""",
                (*subject, penalty.failures, penalty.last_failure, penalty.next_try),
            )

        try:
            with self._db:  # (one writer at a time: the check and the change are one)
                self._db.execute("BEGIN IMMEDIATE")
                return await change_kept(subjects, change, read, write)
        except sqlite3.Error as error:
            raise StorageError(f"cannot keep the penalties in {self.path}: {error}") from None

    def _query(self, sql: str, parameters: tuple[object, ...]) -> sqlite3.Cursor:
        try:
            return self._db.execute(sql, parameters)
        except sqlite3.Error as error:
            raise StorageError(f"cannot read the accounts in {self.path}: {error}") from None

    async def _insert(self, played: PlayedGame) -> None:
        with self._db:  # the game and the ratings it moves: both or neither
            self._db.execute("BEGIN")
            winner = self._insert_game(played)
            game_id, ended = self._db.execute(
                "SELECT id, ended FROM games WHERE id = last_insert_rowid()"
            ).fetchone()
            await standings.count_game(self._rows, played.names, winner, ended)
            self._db.execute("DELETE FROM unfinished WHERE code = ?", (played.code,))
            guests = any(is_guest(name) for name in played.names)
            if winner is not None and played.rated and not guests:
                await self._rate(
                    game_id, played.names, winner
                )  # (guests, and casual games, unrated)

    async def _rate(self, game_id: int, names: tuple[str, str], winner: str) -> None:
        """Move both players' ratings by the game's result (ratings.py's rules)."""
        now = time.time()
        before = await standings.ratings(self._rows, _among, names, now)
        since = (datetime.now(UTC) - timedelta(seconds=PAIR_WINDOW)).isoformat(timespec="seconds")
        (earlier,) = self._db.execute(
            """SELECT count(*) FROM games WHERE winner IS NOT NULL AND ended > ?
                 AND ((black = ? AND white = ?) OR (black = ? AND white = ?))""",
            (since, *names, *reversed(names)),
        ).fetchone()
        black, white = (before[name] for name in names)
        after = rated_game(black, white, winner, int(earlier) - 1)  # (this game's row is in)
        rated = dict(zip(names, after, strict=True))
        await standings.keep_ratings(self._rows, rated, now)
        await standings.note_rating_changes(
            self._rows,
            game_id,
            before,
            rated,
        )

    def _insert_game(self, played: PlayedGame) -> str | None:
        """The game's row; its winner as written ('black', 'white', 'draw' or None)."""
        self._db.execute(
            """INSERT INTO games (code, variant, black, white, moves, winner, ending,
                   black_score, white_score, description, started, ended)
               VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""",
            (
                *game_row(played),
                played.started.isoformat(timespec="seconds"),
                datetime.now(UTC).isoformat(timespec="seconds"),
            ),
        )
        return winner_of(played)


def read_unfinished(rows: Iterable[Sequence[Any]]) -> tuple[list[UnfinishedGame], list[str]]:
    """Rows of (code, variant, black, white, moves, clock, black_left, white_left,
    adjourned, started) as games, and a sentence for each row that cannot be read."""
    games: list[UnfinishedGame] = []
    problems: list[str] = []
    for code, variant, black, white, moves, clock, *left, adjourned, started in rows:
        try:
            games.append(
                UnfinishedGame(
                    code,
                    Game.from_transcript(moves, Variant(variant)),
                    (black, white),
                    TimeControl.parse(clock) if clock is not None else None,
                    (float(left[0] or 0.0), float(left[1] or 0.0)),
                    started if isinstance(started, datetime) else datetime.fromisoformat(started),
                    bool(adjourned),
                )
            )
        except (ValueError, TypeError) as error:  # ReversiError, TermsRefused too
            problems.append(f"table {code!r}'s unfinished game cannot be read back: {error}")
    return games, problems


def game_row(played: PlayedGame) -> tuple[str | int | None, ...]:
    """The archive's columns code, variant, black, white, moves, winner, ending,
    black_score, white_score and description for `played`."""
    game, end = played.game, played.end
    result = game.result if end.reason == "normal" else None
    return (
        played.code,
        game.variant.value,
        played.names[Color.BLACK],
        played.names[Color.WHITE],
        game.transcript(),
        winner_of(played),
        archived_ending(end),
        result.black if result else None,
        result.white if result else None,
        end.text,
    )


def winner_of(played: PlayedGame) -> str | None:
    """The game's winner as the archive writes it ('black', 'white', 'draw' or None)."""
    if played.end.winner is not None:
        return played.end.winner.name.lower()
    if played.end.reason == "normal" and played.game.result is not None:
        return "draw"
    return None


def save_for_players(played: PlayedGame, players_dir: Path) -> list[str]:
    """`played` in both players' saved games; the problems met (one sentence each)."""
    problems: list[str] = []
    for color in Color:
        try:
            _save_for(played, color, players_dir)
        except (OSError, StorageError) as error:
            name = played.names[color]
            problems.append(f"cannot save table {played.code}'s game for {name}: {error}")
    return problems


def _save_for(played: PlayedGame, color: Color, players_dir: Path) -> None:
    """The game in `color`'s player's saved games, with both names and how it
    ended: they are `human`, the other `person`. A game with no move is not kept."""
    if not played.game.moves:
        return
    kinds = (AT_KEYBOARD, ACROSS_NETWORK) if color == Color.BLACK else (ACROSS_NETWORK, AT_KEYBOARD)
    record = replace(
        SavedGame.from_game(played.game, *kinds),
        names=played.names,
        ending=played.end,
    )
    # The names are the players' directory names already (session.player).
    home = players_dir / played.names[color]
    if is_guest(played.names[color]) and not home.is_dir():
        return  # a guest who has left: nobody can come back as it to read the game
    games = SavedGames(home / "data" / APP_NAME / GAMES_DIR)
    games.directory.mkdir(mode=0o700, parents=True, exist_ok=True)
    black, white = played.names
    when = played.started.astimezone(UTC).strftime("%Y-%m-%d %H.%M")
    name = f"{black} vs {white} {when} table {played.code}"
    # Two games of one pair at one table in one minute (quick rematches)
    # get "(2)", "(3)"...: a finished game never replaces another.
    for number in range(2, 1000):
        try:
            games.save(record, name)
            return
        except NameTakenError:
            name = f"{black} vs {white} {when} table {played.code} ({number})"
    raise StorageError(f"too many games called {name!r}")


def _among(names: list[str]) -> tuple[str, object]:
    """standings.Among on SQLite: the names as one JSON array (no limit on how many)."""
    return "name IN (SELECT value FROM json_each(?))", json.dumps(names)
