"""What a seat at the board promises, and what a computer level's strategy promises.

Every colour is played by a `Player`: the person at this keyboard, a
computer level, or (over the network) a person elsewhere. The match's
referee asks the player to move with a `MoveRequest` for one `Turn`; the
player answers through the request's `reply`, from any thread, with a
`PlayResult` (or `Progress` while it thinks, or `PlayFailed`). An answer
for a turn that is no longer current is dropped by the referee, so a
player never needs to know the game moved on; `cancel()` only saves it the
work. None of them touches the UI.

A `Strategy` is how a computer level plays: a move for a position within
the `Limit` of each request, stoppable, never illegal (`create_player`
makes one per level from the registry in kinds.py; the search behind hard
and expert is `search.Engine`).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from ..core import Move, Position, ReversiError, Variant

# Asked every few thousand nodes: True means stop now and answer with the best so far.
CancelCheck = Callable[[], bool]


@dataclass(frozen=True, slots=True)
class Limit:
    """How far a player may think about one move (python-chess's `Limit`):
    seconds on the clock, plies of depth, nodes searched; None (or an
    infinite time) leaves that bound off. With no clock, a move is a pure
    function of the position and the other bounds. Given per request, never
    kept by a strategy; a level's own is its row in kinds.py."""

    time: float | None = None
    depth: int | None = None
    nodes: int | None = None

    def __post_init__(self) -> None:
        if self.time is not None and not self.time > 0:
            raise ReversiError(
                f"a time limit must be a positive number of seconds, not {self.time}"
            )
        if self.depth is not None and self.depth < 1:
            raise ReversiError(f"a depth limit must be at least 1, not {self.depth}")
        if self.nodes is not None and self.nodes < 1:
            raise ReversiError(f"a node limit must be at least 1, not {self.nodes}")

    @property
    def clock(self) -> float | None:
        """The seconds to think, or None for no clock."""
        return None if self.time is None or math.isinf(self.time) else self.time


@dataclass(frozen=True, slots=True)
class SearchInfo:
    """Progress of a search, for a 'thinking' indicator."""

    depth: int  # completed iterative-deepening depth (0 if none yet)
    nodes: int
    best: Move | None  # best move so far
    score: float | None = None  # from the mover's view; disc margin when exact
    exact: bool = False  # True once the endgame is solved to the end


ProgressCallback = Callable[[SearchInfo], None]


@dataclass(frozen=True, slots=True)
class MoveScore:
    """One legal move and how good the engine thinks it is for the mover."""

    move: Move
    score: float
    exact: bool = False


class Strategy(Protocol):
    """How a computer level plays. `level` is its kind's name in kinds.py."""

    @property
    def level(self) -> str: ...

    @property
    def variant(self) -> Variant: ...

    @property
    def notice(self) -> str | None:
        """One sentence the person at the board should read about how this
        player plays now (it runs degraded: a damaged data file, say), or
        None. Read after each move; a new sentence is shown once."""
        ...

    def choose_move(
        self,
        position: Position,
        limit: Limit,
        *,
        cancelled: CancelCheck | None = None,
        progress: ProgressCallback | None = None,
    ) -> Move:
        """The move to play in `position`: `Move.null()` when it must pass.

        Returns within `limit` (its time plus a small margin), and promptly
        after `cancelled()` becomes true. Never returns an illegal move.
        """
        ...


# -- seats ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Turn:
    """Which turn of which game a move is asked for. An answer whose Turn no
    longer matches the match is stale and is dropped."""

    game_id: int
    ply: int
    position: Position


@dataclass(frozen=True, slots=True)
class Allows:
    """What a seat lets the match do around it."""

    hints: bool = False  # the engine's best move may be shown on this seat's turn
    takebacks: bool = True  # moves may be taken back (undo, redo, play on from a review)
    pausing: bool = False  # its thinking may be stopped and started again
    local_input: bool = False  # its moves come from this keyboard (a `LocalPlayer`)
    shows_thinking: bool = False  # its thinking is worth watching (depth, elapsed time)


@dataclass(frozen=True, slots=True)
class PlayResult:
    """A player's answer: `move` for `turn` (a pass is `Move.null()`)."""

    turn: Turn
    move: Move


@dataclass(frozen=True, slots=True)
class Progress:
    """How a player's thinking about `turn` is going."""

    turn: Turn
    info: SearchInfo


@dataclass(frozen=True, slots=True)
class PlayFailed:
    """The player could not answer for `turn` (one sentence, for a bug report)."""

    turn: Turn
    problem: str


@dataclass(frozen=True, slots=True)
class Notice:
    """Something the person at the board should know about the player asked
    at `turn` (one sentence, `Strategy.notice`); the game goes on."""

    turn: Turn
    text: str


Reply = PlayResult | Progress | PlayFailed | Notice


@dataclass(frozen=True, slots=True)
class MoveRequest:
    """The referee asking a seat to move at `turn`. `reply` may be called from
    any thread; `min_time` is the fewest seconds a computer takes to answer
    (so that its reply is seen after yours)."""

    turn: Turn
    reply: Callable[[Reply], None]
    min_time: float = 0.0


class Player(Protocol):
    """A seat at the board. `kind` is its name in the registry (players.kinds);
    `allows` says what it lets the match and the screen do around it."""

    @property
    def kind(self) -> str: ...

    @property
    def allows(self) -> Allows: ...

    def request(self, request: MoveRequest) -> None:
        """Start choosing a move for `request.turn`; returns at once. A new
        request replaces any earlier one."""
        ...

    def cancel(self) -> None:
        """Stop working on the current request, if any (an answer already on
        its way is dropped as stale)."""
        ...

    def close(self) -> None:
        """The seat is left: stop and release whatever it holds."""
        ...


class LocalPlayer(Player, Protocol):
    """A seat whose moves the person at this keyboard gives (`allows.local_input`)."""

    @property
    def waiting(self) -> Turn | None:
        """The turn this player is asked to move at, or None."""
        ...

    def submit(self, move: Move) -> bool:
        """Answer the open request with `move`; False when nothing was asked."""
        ...
