"""One table of `tui-reversi serve` as the server keeps it: its two seats, the
game between them, the clocks' state, the games' lines to it and who watches
(tables.py holds them all; table_referee.py rules on what the games ask)."""

from __future__ import annotations

import asyncio
import collections
from dataclasses import dataclass, field
from datetime import UTC, datetime

from ...core import Color, Ending, Game, Variant
from ...net.remote import NOBODY, is_guest, shown_name
from ...net.server_line import line
from ...net.terms import TimeControl
from .games_socket import tell

CHAT_KEPT = 20  # lines of a table's chat told again to a game that sits down


@dataclass(eq=False)
class Table:
    """Two seats and the game between them, as the server keeps it."""

    code: str
    variant: Variant
    names: dict[Color, str] = field(default_factory=dict)
    game: Game = field(init=False)
    ended: str | None = None
    ending: Ending | None = None  # how `ended` came about, when the game was played
    links: dict[Color, asyncio.StreamWriter] = field(default_factory=dict)
    # The people watching (names, with a seat handed out) and their games' lines.
    audience: list[str] = field(default_factory=list)
    spectators: set[asyncio.StreamWriter] = field(default_factory=set)
    # A dropped player's seat waits for them until then (the event loop's time).
    held: dict[Color, float] = field(default_factory=dict)
    timers: dict[Color, asyncio.TimerHandle] = field(default_factory=dict)
    # The clocks, with a time control: each side's time left, and since when the
    # side to move's clock has run (None: not started, or stopped).
    time_control: TimeControl | None = None
    # The seats whose game has shown the board since it sat down: a clock starts
    # only once both have (a dropped player's seat keeps its place here).
    begun: set[Color] = field(default_factory=set)
    remaining: dict[Color, float] = field(default_factory=dict)
    since: float | None = None
    flag_timer: asyncio.TimerHandle | None = None
    # A takeback asked for and not answered yet: who asked, and the ply to go back to.
    takeback: tuple[Color, int] | None = None
    # After the game: who asked for a rematch (colours change), not answered yet.
    rematch: Color | None = None
    # A dropped player did not come back in time and the server adjourns: the game
    # waits, clocks stopped, until both players sit down again (join CODE).
    adjourned: bool = False
    takebacks_asked: dict[Color, int] = field(default_factory=dict)
    # The last lines of chat (`said` lines), for a game that sits down again.
    chat: collections.deque[bytes] = field(
        default_factory=lambda: collections.deque(maxlen=CHAT_KEPT)
    )
    started: datetime = field(default_factory=lambda: datetime.now(UTC))
    # In a fleet, a table on another node as this one knows it (its referee is
    # there: fleet.py relays); None for a table here.
    node: str | None = None
    # While a change to the table is being written (table_writes.py): what it says
    # meanwhile, told once the change is kept.
    withheld: list[bytes] | None = None
    rated: bool = True  # False: a casual tournament's game (kept, not rated)

    def __post_init__(self) -> None:
        self.game = Game(self.variant)
        if self.time_control is not None:
            self.remaining = {color: self.time_control.base for color in Color}

    def time_left(self, color: Color, now: float) -> float:
        """`color`'s time left at `now` (its clock runs while it is to move)."""
        left = self.remaining[color]
        if self.since is not None and self.game.position.to_move == color:
            left -= now - self.since
        return left

    def clock_line(self, now: float) -> bytes:
        running = self.game.position.to_move.name.lower() if self.since is not None else "-"
        black, white = (max(0.0, self.time_left(color, now)) for color in Color)
        return line("clock", f"{black:.1f}", f"{white:.1f}", running)

    def name(self, color: Color) -> str:
        return self.names.get(color, "")

    def shown(self, color: Color) -> str:
        """The name at `color` as people read it (a guest's short: guests.py)."""
        return shown_name(self.name(color))

    @property
    def has_guest(self) -> bool:
        """True if a guest sits at the table: its game is unrated and never kept
        for later (adjourned), since a guest has no key to come back with."""
        return any(is_guest(name) for name in self.names.values())

    def broadcast(self, data: bytes) -> None:
        """Tell everyone at the table: both players' games and the spectators'."""
        if self.withheld is not None:
            self.withheld.append(data)
            return
        for writer in [*self.links.values(), *self.spectators]:
            tell(writer, data)

    def over_line(self) -> bytes:
        """`over REASON WINNER TEXT` for an ended table (players/remote.py)."""
        assert self.ended is not None
        end = self.ending or Ending("left", None, self.ended)
        winner = end.winner.name.lower() if end.winner is not None else NOBODY
        return line("over", end.reason, winner, end.text)

    def players_line(self) -> bytes:
        black, white = (self.shown(color) or NOBODY for color in Color)
        return line("players", black, white)

    def result_text(self) -> str:
        """'alice (Black) wins 40-24.' for a game over on the board."""
        result = self.game.result
        assert result is not None
        scores = f"{result.black}-{result.white}"
        if result.winner is None:
            return f"Game over: a draw, {scores}."
        winner = result.winner
        high, low = result.score(winner), result.score(winner.other)
        return f"Game over: {self.shown(winner)} ({winner.label}) wins {high}-{low}."


@dataclass(eq=False)
class Seat:
    """Which seat of which table a secret stands for (`color` None: watching).
    One object per secret, shared by everything that knows it: a rematch
    changes its colour in place."""

    table: Table
    color: Color | None
    name: str
    # Where its player connected from, once their session says ('' until then):
    # charged with the name's requests (at another node's table, there: fleet.py).
    address: str = ""
