"""The saved-game record: one game as the autosave and saved games keep it.

A `SavedGame` is the variant, who plays each colour, the start position, the
moves (passes included, as core's `Game` records them), the undo cursor, an
optional name and two timestamps. The app keeps its live game as a core
`Game` plus the two players, so the conversions are one call each way::

    record = SavedGame.from_game(game, black="human", white="hard")
    record = record.with_game(game)   # after each move: same players, name, created
    game = record.to_game()           # every move replayed and checked

On disk it is a small JSON object (`to_json` / `from_json`)::

    {"format": "tui-reversi game", "version": 1, "variant": "othello",
     "black": "human", "white": "hard", "start": null,
     "moves": "f5d6c3d3c4", "ply": 5, "name": null,
     "created": "2025-01-02T12:00:00Z", "updated": "2025-01-02T12:03:10Z",
     "id": "9f3c2a7d51e04b68"}

`start` is a board string, or null for the variant's own start; `moves` is a
transcript with passes written `pa`; `ply` is the undo cursor (null: the end);
`id` tells one game from another, so the autosave knows when a new game
takes its place. A game that names its players (one played at a server's
table, or imported from GGS or NBoard) has `names` (black, white; "" for a
side without one); an imported game keeps, as its file wrote them,
`ratings` (black, white), `time_control`, `date` and `times` (per ply, passes
included, the seconds the move took; "" where none). `result` says how a
game ended when it was kept at its end (a table's game: a resignation, a
flag...). Each is left out when there is none::

    "names": ["Saio1200", "Saio3000"], "ratings": ["2197.01", "2199.72"],
    "time_control": "05:00//02:00", "date": "2003.12.15_13:24:03.MST",
    "times": ["0.01", "0.24"],
    "result": {"reason": "resigned", "winner": "black",
               "text": "bob (White) resigned: alice (Black) wins."}

`reason` is normal, resigned, flag, left, banned or adjourned; `winner` is black,
white, or null (a draw on the board, or no result). `analysis` (left out
when there is none) keeps what `tui-reversi analyse` or the app's Analyse
found, one object per move::

    "analysis": [{"ply": 1, "move": "f5", "played": 0.5, "best": "f5",
                  "best_score": 0.5, "exact": false, "pv": "f5d6c3"}, ...]

An entry of the analysis that does not fit the moves is left out on reading
(and said in the analysis's `unread`), never the rest and never the game.
Reading checks every field and replays every move, so a record that loads is
a game that can be played.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from typing import Any

from ..core import Color, Ending, Game, Move, Position, ReversiError, Variant, parse_transcript
from ..players.analysis import MAX_MARGIN, GameAnalysis, MoveAnalysis
from ..players.kinds import label, player_kind
from .errors import FutureFormatError, StorageError, shown

FORMAT = "tui-reversi game"
VERSION = 1
MAX_RECORD_BYTES = 256 * 1024  # a whole game is under 1 KiB; anything near this is not ours
_MAX_MOVES_CHARS = 1000
_MAX_NAME_CHARS = 200


def parse_player(text: str) -> str:
    """'human', 'easy', 'medium', 'hard' or 'expert' for `text` (any case);
    raises ReversiError naming the choices (fits argparse's `type=`)."""
    return player_kind(str(text)).name


def now() -> datetime:
    """The current UTC time to the second, as records store it."""
    return datetime.now(UTC).replace(microsecond=0)


def new_id() -> str:
    """A fresh game identity: 16 random hex digits."""
    return os.urandom(8).hex()


def _moves_text(moves: tuple[Move, ...]) -> str:
    return "".join("pa" if move.is_pass else move.name for move in moves)


@dataclass(frozen=True, slots=True)
class SavedGame:
    """One game as it is stored. Immutable; build new ones with `with_game`
    or `dataclasses.replace`. `start` is None for the variant's own start;
    `ply` is the undo cursor, None for the end of the moves."""

    variant: Variant
    black: str
    white: str
    moves: tuple[Move, ...] = ()
    start: Position | None = None
    ply: int | None = None
    name: str | None = None
    created: datetime = field(default_factory=now)
    updated: datetime = field(default_factory=now)
    id: str = field(default_factory=new_id)  # the same game keeps it from move to move
    analysis: GameAnalysis = field(
        default_factory=GameAnalysis
    )  # scored moves, kept so as not to search again
    # The players' names where the game gives them (black, white; "" for a
    # side without one): people at a server's table, an imported game's players.
    names: tuple[str, str] | None = None
    # How the game ended, when the record was kept at its end (None: it did not,
    # or the board says so alone).
    ending: Ending | None = None
    # As an imported game's file wrote them: the players' ratings (black,
    # white), the time control, the date, and per ply the seconds it took.
    ratings: tuple[str, str] | None = None
    time_control: str | None = None
    date: str | None = None
    times: tuple[str, ...] = ()

    # -- the app's live game ----------------------------------------------------

    @classmethod
    def from_game(
        cls, game: Game, black: str = "human", white: str = "human", *, name: str | None = None
    ) -> SavedGame:
        """A new record of `game` (all its moves and its cursor) between `black`
        and `white` ('human', 'easy', 'medium', 'hard' or 'expert')."""
        moment = now()
        return cls(
            variant=game.variant,
            black=parse_player(black),
            white=parse_player(white),
            moves=game.played,
            start=None if game.start == game.variant.start() else game.start,
            ply=None if game.at_end else game.ply,
            name=name,
            created=moment,
            updated=moment,
        )

    def with_game(self, game: Game) -> SavedGame:
        """This record brought up to date with `game`: same players, name,
        identity and creation time; the moves, cursor and update time of now;
        the analysis of the moves it still has."""
        fresh = SavedGame.from_game(game, self.black, self.white, name=self.name)
        same = 0  # the plies this record and `game` have in common: their times stay
        played = game.played
        while same < min(len(self.moves), len(played)) and self.moves[same] == played[same]:
            same += 1
        return replace(
            fresh,
            created=self.created,
            id=self.id,
            names=self.names,
            ratings=self.ratings,
            time_control=self.time_control,
            date=self.date,
            times=self.times[:same],
            analysis=self.analysis.kept_for(game),
            # An ending holds for the game it ended, not for one taken back or played on.
            ending=self.ending if fresh.moves == self.moves and fresh.ply == self.ply else None,
        )

    def with_players(self, black: str, white: str) -> SavedGame:
        """This record with `black` and `white` at the seats; a seat whose
        kind changes loses its name (a computer now plays it)."""
        black, white = parse_player(black), parse_player(white)
        names = self.names
        if names is not None:
            kept = tuple(
                name if kind == was else ""
                for name, kind, was in zip(names, (black, white), self.players, strict=True)
            )
            names = (kept[0], kept[1]) if any(kept) else None
        return replace(self, black=black, white=white, names=names)

    def player_label(self, color: Color) -> str:
        """The name of `color`'s player where the game gives one, else its
        kind ('Human', 'Easy', ...)."""
        if self.names is not None and self.names[color]:
            return self.names[color]
        return label(self.players[color])

    def to_game(self) -> Game:
        """The core Game, every move replayed and checked, the cursor restored.
        Raises StorageError naming the first bad move ('move 12 (c5) is
        illegal: it flips nothing')."""
        try:
            game = Game.from_transcript(_moves_text(self.moves), self.variant, self.start)
        except ReversiError as error:
            raise StorageError(str(error)) from None
        if self.ply is not None:
            if not 0 <= self.ply <= game.length:
                raise StorageError(
                    f"the cursor is at move {self.ply} but the game has {game.length} moves"
                )
            game.go_to(self.ply)
        return game

    @property
    def transcript(self) -> str:
        """The moves as a canonical transcript: lowercase squares, no passes."""
        return "".join(move.name for move in self.moves if move)

    def same_game(self, other: SavedGame | None) -> bool:
        """True when `other` holds this very game: the same moves from the
        same start between the same players (whatever its id: a load gives
        the game a new one, and its cursor)."""
        return other is not None and (
            (other.variant, other.start, other.moves, other.players, other.names)
            == (self.variant, self.start, self.moves, self.players, self.names)
        )

    @property
    def players(self) -> tuple[str, str]:
        """(black, white)."""
        return self.black, self.white

    # -- JSON -----------------------------------------------------------------

    def to_json(self) -> str:
        """The record as the JSON text the autosave and saved games hold."""
        data = {
            "format": FORMAT,
            "version": VERSION,
            "variant": self.variant.value,
            "black": self.black,
            "white": self.white,
            "start": None if self.start is None else str(self.start),
            "moves": _moves_text(self.moves),
            "ply": self.ply,
            "name": self.name,
            "created": _time_text(self.created),
            "updated": _time_text(self.updated),
            "id": self.id,
        }
        if self.analysis.moves:
            data["analysis"] = [_analysis_fields(scored) for scored in self.analysis.moves]
        if self.names is not None:
            data["names"] = list(self.names)
        if self.ending is not None:
            data["result"] = _result_fields(self.ending)
        if self.ratings is not None:
            data["ratings"] = list(self.ratings)
        if self.time_control is not None:
            data["time_control"] = self.time_control
        if self.date is not None:
            data["date"] = self.date
        if any(self.times):
            data["times"] = list(self.times)
        return json.dumps(data, indent=1, ensure_ascii=False) + "\n"

    @classmethod
    def from_json(cls, data: bytes | str, source: str = "the saved game") -> SavedGame:
        """Read a record written by `to_json`, checking every field and move.

        Raises FutureFormatError for a newer format and StorageError for
        anything else, one sentence starting with `source`:
        'the autosave is damaged: move 3 (a1) is illegal: it flips nothing'.
        """
        return read_record(data, source)[0]


def read_record(data: bytes | str, source: str = "the saved game") -> tuple[SavedGame, Game]:
    """`SavedGame.from_json` and the game it replayed to check it (a replay
    is most of the cost of reading a record, so callers that need both
    should not pay it twice)."""
    if len(data) > MAX_RECORD_BYTES:
        raise StorageError(f"{source} is too large to be a saved game")
    if isinstance(data, bytes):
        try:
            data = data.decode("utf-8")
        except UnicodeDecodeError:
            raise StorageError(f"{source} is damaged: it is not UTF-8 text") from None
    try:
        fields = json.loads(data)
    except json.JSONDecodeError as error:
        # Some of json's messages end in "at" ("Unterminated string starting at").
        what = error.msg.lower().removesuffix(" at")
        raise StorageError(
            f"{source} is damaged: {what} at line {error.lineno}, column {error.colno}"
        ) from None
    except (ValueError, RecursionError):
        raise StorageError(f"{source} is damaged: it is not a JSON record") from None
    if not isinstance(fields, dict) or fields.get("format") != FORMAT:
        raise StorageError(f"{source} is not a tui-reversi saved game")
    try:
        record = _record_from_fields(fields)
        game = record.to_game()
    except FutureFormatError as error:
        raise FutureFormatError(f"{source} {error}") from None
    except ReversiError as error:
        raise StorageError(f"{source} is damaged: {error}") from None
    # Canonical moves: passes exactly where core records them.
    analysis = _analysis(fields.get("analysis"), game)
    return replace(record, moves=game.played, analysis=analysis), game


def _analysis_fields(scored: MoveAnalysis) -> dict[str, object]:
    return {
        "ply": scored.ply,
        "move": str(scored.move),
        "played": scored.played_score,
        "best": None if scored.best is None else str(scored.best),
        "best_score": scored.best_score,
        "exact": scored.exact,
        "pv": _moves_text(scored.pv),
    }


def _analysis(items: object, game: Game) -> GameAnalysis:
    """The stored analysis of `game`: every entry that fits its moves. What
    does not fit is left out, and `unread` says so in one sentence."""
    if items is None:
        return GameAnalysis()
    if not isinstance(items, list):
        return GameAnalysis(unread="the stored analysis was left out: it is not a list")
    if len(items) > len(game.moves):
        return GameAnalysis(
            unread=f"the stored analysis was left out: it has {len(items)} entries "
            f"for {len(game.moves)} moves"
        )
    kept: list[MoveAnalysis] = []
    problems: list[_LeftOut] = []
    for item in items:
        try:
            kept.append(_scored(item, game))
        except _LeftOut as problem:
            problems.append(problem)
    if not problems:
        return GameAnalysis(tuple(kept))
    first = problems[0]
    if len(problems) == 1:
        unread = f"the stored analysis of {first.where} was left out: {first.why}"
    else:
        unread = (
            f"the stored analysis of {len(problems)} moves was left out; "
            f"of {first.where}: {first.why}"
        )
    return GameAnalysis(tuple(kept), unread=unread)


class _LeftOut(ValueError):
    """An analysis entry that does not fit: `where` ('move 4 (d3)') and `why`."""

    def __init__(self, where: str, why: str) -> None:
        super().__init__(f"{where}: {why}")
        self.where, self.why = where, why


def _scored(item: object, game: Game) -> MoveAnalysis:
    if not isinstance(item, dict):
        raise _LeftOut("an entry", "it is not an object")
    ply = item.get("ply")
    if not isinstance(ply, int) or not 0 < ply <= len(game.moves) or game.move_at(ply - 1).is_pass:
        raise _LeftOut(f"an entry for ply {shown(str(ply), 20)}", "the game has no move there")
    move = game.move_at(ply - 1)
    where = f"move {game.move_number(ply)} ({move})"
    written = shown(str(item.get("move")), 20)
    if written != move.name:
        raise _LeftOut(where, f"it is about {written}, not the move played")
    try:
        best, best_score = item.get("best"), item.get("best_score")
        best = None if best is None else Move.parse(str(best))
        if best is not None and best.is_pass:
            raise ReversiError("its best move is a pass, which is never a choice")
        pv = tuple(Move.of(index) for index in parse_transcript(str(item.get("pv") or "")))
        return MoveAnalysis(
            ply,
            game.positions[ply - 1].to_move,
            move,
            _margin(item, "played"),
            best,
            None if best_score is None else _margin(item, "best_score"),
            item.get("exact") is True,
            pv[:20],
        )
    except ReversiError as error:
        raise _LeftOut(where, str(error)) from None


def _margin(item: dict[str, Any], key: str) -> float:
    value = item.get(key)
    if value is None:
        raise ReversiError(f"its {key!r} is missing")
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ReversiError(f"its {key!r} is not a number")
    if not abs(value) <= MAX_MARGIN:
        raise ReversiError(f"its score {value:g} is not a disc margin (-64 to 64)")
    return float(value)


def _time_text(moment: datetime) -> str:
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


_KIND_NAMES = {str: "text", int: "a whole number"}


def _get(fields: dict[str, Any], key: str, kind: type, *, optional: bool = False) -> Any:
    value = fields.get(key)
    if value is None and optional:
        return None
    if value is None:
        raise StorageError(f"its {key!r} is missing")
    if not isinstance(value, kind) or isinstance(value, bool):
        wanted = _KIND_NAMES[kind]
        raise StorageError(f"its {key!r} should be {wanted}, not {type(value).__name__}")
    return value


def _time(fields: dict[str, Any], key: str) -> datetime:
    text = _get(fields, key, str)
    try:
        moment = datetime.fromisoformat(text[:40])
    except ValueError:
        raise StorageError(f"its {key!r} time {text[:40]!r} is not a date and time") from None
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)


