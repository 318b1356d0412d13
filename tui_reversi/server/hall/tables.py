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

The parts: table.py (one table), table_referee.py (what a seated game may
ask), table_clocks.py, table_course.py (a player gone, adjourned, resumed,
the end), table_store.py (what is kept); the games' socket is games_socket.py.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import secrets
import time
from collections.abc import Callable, Coroutine, Iterable
from typing import TYPE_CHECKING

from ...core import Color, Game, ReversiError, Variant
from ...net.remote import TABLE_SECRET_VARIABLE, TABLE_SOCKET_VARIABLE, is_guest, shown_name
from ...net.server_line import line, next_line, words
from ...net.terms import TableRefused as TableRefused
from ...net.terms import TimeControl as TimeControl
from ...storage import StorageError
from ..config import SPECTATORS_PER_TABLE, TABLES_PER_PLAYER
from ..ledger.store import Store, TableView, UnfinishedGame
from ..tally import GAMES_STARTED, TALLY
from .games_socket import GamesSocket, hello
from .table import Seat as Seat
from .table import Table as Table
from .table_clocks import TableClocks
from .table_course import GameCourse
from .table_referee import TableReferee
from .table_store import brought_back, named_ratings, rated_lines
from .table_stranded import stranded

if TYPE_CHECKING:
    from ..ledger.fleet import Fleet

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
        *,
        hold: float = 0.0,
        now: Callable[[], float] = time.monotonic,
        adjourn: bool = False,
        tables_per_player: int = TABLES_PER_PLAYER,
        spectators_per_table: int = SPECTATORS_PER_TABLE,
        charged: Callable[[str, str], None] | None = None,
        people_per_address: int = 1,
    ) -> None:
        self.tables_per_player = tables_per_player
        self.spectators_per_table = spectators_per_table
        self._log = log
        # A line for the log charged to the address whose request caused it.
        self._charged = charged or (lambda text, _address: log(text))
        self._leaving: set[Seat] = set()  # games that said they leave (not dropped)
        # Seats whose player's connection went (or the server hung up): when their game
        # goes, that is a drop, not a crash.
        self._dropped: set[Seat] = set()
        self.tables: dict[str, Table] = {}
        self._seats: dict[str, Seat] = {}
        self._linked: set[Seat] = set()  # the seats a game holds now: one game each
        # Seats handed over to their player's next session (hand_over): their game's
        # going is neither a drop nor a crash; the new game takes the seat.
        self._handed: set[Seat] = set()
        # Seats whose table went to another node (yield_to): their game's line here ends.
        self._moved: dict[Seat, asyncio.Event] = {}
        self.clocks = TableClocks(now, lambda table, end: self.course.end(table, end))
        self.course = GameCourse(self.tables, self.clocks, log, hold=hold, adjourn=adjourn)
        self._referee = TableReferee(
            self.clocks,
            end=self.course.end,
            save=self.course.save,
            seats_at=self._seats_at,
            log=log,
            charged=self._charged,
            people_per_address=people_per_address,
        )
        variables = (TABLE_SOCKET_VARIABLE, TABLE_SECRET_VARIABLE)
        self._socket = GamesSocket("tables", variables, self.serve_game)
        # In a fleet (fleet.py): the other nodes, and the seats here at their tables
        # (secret -> how the table's node is asked to seat the game).
        self.fleet: Fleet | None = None
        self._elsewhere: dict[str, dict[str, str]] = {}
        self._telling: set[asyncio.Task[None]] = set()  # (_later's, kept while they run)
        self.course.store_down = lambda: self.fleet_down

    @property
    def store(self) -> Store | None:
        """Where the tables are kept (set by start())."""
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

    async def start(self, store: Store | None = None) -> None:
        """Listen for the games; bring back the games `store` kept unfinished, adjourned."""
        self.course.store = store
        if store is not None:
            unfinished, problems = await store.unfinished_tables()
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
        await self.course.playbans.close()
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
            if len(table.names) == 2 and table.ended is None and not table.adjourned:
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
        self.course.playbans.refuse(name)
        playing = [
            table
            for table in self.tables.values()
            if name in table.names.values() and table.ended is None and not table.adjourned
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
        return table, self._seat(table, colour, name)

    async def join(self, code: str, name: str, address: str = "") -> tuple[Table, str]:
        """Sit `name` (connected from `address`) at the free seat of table `code`, here
        or (in a fleet) on another node. Raises TableRefused."""
        code = code.strip().upper()
        if code not in self.tables and self.fleet is not None:
            return await self._sit_elsewhere("join", code, name)
        return self.sit(code, name, address)

    def sit(self, code: str, name: str, address: str = "") -> tuple[Table, str]:
        """Sit `name` at the free seat of table `code` here (join's, with nothing
        awaited: the seat is taken at once; its rating is told when the store answers).
        Raises TableRefused."""
        code = code.strip().upper()
        table = self._open_table(code)
        for color, sitting in table.names.items():
            coming_back = color in table.held or (table.adjourned and color not in table.links)
            if sitting == name and coming_back:  # after a dropped connection, or to resume
                return table, self._seat(table, color, name)
        if name in table.names.values():
            raise TableRefused(f"you are at table {table.code} already.")
        self.course.playbans.refuse(name)
        free = [color for color in Color if color not in table.names]
        if not free:
            raise TableRefused(f"both seats at table {code} are taken.")
        color = free[0]
        table.names[color] = name
        TALLY.count(GAMES_STARTED)
        self._charged(f"table {code}: {name} joined as {color.label}", address)
        table.broadcast(table.players_line())
        self._later(self._sat_down(table, name, color))
        self.clocks.run(table)  # Black's clock starts, once both games are up
        self.course.save(table)
        return table, self._seat(table, color, name)

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
        if code not in self.tables and self.fleet is not None:
            return await self._sit_elsewhere("watch", code, name)
        return self.watch_here(code, name, address)

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
        return table, self._seat(table, None, name)

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
            and seat in self._linked
            and seat.table.ended is None
        )

    def held_for(self, name: str) -> str | None:
        """The code of the table where `name`'s seat is held for them, if any: a
        dropped player's, or one whose game crashed while the opponent waits at it."""
        for table in self.tables.values():
            if any(table.names[color] == name for color in table.held):
                return table.code
        for table in self.tables.values():
            waited = [color for color in table.links if table.name(color.other) == name]
            if table.adjourned and table.ended is None and waited:
                return table.code
        if self.fleet is not None:  # at a table on another node
            for view in self.fleet.others[1]:
                if name in view.waiting_for:
                    return view.code
        return None

    def adjourned_for(self, name: str) -> list[Table]:
        """The adjourned games `name` plays in, oldest first: theirs to resume."""
        games = [
            table
            for table in self.tables.values()
            if table.adjourned and table.ended is None and name in table.names.values()
        ]
        return sorted(games, key=lambda table: table.started)

    async def resume(self, code: str, name: str) -> tuple[Table, str]:
        """`name`'s seat at their adjourned game `code` (in a fleet, where it is, or
        taken over from a node that has gone). Raises TableRefused."""
        code = code.strip().upper()
        table = self.tables.get(code)
        store = self.store
        try:
            orphaned = [] if table is not None or store is None else await store.orphaned(name)
            if store is not None and any(kept.code == code for kept in orphaned):
                claimed = await store.take_over(code)  # (None: another node took it first)
                missing = claimed is not None and code not in self.tables
                if claimed is not None and missing and not self._guests_game_ended(claimed):
                    self._bring_back(claimed)
                table = self.tables.get(code)
        except StorageError as error:
            self._log(str(error))
            raise TableRefused("the server cannot find its games just now; try again.") from None
        if table is None and self.fleet is not None:
            view = await self.fleet.table_at(code)
            if view is not None and view.kind == "adjourned" and name in (view.black, view.white):
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
        if seat is None or seat.color is None or seat.table.ended is not None:
            return None
        self._handed.add(seat)
        self._log(f"table {seat.table.code}: {seat.name} takes their seat over elsewhere")
        return self._seat(seat.table, seat.color, seat.name)

    def dropped(self, secret: str) -> None:
        """The player at this seat has gone (their connection dropped, or the server
        hung their game up): their game's going is a drop, not a crash."""
        if secret in self._elsewhere and self.fleet is not None:
            self.fleet.dropped(secret)
            return
        seat = self._seats.get(secret)
        if seat is not None and seat.color is not None:
            self._dropped.add(seat)

    async def _rating_lines(self, names: Iterable[str]) -> list[bytes]:
        """`rated NAME RATING` for each of `names` that has a rating, read at once."""
        return rated_lines(await named_ratings(self.store, names, log=self._log))

    def _open_table(self, code: str) -> Table:
        code = code.strip().upper()
        table = self.tables.get(code)
        if table is None or table.ended is not None:
            raise TableRefused(
                f"there is no open table {typed_code(code)}; check the code with its host."
            )
        return table

    async def _sit_elsewhere(self, how: str, code: str, name: str) -> tuple[Table, str]:
        """A seat here (its secret) at table `code` on another node of the fleet:
        the game is relayed there, and that node's referee seats it or refuses."""
        assert self.fleet is not None
        view = await self.fleet.table_at(code)
        if view is None or (how != "resume" and view.kind == "adjourned"):
            raise TableRefused(
                f"there is no open table {typed_code(code)}; check the code with its host."
            )
        names = {
            color: sitting
            for color, sitting in zip(Color, (view.black, view.white), strict=True)
            if sitting
        }
        color: Color | None = None
        if how in ("join", "resume"):
            mine = [c for c, sitting in names.items() if sitting == name]
            free = [c for c in Color if c not in names]
            if not mine and not free:
                raise TableRefused(f"both seats at table {code} are taken.")
            color = (mine or free)[0]
            names[color] = name
        clock = TimeControl.parse(view.clock) if view.clock else None
        table = Table(code, Variant(view.variant), names, time_control=clock, node=view.node)
        secret = self._seat(table, color, name)
        self._elsewhere[secret] = {"how": how, "code": code, "name": name}
        self._log(f"table {code}: {name} sits there ({how}) through node {view.node}")
        return table, secret

    def seat_from(self, node: str, remote_secret: str, view: TableView, name: str) -> str:
        """A seat here for `name` at a table on `node` that seated them there already
        (an invitation accepted there): its secret here."""
        names = {c: n for c, n in zip(Color, (view.black, view.white), strict=True) if n}
        color = next((c for c, sitting in names.items() if sitting == name), None)
        clock = TimeControl.parse(view.clock) if view.clock else None
        table = Table(view.code, Variant(view.variant), names, time_control=clock, node=node)
        secret = self._seat(table, color, name)
        self._elsewhere[secret] = {"secret": remote_secret}
        return secret

    def views(self, everywhere: bool = False) -> list[TableView]:
        """The tables not over, as the lobby shows them: this node's, and with
        `everywhere` the other nodes' too."""
        views = [self.view(table) for table in self.tables.values() if table.ended is None]
        if everywhere and self.fleet is not None:
            here = {view.code for view in views}
            views += [view for view in self.fleet.others[1] if view.code not in here]
        return views

    def view(self, table: Table) -> TableView:
        """`table` as the lobby shows it."""
        kind = "adjourned" if table.adjourned else "playing" if len(table.names) == 2 else "open"
        clock = str(table.time_control) if table.time_control else ""
        black, white = table.name(Color.BLACK), table.name(Color.WHITE)
        node = self.store.node if self.store is not None else ""
        variant, move = table.variant.value, table.game.move_number() + 1
        waiting = [table.names[color] for color in table.held]
        if table.adjourned and table.ended is None:
            waiting += [table.name(color.other) for color in table.links]
        return TableView(table.code, kind, black, white, variant, clock, move, node, tuple(waiting))

    async def adjourned_views(self, name: str) -> list[TableView]:
        """`name`'s adjourned games wherever they are: here (oldest first), on the
        fleet's other nodes, and kept by nodes that have gone."""
        views = [self.view(table) for table in self.adjourned_for(name)]
        if self.fleet is not None:
            views += [
                view for view in self.fleet.others[1]
                if view.kind == "adjourned" and name in (view.black, view.white)
            ]  # fmt: skip
        store = self.store
        for kept in await store.orphaned(name) if store is not None else []:
            if not any(is_guest(sitting) for sitting in kept.names):
                views.append(self.view(brought_back(kept)))
            elif store is not None and (claimed := await store.take_over(kept.code)):
                self._guests_game_ended(claimed)  # (listed no more, anywhere)
        return views

    def environment(self, secret: str) -> dict[str, str]:
        """What a game needs in its environment to reach its seat."""
        return self._socket.environment(secret)

    def leave(self, secret: str, *, left: bool = False) -> None:
        """The session that held this seat has ended: its secret is spent. `left`: its
        player never sat (gone from the queue that paired them): as if they left."""
        seat = self._seats.pop(secret, None)
        if seat is None or self._elsewhere.pop(secret, None) is not None:
            return
        if seat.color is None:
            with contextlib.suppress(ValueError):
                seat.table.audience.remove(seat.name)
        elif seat in self._handed:  # another session of the player's has the seat
            if seat not in self._linked:  # (else its line's end forgets it)
                self._handed.discard(seat)
        elif seat.color not in seat.table.links:  # (else: its line's end tells)
            self.course.gone(seat, leaving=left, crashed=not left and seat not in self._dropped)
            self._dropped.discard(seat)

    def _seat(self, table: Table, color: Color | None, name: str) -> str:
        secret = self._socket.new_secret()
        self._seats[secret] = Seat(table, color, name)
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
        if seat is not None and secret not in self._elsewhere:
            rated = await self._rating_lines(seat.table.names.values())
            seat = self._seats.get(secret)  # (again, after the wait for the store)
        elsewhere = self._elsewhere.get(secret)
        if seat is not None and elsewhere is not None and self.fleet is not None:
            await self._play_elsewhere(secret, reader, writer)
            return
        if seat is None or seat in self._linked:
            writer.write(line("bye", "this game has no seat at a table."))
            return
        try:
            self._hello(seat, writer, rated)
            await self._play(seat, reader, writer)
        finally:
            self._unlink(seat, writer)
        if secret in self._elsewhere and self.fleet is not None:  # (its table went: yield_to)
            await self._play_elsewhere(secret, reader, writer)

    async def _play_elsewhere(
        self, secret: str, reader: asyncio.StreamReader, writer: asyncio.StreamWriter
    ) -> None:
        """A game here at a table on another node: relayed there. If the line there is
        lost, the game stays, adjourned, until its table is found again (taken over
        here, or on a node in the fleet) and sits back down at it, with no command."""
        assert self.fleet is not None
        told: str | None = None  # what a stranded game was told: told again at its table
        while (seat := self._seats.get(secret)) is not None:
            sitting = self._elsewhere.get(secret)
            if sitting is None:  # its table is here now
                rated = await self._rating_lines(seat.table.names.values())
                if self._seats.get(secret) is not seat:
                    return  # (its player went meanwhile)
                try:
                    self._hello(seat, writer, rated)
                    if told is not None and seat.table.adjourned:
                        writer.write(line("adjourned", told))
                    await self._play(seat, reader, writer)
                finally:
                    self._unlink(seat, writer)
                return
            node, code = seat.table.node, seat.table.code
            address = seat.address  # (charged there, as here)
            if not await self.fleet.relay(node, code, secret, sitting, address, reader, writer):
                return
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
        return self.fleet is not None and self.fleet.down

    async def found_again(self, secret: str) -> bool:
        """For a game stranded at a table elsewhere: seat it where its table is now
        (taken over here if its node's games are anyone's); True if it was found."""
        seat, fleet = self._seats.get(secret), self.fleet
        if seat is None or fleet is None or fleet.down or secret not in self._elsewhere:
            return seat is not None and secret not in self._elsewhere
        code, name = seat.table.code, seat.name
        try:
            node = seat.table.node
            if code not in self.tables and node is not None and fleet.may_take_over(node):
                kept = await self.store.take_over(code) if self.store is not None else None
                if kept is not None and code not in self.tables:
                    self._bring_back(kept)
            view = None if code in self.tables else await fleet.table_at(code)
            if self._seats.get(secret) is not seat:
                return False  # (its player went while the fleet was asked)
        except (TableRefused, StorageError):
            return False
        table = self.tables.get(code)
        if table is not None and table.ended is None:
            if seat.color is not None and table.names.get(seat.color) != name:
                return False
            if seat.color is None:
                table.audience.append(name)
            self._seats[secret] = Seat(table, seat.color, name, seat.address)
            del self._elsewhere[secret]
            self._log(f"table {code}: {name} sits back down here")
            return True
        if view is None:
            return False
        how = "watch" if seat.color is None else "resume" if view.kind == "adjourned" else "join"
        names, clock = dict(seat.table.names), seat.table.time_control
        moved = Table(code, seat.table.variant, names, time_control=clock, node=view.node)
        self._seats[secret] = Seat(moved, seat.color, name, seat.address)
        self._elsewhere[secret] = {"how": how, "code": code, "name": name}
        self._log(f"table {code}: {name} sits back down through node {view.node}")
        return True

    def cut_off(self, secret: str, why: str) -> None:
        """The game at seat `secret` (relayed from another node) can no longer be
        heard, `why`: its table's game is adjourned, kept for its player to come back."""
        seat = self._seats.get(secret)
        if seat is None or seat.color is None:
            return
        table, name = seat.table, seat.name
        if table.ended is None and not table.adjourned and len(table.names) == 2:
            until = f"the game is adjourned until {name} is back."
            self.course.adjourn(table, f"{name} cannot be heard ({why})", until)

    def store_back(self) -> None:
        """The store can be reached again: what could not be written is."""
        self.course.store_back()

    def kept_here(self) -> list[str]:
        """The codes of the games the store keeps as this node's, as far as it knows."""
        return self.course.kept_here()

    def yield_to(self, code: str, node: str | None) -> str | None:
        """Table `code`'s game was taken over by `node` (None: and ended there) while
        this node could not reach the store: everyone at it here is told so in one
        sentence and sits down at it there; nothing more of it is written from here.
        The moves it had here (None if it was not here)."""
        table = self.tables.pop(code, None)
        if table is None:
            return None
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
        table.ended = text
        self._log(f"table {code}: taken over by node {node or 'another'} meanwhile; let go here")
        for writer in [*table.links.values(), *table.spectators]:
            writer.write(line("news", text))
        clock = table.time_control
        moved = Table(code, table.variant, dict(table.names), time_control=clock, node=node)
        for secret, seat in list(self._seats.items()):
            if seat.table is table and node is not None:
                how = "watch" if seat.color is None else "resume"
                self._seats[secret] = Seat(moved, seat.color, seat.name, seat.address)
                self._elsewhere[secret] = {"how": how, "code": code, "name": seat.name}
        for seat in [seat for seat in self._linked if seat.table is table]:
            self._moved.setdefault(seat, asyncio.Event()).set()
        return table.game.transcript()

    def played_meanwhile(self, code: str, moves: str) -> None:
        """Table `code`, taken over here, went on on the node it was taken from while
        that node was cut off from the store (`moves`: all of them there): the moves
        after those kept are played here too, if the game has had none here since."""
        table = self.tables.get(code)
        if table is None or table.ended is not None or not table.adjourned:
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
        self._linked.discard(seat)
        self.clocks.let_go(seat)
        table = seat.table
        if seat.color is None:
            table.spectators.discard(writer)
        elif table.links.get(seat.color) is writer:
            del table.links[seat.color]
            leaving = seat in self._leaving
            crashed = not leaving and seat not in self._dropped
            if seat not in self._handed:  # (handed over: the new game sits down in its place)
                self.course.gone(seat, leaving=leaving, crashed=crashed)
        if seat in self._handed and seat not in self._seats.values():  # its secret is spent
            self._handed.discard(seat)
        self._leaving.discard(seat)
        self._dropped.discard(seat)

    def _hello(self, seat: Seat, writer: asyncio.StreamWriter, rated: list[bytes]) -> None:
        """A game has sat down at `seat`: describe the table to it (`rated`: its
        players' `rated` lines, read before)."""
        self._linked.add(seat)
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
        if table.ended is not None:
            writer.write(table.over_line())
        writer.write(line("ready"))
        for said in table.chat:  # the talk so far, for a game that sits down (again)
            writer.write(said)
        self.course.resume(table)  # (told after the table's description)
        if table.adjourned and color is None:
            how = "Adjourned: the game goes on when both players are back."
            writer.write(line("adjourned", how))
        elif table.adjourned and color is not None and color.other not in table.links:
            how = f"Adjourned: the game goes on when {table.shown(color.other)} is back too."
            writer.write(line("adjourned", how))

    async def _play(
        self, seat: Seat, reader: asyncio.StreamReader, writer: asyncio.StreamWriter
    ) -> None:
        moved = self._moved.setdefault(seat, asyncio.Event())
        try:
            while data := await next_line(reader, moved):
                command, rest = words(data)
                if command == "leave" and seat.color is not None:
                    self._leaving.add(seat)
                    return
                if command == "begun" and seat.color is not None:
                    self.clocks.begun(seat)
                    continue
                refusal = self._referee.heard(seat, command, rest)
                if refusal is not None:
                    writer.write(line("refused", refusal))
        finally:
            self._moved.pop(seat, None)

    def _seats_at(self, table: Table) -> set[Seat]:
        """Every seat at `table` a secret or a game holds."""
        return {seat for seat in {*self._seats.values(), *self._linked} if seat.table is table}
