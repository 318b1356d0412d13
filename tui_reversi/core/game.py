"""A game record: the moves and the positions between them, with a cursor.

Undo, redo and history review move the cursor; nothing is recomputed. Passes
are recorded as plies of their own (PASS) and inserted automatically whenever
the side to move has no move but the opponent has one.
"""

from __future__ import annotations

from collections.abc import Sequence

from .errors import IllegalMoveError, ReversiError
from .move import PASS, Move
from .position import Position
from .squares import NAMES, PASS_WORDS, parse_square
from .variants import Result, Variant


def move_name(move: int) -> str:
    """'f5' for a square index, 'pass' for PASS."""
    return "pass" if move == PASS else NAMES[move]


def parse_transcript(text: str) -> list[int]:
    """The moves in a transcript such as 'f5d6c3' or 'F5 d6 pa c3', as square
    indices and PASS. Whitespace is ignored. Raises ReversiError."""
    chars = "".join(text.split()).lower()
    moves: list[int] = []
    i = 0
    while i < len(chars):
        if chars.startswith("pass", i):
            moves.append(PASS)
            i += 4
        elif chars.startswith("pa", i):
            moves.append(PASS)
            i += 2
        else:
            token = chars[i : i + 2]
            try:
                moves.append(parse_square(token))
            except ReversiError:
                raise ReversiError(
                    f"move {len(moves) + 1} ({token!r}) is not a square or a pass; "
                    "a transcript is squares like f5d6c3"
                ) from None
            i += 2
    return moves


def move_numbers(moves: Sequence[Move]) -> list[int | None]:
    """Each ply's move number as Othello players count them: discs placed,
    so a pass takes no number (None). The move log, review, analysis and the
    dialogs all number moves this way."""
    numbers: list[int | None] = []
    count = 0
    for move in moves:
        if move.is_pass:
            numbers.append(None)
        else:
            count += 1
            numbers.append(count)
    return numbers


