"""GGF, the Generic Game Format of GGS, as NBoard and Edax read and write it.

    (;GM[Othello]PC[tui-reversi]DT[2025.01.02_12:00:00.UTC]PB[Human]
      PW[tui-reversi hard]RE[?]TI[0]TY[8]
      BO[8 -------- -------- -------- ---O*--- ---*O--- -------- -------- -------- *]
      B[F5]W[D6]B[C3];)

- BO: board size 8, the 64 squares row by row from a1 (`*` black, `O` white,
  `-` empty, spaces allowed), then the side to move (`*` or `O`).
- B[..] / W[..]: one move each, in order; a pass is `PA` (also read: `pass`,
  `--`). A move may carry `/evaluation/time` after it: the evaluation is the
  disc margin for the side that moved; an analysed game writes it (`B[F5/0.50]`)
  and reading keeps it as that move's score; the time (seconds, `B[D3//0.01]`)
  is kept as written and written back.
- ANALYSIS (ours; GGF readers skip a property they do not know, as they
  would a comment): the rest of an analysed move, one entry per move, apart
  by spaces: `ply/best/best score/=/line`, e.g. `12/D3/2.00/=/D3C5F6` (the
  move at ply 12: best D3 for +2.00, exact (`=`, else empty), its line);
  with the moves' evaluations it brings back the best moves and the
  `?!`/`?`/`??` labels. An entry that does not fit the game is left out,
  and the analysis's `unread` says so.
  Squares are read in either case and written in upper case, as GGS does.
- TY: `8` for Othello; an `a` in it (`8a`) marks anti-Othello. An empty BO
  board means classic Reversi (its first four moves fill the centre).
- RE: the result from Black's side, `+12.00` when Black won by 12, `?` when
  the game is unfinished or has no result. A game won off the board is
  written as GGS does: `+64.00:r` (White resigned, or left), `-64.00:t`
  (Black's flag fell). Reading trusts only those flags (the moves decide
  the rest): a game read with one is finished, as it was.
- PB / PW: player names. Ours are `Human` or `tui-reversi <level>`; on import
  any other name is a human, and the name is kept (shown, and written back).
- RB / RW (ratings), TI (time control) and DT (date): kept as written and
  written back; the date is read in its zone where it names a usual one
  (`2003.12.15_13:24:03.MST` is 20:24:03 UTC).

Reading takes the first game in the text, checks the tags it needs, and
replays every move: a bad file yields one sentence, e.g. "the GGF game's
move 7 (W[C4]) is illegal: it flips nothing".
"""

from __future__ import annotations

import math
import re
from dataclasses import replace
from datetime import UTC, datetime, timedelta

from ..core import Color, Ending, Game, Move, Position, ReversiError, Variant
from ..players.analysis import MAX_MARGIN, GameAnalysis, MoveAnalysis
from ..players.kinds import NAMES
from .errors import StorageError, shown
from .record import SavedGame, now

PROGRAM = "tui-reversi"
_PROPERTY = re.compile(r"([A-Za-z]{1,8})[ \t\r\n]*\[((?:[^\]\\]|\\.)*)\]", re.S)
_OPENING = re.compile(r"[A-Za-z]{1,8}[ \t\r\n]*\[")
_PASS_VALUES = frozenset({"pa", "pass", "--"})
_FLAGGED = re.compile(r"^([+-])\d+(?:\.\d*)?:([rt])$")
_TYPE = re.compile(r"^s?(\d+)([a-z]*?)(?:r\d+)?([a-z]*)$")


