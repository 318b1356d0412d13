"""The listener: who may come in, how many at once, and one log line each way.

`Arcade` owns the listening socket and the counts (places taken, connections
per address); each SSH connection it lets in is a `PlayerConnection`
(connection.py).
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import ipaddress
import os
import select
import sys
import time
from collections.abc import Callable
from typing import TextIO

import asyncssh

from ...core.errors import reason
from ...crash import keep_private
from ...net.remote import is_guest
from ..config import ServeConfig, ServeError, format_duration
from ..hall.arena_schedule import ArenaSchedule
from ..hall.boost_watch import BoostWatch
from ..hall.conduct import Playbans
from ..hall.fleet_port import Fleet
from ..hall.guests import remove_folder
from ..hall.lobby_host import LobbyHost
from ..hall.moderation_watch import Moderation
from ..hall.pairing import PairingQueue
from ..hall.preloaded import PreloadedParent, fork_available
from ..hall.pty_process import Spawn
from ..hall.roster import presence, who_is_here
from ..hall.sessions import Sessions
from ..hall.table_handover import hand_tables_over
from ..hall.tables import Tables
from ..hall.tournaments import TournamentDirector
from ..hall.watch_reports import WatchReports
from ..ledger.archive import Archive
from ..ledger.moderation import Sanction
from ..ledger.store import Store
from ..ledger.timed_calls import time_calls
from ..tally import LOGINS, TALLY
from .accounts import named_keys
from .browser_passes import BrowserPasses
from .budgets import Budgets
from .connection import Client, PlayerConnection
from .descriptors import raise_descriptor_limit
from .door import PRESSURE_GRACE, Door
from .event_log import EventLog, tame_library_logs
from .guessing import PasswordGuesses
from .health import Health
from .hostkey import load_or_create_host_key
from .login import Accounts
from .places import Places
from .rename_door import RenamesHere
from .sanction_door import end_banned, forfeit_banned, present_names

# On shutdown, how long clients get to close by themselves once their game has ended.
CLIENT_CLOSE_WAIT = 2.0
# While draining, how often the arcade looks whether everyone has gone (seconds).
DRAIN_LOOK = 0.25


def log_to_stderr(line: str) -> None:
    """The server's log: one line on stderr. A log nobody reads any more
    must not stop the games, nor the server's stopping: when stderr's reader
    has gone (`serve 2>&1 | tee log`, the tee ended by the same ctrl+c), the
    lines go where they would without the pipe (`_stderr_to_terminal`)."""
    if _reader_gone(sys.stderr):
        _stderr_to_terminal()
    try:
        print(line, file=sys.stderr, flush=True)
    except BrokenPipeError:
        _stderr_to_terminal()
        with contextlib.suppress(OSError, ValueError):
            sys.stderr.flush()  # the line, still in the buffer
    except (OSError, ValueError):
        pass


def _reader_gone(stream: TextIO) -> bool:
    """True when `stream` is a pipe whose reader has gone (a write would fail)."""
    try:
        poller = select.poll()
        poller.register(stream.fileno(), select.POLLOUT)
        return any(events & select.POLLERR for _, events in poller.poll(0))
    except (OSError, ValueError):
        return False


def _stderr_to_terminal() -> None:
    """From now on stderr is the terminal the server was started in, if it
    has one (so its operator reads that it stopped), else nowhere."""
    try:
        fd = os.open("/dev/tty", os.O_WRONLY | os.O_NOCTTY)
    except OSError:
        fd = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(fd, sys.stderr.fileno())
    finally:
        os.close(fd)


class Arcade:
    """A running `tui-reversi serve`: start(), then close() to hang everyone up and stop."""

    def __init__(self, config: ServeConfig, log: Callable[[str], None] = log_to_stderr) -> None:
        self.config = config
        self._log = log
        self.events = EventLog(log, as_json=config.log_format == "json")
        self.connections: set[Client] = set()
        # The sessions with a game running here, and each player's own game.
        self.sessions = Sessions(config.players_dir)
        self.door = Door(config)
        # What each connection and each address may send (budgets.py).
        self.budgets = Budgets(self.events, config.people_per_address())
        self.places = Places(config)
        # Where a browser finds the page, for the host a player reached the server at
        # (`keys web` prints it): set once the page listens (serve --web-port); None: no page.
        self.page_address: Callable[[str], str] | None = None
        self._acceptor: asyncssh.SSHAcceptor | None = None
        self.host_key: asyncssh.SSHKey | None = None
        self.host_key_created = False
        self.preloaded: PreloadedParent | None = None
        # Put together by start(), once the store is open (_assemble): what outlives
        # this process (store.py: SQLite under the data directory, or a fleet's
        # PostgreSQL; finished games also go to the players' saved games), the
        # accounts and the penalties of guessing kept in it, the keyed players'
        # browsers bound to their names (`keys web`, the page's ?code=), the other
        # nodes (a fleet of one with SQLite), where people play each other (`ssh -t
        # host table`, `join CODE`), the players waiting to be paired (`ssh -t host
        # play`), the lobby inside the served games, and this node's part in running
        # the tournaments with the others (`tournament ...`).
        self.store: Store
        self.accounts: Accounts
        self.penalties: PasswordGuesses
        self.browser_passes: BrowserPasses
        self.moderation: Moderation
        # The renames (`mod rename`) carried out here: sessions ended, folders moved.
        self.renames_here: RenamesHere
        self.fleet: Fleet
        self.tables: Tables
        self.pairing: PairingQueue
        self.lobby: LobbyHost
        # The players' conduct in rated games and the playbans it brings (conduct.py),
        # and the boosting watch (boost_watch.py, its reports filed by watch_reports.py):
        # each game's end told to both.
        self.playbans: Playbans
        self.boosts: BoostWatch
        self.watch_reports: WatchReports
        self.tournaments: TournamentDirector
        # How games start, in a few words for the banner.
        self.game_start = "as a fresh Python each"
        # Files this process may open (raised to the hard limit at start).
        self.descriptors = 1024
        # Whether the node should be sent players (/readyz): it listens, drains
        # (drain(): no one new comes in) or stops.
        self.health = Health()

    async def start(self) -> None:
        """Load or create the host key and start listening; ServeError if that cannot be done."""
        config = self.config
        tame_library_logs(self.events)
        self.descriptors = raise_descriptor_limit()
        _make_private(config)
        self.host_key, self.host_key_created = load_or_create_host_key(config.host_key_path)
        if config.auth == "keys" and config.authorized_keys is not None:
            named_keys(config.authorized_keys)  # fail now, not at the first player's login
        self.store = store = await self._open_store()
        self._assemble(store)
        await self.browser_passes.start(store)
        await self.moderation.start()
        await self._start_preloaded()
        await store.listen(self.fleet.heard)
        await self.tables.start()
        self.tournaments.start()
        await self.lobby.start()
        await self.fleet.start()
        try:
            self._acceptor = await asyncssh.create_server(
                lambda: PlayerConnection(self),
                config.host,
                config.port,
                server_host_keys=[self.host_key],
                encoding=None,
                line_editor=False,
                agent_forwarding=False,
                x11_forwarding=False,
                allow_scp=False,
                login_timeout=config.login_timeout or None,
                keepalive_interval=config.keepalive_interval,
                keepalive_count_max=config.keepalive_count_max,
                reuse_address=True,
            )
        except OSError as error:
            where = f"{config.host or '*'}:{config.port}"
            why = reason(error)
            hint = "; choose another with --port" if error.errno == errno.EADDRINUSE else ""
            if self.preloaded is not None:
                await self.preloaded.close()
            await self.fleet.close()
            await self.tournaments.close()
            await self.lobby.close()
            await self.tables.close()
            await self.watch_reports.close()
            await self.moderation.close()
            await self.renames_here.close()
            await self.store.leave()
            await self.store.close()
            raise ServeError(f"cannot listen on {where}: {why}{hint}") from None
        self.health.listening = True

    def _banned(self, bans: list[Sanction]) -> None:
        """The bans in force as just read: the sessions and table games they hold
        against end (sanction_door.py)."""
        forfeit_banned(self.tables, self.moderation, bans)
        end_banned(self.connections, self.moderation, bans)

    def _assemble(self, store: Store) -> None:
        """The parts that need the store, each given its collaborators."""
        config = self.config
        self.accounts = Accounts(config, self.note, store)
        self.penalties = PasswordGuesses(config.auth_failure_delay, self.note, store)
        self.browser_passes = BrowserPasses(config.data_dir, self.note, self.accounts.holds)
        self.renames_here = RenamesHere(
            lambda: self.connections, self.sessions, config.players_dir, self.note
        )
        self.moderation = Moderation(
            store,
            dict(config.moderators),
            log=self.note,
            present=lambda: present_names(self),
            banned=self._banned,
            renamed=self.renames_here.read,
        )
        self.fleet = Fleet(store, people=lambda: presence(self), log=self.note)
        self.playbans = Playbans(store, self.note)
        # A report the watch files goes into the moderators' queue (watch_reports.py).
        self.watch_reports = WatchReports(store, lambda: self.tables.tables.values(), self.note)
        self.boosts = BoostWatch(self.note, self.watch_reports.file)
        self.tables = Tables(
            self.note,
            store,
            self.fleet,
            watches=(self.playbans, self.boosts),  # (told each game's end)
            hold=config.hold_seat,
            adjourn=config.on_drop == "adjourn",
            tables_per_player=config.tables_per_player,
            spectators_per_table=config.spectators_per_table,
            charged=self.note,
            people_per_address=config.people_per_address(),
            moderation=self.moderation,
        )
        self.pairing = PairingQueue(
            self.tables, store, self.fleet, self.note, apart=self.moderation.apart
        )
        schedules = [ArenaSchedule.parse(text) for text in config.arenas]
        self.tournaments = TournamentDirector(store, self.tables, self.note, schedules=schedules)
        self.lobby = LobbyHost(
            self.tables,
            people=lambda: who_is_here(self),
            log=self.note,
            store=store,
            fleet=self.fleet,
            playbans=self.playbans,
            tournaments=self.tournaments,
            seat_giver=self.sessions.give_seat_over,
            own_giver=self.sessions.give_own_game_over,
            charged=self.note,
            per_minute=config.invitations_per_minute,
            people_per_address=config.people_per_address(),
        )

    async def _open_store(self) -> Store:
        """The archive's SQLite, or the fleet's PostgreSQL with --database."""
        config = self.config
        if config.database is None:
            archive = Archive(config.archive_path, config.players_dir)
            time_calls(archive, "sqlite")
            return archive
        from ..ledger.fleet_seal import secret_from_file
        from ..ledger.postgres import PostgresStore  # (psycopg loads only for a fleet)

        secret = secret_from_file(config.fleet_secret) if config.fleet_secret else None
        store = PostgresStore(
            config.database, config.players_dir, secret=secret, dropped=self._message_dropped
        )
        await store.open()
        time_calls(store, "postgresql")
        return store

    def _message_dropped(self, why: str, node: str | None, size: int, untold: int) -> None:
        """A message on the fleet's channels that no node of it sealed, or sealed
        long ago, or had already, or that carries no message known here
        (ledger/fleet_seal.py): one line, charged to nobody."""
        self.events.write(
            "fleet-message-dropped", why=why, node=node, bytes=size, more=untold or None
        )

    @property
    def keeping(self) -> str:
        """Where games and ratings are kept, in a line for the banner."""
        store = self.store
        if isinstance(store, Archive):
            return f"archive {self.config.archive_path} (SQLite: this node alone)"
        return f"archive in {store.where}, shared with the fleet (this node: {store.node})"

    async def _start_preloaded(self) -> None:
        """Start the preloaded parent games fork from, or say why games start afresh."""
        config = self.config
        shared = config.games_per_process > 1
        if not config.preload:
            if shared:
                self.note("--games-per-process needs the preloaded parent: a process a game")
            return
        if not fork_available():
            self.note("this platform cannot fork: every game starts as a fresh Python (slower)")
            return
        if not PreloadedParent.runs(config.game_command):
            self.note("the game command is not this Python: every game starts as a new process")
            self.game_start = "as a new process each"
            return
        parent = PreloadedParent(
            log=self.note,
            launcher=config.launcher_module,
            games_per_process=config.games_per_process,
            hosted_game=config.hosted_game,
        )
        try:
            await parent.start()
        except ServeError as error:
            self.note(f"{error}; every game starts as a fresh Python (slower)")
            return
        self.preloaded = parent
        self.game_start = (
            f"forked from a preloaded parent (pid {parent.pid}, "
            f"preloaded in {parent.preload_seconds:.1f} s)"
        )
        if shared:
            try:
                await parent.start_hosting()
            except ServeError as error:
                self.note(str(error))
            else:
                self.game_start += f", up to {config.games_per_process} games a process"

    async def spawner(self, argv: list[str]) -> Spawn | None:
        """How to start `argv`: by the preloaded parent, or None for a new process."""
        parent = self.preloaded
        if parent is None or not parent.runs(argv) or not await parent.usable():
            return None
        return parent.spawn

    @property
    def addresses(self) -> list[tuple[str, int]]:
        assert self._acceptor is not None
        return [(address[0], address[1]) for address in self._acceptor.get_addresses()]

    @property
    def port(self) -> int:
        return self.addresses[0][1]

    @property
    def loopback_only(self) -> bool:
        return all(ipaddress.ip_address(host).is_loopback for host, _ in self.addresses)

    @property
    def fingerprint(self) -> str:
        assert self.host_key is not None
        return self.host_key.get_fingerprint()

    # Counting.

    def admit(self, connection: Client) -> bool:
        """Count a new connection in at the door; False (not counted) if there is no room."""
        if self.door.under_pressure:
            self._clear_the_door()
        if not self.door.arrive(connection.address):
            return False
        self.connections.add(connection)
        return True

    def _clear_the_door(self) -> None:
        """Under pressure: let go of the SSH connections that have waited at the
        door longer than PRESSURE_GRACE without asking to log in."""
        now = time.monotonic()
        for connection in list(self.connections):
            idle = connection.user is None and now - connection.started > PRESSURE_GRACE
            if idle and isinstance(connection, PlayerConnection):
                connection.end_reason = "idle at the door while it was crowded"
                connection.timed_out_at_door()
                connection.abort()

    def forget(self, connection: Client) -> None:
        if connection in self.connections:
            self.connections.discard(connection)
            guest = connection.guest
            self.door.leave(connection.address, inside=connection.authenticated, guest=guest)
            self.log_disconnect(connection)
            if connection.authenticated and is_guest(connection.user or ""):
                self._guest_gone(connection)

    def _guest_gone(self, connection: Client) -> None:
        """A guest has gone: its folder goes too once its game has, unless it left a
        game adjourned (nobody can log in as it again: guests.py)."""
        session = connection.session
        if session is not None and session.task is not None and not session.task.done():
            session.task.add_done_callback(lambda _: self._guest_gone(connection))
            return
        name = connection.user or ""
        if not self.tables.adjourned_for(name) and remove_folder(self.config.players_dir, name):
            self.note(f"guest {name} left: its folder is removed", connection.address)

    @property
    def places_taken(self) -> int:
        return self.places.taken

    def take_place(self, address: str, *, guest: bool) -> str | None:
        """A place for a session from `address`; why not (a sentence) if none is left for it."""
        return self.places.take(address, guest=guest)

    def leave_place(self, address: str, *, guest: bool) -> None:
        self.places.leave(address, guest=guest)

    # The log (event_log.py): one event when a player is let in, one when any connection ends.

    def note(self, text: str, address: str = "") -> None:
        """A line for the operator about the server itself (a key file gone bad...);
        charged to `address` if a request from it caused it (its drops)."""
        self.events.write("note", address=address or None, text=text)

    def say(self, line: str) -> None:
        """The server's own line about its stopping, on the log: as it is, or in a
        JSON log as a `note` event's text (every line of that log is an object)."""
        if self.config.log_format == "json":
            self.note(line)
        else:
            self._log(line)

    def log_connect(self, connection: Client) -> None:
        TALLY.count(LOGINS, connection.way_in, "guest" if connection.guest else "keyed")
        self.events.write(
            "connect", address=connection.address, peer=connection.peer, user=connection.user
        )

    def log_disconnect(self, connection: Client) -> None:
        self.events.write(
            "disconnect",
            address=connection.address,
            peer=connection.peer,
            user=connection.user,
            after=format_duration(time.monotonic() - connection.started),
            why=connection.end_reason or "closed",
        )

    # Stopping.

    async def drain(self, seconds: float) -> None:
        """Stop taking connections, tell everyone at a table, and return once every
        connection and game has gone or `seconds` have passed; close() then adjourns
        the games still in play (they resume when the server is back)."""
        self.health.drain(f"it stops within {format_duration(seconds)}, for a restart")
        if self._acceptor is not None:
            self._acceptor.close()
        self.events.write(
            "draining", seconds=round(seconds), connections=len(self.connections) or None
        )
        # In a fleet, the other nodes have its tables at once (table_handover.py); what
        # is left (none to hand to) is taken over once it has gone (hall/fleet_port.py).
        handed = await hand_tables_over(self.tables, self.fleet, self.store, seconds, self.note)
        where = "when it is back" if self.store.alone else "on another node of it"
        self.tables.tell_everyone(
            f"The server is going down for a restart: games still in play in "
            f"{format_duration(seconds)} are adjourned, to resume {where}."
        )
        if handed:
            self.events.write("handed-over", tables=handed)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + seconds
        while (self.connections or self.sessions.games) and loop.time() < deadline:
            await asyncio.sleep(min(DRAIN_LOOK, max(0.0, deadline - loop.time())))

    async def close(self) -> None:
        """Stop listening, hang up every game (killing stragglers after the grace), reap, close."""
        self.health.stopping = True
        if self._acceptor is not None:
            self._acceptor.close()
        connections = list(self.connections)
        # Before any game is hung up: a game in progress waits for the server to be back,
        # and one relayed from here to another node's table too (not a drop there).
        self.tables.adjourn_all("The server is stopping")
        self.fleet.stopping()
        for connection in connections:
            connection.end("server shutting down", "the server is shutting down; sorry!")
        # Every game this server started goes, its player still here or not: hung up,
        # and killed after the grace if it does not go (hang_up), then reaped.
        tasks = set(
            self.sessions.end_all("server shutting down", "the server is shutting down; sorry!")
        )
        tasks |= {c.session.task for c in connections if c.session and c.session.task}
        if tasks:
            await asyncio.wait(tasks)
        # Clients told their game is over close by themselves; a disconnect sent at once
        # could overtake the goodbye on their screen (OpenSSH exits before printing it).
        closing = [asyncio.ensure_future(c.wait_closed()) for c in connections]
        if closing:
            await asyncio.wait(closing, timeout=CLIENT_CLOSE_WAIT)
        for connection in connections:
            connection.close()
        if closing:
            await asyncio.wait(closing)
        if self._acceptor is not None:
            await self._acceptor.wait_closed()
        if self.preloaded is not None:
            await self.preloaded.close()
        if hasattr(self, "fleet"):  # (started: put together)
            await self.fleet.close()
            await self.tournaments.close()
            await self.lobby.close()
            await self.pairing.close()
            await self.tables.close()
            await self.watch_reports.close()
            await self.moderation.close()
            await self.renames_here.close()
        if hasattr(self, "store"):  # (opened)
            await self.store.leave()
            await self.store.close()


def _make_private(config: ServeConfig) -> None:
    """The data directory, the players' folders and the crash reports: the server
    user's alone (folders 0700, reports 0600), whatever modes they were found
    with. ServeError if not."""
    players = config.players_dir
    try:
        config.data_dir.mkdir(mode=0o700, parents=True, exist_ok=True)
        players.mkdir(mode=0o700, exist_ok=True)
        folders = [config.data_dir, players, *(p for p in players.iterdir() if p.is_dir())]
        for folder in folders:
            if not folder.is_symlink():
                folder.chmod(0o700)
        keep_private(config.data_dir / "crash-reports")
    except OSError as error:
        raise ServeError(f"cannot make {error.filename} private: {reason(error)}") from None