def _identity(fields: dict[str, Any]) -> str:
    identity: str | None = _get(fields, "id", str, optional=True)
    if identity is None:  # written by hand: a game of its own
        return new_id()
    if not 0 < len(identity) <= 64:
        raise StorageError("its 'id' should be 1 to 64 characters")
    return identity


def _record_from_fields(fields: dict[str, Any]) -> SavedGame:
    version = _get(fields, "version", int)
    if version > VERSION:
        shown = version if version < 10**6 else "far above that"
        raise FutureFormatError(
            f"was written by a newer tui-reversi (format version {shown}; "
            f"this one reads up to {VERSION})"
        )
    if version < 1:
        raise StorageError(f"its format version {version} does not exist")
    moves = _get(fields, "moves", str)
    if len(moves) > _MAX_MOVES_CHARS:
        raise StorageError("it has more moves than a game can have")
    start = _get(fields, "start", str, optional=True)
    name = _get(fields, "name", str, optional=True)
    if name is not None and len(name) > _MAX_NAME_CHARS:
        raise StorageError("its name is too long")
    variant = Variant.parse(_get(fields, "variant", str)[:40])
    position = None if start is None else Position.from_string(start[:200])
    return SavedGame(
        variant=variant,
        black=parse_player(_get(fields, "black", str)[:40]),
        white=parse_player(_get(fields, "white", str)[:40]),
        moves=tuple(Move.of(move) for move in parse_transcript(moves)),
        start=None if position == variant.start() else position,
        ply=_get(fields, "ply", int, optional=True),
        name=name,
        created=_time(fields, "created"),
        updated=_time(fields, "updated"),
        id=_identity(fields),
        names=_names(fields),
        ending=_ending(fields.get("result")),
        ratings=_pair(fields, "ratings", "the two players' ratings"),
        time_control=_text(fields, "time_control"),
        date=_text(fields, "date"),
        times=_times(fields, len(moves) // 2),
    )


def _names(fields: dict[str, Any]) -> tuple[str, str] | None:
    return _pair(fields, "names", "the two players' names")


def _pair(fields: dict[str, Any], key: str, what: str) -> tuple[str, str] | None:
    pair = fields.get(key)
    if pair is None:
        return None
    if (
        not isinstance(pair, list)
        or len(pair) != 2
        or not all(isinstance(n, str) and len(n) <= 64 and n.isprintable() for n in pair)
        or not any(pair)
    ):
        raise StorageError(f"its {key!r} should be {what}")
    return pair[0], pair[1]


def _text(fields: dict[str, Any], key: str) -> str | None:
    text: str | None = _get(fields, key, str, optional=True)
    if text is not None and not (len(text) <= 64 and text.isprintable()):
        raise StorageError(f"its {key!r} should be one short line")
    return text


def _times(fields: dict[str, Any], plies: int) -> tuple[str, ...]:
    times = fields.get("times")
    if times is None:
        return ()
    if (
        not isinstance(times, list)
        or len(times) > plies
        or not all(isinstance(t, str) and len(t) <= 16 and t.isprintable() for t in times)
    ):
        raise StorageError("its 'times' should be the seconds each move took")
    return tuple(times)


def _result_fields(ending: Ending) -> dict[str, object]:
    winner = None if ending.winner is None else ending.winner.name.lower()
    return {"reason": ending.reason, "winner": winner, "text": ending.text}


def _ending(fields: object) -> Ending | None:
    if fields is None:
        return None
    if not isinstance(fields, dict):
        raise StorageError("its 'result' should be an object")
    reason, winner, text = fields.get("reason"), fields.get("winner"), fields.get("text", "")
    if not isinstance(reason, str) or not (winner is None or winner in ("black", "white")):
        raise StorageError("its 'result' should name a reason and a winner (or null)")
    if not isinstance(text, str) or len(text) > _MAX_NAME_CHARS or not text.isprintable():
        raise StorageError("its 'result' text should be one line")
    winner_colour = None if winner is None else Color.BLACK if winner == "black" else Color.WHITE
    return Ending(reason[:20], winner_colour, text)