def export_ggf(record: SavedGame) -> str:
    """The game as one GGF line, every move to the end of the record."""
    game = record.to_game()
    final = game.positions[-1]
    moves = "".join(
        "BW"[game.positions[ply].to_move] + f"[{move_text(move)}{_annotation(record, ply + 1)}]"
        for ply, move in enumerate(game.played)
    )
    game_type = "8a" if game.variant.fewer_discs_win else "8"
    date = record.date or f"{record.created.astimezone(UTC):%Y.%m.%d_%H:%M:%S}.UTC"
    ratings = "".join(
        f"{tag}[{_ggf_text(rating)}]"
        for tag, rating in zip(("RB", "RW"), record.ratings or ("", ""), strict=True)
        if rating
    )
    return (
        f"(;GM[Othello]PC[{PROGRAM}]DT[{_ggf_text(date)}]"
        f"PB[{_player_name(record, Color.BLACK)}]PW[{_player_name(record, Color.WHITE)}]"
        f"{ratings}RE[{_result(game.variant, final, record.ending)}]"
        f"TI[{_ggf_text(record.time_control or '0')}]"
        f"TY[{game_type}]BO[8 {_board(game.start)}]{_analysis_tag(record)}{moves};)"
    )


def move_text(move: Move) -> str:
    """'F5', or 'PA' for a pass: a move as GGF (and NBoard's protocol) writes it."""
    return "PA" if move.is_pass else move.name.upper()


def _annotation(record: SavedGame, ply: int) -> str:
    """'/evaluation/time' after the move at `ply`, each where known."""
    scored = record.analysis.at(ply)
    evaluation = "" if scored is None else f"{scored.played_score:.2f}"
    seconds = record.times[ply - 1] if ply <= len(record.times) else ""
    if seconds:
        return f"/{evaluation}/{_ggf_text(seconds)}"
    return f"/{evaluation}" if evaluation else ""


def _analysis_tag(record: SavedGame) -> str:
    """ANALYSIS[...] with the best move, its score and line of every move
    analysed in full; '' when none is."""
    entries = [
        f"{scored.ply}/{move_text(scored.best)}/{scored.best_score:.2f}/"
        f"{'=' if scored.exact else ''}/{''.join(move_text(move) for move in scored.pv)}"
        for scored in record.analysis.moves
        if scored.best is not None and scored.best_score is not None
    ]
    return f"ANALYSIS[{' '.join(entries)}]" if entries else ""


def _player_name(record: SavedGame, color: Color) -> str:
    if record.names is not None and record.names[color]:  # a person's name
        return _ggf_text(record.names[color])
    player = record.players[color]
    return "Human" if player == "human" else f"{PROGRAM} {player}"


def _ggf_text(text: str) -> str:
    """`text` as a GGF property value: brackets and backslashes escaped."""
    return text.replace("\\", "\\\\").replace("]", "\\]")


# GGS's flags for a result decided off the board; a player who left (or was banned)
# loses as by resigning.
_FLAGS = {"resigned": "r", "left": "r", "banned": "r", "flag": "t"}


def _result(variant: Variant, final: Position, ending: Ending | None) -> str:
    if ending is not None and ending.off_board:
        if ending.winner is None or ending.reason not in _FLAGS:
            return "?"
        sign = "+" if ending.winner == Color.BLACK else "-"
        return f"{sign}64.00:{_FLAGS[ending.reason]}"
    if not final.is_game_over():
        return "?"
    result = variant.result(final)
    # Positive when Black won, whichever way the variant counts.
    margin = -result.margin if variant.fewer_discs_win else result.margin
    return f"{margin:+.2f}"


def _board(position: Position) -> str:
    cells = str(position).replace("X", "*")
    rows = " ".join(cells[row : row + 8] for row in range(0, 64, 8))
    return f"{rows} {cells[-1]}"


def looks_like_ggf(text: str) -> bool:
    """True when `text` holds the start of a GGF game."""
    return "(;" in text


