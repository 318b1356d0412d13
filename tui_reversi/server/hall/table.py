"""One table of `tui-reversi serve` as the server keeps it: its two seats, the
game between them, its phase, the clocks' state, the games' lines to it and who
watches; and a seat at it, with its state (tables.py holds them all;
table_referee.py rules on what the games ask).

A table's phase changes only by `Table.move_to` (ledger/table_phase.py: the
changes allowed); a seat's state only by `Seat.move_to` (`SEAT_NEXT` below).
Anything else raises IllegalTransition. docs/developing.md draws both.
"""

from __future__ import annotations

import asyncio
import collections
from collections.abc import Mapping
from dataclasses import InitVar, dataclass, field
from datetime import UTC, datetime
from enum import Enum
from typing import Literal

from ...core import Color, Ending, Game, Variant
from ...net.remote import NOBODY, is_guest, shown_name
from ...net.server_line import line
from ...net.terms import TimeControl
from ..ledger.fleet_messages import Sit, SitAt
from ..ledger.store import TableView
from ..ledger.table_phase import NEXT, Phase, transition
from .games_socket import tell

CHAT_KEPT = 20  # lines of a table's chat told again to a game that sits down


@dataclass(eq=False)
class Table:
    """Two seats and the game between them, as the server keeps it."""

    code: str
    variant: Variant
    names: dict[Color, str] = field(default_factory=dict)
    game: Game = field(init=False)
    ending: Ending | None = None  # how the game ended, once it has (`ended`: its text)
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
    takebacks_asked: dict[Color, int] = field(default_factory=dict)
    # The last lines of chat (`said` lines), for a game that sits down again.
    chat: collections.deque[bytes] = field(
        default_factory=lambda: collections.deque(maxlen=CHAT_KEPT)
    )
    started: datetime = field(default_factory=lambda: datetime.now(UTC))
    # In a fleet, a table on another node as this one knows it (its referee is
    # there: fleet_port.py relays); None for a table here.
    node: str | None = None
    # While a change to the table is being written (table_writes.py): what it says
    # meanwhile, told once the change is kept.
    withheld: list[bytes] | None = None
    # Set when another node took the table's game over (Tables.yield_to): the lines
    # of the games sitting at it here end.
    moved_away: asyncio.Event = field(default_factory=asyncio.Event, repr=False)
    # The phase it opens in: open, unless it is brought back (adjourned) or known
    # from another node's view of it (from_view).
    opens_as: InitVar[Phase] = Phase.OPEN
    rated: bool = True  # False: a casual tournament's game (kept, not rated)

    def __post_init__(self, opens_as: Phase) -> None:
        self.game = Game(self.variant)
        self._phase = opens_as
        if self.time_control is not None:
            self.remaining = {color: self.time_control.base for color in Color}

    @classmethod
    def from_view(cls, view: TableView, node: str | None = None) -> Table:
        """Table `view` on another node (`node`, else the view's own) as this node
        knows it: its names, terms and phase; its referee is there (fleet.py relays)."""
        names = {
            color: name for color, name in zip(Color, (view.black, view.white), strict=True) if name
        }
        clock = TimeControl.parse(view.clock) if view.clock else None
        variant = Variant(view.variant)
        node = view.node if node is None else node
        return cls(view.code, variant, names, time_control=clock, node=node, opens_as=view.phase)

    def view(self, node: str) -> TableView:
        """The table as the lobby shows it (`node`: where it is)."""
        clock = str(self.time_control) if self.time_control else ""
        black, white = self.name(Color.BLACK), self.name(Color.WHITE)
        move = self.game.move_number() + 1
        waiting = [self.names[color] for color in self.held]
        if self.phase is Phase.ADJOURNED:  # (a player back at it waits for the other)
            waiting += [self.name(color.other) for color in self.links]
        phase, variant = self.phase.listed, self.variant.value
        return TableView(self.code, phase, black, white, variant, clock, move, node, tuple(waiting))

    # -- its phase ------------------------------------------------------------------------

    @property
    def phase(self) -> Phase:
        """Where its game is in its life (ledger/table_phase.py)."""
        return self._phase

    def move_to(self, phase: Phase) -> None:
        """Change phase; raises IllegalTransition for a change NEXT does not allow."""
        self._phase = transition(f"table {self.code}", self._phase, phase, NEXT)

    @property
    def ended(self) -> str | None:
        """How the game ended, in a sentence, once it has."""
        return self.ending.text if self.ending is not None else None

    @property
    def adjourned(self) -> bool:
        """True while the game waits for both players, kept (as the store keeps it)."""
        return self._phase is Phase.ADJOURNED

    def end(self, ending: Ending) -> None:
        """The game is over, `ending` says how: the table is ended."""
        self.move_to(Phase.ENDED)
        self.ending = ending

    def begin_again(self) -> None:
        """A rematch: the ended table plays a new game (its colours changed already)."""
        self.move_to(Phase.PLAYING)
        self.ending = None

    def sit_down(self, color: Color, name: str) -> None:
        """`name` takes the free seat at `color`: with both seats taken, the game is on."""
        self.names[color] = name
        if self._phase is Phase.OPEN and len(self.names) == 2:
            self.move_to(Phase.PLAYING)

    def hold(self, color: Color, until: float) -> None:
        """`color`'s player dropped: their seat waits for them until `until` (loop time)."""
        self.held[color] = until
        if self._phase is Phase.PLAYING:
            self.move_to(Phase.HELD)

    def release(self, color: Color) -> float | None:
        """`color`'s held seat waits no more (its player is back, or out of time):
        when it would have stopped waiting; None if it was not held."""
        until = self.held.pop(color, None)
        if until is not None and not self.held and self._phase is Phase.HELD:
            self.move_to(Phase.PLAYING)
        return until

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
        end = self.ending
        assert end is not None
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


