"""The NBoard protocol's engine side, as a state machine with no I/O.

    session = NBoardSession(say=print, complain=log)
    job = session.receive("go")        # a search: None for lines answered at once
    if job is not None:
        job(stop.is_set)                # says its thinking, then '=== F5/1.50/0.42'

From the protocol's published description (NTest's instructions/Protocol.htm,
version 2; docs/engine.md says what we do with each command):

    nboard 2                   -> set myname tui-reversi
    set depth N                   midgame depth of go, hint and analyze
    set game (;GM[Othello]...;)   the game (GGF) every later command is about
    set contempt N                a draw is worth -N centidiscs to us in a solved go
    move F5[/eval[/time]]         a move played (PA: a pass); the time counts on the clock
    hint N                     -> search F5 1.50 0 12 (or book ..., 100% when solved)
    go                         -> status ..., nodestats ..., === F5/1.50/0.42
    ping N                     -> pong N (the caller stops a search first)
    learn                      -> learned: the game is added to the learned book
    analyze                    -> analysis MOVES EVAL for every position, from the end
    quit                          `finished`: the caller stops

Evaluations are disc margins for the side to move (a move's for its mover).
A line that cannot be followed changes nothing and gets one sentence on the
error channel (`complain`); so does an unknown command, which is ignored.
"""

from __future__ import annotations

import math
import re
import time
from collections.abc import Callable
from pathlib import Path

from ..core import Game, Move, Position, ReversiError, Variant
from ..engine.evaluation import SCALE
from ..players.alphabeta_player import PLACEMENT_DEPTH, AlphaBetaPlayer, score_in_discs
from ..players.base import CancelCheck, Limit, MoveScore, SearchInfo
from ..players.kinds import create_player
from ..players.learned_book import LEARN_DEPTH, LEARNED_NAME, learn_game
from ..players.time_plan import move_time
from ..players.values import RANKING_EXACT_EMPTIES, move_values, position_value, settled
from ..storage.errors import shown
from ..storage.ggf import move_text, parse_ggf
from ..storage.paths import data_dir

NAME = "tui-reversi"
DEFAULT_DEPTH = 12  # until `set depth` (which the GUI must send before go and hint)
MAX_DEPTH = 60
_WRITTEN_MOVE = re.compile(r"(?<![A-Za-z])[BWbw]\s*\[")

Say = Callable[[str], None]
# A search a command started: run it with a cancel check; it says its own lines.
Job = Callable[[CancelCheck], None]


class ProtocolError(ReversiError):
    """A line the engine cannot follow, in one sentence."""