def parse_ggf(text: str) -> SavedGame:
    """The first GGF game in `text` as a record, every move checked. Raises
    StorageError with one sentence that says what is wrong."""
    tags, moves = _properties(text)
    game_name = tags.get("GM", "Othello").strip()
    if game_name.lower() != "othello":
        raise StorageError(f"the GGF game is {game_name[:30]!r}, not Othello")
    anti = _is_anti(tags.get("TY", "8"))
    start = _start(tags.get("BO"))
    if anti:
        variant = Variant.ANTI
    elif start == Position.empty():
        variant = Variant.REVERSI
    else:
        variant = Variant.OTHELLO
    tokens = []
    for number, (colour, value) in enumerate(moves, start=1):
        word = value.split("/", 1)[0].strip().lower()
        if word in _PASS_VALUES:
            tokens.append("pa")
            continue
        try:
            tokens.append(_square_token(word))
        except ReversiError:
            raise StorageError(
                f"the GGF game's move {number} ({colour}[{shown(value, 20)}]) is not a square or PA"
            ) from None
    try:
        game = Game.from_transcript("".join(tokens), variant, start)
    except ReversiError as error:
        raise StorageError(f"the GGF game's {_name_move(error, moves)}") from None
    _check_colours(game, moves)
    names = (_person(tags.get("PB", "")), _person(tags.get("PW", "")))
    ratings = (_kept(tags.get("RB", ""), 16), _kept(tags.get("RW", ""), 16))
    time_control = _kept(tags.get("TI", ""), 40)
    return SavedGame(
        analysis=_evaluations(game, moves, tags.get("ANALYSIS", "")),
        variant=variant,
        black=_player(tags.get("PB", "")),
        white=_player(tags.get("PW", "")),
        moves=game.played,
        start=None if start == variant.start() else start,
        created=_date(tags.get("DT", "")) or now(),
        updated=now(),
        names=names if any(names) else None,
        ratings=ratings if any(ratings) else None,
        time_control=time_control if time_control not in ("", "0") else None,
        date=_kept(tags.get("DT", ""), 40) or None,
        times=_times(game, moves),
        ending=_off_board(tags.get("RE", ""), game),
    )


def _kept(value: str, limit: int) -> str:
    """A tag's value as written, on one line and at most about `limit` characters."""
    return shown(" ".join(value.split()), limit)


def _person(name: str) -> str:
    """The name of a person who played, or '' for none or one of ours."""
    kept = _kept(name, 64)
    if kept.lower() == "human" or _player(kept) != "human":
        return ""
    return kept


def _times(game: Game, moves: list[tuple[str, str]]) -> tuple[str, ...]:
    """Per ply of `game`, the seconds after a move's second `/` as written
    (`B[D3//0.01]`), or '' (a pass the file left out has none)."""
    times: list[str] = []
    written = iter(moves)
    pending = next(written, None)
    for move in game.played:
        is_pass = (
            pending is not None and pending[1].split("/", 1)[0].strip().lower() in _PASS_VALUES
        )
        if move.is_pass and not is_pass:
            times.append("")  # a pass the file did not write
            continue
        parts = pending[1].split("/") if pending is not None else []
        times.append(_kept(parts[2], 16) if len(parts) > 2 else "")
        pending = next(written, None)
    while times and not times[-1]:
        times.pop()
    return tuple(times)


def _off_board(result: str, game: Game) -> Ending | None:
    """The ending an RE flag tells of (`+64.00:r`: White resigned), for a game
    the board has not ended; None for any other result."""
    found = _FLAGGED.match(result.strip())
    if found is None or game.is_over:
        return None
    winner = Color.BLACK if found[1] == "+" else Color.WHITE
    return Ending("resigned" if found[2] == "r" else "flag", winner)


