"""The tables of `tui-reversi serve`: two people play each other, and the
server is the referee of record.

`ssh -t host table` opens a table and shows its code; `ssh -t host join CODE`
sits at it. Each player's game still runs in its own process; it reaches the
server over a local socket in a directory only the server's user may enter,
and proves which seat it is with the secret the server put in its
environment. The name at a seat is the SSH user name the server
authenticated, never anything a game says. Every move is checked here with
core before both games are told of it (the line protocol is described in
net/remote.py); a game that says something else is refused.

Everything about a table that must outlive this process goes through one
interface, `Store` (store.py: the archive's SQLite, or a fleet's PostgreSQL): games in progress and
adjourned ones, finished games, ratings. With it, adjourned games survive a
restart and are resumed with `ssh -t host resume`.

The parts: table.py (one table and its seats, a table's phase and a seat's
state; ledger/table_phase.py says how a phase may change), table_referee.py
(what a seated game may ask), table_clocks.py, table_course.py (a player gone,
adjourned, resumed, the end), table_store.py (what is kept); the games' socket
is games_socket.py.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import secrets
import time
from collections.abc import Callable, Collection, Coroutine, Iterable
from dataclasses import replace
from typing import TYPE_CHECKING, Literal

from ...core import Color, Ending, Game, ReversiError, Variant
from ...net.remote import TABLE_SECRET_VARIABLE, TABLE_SOCKET_VARIABLE, is_guest, shown_name
from ...net.server_line import line, next_line, words
from ...net.terms import TableRefused as TableRefused
from ...net.terms import TimeControl as TimeControl
from ...storage import StorageError
from ..config import SPECTATORS_PER_TABLE, TABLES_PER_PLAYER
from ..ledger.fleet_messages import Moves, Rejoined, Sit, SitAt
from ..ledger.store import Store, TableView, UnfinishedGame
from ..ledger.table_phase import Phase
from ..tally import GAMES_STARTED, TALLY
from .games_socket import GamesSocket, hello
from .moderation_watch import Moderation
from .table import Relay, SeatState
from .table import Seat as Seat
from .table import Table as Table
from .table_clocks import TableClocks
from .table_course import GameCourse, GameWatch
from .table_referee import TableReferee
from .table_reports import TableReports
from .table_store import brought_back, named_ratings, rated_lines
from .table_stranded import stranded

if TYPE_CHECKING:
    from .fleet_port import Fleet

# Codes are read aloud and typed: no 0/O, 1/I.
CODE_LETTERS = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 5


def typed_code(code: str) -> str:
    """A code as the player typed it, quoted for a sentence: a long one cut ('K7QP2XYZ…')."""
    code = code.strip()
    return repr(code if len(code) <= 4 * CODE_LENGTH else f"{code[: 4 * CODE_LENGTH]}…")


class Tables:
    """Every table on the server, and the socket the games reach them by:
    start(), open()/join() for sessions, environment() for their games, close()."""

    def __init__(
        self,
        log: Callable[[str], None],
        store: Store,
        fleet: Fleet,
        *,
        watches: tuple[GameWatch, ...] = (),
        hold: float = 0.0,
        now: Callable[[], float] = time.monotonic,
        adjourn: bool = False,
        tables_per_player: int = TABLES_PER_PLAYER,
        spectators_per_table: int = SPECTATORS_PER_TABLE,
        charged: Callable[[str, str], None] | None = None,
        people_per_address: int = 1,
        moderation: Moderation | None = None,
    ) -> None:
        self.tables_per_player = tables_per_player
        self.spectators_per_table = spectators_per_table
        self._log = log
        # A line for the log charged to the address whose request caused it.
        self._charged = charged or (lambda text, _address: log(text))
        self.tables: dict[str, Table] = {}
        # Every seat a session holds, by its secret; what it is, is its own (Seat.state,
        # .line, .relay). A seat whose secret is spent is out, its game may still sit.
        self._seats: dict[str, Seat] = {}
        # Who blocks whom and who is muted (moderation_watch.py; the arcade's, or
        # this store's alone, unread, for tables on their own).
        self.moderation = moderation or Moderation(store)
        self.reports = TableReports(store, self.moderation, log)
        self.clocks = TableClocks(now, lambda table, end: self.course.end(table, end))
        self.course = GameCourse(
            self.tables, self.clocks, store, log, watches=watches, hold=hold, adjourn=adjourn
        )
        self._referee = TableReferee(
            self.clocks,
            end=self.course.end,
            save=self.course.save,
            log=log,
            charged=self._charged,
            people_per_address=people_per_address,
            moderation=self.moderation,
            report=self.reports.file,
        )
        variables = (TABLE_SOCKET_VARIABLE, TABLE_SECRET_VARIABLE)
        self._socket = GamesSocket("tables", variables, self.serve_game)
        # The fleet's port (fleet_port.py; of one for a server alone): the other nodes
        # (a seat here at one's table: Seat.relay), told of these tables.
        self.fleet = fleet
        fleet.host(self)
        fleet.handle(Moves, lambda _node, moves: self.played_meanwhile(moves.code, moves.moves))
        fleet.handle(Rejoined, lambda _node, _back: self._rejoined())
        self._reconciling: set[asyncio.Task[None]] = set()  # (_rejoined's, while they run)
        self._telling: set[asyncio.Task[None]] = set()  # (_later's, kept while they run)
        self.course.store_down = lambda: self.fleet_down

    @property
    def store(self) -> Store:
        """Where the tables are kept."""
        return self.course.store

    @property
    def now(self) -> Callable[[], float]:
        """The clocks' time: injectable, so a test can make a flag fall."""
        return self.clocks.now

    @now.setter
    def now(self, now: Callable[[], float]) -> None:
        self.clocks.now = now

    def check_flag(self, table: Table) -> bool:
        """If the side to move at `table` has run out of time, the game ends: True."""
        return self.clocks.check_flag(table)

    async def start(self) -> None:
        """Listen for the games; bring back the games the store kept unfinished, adjourned."""
        unfinished, problems = await self.store.unfinished_tables()
        for problem in problems:
            self._log(problem)
        for kept in unfinished:
            if not self._guests_game_ended(kept):
                self._bring_back(kept)
        await self._socket.start()

    async def close(self) -> None:
        await self._socket.close()
        for task in self._telling:  # (news of a rating nobody waits for now)
            task.cancel()
        await self.course.writes.drained()  # (a stop's adjournments: kept before the store goes)
        await self.reports.close()
        for watch in self.course.watches:  # (their outcomes kept, their notes told)
            await watch.close()
        await self.course.notes.close()

    def _bring_back(self, kept: UnfinishedGame) -> None:
        """A game kept from before the restart: adjourned, its clocks as they were."""
        table = brought_back(kept)
        self.tables[table.code] = table
        self.course.written.add(table.code)  # (kept as this node's: start, or take_over)
        black, white = kept.names
        move = table.game.move_number() + 1
        self._log(f"table {table.code}: {black} against {white} kept adjourned, move {move}")

    def _guests_game_ended(self, kept: UnfinishedGame) -> bool:
        """A game the store kept unfinished with a guest at it (adjourned before a
        guest's games ended as the guest left, or in progress when a server was
        killed) ends now, with no result, for no guest ever comes back to it: True;
        False for a game between people with names."""
        if not any(is_guest(name) for name in kept.names):
            return False
        table = brought_back(kept)
        self.course.not_kept(table, f"Table {table.code}'s game was kept with a guest at it")
        return True

    def adjourn_all(self, why: str) -> None:
        """Adjourn every game in progress (the server is stopping): kept, nobody loses
        (a game with a guest ends instead: GameCourse.adjourn)."""
        for table in list(self.tables.values()):
            if table.phase.in_play:
                self.course.adjourn(table, why, "the game is adjourned, clocks stopped.")

    def tell_everyone(self, text: str) -> None:
        """`text` as news at every table here: its players and its spectators."""
        for table in list(self.tables.values()):
            table.broadcast(line("news", text))

    # -- for the sessions -------------------------------------------------------------

    def open(
        self,
        name: str,
        variant: Variant = Variant.OTHELLO,
        time_control: TimeControl | None = None,
        colour: Color = Color.BLACK,
        address: str = "",
    ) -> tuple[Table, str]:
        """A new table with `name` (connected from `address`) at `colour` (Black
        unless chosen: see net/terms.py for `random`), with clocks if
        `time_control`; its secret for that seat. Raises TableRefused."""
        playing = [
            table
            for table in self.tables.values()
            if name in table.names.values() and (table.phase.in_play or table.phase is Phase.OPEN)
        ]
        if len(playing) >= self.tables_per_player:
            raise TableRefused(
                f"you are at {len(playing)} tables already, the most this server allows; "
                "finish one first."
            )
        code = self._new_code()
        table = Table(code, variant, {colour: name}, time_control=time_control)
        self.tables[code] = table
        clock = f", clock {time_control}" if time_control else ""
        opened = f"table {code} opened by {name} as {colour.label} ({variant.value}{clock})"
        self._charged(opened, address)
        return table, self._seat(table, name)

    async def join(self, code: str, name: str, address: str = "") -> tuple[Table, str]:
        """Sit `name` (connected from `address`) at the free seat of table `code`, here
        or (in a fleet) on another node. Raises TableRefused."""
        code = code.strip().upper()
        if code not in self.tables:
            return await self._sit_elsewhere("join", code, name)
        return self.sit(code, name, address)

    def sit(self, code: str, name: str, address: str = "") -> tuple[Table, str]:
        """Sit `name` at the free seat of table `code` here (join's, with nothing
        awaited: the seat is taken at once; its rating is told when the store answers).
        Raises TableRefused."""
        code = code.strip().upper()
        table = self._open_table(code)
        for color, sitting in table.names.items():
            adjourned = table.phase is Phase.ADJOURNED and color not in table.links
            if sitting == name and (color in table.held or adjourned):  # dropped, or resuming
                return table, self._seat(table, name)
        if name in table.names.values():
            raise TableRefused(f"you are at table {table.code} already.")
        if self.moderation.apart_from_any(name, table.names.values()):
            raise TableRefused(f"that seat at table {code} cannot be taken.")
        free = [color for color in Color if color not in table.names]
        if not free:
            raise TableRefused(f"both seats at table {code} are taken.")
        color = free[0]
        table.sit_down(color, name)
        TALLY.count(GAMES_STARTED)
        self._charged(f"table {code}: {name} joined as {color.label}", address)
        table.broadcast(table.players_line())
        self._later(self._sat_down(table, name, color))
        self.clocks.run(table)  # Black's clock starts, once both games are up
        self.course.save(table)
        return table, self._seat(table, name)

    async def _sat_down(self, table: Table, name: str, color: Color) -> None:
        """Tell the table who sat down at it, rated how (once the store says)."""
        rated = await named_ratings(self.store, [name], log=self._log)
        for rated_line in rated_lines(rated):
            table.broadcast(rated_line)
        rating = f" (rated {rated[name]})" if rated[name] else ""
        rating = " (a guest, unrated)" if is_guest(name) else rating
        sits = f"{shown_name(name)}{rating} sits at the table as {color.label}."
        table.broadcast(line("news", sits))

    def _later(self, told: Coroutine[object, object, None]) -> None:
        """Run `told` (what the table hears once the store answers) by a task of its own."""
        task = asyncio.create_task(told)
        self._telling.add(task)
        task.add_done_callback(self._telling.discard)

    async def watch(self, code: str, name: str, address: str = "") -> tuple[Table, str]:
        """A spectator's place at table `code` for `name` (connected from `address`).
        Raises TableRefused."""
        code = code.strip().upper()
        if code not in self.tables:
            return await self._sit_elsewhere("watch", code, name)
        return self.watch_here(code, name, address)

    def seat_relayed(self, message: Sit | SitAt) -> str:
        """The seat here a game on another node asks for (fleet_port.py): the one
        promised it (Sit), or one at table `code` (SitAt: join, watch or resume); its
        secret, its requests charged to the message's address. Raises TableRefused
        (KeyError for a `how` it does not know)."""
        if isinstance(message, Sit):
            secret = message.secret
        else:
            sit = {"join": self.sit, "watch": self.watch_here, "resume": self.resume_here}
            _, secret = sit[message.how](message.code, message.name)
        self.connected_from(secret, message.address)
        return secret

    def watch_here(self, code: str, name: str, address: str = "") -> tuple[Table, str]:
        """A spectator's place at table `code` here (watch's, with nothing awaited).
        Raises TableRefused."""
        table = self._open_table(code)
        if len(table.audience) >= self.spectators_per_table:
            raise TableRefused(
                f"table {table.code} has {len(table.audience)} watching already, the most "
                "this server allows; try again later."
            )
        table.audience.append(name)
        self._charged(f"table {table.code}: {name} watches", address)
        table.broadcast(line("news", f"{name} is watching."))
        return table, self._seat(table, name, watching=True)

    def seat_of(self, secret: str) -> Seat | None:
        """The seat a session's secret stands for, while it does."""
        return self._seats.get(secret)

    def connected_from(self, secret: str, address: str) -> None:
        """The player of the seat `secret` stands for connected from `address`: what
        their game asks is charged to it too."""
        seat = self._seats.get(secret)
        if seat is not None:
            seat.address = address

    def view_of(self, secret: str) -> TableView | None:
        """The table `secret` has a seat at, as the lobby shows it, while it has."""
        seat = self._seats.get(secret)
        return self.view(seat.table) if seat is not None else None

    def playing(self, secret: str) -> bool:
        """True while the game given `secret` sits at its player's seat (not a
        spectator's place) and plays on: the table's game is not over."""
        seat = self._seats.get(secret)
        return (
            seat is not None
            and seat.color is not None
            and seat.line is not None
            and seat.table.phase is not Phase.ENDED
        )

    def held_for(self, name: str) -> str | None:
        """The code of the table where `name`'s seat is held for them, if any: a
        dropped player's, or one whose game crashed while the opponent waits at it."""
        for table in self.tables.values():
            if any(table.names[color] == name for color in table.held):
                return table.code
        for table in self.tables.values():
            waited = [color for color in table.links if table.name(color.other) == name]
            if table.phase is Phase.ADJOURNED and waited:
                return table.code
        for view in self.fleet.others[1]:  # at a table on another node
            if name in view.waiting_for:
                return view.code
        return None

    def adjourned_for(self, name: str) -> list[Table]:
        """The adjourned games `name` plays in, oldest first: theirs to resume."""
        games = [
            table
            for table in self.tables.values()
            if table.phase is Phase.ADJOURNED and name in table.names.values()
        ]
        return sorted(games, key=lambda table: table.started)

    async def resume(self, code: str, name: str) -> tuple[Table, str]:
        """`name`'s seat at their adjourned game `code` (in a fleet, where it is, or
        taken over from a node that has gone). Raises TableRefused."""
        code = code.strip().upper()
        table = self.tables.get(code)
        store = self.store
        try:
            orphaned = [] if table is not None else await store.orphaned(name)
            if any(kept.code == code for kept in orphaned):
                claimed = await store.take_over(code)  # (None: another node took it first)
                missing = claimed is not None and code not in self.tables
                if claimed is not None and missing and not self._guests_game_ended(claimed):
                    self._bring_back(claimed)
                table = self.tables.get(code)
        except StorageError as error:
            self._log(str(error))
            raise TableRefused("the server cannot find its games just now; try again.") from None
        if table is None:
            view = await self.fleet.table_at(code)
            adjourned = view is not None and view.phase is Phase.ADJOURNED
            if view is not None and adjourned and name in (view.black, view.white):
                return await self._sit_elsewhere("resume", code, name)
        return self.resume_here(code, name)

    def resume_here(self, code: str, name: str) -> tuple[Table, str]:
        """`name`'s seat at their adjourned game `code` here (resume's, with nothing
        awaited). Raises TableRefused."""
        code = code.strip().upper()
        table = self.tables.get(code)
        if table is None or table not in self.adjourned_for(name):
            raise TableRefused(f"you have no adjourned game {typed_code(code)}.")
        return self.sit(table.code, name)

    def hand_over(self, secret: str) -> str | None:
        """A new secret for the seat `secret` stands for, for its player's session
        that takes their game over from another terminal: the game there sits
        back down in its place (board, clocks and chat as they were), and this
        one's going is no drop and forfeits nothing. None for a spectator's
        place, a spent secret or a game over."""
        seat = self._seats.get(secret)
        if seat is None or seat.color is None or seat.table.phase is Phase.ENDED:
            return None
        if seat.state is not SeatState.HANDED:
            seat.move_to(SeatState.HANDED)
        self._log(f"table {seat.table.code}: {seat.name} takes their seat over elsewhere")
        return self._seat(seat.table, seat.name)

    def dropped(self, secret: str) -> None:
        """The player at this seat has gone (their connection dropped, or the server
        hung their game up): their game's going is a drop, not a crash."""
        seat = self._seats.get(secret)
        if seat is not None and seat.relay is not None:
            self.fleet.dropped(secret)
        elif seat is not None and seat.color is not None and seat.state is SeatState.GIVEN:
            seat.move_to(SeatState.DROPPED)  # (a seat leaving or handed over stays so)

    def banned(self, secret: str) -> None:
        """The player at this seat is banned: a game they play at a table here is
        lost at once (GameCourse.banned), and its going is then nothing more; at a
        table elsewhere, a drop (its node ends it: forfeit_banned)."""
        seat = self._seats.get(secret)
        color = seat.color if seat is not None else None
        if seat is not None and seat.relay is None and color is not None:
            self.course.banned(seat.table, color)
        self.dropped(secret)

    def forfeit_banned(self, held: Callable[[str, str], bool]) -> None:
        """Each game at a table here lost at once by a player `held(name, address)`
        says is banned (their seat held after a drop, or their session on any node)."""
        addresses = {(s.table.code, s.name): s.address for s in self._seats.values()}
        for table in list(self.tables.values()):
            for color, name in list(table.names.items()):
                if name and held(name, addresses.get((table.code, name), "")):
                    self.course.banned(table, color)

    async def _rating_lines(self, names: Iterable[str]) -> list[bytes]:
        """`rated NAME RATING` for each of `names` that has a rating, read at once."""
        return rated_lines(await named_ratings(self.store, names, log=self._log))

    def _open_table(self, code: str) -> Table:
        code = code.strip().upper()
        table = self.tables.get(code)
        if table is None or table.phase is Phase.ENDED:
            raise TableRefused(
                f"there is no open table {typed_code(code)}; check the code with its host."
            )
        return table

    async def _sit_elsewhere(
        self, how: Literal["join", "watch", "resume"], code: str, name: str
    ) -> tuple[Table, str]:
        """A seat here (its secret) at table `code` on another node of the fleet:
        the game is relayed there, and that node's referee seats it or refuses."""
        view = await self.fleet.table_at(code)
        if view is None or (how != "resume" and view.phase is Phase.ADJOURNED):
            raise TableRefused(
                f"there is no open table {typed_code(code)}; check the code with its host."
            )
        table = Table.from_view(view)
        if how in ("join", "resume"):
            mine = [c for c, sitting in table.names.items() if sitting == name]
            free = [c for c in Color if c not in table.names]
            if not mine and not free:
                raise TableRefused(f"both seats at table {code} are taken.")
            if not mine:
                table.sit_down(free[0], name)
        secret = self._seat(table, name, watching=how == "watch", relay=Relay(how))
        self._log(f"table {code}: {name} sits there ({how}) through node {view.node}")
        return table, secret

    def seat_from(self, node: str, remote_secret: str, view: TableView, name: str) -> str:
        """A seat here for `name` at a table on `node` that seated them there already
        (an invitation accepted there): its secret here."""
        table = Table.from_view(view, node)
        watching = name not in table.names.values()
        return self._seat(table, name, watching=watching, relay=Relay("given", remote_secret))

    def views(self, everywhere: bool = False) -> list[TableView]:
        """The tables not over, as the lobby shows them: this node's, and with
        `everywhere` the other nodes' too."""
        views = [self.view(t) for t in self.tables.values() if t.phase is not Phase.ENDED]
        if everywhere:
            here = {view.code for view in views}
            views += [view for view in self.fleet.others[1] if view.code not in here]
        return views

    def view(self, table: Table) -> TableView:
        """`table` as the lobby shows it."""
        return table.view(self.store.node)

    async def adjourned_views(self, name: str) -> list[TableView]:
        """`name`'s adjourned games wherever they are: here (oldest first), on the
        fleet's other nodes, and kept by nodes that have gone."""
        views = [self.view(table) for table in self.adjourned_for(name)]
        views += [
            view for view in self.fleet.others[1]
            if view.phase is Phase.ADJOURNED and name in (view.black, view.white)
        ]  # fmt: skip
        store = self.store
        for kept in await store.orphaned(name):
            if not any(is_guest(sitting) for sitting in kept.names):
                views.append(self.view(brought_back(kept)))
            elif claimed := await store.take_over(kept.code):
                self._guests_game_ended(claimed)  # (listed no more, anywhere)
        return views

    def environment(self, secret: str) -> dict[str, str]:
        """What a game needs in its environment to reach its seat."""
        return self._socket.environment(secret)

    def leave(self, secret: str, *, left: bool = False) -> None:
        """The session that held this seat has ended: its secret is spent. `left`: its
        player never sat (gone from the queue that paired them): as if they left."""
        seat = self._seats.pop(secret, None)
        if seat is None or seat.relay is not None:
            return
        if seat.color is None:
            with contextlib.suppress(ValueError):
                seat.table.audience.remove(seat.name)
        elif seat.state is SeatState.HANDED:
            pass  # another session of the player's has the seat
        elif seat.color not in seat.table.links:  # (else: its line's end tells)
            dropped = seat.state is SeatState.DROPPED
            self.course.gone(seat, leaving=left, crashed=not left and not dropped)

    def _seat(
        self, table: Table, name: str, *, watching: bool = False, relay: Relay | None = None
    ) -> str:
        secret = self._socket.new_secret()
        self._seats[secret] = Seat(table, name, watching, relay=relay)
        return secret

    def _new_code(self) -> str:
        while True:
            code = "".join(secrets.choice(CODE_LETTERS) for _ in range(CODE_LENGTH))
            if code not in self.tables:
                return code

    # -- the games' socket -------------------------------------------------------------

    async def serve_game(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        """Talk with one game from its hello on: the referee of its seat (or, for a
        table on another node, the relay to it)."""
        secret = await hello(reader)
        seat = self._seats.get(secret)
        rated: list[bytes] = []
        if seat is not None and seat.relay is None:
            rated = await self._rating_lines(seat.table.names.values())
            seat = self._seats.get(secret)  # (again, after the wait for the store)
        if seat is not None and seat.relay is not None:
            await self._play_elsewhere(secret, reader, writer)
            return
        if seat is None or seat.line is not None:
            writer.write(line("bye", "this game has no seat at a table."))
            return
        try:
            self._hello(seat, writer, rated)
            await self._play(seat, reader, writer)
        finally:
            self._unlink(seat, writer)
        if self._relayed(secret):  # (its table went: yield_to)
            await self._play_elsewhere(secret, reader, writer)

    def _relayed(self, secret: str) -> bool:
        """True while the seat `secret` stands for is at a table on another node."""
        seat = self._seats.get(secret)
        return seat is not None and seat.relay is not None

    async def _play_elsewhere(
        self, secret: str, reader: asyncio.StreamReader, writer: asyncio.StreamWriter
    ) -> None:
        """A game here at a table on another node: relayed there. If the line there is
        lost, the game stays, adjourned, until its table is found again (taken over
        here, or on a node in the fleet) and sits back down at it, with no command."""
        told: str | None = None  # what a stranded game was told: told again at its table
        while (seat := self._seats.get(secret)) is not None:
            if seat.relay is None:  # its table is here now
                rated = await self._rating_lines(seat.table.names.values())
                if self._seats.get(secret) is not seat:
                    return  # (its player went meanwhile)
                try:
                    self._hello(seat, writer, rated)
                    if told is not None and seat.table.phase is Phase.ADJOURNED:
                        writer.write(line("adjourned", told))
                    await self._play(seat, reader, writer)
                finally:
                    self._unlink(seat, writer)
                return
            node, code = seat.table.node, seat.table.code
            # (what its player asks is charged there to the address it is charged here)
            sitting = functools.partial(
                seat.relay.sitting, code=code, name=seat.name, address=seat.address
            )
            if not await self.fleet.relay(node, secret, sitting, reader, writer):
                return
            now = self._seats.get(secret)
            if now is not None and (now.relay is None or now.table.node != node):
                continue  # (its table was handed on by a node that drains: table_handover.py)
            why = (
                "the server lost its database"
                if self.fleet.down
                else f"the server's node with table {code} went"
            )
            self._log(f"table {code}: {seat.name} waits for the table ({why})")
            told = await stranded(
                seat,
                why,
                functools.partial(self.found_again, secret),
                lambda: self.fleet_down,
                reader,
                writer,
            )
            if told is None:
                return

    @property
    def fleet_down(self) -> bool:
        """True while this node cannot reach the fleet's database."""
        return self.fleet.down

    async def found_again(self, secret: str) -> bool:
        """For a game stranded at a table elsewhere: seat it where its table is now
        (taken over here if its node's games are anyone's); True if it was found."""
        seat, fleet = self._seats.get(secret), self.fleet
        if seat is None or fleet.down or seat.relay is None:
            return seat is not None and seat.relay is None
        code = seat.table.code
        try:
            node = seat.table.node
            if code not in self.tables and node is not None and fleet.may_take_over(node):
                kept = await self.store.take_over(code)
                if kept is not None and code not in self.tables:
                    self._bring_back(kept)
            view = None if code in self.tables else await fleet.table_at(code)
            if self._seats.get(secret) is not seat:
                return False  # (its player went while the fleet was asked)
        except (TableRefused, StorageError):
            return False
        table = self.tables.get(code)
        if table is not None and table.phase is not Phase.ENDED:
            return self._sit_back_here(secret, seat, table)
        if view is None:
            return False
        adjourned = view.phase is Phase.ADJOURNED
        how: Literal["watch", "resume", "join"] = (
            "watch" if seat.color is None else "resume" if adjourned else "join"
        )
        self._sit_back_through(secret, seat, view.node, how)
        return True

    def _sit_back_here(self, secret: str, seat: Seat, table: Table) -> bool:
        """The seat `secret` at a table elsewhere sits at `table`, here now; False if
        its colour there is someone else's."""
        if seat.color is not None and table.names.get(seat.color) != seat.name:
            return False
        if seat.color is None:
            table.audience.append(seat.name)
        self._seats[secret] = Seat(table, seat.name, seat.watching, seat.address)
        self._log(f"table {table.code}: {seat.name} sits back down here")
        return True

    def _sit_back_through(
        self, secret: str, seat: Seat, node: str, how: Literal["watch", "resume", "join"]
    ) -> None:
        """The seat `secret` at a table elsewhere sits at it on `node` now, `how`."""
        moved = Table.from_view(self.view(seat.table), node)
        self._seats[secret] = Seat(moved, seat.name, seat.watching, seat.address, Relay(how))
        self._log(f"table {seat.table.code}: {seat.name} sits back down through node {node}")

    def cut_off(self, secret: str, why: str) -> None:
        """The game at seat `secret` (relayed from another node) can no longer be
        heard, `why`: its table's game is adjourned, kept for its player to come back."""
        seat = self._seats.get(secret)
        if seat is None or seat.color is None:
            return
        table, name = seat.table, seat.name
        if table.phase.in_play:
            until = f"the game is adjourned until {name} is back."
            self.course.adjourn(table, f"{name} cannot be heard ({why})", until)

    def _rejoined(self) -> None:
        """This node is back in the fleet (its database reached again): reconciled."""
        task = asyncio.create_task(self._reconcile())
        self._reconciling.add(task)
        task.add_done_callback(self._reconciling.discard)

    async def _reconcile(self) -> None:
        """Back from being cut off: the games another node took over meanwhile are
        yielded to it (one owner each, and this node writes nothing more of them),
        with the moves played here meanwhile; then what the others could not have is
        written."""
        codes = self.course.kept_here()
        try:
            holders = await self.store.holders(codes)
        except StorageError as error:
            self._log(f"who keeps this node's games cannot be asked: {error}")
            return  # (down again: asked again when it is back)
        for code in codes:
            holder = holders.get(code)
            if holder == self.store.node:
                continue
            moves = self.yield_to(code, holder)
            if holder is not None and moves is not None:  # (any played here meanwhile)
                self.fleet.tell(holder, Moves(code, moves))
        self.course.store_back()

    def yield_to(self, code: str, node: str | None) -> str | None:
        """Table `code`'s game was taken over by `node` (None: and ended there) while
        this node could not reach the store: everyone at it here is told so in one
        sentence and sits down at it there; nothing more of it is written from here.
        The moves it had here (None if it was not here)."""
        table = self.tables.pop(code, None)
        if table is None:
            return None
        moved = None
        if node is not None:  # (its game goes on there, even one that ended here meanwhile)
            view = self.view(table)
            playing = replace(view, phase=Phase.PLAYING) if view.phase is Phase.ENDED else view
            moved = Table.from_view(playing, node)
        self.course.let_go(table)
        if node is None:
            text = (
                f"This node of the server lost its database a while, and table {code}'s "
                "game was resumed on another node meanwhile and is over there."
            )
        else:
            text = (
                f"This node of the server lost its database a while, and table {code}'s "
                "game was resumed on another node meanwhile: you sit down at it there."
            )
        self._log(f"table {code}: taken over by node {node or 'another'} meanwhile; let go here")
        for writer in [*table.links.values(), *table.spectators]:
            writer.write(line("news", text))
        self._moved_to(table, moved, text)
        return table.game.transcript()

    def _moved_to(
        self, table: Table, moved: Table | None, why: str, gone: Collection[str] = ()
    ) -> None:
        """`table` is `moved` now, on another node (None: and over there): over here
        (`why`), its seats here sit at it there through the relay, but for `gone`
        (games from other nodes, which their own node seats)."""
        if table.phase is not Phase.ENDED:  # (one ended here meanwhile is over there too)
            table.end(Ending("left", None, why))
        for secret, seat in list(self._seats.items()):
            if seat.table is table and secret in gone:
                del self._seats[secret]
            elif seat.table is table and moved is not None:
                relay = Relay("watch" if seat.color is None else "resume")
                self._seats[secret] = Seat(moved, seat.name, seat.watching, seat.address, relay)
        table.moved_away.set()  # (the games sitting at it here: their lines end)

    # -- a fleet node that drains hands its tables over (table_handover.py) -------------

    def secrets_at(self, code: str) -> list[str]:
        """The secrets of the seats and places at table `code` here."""
        return [secret for secret, seat in self._seats.items() if seat.table.code == code]

    def handed_away(self, code: str, node: str, gone: Collection[str]) -> None:
        """Table `code` is `node`'s now: nothing more of it is written from here, and
        its seats here sit at it there, but for `gone` (games from other nodes). Over
        here, so its games' going ends nothing here."""
        table = self.tables.pop(code, None)
        if table is not None:
            self.course.let_go(table)
            self._log(f"table {code}: handed to node {node}")
            moved = Table.from_view(self.view(table), node)
            self._moved_to(table, moved, f"Table {code} moved to another node.", gone)

    def handed_here(self, kept: UnfinishedGame) -> list[str]:
        """Table `kept.code`, handed here by its node (which drains): brought back
        adjourned, and this node's seats at it there sit at it here. Their secrets."""
        if kept.code not in self.tables:
            self._bring_back(kept)
        table = self.tables[kept.code]
        moving = [
            (secret, seat)
            for secret, seat in self._seats.items()
            if seat.relay is not None and seat.table.code == kept.code
        ]
        return [secret for secret, seat in moving if self._sit_back_here(secret, seat, table)]

    def moved_on(self, code: str, node: str) -> list[str]:
        """Table `code`, on another node, is on `node` now (handed there by its node,
        which drains): this node's seats at it sit at it there. Their secrets."""
        moving = [
            (secret, seat)
            for secret, seat in self._seats.items()
            if seat.relay is not None and seat.table.code == code
        ]
        for secret, seat in moving:
            self._sit_back_through(secret, seat, node, "watch" if seat.color is None else "resume")
        return [secret for secret, _ in moving]

    def played_meanwhile(self, code: str, moves: str) -> None:
        """Table `code`, taken over here, went on on the node it was taken from while
        that node was cut off from the store (`moves`: all of them there): the moves
        after those kept are played here too, if the game has had none here since."""
        table = self.tables.get(code)
        if table is None or table.phase is not Phase.ADJOURNED:
            return
        kept = table.game.transcript()
        if not moves.startswith(kept) or moves == kept:
            if not kept.startswith(moves):
                self._log(f"table {code}: its moves elsewhere ({moves}) part from these")
            return
        try:
            game = Game.from_transcript(moves, table.variant)
        except ReversiError:
            return
        start, table.game = len(table.game.moves), game
        self._log(f"table {code}: {moves[len(kept) :]} played on its former node meanwhile")
        for ply, move in enumerate(game.played[start:], start):
            if move:
                table.broadcast(line("moved", ply, move))
        self.course.save(table)

    def _unlink(self, seat: Seat, writer: asyncio.StreamWriter) -> None:
        """The game at `seat` has gone: what that means is the seat's state."""
        seat.line = None
        self.clocks.let_go(seat)
        table = seat.table
        if seat.color is None:
            table.spectators.discard(writer)
        elif table.links.get(seat.color) is writer:
            del table.links[seat.color]
            leaving = seat.state is SeatState.LEAVING
            crashed = not leaving and seat.state is not SeatState.DROPPED
            if seat.state is not SeatState.HANDED:  # (the new game sits in its place)
                self.course.gone(seat, leaving=leaving, crashed=crashed)
        if seat.state in (SeatState.LEAVING, SeatState.DROPPED):
            seat.move_to(SeatState.GIVEN)  # (told: a game that sits at it again is new)

    def _hello(self, seat: Seat, writer: asyncio.StreamWriter, rated: list[bytes]) -> None:
        """A game has sat down at `seat`: describe the table to it (`rated`: its
        players' `rated` lines, read before)."""
        seat.line = writer
        table, color = seat.table, seat.color
        if color is None:
            table.spectators.add(writer)
        else:
            self.course.back(table, color)
            self.clocks.sat_down(seat)
            old = table.links.get(color)
            if old is not None:  # the seat's earlier game is still going: this one takes over
                old.transport.abort()
            table.links[color] = writer
        where = "watching" if color is None else color.name.lower()
        writer.write(line("seated", table.code, where, table.variant.value))
        writer.write(table.players_line())
        for said in rated:
            writer.write(said)
        if table.time_control is not None:
            writer.write(table.clock_line(self.now()))
        game = table.game
        for ply, move in enumerate(game.played):
            if move:
                writer.write(line("moved", ply, move))
        if table.phase is Phase.ENDED:
            writer.write(table.over_line())
        writer.write(line("ready"))
        for said in table.chat:  # the talk so far, for a game that sits down (again)
            writer.write(said)
        self.course.resume(table)  # (told after the table's description)
        adjourned = table.phase is Phase.ADJOURNED
        if adjourned and color is None:
            how = "Adjourned: the game goes on when both players are back."
            writer.write(line("adjourned", how))
        elif adjourned and color is not None and color.other not in table.links:
            how = f"Adjourned: the game goes on when {table.shown(color.other)} is back too."
            writer.write(line("adjourned", how))

    async def _play(
        self, seat: Seat, reader: asyncio.StreamReader, writer: asyncio.StreamWriter
    ) -> None:
        while data := await next_line(reader, seat.table.moved_away):
            command, rest = words(data)
            if command == "leave" and seat.color is not None:
                if seat.state is not SeatState.HANDED:  # (handed over: its going tells nothing)
                    seat.move_to(SeatState.LEAVING)
                return
            if command == "begun" and seat.color is not None:
                self.clocks.begun(seat)
                continue
            refusal = self._referee.heard(seat, command, rest)
            if refusal is not None:
                writer.write(line("refused", refusal))