class SeatState(Enum):
    """What a seat's going will mean: its game's line ending, or its secret spent
    with no game sitting (Tables.leave). Whether a game sits is `Seat.line`; where
    the table is, `Seat.relay`."""

    GIVEN = "given"  # its session holds it: its game going unannounced is a crash
    LEAVING = "leaving"  # its game said it leaves: its going is its player leaving
    DROPPED = "dropped"  # its player went or was hung up: its going is a drop (held)
    HANDED = "handed"  # handed over to its player's next session: its going tells nothing


SEAT_NEXT: Mapping[SeatState, frozenset[SeatState]] = {
    SeatState.GIVEN: frozenset({SeatState.LEAVING, SeatState.DROPPED, SeatState.HANDED}),
    # (once its game's line has ended, a seat its session still holds is given again)
    SeatState.DROPPED: frozenset({SeatState.LEAVING, SeatState.HANDED, SeatState.GIVEN}),
    SeatState.LEAVING: frozenset({SeatState.GIVEN}),
    SeatState.HANDED: frozenset(),  # (the new session's seat is another: this one only goes)
}


@dataclass(frozen=True, slots=True)
class Relay:
    """How a seat here sits at its table on another node, whose referee its game is
    relayed to (fleet.py): by asking that node to seat its player (`how`: join, watch
    or resume, by the table's code and the player's name), or by the seat that node
    gave them already (`how` 'given': its `secret` there; an invitation or a pairing
    there, a take-over)."""

    how: Literal["join", "watch", "resume", "given"]
    secret: str = ""

    def sitting(self, link: str, code: str, name: str, address: str) -> Sit | SitAt:
        """The message that asks that node for the seat at table `code` for `name`
        (connected from `address`), for the relay `link` (fleet_port.py)."""
        if self.how == "given":
            return Sit(link, self.secret, address)
        return SitAt(link, self.how, code, name, address)


@dataclass(eq=False)
class Seat:
    """The seat of a table a secret stands for: a player's, or a spectator's place
    (`watching`). One object per secret, shared by everything that knows it."""

    table: Table
    name: str
    watching: bool = False
    # Where its player connected from, once their session says ('' until then):
    # charged with the name's requests (at another node's table, there: fleet_port.py).
    address: str = ""
    # At a table on another node: how it sits there (None: the table is here).
    relay: Relay | None = None
    # The line of the game sitting at it now, if one is (one game a seat).
    line: asyncio.StreamWriter | None = field(default=None, repr=False)
    _state: SeatState = field(default=SeatState.GIVEN, init=False)

    @property
    def color(self) -> Color | None:
        """The colour its player plays (None: watching); a rematch changes it."""
        if self.watching:
            return None
        return next((color for color, name in self.table.names.items() if name == self.name), None)

    @property
    def state(self) -> SeatState:
        return self._state

    def move_to(self, state: SeatState) -> None:
        """Change state; raises IllegalTransition for a change SEAT_NEXT does not allow."""
        what = f"{self.name}'s seat at table {self.table.code}"
        self._state = transition(what, self._state, state, SEAT_NEXT)