class NBoardSession:
    """One engine's side of an NBoard session: the game NBoard set, its
    depth and clock, and the answers. `say` sends a protocol line,
    `complain` one sentence on the error channel; `receive` returns the
    search a line starts (go, hint, analyze), which the caller runs.
    `learned_book` is the book `learn` adds games to and every book move
    reads first (by default in the user's data folder)."""

    def __init__(
        self, say: Say, complain: Say, *, level: str = "hard", learned_book: Path | None = None
    ) -> None:
        self.say = say
        self.complain = complain
        strategy = create_player(level)
        if not isinstance(strategy, AlphaBetaPlayer):
            raise ReversiError(f"NBoard needs a searching level (hard or expert), not {level!r}")
        self.level = level
        self.learned_book = learned_book or data_dir() / LEARNED_NAME
        strategy.learned_book = self.learned_book
        self._players: dict[bool, AlphaBetaPlayer] = {False: strategy}
        self.contempt = 0  # centidiscs a draw is worse than even for us (NBoard's contempt)
        self.version: int | None = None
        self.depth = DEFAULT_DEPTH
        self.game = Game()
        self.time_control: float | None = None  # seconds each side has for the game
        self.used = [0.0, 0.0]  # seconds each side has spent, by Color
        # The game recorded a forced pass that NBoard has not sent yet ('move PA').
        self.pass_due = False
        self.finished = False  # `quit` was received

    # -- lines in ------------------------------------------------------------------------

    def receive(self, line: str) -> Job | None:
        """Follow one line from NBoard: answer it at once through `say`, or
        return the search it asks for. Never raises for a bad line."""
        words = line.split(None, 1)
        if not words:
            return None
        command, rest = words[0], words[1].strip() if len(words) > 1 else ""
        handlers: dict[str, Callable[[str], Job | None]] = {
            "nboard": self._nboard,
            "set": self._set,
            "move": self._move,
            "hint": self._hint,
            "go": self._go,
            "ping": self._ping,
            "learn": self._learn,
            "analyze": self._analyze,
            "quit": self._quit,
        }
        handler = handlers.get(command.lower())
        if handler is None and len(command) == 2 and not rest:
            handler = self._move  # protocol version 1 sends a bare 'F5'
            rest = command
        try:
            if handler is None:
                raise ProtocolError(f"{shown(command, 20)!r} is not an NBoard command")
            return handler(rest)
        except ReversiError as error:
            self.complain(f"{shown(line.strip(), 60)!r} was ignored: {error}.")
            return None

    def _nboard(self, rest: str) -> None:
        self.version = _whole(rest, "the protocol version", 0, 1_000_000)
        self.say(f"set myname {NAME}")

    def _set(self, rest: str) -> None:
        parts = rest.split(None, 1)
        name = parts[0] if parts else ""
        value = parts[1].strip() if len(parts) > 1 else ""
        if name == "depth":
            self.depth = _whole(value, "the depth", 1, MAX_DEPTH)
        elif name == "game":
            self._set_game(value)
        elif name == "contempt":
            self.contempt = _whole(value, "the contempt", -6400, 6400)
        else:
            raise ProtocolError(f"there is no setting {shown(name, 20)!r} to set")

    def _set_game(self, text: str) -> None:
        record = parse_ggf(text)  # a StorageError (one sentence) leaves the game as it was
        game = record.to_game()
        game.go_to(game.length)
        self.game = game
        self.time_control = _clock(record.time_control)
        self.used = [0.0, 0.0]
        for ply, written_time in enumerate(record.times):
            seconds = _seconds(written_time)
            if math.isfinite(seconds):
                self.used[game.positions[ply].to_move] += seconds
        # A forced pass the game recorded but the GGF did not write is still to come.
        written = len(_WRITTEN_MOVE.findall(text))
        self.pass_due = _ends_in_pass(game) and written < game.length

    def _move(self, rest: str) -> None:
        text, *annotations = rest.split("/")
        if len(annotations) > 2:
            raise ProtocolError("a move is written MOVE/EVAL/TIME")
        seconds = annotations[1].strip() if len(annotations) == 2 else ""
        spent = _seconds(seconds) if seconds else 0.0
        if not (math.isfinite(spent) and spent >= 0):
            raise ProtocolError(f"{shown(seconds, 12)!r} is not a time in seconds")
        try:
            move = Move.parse(text.strip())  # 'PA' (or 'pass') is Move.null()
        except ReversiError:
            raise ProtocolError(f"{shown(text, 12)!r} is not a square or PA") from None
        mover = self.game.position.to_move
        if move.is_pass:
            if not self.pass_due:
                raise ProtocolError(
                    "the game is over" if self.game.is_over else f"{mover.label} has a legal move"
                )
            self.pass_due = False
            self.used[mover.other] += spent  # the passer is the side before the recorded pass
            return
        self.game.play(move)  # IllegalMoveError: 'd4 is occupied'
        self.used[mover] += spent
        # NBoard may send the next move without the pass: either way, this one is settled.
        self.pass_due = _ends_in_pass(self.game)

    def _ping(self, rest: str) -> None:
        self.say(f"pong {_whole(rest, 'the ping', -(2**63), 2**63)}")

    def _learn(self, rest: str) -> None:
        game = self.game.copy()
        game.go_to(game.length)
        try:
            learn_game(game, self.learned_book, min(self.depth, LEARN_DEPTH))
        except ReversiError as error:
            self.complain(f"the game was not learned: {error}.")
        except OSError as error:
            self.complain(f"the game was not learned: cannot write {self.learned_book}: {error}.")
        self.say("learned")  # NBoard waits for it either way

    def _quit(self, rest: str) -> None:
        self.finished = True

    # -- searches ------------------------------------------------------------------------

    def _position(self, command: str) -> Position | None:
        """The position NBoard asks about; None when NBoard still owes the
        game's forced pass (the side to move, as NBoard sees it, passes)."""
        if self.game.is_over:
            raise ProtocolError(f"the game is over: there is nothing to {command}")
        return None if self.pass_due else self.game.position

    def _go(self, rest: str) -> Job:
        position = self._position("play")
        seconds = self._budget()
        depth = self.depth

        def go(cancelled: CancelCheck) -> None:
            started = time.perf_counter()
            if position is None:
                self.say("=== PA")
                return
            legal = position.legal_moves()
            if len(legal) == 1:
                self.say(f"=== {move_text(Move.of(legal[0]))}")  # forced: no eval, no thinking
                return
            self.say(f"status {NAME} is thinking")
            player = self._player()
            solves_from = min(player.exact_empties, depth)

            by_depth: dict[int, tuple[float, bool]] = {}

            def thinking(info: SearchInfo) -> None:
                self.say(f"nodestats {info.nodes} {time.perf_counter() - started:.2f}")
                if info.score is not None:
                    by_depth[info.depth] = (info.score, info.exact)
                if info.best is not None and info.score is not None:
                    code = _depth_code(info.depth, info.exact, position, solves_from)
                    self.say(f"search {move_text(info.best)} {info.score:.2f} 0 {code}")

            move = player.choose_move(
                position, Limit(time=seconds, depth=depth), cancelled=cancelled, progress=thinking
            )
            evaluation = _evaluation(player, position, move, by_depth)
            if self.contempt and player.last_result is not None and player.last_result.exact:
                move, evaluation = self._with_contempt(position, player, cancelled) or (
                    move,
                    evaluation,
                )
            if cancelled():
                return  # a ping: NBoard no longer wants this answer
            elapsed = time.perf_counter() - started
            shown_eval = "" if evaluation is None else f"{evaluation:.2f}"
            self.say(f"=== {move_text(move)}/{shown_eval}/{elapsed:.2f}")

        return go

    def _hint(self, rest: str) -> Job:
        count = _whole(rest, "the number of moves", 1, 64)
        position = self._position("evaluate")
        after_pass, variant = self.game.position, self.game.variant
        depth = self.depth

        def hint(cancelled: CancelCheck) -> None:
            self.say(f"status {NAME} is analysing")
            if position is None:
                value = position_value(after_pass, variant, depth, None, cancelled)
                if not cancelled():
                    code = "100%" if value.exact else str(value.depth)
                    self.say(f"search PA {-value.discs:.2f} 0 {code}")
                    self.say("status")
                return
            book = _book(position, variant, self.learned_book)
            if book:
                for move, discs in book[:count]:
                    self.say(f"book {move_text(move)} {discs:.2f} 0 {BOOK_DEPTH}")
                self.say("status")
                return
            heard = []

            def tell(searched: int, scores: list[MoveScore]) -> None:
                heard.append(searched)
                for scored in scores[:count]:
                    code = _depth_code(searched, scored.exact, position, MAX_DEPTH)
                    self.say(f"search {move_text(scored.move)} {scored.score:.2f} 0 {code}")

            ranked = move_values(position, variant, Limit(depth=depth), cancelled, each_depth=tell)
            if cancelled():
                return
            if not heard:  # Reversi's centre placements: one look at the shapes
                tell(PLACEMENT_DEPTH, ranked)
            self.say("status")

        return hint

    def _analyze(self, rest: str) -> Job:
        game = self.game.copy()
        depth = self.depth

        def analyze(cancelled: CancelCheck) -> None:
            self.say(f"status {NAME} is analysing the game")
            # Retrograde: the solved end first, as the protocol describes it.
            for made in range(len(game.positions) - 1, -1, -1):
                value = position_value(game.positions[made], game.variant, depth, None, cancelled)
                if cancelled():
                    return
                self.say(f"analysis {made} {value.discs:.2f}")
            self.say("status")

        return analyze

    def _with_contempt(
        self, position: Position, player: AlphaBetaPlayer, cancelled: CancelCheck
    ) -> tuple[Move, float] | None:
        """The solved position's best move, and its true value, when a draw
        is worth -contempt centidiscs (every move solved); None when stopped,
        or with more empties than a ranking of every move solves from."""
        if position.empty_count - 1 > RANKING_EXACT_EMPTIES:
            return None  # the positions after its moves are not all solved
        ranked = move_values(position, player.variant, Limit(), cancelled)
        if cancelled() or not ranked or not all(scored.exact for scored in ranked):
            return None

        def worth(scored: MoveScore) -> float:
            return -self.contempt / 100 if scored.score == 0 else scored.score

        chosen = max(ranked, key=worth)  # the first of equals: the search's own order
        return chosen.move, chosen.score

    def _budget(self) -> float | None:
        """Seconds for this move from the side to move's clock (None: no clock)."""
        if self.time_control is None:
            return None
        position = self.game.position
        left = self.time_control - self.used[position.to_move]
        return max(move_time(left, position.empty_count), 0.01)

    def _player(self) -> AlphaBetaPlayer:
        anti = self.game.variant.fewer_discs_win
        if anti not in self._players:
            strategy = create_player(self.level, variant=self.game.variant)
            assert isinstance(strategy, AlphaBetaPlayer)
            self._players[anti] = strategy
        player = self._players[anti]
        player.variant = self.game.variant
        player.learned_book = self.learned_book
        return player


