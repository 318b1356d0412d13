"""The tables of `tui-reversi serve`: two people play each other, and the
server is the referee of record.

`ssh -t host table` opens a table and shows its code; `ssh -t host join CODE`
sits at it. Each player's game still runs in its own process; it reaches the
server over a local socket in a directory only the server's user may enter,
and proves which seat it is with the secret the server put in its
environment. The name at a seat is the SSH user name the server
authenticated, never anything a game says. Every move is checked here with
core before both games are told of it (the line protocol is described in
players/remote.py); a game that says something else is refused, and a game
that goes away ends the game for the other player, who is told so.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import math
import os
import secrets
import shutil
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from ..core import Color, Game, Move, ReversiError, Variant
from ..players.remote import (
    CHAT_LENGTH,
    MAX_LINE,
    NOBODY,
    TABLE_SECRET_VARIABLE,
    TABLE_SOCKET_VARIABLE,
    line,
    words,
)
from .archive import Ending, PlayedGame
from .config import format_duration

# Codes are read aloud and typed: no 0/O, 1/I.
CODE_LETTERS = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 5
# Tables one player may hold open at once.
TABLES_PER_PLAYER = 3
# A game that connects and says nothing is let go after this long.
HELLO_TIMEOUT = 10.0
# Takebacks one player may ask for in one game.
TAKEBACKS_PER_GAME = 5
# Lines of chat one person may say in CHAT_WINDOW seconds.
CHAT_LINES = 10
CHAT_WINDOW = 60.0
# People watching one table at once.
SPECTATORS_PER_TABLE = 8
# A game that does not read what it is sent is cut off beyond this much unsent.
MAX_UNSENT = 64 * 1024


class TableRefused(Exception):
    """Why a player cannot open or join a table, in one sentence."""


@dataclass(frozen=True, slots=True)
class TimeControl:
    """Minutes each and seconds added after every move: `5+3`."""

    base: float  # seconds each player starts with
    increment: float  # seconds added to the mover's clock after each move

    @classmethod
    def parse(cls, text: str) -> TimeControl:
        """`5+3` (5 minutes each, 3 s a move) or `10`. Raises TableRefused."""
        minutes, _, seconds = text.partition("+")
        try:
            base, increment = int(minutes), int(seconds or "0")
        except ValueError:
            base = increment = -1
        if not (1 <= base <= 180 and 0 <= increment <= 60):
            raise TableRefused(
                f"{text[:20]!r} is not a time control: minutes (1-180), then +seconds a move "
                "(0-60), e.g. 5+3"
            )
        return cls(base * 60.0, float(increment))

    def __str__(self) -> str:
        return f"{self.base / 60:g}+{self.increment:g}"


@dataclass(eq=False)
class Table:
    """Two seats and the game between them, as the server keeps it."""

    code: str
    variant: Variant
    names: dict[Color, str] = field(default_factory=dict)
    game: Game = field(init=False)
    ended: str | None = None
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
    remaining: dict[Color, float] = field(default_factory=dict)
    since: float | None = None
    flag_timer: asyncio.TimerHandle | None = None
    # A takeback asked for and not answered yet: who asked, and the ply to go back to.
    takeback: tuple[Color, int] | None = None
    # A dropped player did not come back in time and the server adjourns: the game
    # waits, clocks stopped, until both players sit down again (join CODE).
    adjourned: bool = False
    takebacks_asked: dict[Color, int] = field(default_factory=dict)
    started: datetime = field(default_factory=lambda: datetime.now(UTC))

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

    def players_line(self) -> bytes:
        return line("players", self.name(Color.BLACK) or NOBODY, self.name(Color.WHITE) or NOBODY)

    def result_text(self) -> str:
        """'alice (Black) wins 40-24.' for a game over on the board."""
        result = self.game.result
        assert result is not None
        scores = f"{result.black}-{result.white}"
        if result.winner is None:
            return f"Game over: a draw, {scores}."
        winner = result.winner
        high, low = result.score(winner), result.score(winner.other)
        return f"Game over: {self.name(winner)} ({winner.label}) wins {high}-{low}."


@dataclass(frozen=True, eq=False)
class Seat:
    """Which seat of which table a secret stands for (`color` None: watching)."""

    table: Table
    color: Color | None
    name: str


class Tables:
    """Every table on the server, and the socket the games reach them by:
    start(), open()/join() for sessions, environment() for their games, close()."""

    def __init__(
        self,
        log: Callable[[str], None],
        keep: Callable[[PlayedGame], None] | None = None,
        *,
        hold: float = 0.0,
        now: Callable[[], float] = time.monotonic,
        rating: Callable[[str], float] | None = None,
        adjourn: bool = False,
    ) -> None:
        self._adjourn = adjourn  # a dropped player's time out adjourns (else: forfeits)
        self._rating = rating  # a player's rating on this server, to show beside their name
        self.now = now  # the clocks' time: injectable, so a test can make a flag fall
        self._log = log
        self._keep = keep  # called with every game that ends with both seats taken
        self._hold = hold  # seconds a dropped player's seat waits (0: the game ends)
        self._leaving: set[Seat] = set()  # games that said they leave (not dropped)
        # When each player (by name) chatted lately: the limit holds across tables.
        self._said: dict[str, collections.deque[float]] = {}
        self.tables: dict[str, Table] = {}
        self._seats: dict[str, Seat] = {}
        self._linked: set[Seat] = set()  # the seats a game holds now: one game each
        self._directory: Path | None = None
        self._server: asyncio.AbstractServer | None = None
        self._handlers: set[asyncio.Task[None]] = set()

    @property
    def socket_path(self) -> Path:
        assert self._directory is not None
        return self._directory / "tables.sock"

    async def start(self) -> None:
        # A fresh directory only this user may enter (mkdtemp makes it 0700), short
        # enough for a socket's path wherever the data directory is.
        self._directory = Path(tempfile.mkdtemp(prefix="tui-reversi-tables-"))
        self._server = await asyncio.start_unix_server(
            self._serve, str(self.socket_path), limit=MAX_LINE
        )
        os.chmod(self.socket_path, 0o600)

    async def close(self) -> None:
        if self._server is not None:
            self._server.close()
        for handler in list(self._handlers):
            handler.cancel()
        if self._handlers:
            await asyncio.wait(self._handlers)
        if self._server is not None:
            await self._server.wait_closed()
        if self._directory is not None:
            shutil.rmtree(self._directory, ignore_errors=True)

    # -- for the sessions -------------------------------------------------------------

    def open(
        self,
        name: str,
        variant: Variant = Variant.OTHELLO,
        time_control: TimeControl | None = None,
    ) -> tuple[Table, str]:
        """A new table with `name` at Black, with clocks if `time_control`; its
        secret for that seat. Raises TableRefused."""
        held = sum(1 for table in self.tables.values() if name in table.names.values())
        if held >= TABLES_PER_PLAYER:
            raise TableRefused(f"you have {held} tables open already; finish one first.")
        code = self._new_code()
        table = Table(code, variant, {Color.BLACK: name}, time_control=time_control)
        self.tables[code] = table
        clock = f", clock {time_control}" if time_control else ""
        self._log(f"table {code} opened by {name} ({variant.value}{clock})")
        return table, self._seat(table, Color.BLACK, name)

    def join(self, code: str, name: str) -> tuple[Table, str]:
        """Sit `name` at the free seat of table `code`. Raises TableRefused."""
        code = code.strip().upper()
        table = self._open_table(code)
        for color, sitting in table.names.items():
            coming_back = color in table.held or (table.adjourned and color not in table.links)
            if sitting == name and coming_back:  # after a dropped connection, or to resume
                return table, self._seat(table, color, name)
        if name in table.names.values():
            raise TableRefused(f"you are at table {table.code} already.")
        free = [color for color in Color if color not in table.names]
        if not free:
            raise TableRefused(f"both seats at table {code} are taken.")
        color = free[0]
        table.names[color] = name
        self._log(f"table {code}: {name} joined as {color.label}")
        self._broadcast(table, table.players_line())
        for rated in self._ratings(name):
            self._broadcast(table, rated)
        rating = f" (rated {round(self._rating(name))})" if self._rating is not None else ""
        sits = f"{name}{rating} sits at the table as {color.label}."
        self._broadcast(table, line("news", sits))
        self._run_clock(table)  # both are seated: Black's clock starts
        return table, self._seat(table, color, name)

    def watch(self, code: str, name: str) -> tuple[Table, str]:
        """A spectator's place at table `code` for `name`. Raises TableRefused."""
        table = self._open_table(code)
        if len(table.audience) >= SPECTATORS_PER_TABLE:
            raise TableRefused(f"table {table.code} has {len(table.audience)} watching already.")
        table.audience.append(name)
        self._log(f"table {table.code}: {name} watches")
        self._broadcast(table, line("news", f"{name} is watching."))
        return table, self._seat(table, None, name)

    def seat_of(self, secret: str) -> Seat | None:
        """The seat a session's secret stands for, while it does."""
        return self._seats.get(secret)

    def held_for(self, name: str) -> str | None:
        """The code of the table where `name`'s seat is held for them, if any."""
        for table in self.tables.values():
            if any(table.names[color] == name for color in table.held):
                return table.code
        return None

    def _ratings(self, *names: str) -> list[bytes]:
        if self._rating is None:
            return []
        return [line("rated", name, round(self._rating(name))) for name in names]

    def _open_table(self, code: str) -> Table:
        code = code.strip().upper()
        table = self.tables.get(code)
        if table is None or table.ended is not None:
            raise TableRefused(f"there is no open table {code!r}; check the code with its host.")
        return table

    def environment(self, secret: str) -> dict[str, str]:
        """What a game needs in its environment to reach its seat."""
        return {TABLE_SOCKET_VARIABLE: str(self.socket_path), TABLE_SECRET_VARIABLE: secret}

    def leave(self, secret: str) -> None:
        """The session that held this seat has ended: its secret is spent."""
        seat = self._seats.pop(secret, None)
        if seat is None:
            return
        if seat.color is None:
            with contextlib.suppress(ValueError):
                seat.table.audience.remove(seat.name)
        elif seat.color not in seat.table.links:
            self._gone(seat)

    def _seat(self, table: Table, color: Color | None, name: str) -> str:
        secret = secrets.token_urlsafe(24)
        self._seats[secret] = Seat(table, color, name)
        return secret

    def _new_code(self) -> str:
        while True:
            code = "".join(secrets.choice(CODE_LETTERS) for _ in range(CODE_LENGTH))
            if code not in self.tables:
                return code

    # -- the games' socket -------------------------------------------------------------

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        assert task is not None
        self._handlers.add(task)
        seat: Seat | None = None
        try:
            seat = await self._hello(reader, writer)
            if seat is not None:
                await self._play(seat, reader, writer)
        except (OSError, ValueError, asyncio.IncompleteReadError, asyncio.LimitOverrunError):
            pass  # a game that broke the protocol or went away: it is let go
        finally:
            self._handlers.discard(task)
            if seat is not None:
                self._unlink(seat, writer)
            writer.close()

    def _unlink(self, seat: Seat, writer: asyncio.StreamWriter) -> None:
        self._linked.discard(seat)
        table = seat.table
        if seat.color is None:
            table.spectators.discard(writer)
        elif table.links.get(seat.color) is writer:
            del table.links[seat.color]
            self._gone(seat, leaving=seat in self._leaving)
        self._leaving.discard(seat)

    async def _hello(
        self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter
    ) -> Seat | None:
        data = await asyncio.wait_for(reader.readline(), HELLO_TIMEOUT)
        command, secret = words(data)
        seat = self._seats.get(secret) if command == "hello" else None
        if seat is None or seat in self._linked:
            writer.write(line("bye", "this game has no seat at a table."))
            return None
        self._linked.add(seat)
        table, color = seat.table, seat.color
        if color is None:
            table.spectators.add(writer)
        else:
            self._back(table, color)
            old = table.links.get(color)
            if old is not None:  # the seat's earlier game is still going: this one takes over
                old.transport.abort()
            table.links[color] = writer
        where = "watching" if color is None else color.name.lower()
        writer.write(line("seated", table.code, where, table.variant.value))
        writer.write(table.players_line())
        for rated in self._ratings(*table.names.values()):
            writer.write(rated)
        if table.time_control is not None:
            writer.write(table.clock_line(self.now()))
        game = table.game
        for ply, move in enumerate(game.moves):
            if move >= 0:
                writer.write(line("moved", ply, Move.of(move)))
        if table.ended is not None:
            writer.write(line("over", table.ended))
        writer.write(line("ready"))
        self._resume(table)  # (told after the table's description)
        return seat

    async def _play(
        self, seat: Seat, reader: asyncio.StreamReader, writer: asyncio.StreamWriter
    ) -> None:
        while data := await reader.readline():
            command, rest = words(data)
            if command == "say":
                refusal: str | None = self._say(seat, rest)
            elif seat.color is None:
                refusal = "You are watching: only the players move."
            elif command == "move":
                refusal = self._move(seat, rest)
            elif command == "resign":
                refusal = self._resign(seat)
            elif command == "takeback":
                refusal = self._ask_takeback(seat)
            elif command in ("allow", "deny"):
                refusal = self._answer_takeback(seat, allowed=command == "allow")
            elif command == "leave":
                self._leaving.add(seat)
                return
            else:
                refusal = f"{command[:20]!r} is not something a game may say here."
            if refusal is not None:
                writer.write(line("refused", refusal))

    def _say(self, seat: Seat, text: str) -> str | None:
        """Pass a line of chat on to everyone at the table, within the limits."""
        text = "".join(ch for ch in text if ch.isprintable()).strip()
        if not text:
            return None
        if len(text) > CHAT_LENGTH:
            return f"A chat line is at most {CHAT_LENGTH} characters."
        now = time.monotonic()
        said = self._said.setdefault(seat.name, collections.deque())
        while said and now - said[0] > CHAT_WINDOW:
            said.popleft()
        if len(said) >= CHAT_LINES:
            return f"Easy: at most {CHAT_LINES} chat lines a minute."
        said.append(now)
        self._broadcast(seat.table, line("said", seat.name, text))
        return None

    def _move(self, seat: Seat, rest: str) -> str | None:
        """Play the seat's move if it is legal and its turn; else why not."""
        table, color = seat.table, seat.color
        assert color is not None
        game = table.game
        if table.ended is not None:
            return "The game is over."
        if table.adjourned:
            return "The game is adjourned until you are both back at the table."
        if len(table.names) < 2:
            return f"Nobody has joined yet: give your friend the code {table.code}."
        if game.position.to_move != color:
            return "It is not your turn."
        try:
            ply_text, square = rest.split(" ")
            ply = int(ply_text)
            move = Move.parse(square)
        except (ValueError, ReversiError):
            return "That is not a move."
        if ply != game.ply:
            return "That move was for another position."
        if self.check_flag(table):
            return None  # too late: the game is over, and both are told why
        if not move:
            return "Passes are the server's to play: choose a square."
        reason = game.position.illegal_reason(move.square)
        if reason is not None:
            return f"{move} {reason}."
        self._stop_clock(table, add_increment=True)
        table.takeback = None  # a move answers a waiting takeback: no
        game.play(move)
        self._broadcast(table, line("moved", ply, move))
        result = game.result
        if result is not None:
            self._end(table, Ending(table.result_text(), "board", result.winner))
        else:
            self._run_clock(table)
        return None

    # -- takebacks: asked by one player, allowed or declined by the other -------------

    def _ask_takeback(self, seat: Seat) -> str | None:
        table, color = seat.table, seat.color
        assert color is not None
        game = table.game
        if table.ended is not None:
            return "The game is over."
        if table.takeback is not None:
            return "A takeback is waiting for an answer already."
        if table.takebacks_asked.get(color, 0) >= TAKEBACKS_PER_GAME:
            return f"At most {TAKEBACKS_PER_GAME} takebacks a game may be asked for."
        mine = [
            ply
            for ply in range(game.ply)
            if game.moves[ply] >= 0 and game.positions[ply].to_move == color
        ]
        if not mine:
            return "You have no move to take back."
        table.takeback = (color, mine[-1])
        table.takebacks_asked[color] = table.takebacks_asked.get(color, 0) + 1
        other = table.links.get(color.other)
        if other is not None:
            other.write(line("asked", "takeback", seat.name))
        writer = table.links.get(color)
        if writer is not None:
            writer.write(line("news", f"Asked {table.name(color.other)} to take back your move."))
        return None

    def _answer_takeback(self, seat: Seat, *, allowed: bool) -> str | None:
        table, color = seat.table, seat.color
        assert color is not None
        asked = table.takeback
        if asked is None or asked[0] == color or table.ended is not None:
            return "No takeback is waiting for your answer."
        table.takeback = None
        asker, ply = asked
        if not allowed:
            writer = table.links.get(asker)
            if writer is not None:
                writer.write(line("news", f"{seat.name} declined the takeback."))
            return None
        self._stop_clock(table)
        table.game.continue_from(ply)
        self._log(f"table {table.code}: back to ply {ply}, allowed by {seat.name}")
        self._broadcast(table, line("undone", ply))
        self._broadcast(table, line("news", f"{seat.name} allowed {table.name(asker)}'s takeback."))
        self._run_clock(table)
        return None

    # -- the clocks --------------------------------------------------------------------

    def check_flag(self, table: Table) -> bool:
        """If the side to move has run out of time, the game ends: True."""
        if table.since is None or table.ended is not None:
            return False
        color = table.game.position.to_move
        if table.time_left(color, self.now()) > 0:
            return False
        other = color.other
        how = f"{table.name(color)}'s time ran out: {table.name(other)} ({other.label}) wins."
        self._end(table, Ending(how, "time", other))
        return True

    def _run_clock(self, table: Table) -> None:
        """Start the side to move's clock, tell both games, and watch for its flag."""
        if table.time_control is None or table.ended is not None:
            return
        table.since = self.now()
        self._broadcast(table, table.clock_line(table.since))
        left = table.time_left(table.game.position.to_move, table.since)
        loop = asyncio.get_running_loop()
        table.flag_timer = loop.call_later(left + 0.05, self._flag_due, table)

    def _flag_due(self, table: Table) -> None:
        table.flag_timer = None
        if not self.check_flag(table) and table.since is not None and table.ended is None:
            left = table.time_left(table.game.position.to_move, self.now())
            loop = asyncio.get_running_loop()
            table.flag_timer = loop.call_later(max(0.05, left), self._flag_due, table)

    def _stop_clock(self, table: Table, *, add_increment: bool = False) -> None:
        """Stop the running clock (charging the mover), adding the increment after a move."""
        if table.flag_timer is not None:
            table.flag_timer.cancel()
            table.flag_timer = None
        if table.time_control is None or table.since is None:
            return
        color = table.game.position.to_move
        table.remaining[color] = table.time_left(color, self.now())
        if add_increment:
            table.remaining[color] += table.time_control.increment
        table.since = None

    def _resign(self, seat: Seat) -> str | None:
        table, color = seat.table, seat.color
        assert color is not None
        if table.ended is not None:
            return "The game is over."
        other = table.name(color.other)
        winner = f"{other} ({color.other.label}) wins." if other else "The table closes."
        how = f"{table.name(color)} ({color.label}) resigned: {winner}"
        self._end(table, Ending(how, "resigned", color.other if other else None))
        return None

    def _gone(self, seat: Seat, *, leaving: bool = False) -> None:
        """A seat's game has gone. A player who left ends the game; a dropped
        one's seat is held for them a while; the other is told either way."""
        table, color = seat.table, seat.color
        assert color is not None
        if color in table.held or color in table.links:
            return  # held already, or back already
        if table.adjourned:  # it waits for both, whoever comes and goes meanwhile
            self._clear_away(table)
            return
        if table.ended is None:
            if color.other not in table.names:
                table.ended = "The table closed before anyone joined."
            elif leaving or self._hold <= 0:
                how = f"{table.name(color)} left the table: the game ends here."
                self._end(table, Ending(how, "left", None))
            else:
                table.held[color] = asyncio.get_running_loop().time() + self._hold
                self._log(f"table {table.code}: {table.name(color)} dropped; seat held")
                self._tick(table, color)
        self._clear_away(table)

    def _clear_away(self, table: Table) -> None:
        """Forget a table nobody plays at any more (spectators keep what they saw)."""
        gone = not table.links and not table.held and not table.adjourned
        if gone and self.tables.get(table.code) is table:
            del self.tables[table.code]
            self._log(f"table {table.code} closed")

    def _tick(self, table: Table, color: Color) -> None:
        """Tell the table how long the dropped player's seat still waits; at
        zero, the game is theirs to lose."""
        deadline = table.held.get(color)
        if deadline is None or table.ended is not None:
            return
        loop = asyncio.get_running_loop()
        left = deadline - loop.time()
        name, other = table.name(color), color.other
        if left <= 0 and self._adjourn:
            self._adjourn_game(table, name)
            return
        if left <= 0:
            del table.held[color]
            how = f"{name} did not come back in time: {table.name(other)} ({other.label}) wins."
            self._end(table, Ending(how, "forfeit", other))
            self._clear_away(table)
            return
        wait = format_duration(math.ceil(left))
        self._broadcast(table, line("news", f"{name} dropped out: their seat is held for {wait}."))
        table.timers[color] = loop.call_later(min(1.0, left), self._tick, table, color)

    def _adjourn_game(self, table: Table, name: str) -> None:
        """Nobody loses: the game waits, clocks stopped, for both to sit down again."""
        self._stop_waiting(table)
        table.adjourned = True
        self._log(f"table {table.code}: adjourned ({name} did not come back in time)")
        how = (
            f"{name} did not come back in time: the game is adjourned. "
            f"Either of you resumes it with  join {table.code}"
        )
        self._broadcast(table, line("news", how))

    def _resume(self, table: Table) -> None:
        """An adjourned game's players are both back: it goes on."""
        if table.adjourned and len(table.links) == 2:
            table.adjourned = False
            self._log(f"table {table.code}: resumed")
            self._broadcast(table, line("news", "You are both back: the game goes on."))
            self._run_clock(table)

    def _back(self, table: Table, color: Color) -> None:
        """A held seat's player has come back."""
        if table.held.pop(color, None) is None:
            return
        timer = table.timers.pop(color, None)
        if timer is not None:
            timer.cancel()
        self._log(f"table {table.code}: {table.name(color)} is back")
        self._broadcast(table, line("news", f"{table.name(color)} is back."))

    def _stop_waiting(self, table: Table) -> None:
        """Stop the running clock and let go of every held seat."""
        self._stop_clock(table)
        for timer in table.timers.values():
            timer.cancel()
        table.timers.clear()
        table.held.clear()

    def _end(self, table: Table, end: Ending) -> None:
        self._stop_waiting(table)
        table.ended = end.description
        self._log(f"table {table.code}: {end.description}")
        if table.time_control is not None:
            self._broadcast(table, table.clock_line(self.now()))
        self._broadcast(table, line("over", end.description))
        if self._keep is not None and len(table.names) == 2:
            names = (table.name(Color.BLACK), table.name(Color.WHITE))
            self._keep(PlayedGame(table.code, table.game.copy(), names, table.started, end))

    def _broadcast(self, table: Table, data: bytes) -> None:
        for writer in [*table.links.values(), *table.spectators]:
            if writer.transport.get_write_buffer_size() > MAX_UNSENT:
                writer.transport.abort()  # a game that stopped reading
                continue
            with contextlib.suppress(OSError):
                writer.write(data)