def _evaluations(game: Game, moves: list[tuple[str, str]], analysis: str) -> GameAnalysis:
    """The evaluations written after the moves (`B[F5/0.50]`), as the played
    moves' scores, with the best moves of `analysis` (the ANALYSIS tag). A
    move without an evaluation has none; one that is not a disc margin, or
    an entry that does not fit the game, is left out, and the analysis's
    `unread` says so."""
    played = [ply for ply, move in enumerate(game.played, start=1) if move]
    written = [
        (number, colour, value)
        for number, (colour, value) in enumerate(moves, start=1)
        if value.split("/", 1)[0].strip().lower() not in _PASS_VALUES
    ]
    scored = []
    left_out: list[tuple[str, str]] = []  # (what: "the evaluation of ...", why)
    for ply, (number, colour, value) in zip(played, written, strict=True):
        parts = value.split("/")
        text = parts[1].strip() if len(parts) > 1 else ""
        if not text:
            continue
        try:
            score = _margin(text)
        except ValueError as error:
            what = f"the evaluation of the GGF game's move {number} ({colour}[{shown(value, 20)}])"
            left_out.append((what, str(error)))
            continue
        side = game.positions[ply - 1].to_move
        scored.append(MoveAnalysis(ply, side, game.move_at(ply - 1), score))
    by_ply = {move.ply: move for move in scored}
    for entry in analysis.split():
        try:
            best = _best_move(game, by_ply, entry)
        except ValueError as error:
            left_out.append((f"the GGF game's analysis entry {shown(entry, 24)!r}", str(error)))
            continue
        by_ply[best.ply] = best
    scored = sorted(by_ply.values(), key=lambda move: move.ply)
    if not left_out:
        return GameAnalysis(tuple(scored))
    what, why = left_out[0]
    unread = f"{what} was left out: {why}"
    if len(left_out) > 1:
        unread = f"{len(left_out)} parts of the analysis were left out; {what}: {why}"
    return GameAnalysis(tuple(scored), unread=unread)


def _margin(text: str) -> float:
    """`text` as a disc margin, or ValueError saying it is not one."""
    try:
        score = float(text)
    except ValueError:
        score = math.nan
    if not abs(score) <= MAX_MARGIN:
        raise ValueError(f"{shown(text, 12)} is not a disc margin (-64 to 64)")
    return score


def _best_move(game: Game, known: dict[int, MoveAnalysis], entry: str) -> MoveAnalysis:
    """The move of `known` an ANALYSIS entry (`12/D3/2.00/=/D3C5F6`) is about,
    with its best move, score and line. Raises ValueError saying what does
    not fit."""
    fields = entry.split("/")
    if len(fields) != 5 or not fields[0].isdigit():
        raise ValueError("it is not ply/best/score/exact/line")
    ply, best_text, score_text, exact, line = fields
    played = known.get(int(ply))
    if played is None:
        raise ValueError(f"move {ply} has no evaluation to go with it")
    score = _margin(score_text)
    if exact not in ("", "="):
        raise ValueError("its exact mark is neither = nor empty")
    try:
        pv = tuple(Move.parse(line[at : at + 2]) for at in range(0, len(line), 2))
        best = Move.parse(best_text)
    except ReversiError:
        raise ValueError("a move in it is not a square or PA") from None
    if pv and pv[0] != best:
        raise ValueError("its line does not start with its best move")
    position = game.positions[played.ply - 1]
    for move in pv or (best,):  # the line must be playable from the position
        if move.is_pass and position.must_pass:
            position = position.pass_turn()
        elif move.is_pass or not position.is_legal(move.square):
            raise ValueError(f"{move} cannot be played there")
        else:
            position = position.play(move.square)
    return replace(played, best=best, best_score=score, exact=exact == "=", pv=pv)


def _properties(text: str) -> tuple[dict[str, str], list[tuple[str, str]]]:
    """The first game's tags (first value of each) and its B/W moves in order."""
    begin = text.find("(;")
    if begin < 0:
        raise StorageError("the text is not a GGF game: it has no '(;'")
    tags: dict[str, str] = {}
    moves: list[tuple[str, str]] = []
    at = begin + 2
    while True:
        while at < len(text) and (text[at].isspace() or text.startswith(";", at)):
            if text.startswith(";)", at):
                return tags, moves
            at += 1
        if at >= len(text):
            raise StorageError("the GGF game is cut short: it has no closing ';)'")
        match = _PROPERTY.match(text, at)
        if match is None:
            if _OPENING.match(text, at) and "]" not in text[at:]:
                raise StorageError("the GGF game is cut short: a property has no closing ']'")
            raise StorageError(
                f"the GGF game has unexpected text at character {at + 1}: {text[at : at + 12]!r}"
            )
        tag, value = match[1].upper(), re.sub(r"\\(.)", r"\1", match[2], flags=re.S)
        if tag in ("B", "W"):
            moves.append((tag, value))
        else:
            tags.setdefault(tag, value)
        at = match.end()