# The depth NBoard is told for a book move (tools/book.py searches each position this deep).
BOOK_DEPTH = 10


def _book(position: Position, variant: Variant, learned: Path | None) -> list[tuple[Move, float]]:
    """The book's moves for `position` (the `learned` book's first), best
    first, in discs; none for anti."""
    if variant.fewer_discs_win or position.in_opening_placement:
        return []
    from ..engine.book import book_scores  # read on first use

    scores = book_scores(position.own, position.opp, learned)
    ranked = sorted(scores.items(), key=lambda item: -item[1])
    return [(Move.of(sq), score / SCALE) for sq, score in ranked if position.is_legal(sq)]


def _evaluation(
    player: AlphaBetaPlayer,
    position: Position,
    move: Move,
    by_depth: dict[int, tuple[float, bool]],
) -> float | None:
    """The chosen move's value in discs for the mover: its search's, settled
    from its last two depths as every value is (values.settled), or the
    book's. `by_depth` holds each depth's (discs, proven) as the search told."""
    if position.in_opening_placement:
        return None  # Reversi's centre: a shallow look at shapes, no value worth telling
    result = player.last_result
    if result is None:
        return dict(_book(position, player.variant, player.learned_book)).get(move)
    if result.exact:
        return float(result.score // SCALE)
    deepest = score_in_discs(result.score)
    return round(settled(deepest, by_depth.get(result.depth - 1)), 2) + 0.0


def _depth_code(depth: int, proven: bool, position: Position, solves_from: int) -> str:
    """NBoard's depth: '100%' for an exact solve (a search to the end from
    at most `solves_from` empties), '100%W' for a win, draw or loss proven
    otherwise (the sign is right, the margin a bound), else the plies."""
    if not proven:
        return str(depth)
    exact = depth >= position.empty_count and position.empty_count <= solves_from
    return "100%" if exact else "100%W"


def _ends_in_pass(game: Game) -> bool:
    """True when the game's last entry is a forced pass it recorded."""
    return game.length > 0 and not game.move_at(game.length - 1)


def _whole(text: str, what: str, low: int, high: int) -> int:
    try:
        value = int(text)
    except ValueError:
        value = low - 1
    if not low <= value <= high:
        raise ProtocolError(
            f"{what} must be a whole number from {low} to {high}, not {shown(text, 12)!r}"
        )
    return value


def _seconds(text: str) -> float:
    """A move's time as GGF writes it ('4.5', or '1:02.5'); NaN when unreadable."""
    try:
        total = 0.0
        for part in text.strip().split(":"):
            total = total * 60 + float(part)
        return total
    except ValueError:
        return math.nan


def _clock(time_control: str | None) -> float | None:
    """Each side's seconds from a GGF TI ('15:00', or GGS's '05:00//02:00':
    the first part); None for no clock or one that cannot be read."""
    if not time_control:
        return None
    seconds = _seconds(time_control.split("/", 1)[0])
    return seconds if math.isfinite(seconds) and seconds > 0 else None


__all__ = ["NAME", "NBoardSession", "ProtocolError"]