class Game:
    """The record of one game: variant, positions, moves and a cursor (`ply`)."""

    def __init__(self, variant: Variant | str = Variant.OTHELLO, start: Position | None = None):
        self.variant = Variant.parse(variant)
        self.positions: list[Position] = [start if start is not None else self.variant.start()]
        self.moves: list[int] = []
        self.ply = 0
        self._pass_if_forced()

    @classmethod
    def from_transcript(
        cls, text: str, variant: Variant | str = Variant.OTHELLO, start: Position | None = None
    ) -> Game:
        """Replay a transcript, checking every move. Passes may be written
        ('pa', 'pass') or left out. Raises ReversiError naming the bad move,
        e.g. 'move 12 (c5) is illegal: it flips nothing'."""
        game = cls(variant, start)
        auto_pass_pending = game.moves[-1:] == [PASS]
        for number, move in enumerate(parse_transcript(text), start=1):
            if move == PASS:
                if auto_pass_pending:
                    auto_pass_pending = False
                    continue
                raise IllegalMoveError(
                    f"move {number} (pass) is illegal: {game.position.to_move.label} "
                    + ("has a legal move" if not game.is_over else "cannot pass, the game is over")
                )
            reason = game.position.illegal_reason(move)
            if reason is not None:
                raise IllegalMoveError(f"move {number} ({NAMES[move]}) is illegal: it {reason}")
            before = len(game.moves)
            game.play(move)
            auto_pass_pending = len(game.moves) == before + 2
        return game

    # -- where the cursor is --------------------------------------------------

    @property
    def position(self) -> Position:
        """The position at the cursor."""
        return self.positions[self.ply]

    @property
    def start(self) -> Position:
        return self.positions[0]

    @property
    def length(self) -> int:
        """Plies recorded, passes included (the cursor may be before the end)."""
        return len(self.moves)

    @property
    def at_end(self) -> bool:
        return self.ply == len(self.moves)

    @property
    def is_over(self) -> bool:
        """True when nobody can move at the cursor."""
        return self.position.is_game_over()

    @property
    def result(self) -> Result | None:
        """The result at the cursor if the game is over there, else None."""
        return self.variant.result(self.position) if self.is_over else None

    def move_at(self, ply: int) -> Move:
        """The move that led from ply `ply` to the next (a pass included)."""
        return Move.of(self.moves[ply])

    @property
    def played(self) -> tuple[Move, ...]:
        """Every move of the record as a `Move`, in order, passes included
        (beyond the cursor too): how the record is read outside the rules."""
        return tuple(Move.of(move) for move in self.moves)

    @property
    def last_move(self) -> Move | None:
        """The last move before the cursor (a pass included), or None at the start."""
        return Move.of(self.moves[self.ply - 1]) if self.ply else None

    def move_number(self, upto: int | None = None) -> int:
        """The moves played before ply `upto` (default: the cursor), as the
        move log numbers them: discs placed, passes not counted."""
        end = self.ply if upto is None else upto
        return sum(1 for move in self.moves[:end] if move != PASS)

    def transcript(self, upto: int | None = None) -> str:
        """Canonical transcript of the moves before ply `upto` (default: the
        cursor): lowercase squares, passes left out."""
        end = self.ply if upto is None else upto
        return "".join(NAMES[m] for m in self.moves[:end] if m != PASS)

    # -- changing the record --------------------------------------------------

    def play(self, move: Move | int | str) -> Position:
        """Play a move (a Move, a square index or a name) at the cursor,
        discarding any moves after it, then record a pass if the next side is
        forced to pass. Raises IllegalMoveError ('d4 is occupied'); passes are
        recorded by the game itself, so playing one is refused."""
        if isinstance(move, Move):
            move = move.index
        if move == PASS or (isinstance(move, str) and move.strip().lower() in PASS_WORDS):
            raise IllegalMoveError(
                "the game is over"
                if self.is_over
                else f"{self.position.to_move.label} has a legal move and cannot pass"
            )
        square = parse_square(move) if isinstance(move, str) else move
        after = self.position.play(square)
        self.truncate()
        self.moves.append(square)
        self.positions.append(after)
        self.ply += 1
        self._pass_if_forced()
        return self.position

    def truncate(self) -> None:
        """Forget every move after the cursor ("continue from here")."""
        del self.moves[self.ply :]
        del self.positions[self.ply + 1 :]
        self._pass_if_forced()

    def _pass_if_forced(self) -> None:
        if self.at_end and self.position.must_pass:
            self.moves.append(PASS)
            self.positions.append(self.position.pass_turn())
            self.ply += 1

    @property
    def can_undo(self) -> bool:
        return any(m != PASS for m in self.moves[: self.ply])

    @property
    def can_redo(self) -> bool:
        return self.ply < len(self.moves)

    def undo(self) -> bool:
        """Step back to before the last real move (over any pass that followed
        it). Returns False when there is nothing to undo."""
        for ply in range(self.ply - 1, -1, -1):
            if self.moves[ply] != PASS:
                self.ply = ply
                return True
        return False

    def redo(self) -> bool:
        """Step forward one move, and over a forced pass that follows it."""
        if not self.can_redo:
            return False
        self.ply += 1
        while self.ply < len(self.moves) and self.moves[self.ply] == PASS:
            self.ply += 1
        return True

    def go_to(self, ply: int) -> Position:
        """Put the cursor at `ply` (0 = start, `length` = end) for review."""
        if not 0 <= ply <= len(self.moves):
            raise ReversiError(f"there is no move {ply}: the game has {len(self.moves)}")
        self.ply = ply
        return self.position

    def continue_from(self, ply: int) -> Position:
        """Go to `ply` and discard the moves after it."""
        self.go_to(ply)
        self.truncate()
        return self.position

    def copy(self) -> Game:
        """An independent record with the same moves and cursor."""
        other = Game.__new__(Game)
        other.variant = self.variant
        other.positions = list(self.positions)
        other.moves = list(self.moves)
        other.ply = self.ply
        return other