def _is_anti(game_type: str) -> bool:
    match = _TYPE.match(game_type.strip().lower())
    if match is None:
        raise StorageError(f"the GGF game type TY[{shown(game_type, 20)}] is not one for Othello")
    if match[1] != "8":
        raise StorageError(f"the GGF game is on a {match[1][:4]}x{match[1][:4]} board, not 8x8")
    return "a" in match[2] + match[3]


def _start(board: str | None) -> Position:
    if board is None:
        return Position.initial()
    size, _, squares = board.strip().partition(" ")
    if size != "8":
        raise StorageError(f"the GGF game's board BO[{shown(board, 10)}...] is not 8x8")
    try:
        return Position.from_string(squares)
    except ReversiError as error:
        raise StorageError(f"the GGF game's board (BO) is wrong: {error}") from None


def _square_token(word: str) -> str:
    return Move.parse(word).name


def _name_move(error: ReversiError, moves: list[tuple[str, str]]) -> str:
    """core's 'move 7 (c4) is illegal: ...' with the move as the GGF wrote it."""
    text = str(error)
    match = re.match(r"move (\d+) \(([^)]*)\)(.*)", text, re.S)
    if match is None or not 0 < int(match[1]) <= len(moves):
        return text
    colour, value = moves[int(match[1]) - 1]
    return f"move {match[1]} ({colour}[{shown(value, 20)}]){match[3]}"


def _check_colours(game: Game, moves: list[tuple[str, str]]) -> None:
    movers = [game.positions[ply].to_move for ply, move in enumerate(game.played) if move]
    played = [
        (number, colour, value)
        for number, (colour, value) in enumerate(moves, start=1)
        if value.split("/", 1)[0].strip().lower() not in _PASS_VALUES
    ]
    for (number, colour, value), mover in zip(played, movers, strict=True):
        if colour != "BW"[mover]:
            side = Color(1 - mover).label
            raise StorageError(
                f"the GGF game's move {number} ({colour}[{shown(value, 20)}]) is {side}'s, "
                f"but {mover.label} is to move"
            )


def _player(name: str) -> str:
    words = name.strip().lower().split()
    if len(words) == 2 and words[0] == PROGRAM and words[1] in NAMES:
        return words[1]
    return "human"


# The zones GGS and NBoard write after a date, as hours from UTC; another
# (or none) is taken as UTC.
_ZONES = {
    **dict.fromkeys(("UTC", "GMT", "Z", "WET"), 0),
    **{"EST": -5, "EDT": -4, "CST": -6, "CDT": -5, "MST": -7, "MDT": -6, "PST": -8, "PDT": -7},
    **{"BST": 1, "CET": 1, "CEST": 2, "EET": 2, "EEST": 3, "JST": 9},
}


def _date(text: str) -> datetime | None:
    """GGF dates come as '2004.09.18_05:54:38.MDT', '2019-09-25 06:42:54 GMT'
    or seconds since 1970; a zone of _ZONES is taken into account."""
    text = text.strip()
    try:
        if text.isdigit() and len(text) <= 12:
            return datetime.fromtimestamp(int(text), UTC)
        match = re.match(
            r"(\d{4})[.\-/](\d{1,2})[.\-/](\d{1,2})(?:[ _T](\d{1,2}):(\d{2})(?::(\d{2}))?)?"
            r"(?:[ ._]?([A-Za-z]{1,5})$)?",
            text,
        )
        if match is None:
            return None
        year, month, day, hour, minute, second = (int(part) for part in match.groups("0")[:6])
        moment = datetime(year, month, day, hour, minute, second, tzinfo=UTC)
        return moment - timedelta(hours=_ZONES.get((match[7] or "UTC").upper(), 0))
    except (ValueError, OverflowError, OSError):
        return None
