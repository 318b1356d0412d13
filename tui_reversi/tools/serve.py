"""`tui-reversi serve`: host the game over SSH (`ssh -p 2222 host` lands in it).

Parsing stays light; asyncssh and the server package load only in `run`.
"""

from __future__ import annotations

import argparse
import ipaddress
import os
import re
import shlex
import sys
from pathlib import Path

PASSWORD_VARIABLE = "TUI_REVERSI_SERVE_PASSWORD"

_DURATION = re.compile(r"(\d+(?:\.\d+)?)\s*(s|m|min|h)?")
_UNIT = {None: 1, "s": 1, "m": 60, "min": 60, "h": 3600}


class _Refuse(argparse.Action):
    """An option that exists only to say why it does not."""

    def __call__(self, parser, namespace, values, option_string=None):
        parser.error(
            "a password on the command line shows in `ps`; use --password-file FILE "
            f"or the {PASSWORD_VARIABLE} environment variable"
        )


def duration(text: str) -> float:
    """`900`, `90s`, `15m`, `4h` -> seconds; 0 switches a limit off."""
    match = _DURATION.fullmatch(text.strip().lower())
    if not match:
        raise argparse.ArgumentTypeError(f"{text!r} is not a duration (say 90s, 15m or 4h)")
    return float(match.group(1)) * _UNIT[match.group(2)]


def positive(text: str) -> int:
    try:
        number = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if number < 1:
        raise argparse.ArgumentTypeError(f"{text!r} must be at least 1")
    return number


def games_per_process(text: str) -> int:
    """`--games-per-process K`: 1 to MAX_GAMES_PER_PROCESS."""
    from ..server.config import MAX_GAMES_PER_PROCESS

    try:
        number = int(text)
    except ValueError:
        number = 0
    if not 1 <= number <= MAX_GAMES_PER_PROCESS:
        raise argparse.ArgumentTypeError(
            f"{text[:40]!r} is not a number of games a process runs (1 to {MAX_GAMES_PER_PROCESS})"
        )
    return number


def startups(text: str) -> tuple[int, int, int]:
    """`16:30:64` -> (16, 30, 64): OpenSSH's MaxStartups START:RATE:FULL."""
    parts = text.split(":")
    try:
        start, rate, full = (int(part) for part in parts)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"{text[:40]!r} is not START:RATE:FULL (say 16:30:64)"
        ) from None
    if not (1 <= start <= full and 0 <= rate <= 100):
        raise argparse.ArgumentTypeError(
            f"{text[:40]!r}: START must be at least 1 and at most FULL, RATE a percentage"
        )
    return start, rate, full


def arena_schedule(text: str) -> str:
    """An --arena schedule, checked (hall/arena_schedule.py); as written."""
    from ..server.hall.arena_schedule import ArenaSchedule, ScheduleRefused

    try:
        return ArenaSchedule.parse(text).text
    except ScheduleRefused as refusal:
        raise argparse.ArgumentTypeError(str(refusal)) from None


def port_number(text: str) -> int:
    try:
        number = int(text)
    except ValueError:
        number = -1
    if not 0 <= number <= 65535:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port (0-65535; 0 picks a free one)")
    return number


def operator_address(text: str) -> tuple[str, int]:
    """`9100` -> ('127.0.0.1', 9100); `0.0.0.0:9100`, `[::1]:9100`, `localhost:0` as said."""
    host, colon, port = text.strip().rpartition(":")
    if not colon:
        return "127.0.0.1", port_number(port)
    bracketed = host.startswith("[") and host.endswith("]")
    host = host[1:-1] if bracketed else host
    if not host or (":" in host) != bracketed or not _OPERATOR_HOST.fullmatch(host):
        raise argparse.ArgumentTypeError(
            f"{text[:60]!r} is not PORT or ADDRESS:PORT (say 9100, 0.0.0.0:9100 or [::1]:9100)"
        )
    return host, port_number(port)


_OPERATOR_HOST = re.compile(r"[A-Za-z0-9.:-]{1,253}")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    # `--password` must never be read as an abbreviation of `--password-file`.
    parser.allow_abbrev = False
    parser.add_argument(
        "--host",
        default="127.0.0.1",
        help="address to listen on (default 127.0.0.1, this machine only; 0.0.0.0 for everyone)",
    )
    parser.add_argument("--port", type=port_number, default=2222, help="port (default 2222)")
    parser.add_argument(
        "--data-dir",
        type=Path,
        metavar="DIR",
        help="the server's directory: host key and one directory per player "
        "(default: the user data directory, under server/)",
    )
    parser.add_argument(
        "--host-key",
        type=Path,
        metavar="PATH",
        help="ed25519 host key, made with mode 0600 if missing (default DIR/ssh_host_ed25519_key)",
    )
    parser.add_argument(
        "--auth",
        choices=("none", "password", "keys"),
        default="none",
        help="none: anyone may play (default); password: one shared password; "
        "keys: public keys listed in an authorized_keys file",
    )
    parser.add_argument(
        "--password-file",
        type=Path,
        metavar="FILE",
        help=f"with --auth password: the password is this file's first line "
        f"(or set {PASSWORD_VARIABLE})",
    )
    parser.add_argument("--password", nargs="?", action=_Refuse, help=argparse.SUPPRESS)
    parser.add_argument(
        "--authorized-keys",
        type=Path,
        metavar="FILE",
        help="with --auth keys: the keys allowed in (default ~/.ssh/authorized_keys)",
    )
    parser.add_argument(
        "--max-sessions", type=positive, default=20, metavar="N", help="games at once (default 20)"
    )
    parser.add_argument(
        "--max-per-address",
        type=positive,
        default=5,
        metavar="N",
        help="connections at once from one address (default 5)",
    )
    parser.add_argument(
        "--max-startups",
        type=startups,
        metavar="START:RATE:FULL",
        help="connections not logged in yet, as OpenSSH's MaxStartups: past START waiting, "
        "a new one is dropped with RATE%% chance, rising to all at FULL "
        "(default 16:30:64, or a quarter, 30 and half of the connections allowed if more)",
    )
    parser.add_argument(
        "--idle-timeout",
        type=duration,
        default=900.0,
        metavar="TIME",
        help="end a game after this long without a key press (default 15m; 0 = never)",
    )
    parser.add_argument(
        "--session-limit",
        type=duration,
        default=4 * 3600.0,
        metavar="TIME",
        help="end any game after this long (default 4h; 0 = never)",
    )
    parser.add_argument(
        "--hold-seat",
        type=duration,
        default=120.0,
        metavar="TIME",
        help="at a table, how long a dropped player's seat waits for them to connect again "
        "before the game is forfeited or adjourned (default 2m; 0 = it ends at once)",
    )
    parser.add_argument(
        "--on-drop",
        choices=("forfeit", "adjourn"),
        default="forfeit",
        help="when a held seat's time runs out: forfeit (the one who stayed wins, the "
        "default) or adjourn (the game waits for both to join it again)",
    )
    parser.add_argument(
        "--tables-per-player",
        type=positive,
        metavar="N",
        help="tables one player may be at at once, open or playing (default 3)",
    )
    parser.add_argument(
        "--spectators-per-table",
        type=positive,
        metavar="N",
        help="people watching one table at once (default 8)",
    )
    parser.add_argument(
        "--invitations-per-minute",
        type=positive,
        default=5,
        metavar="N",
        help="invitations one player may send from the lobby in a minute (default 5)",
    )
    parser.add_argument(
        "--moderators",
        metavar="NAMES|FILE",
        help="the names that moderate this server, proved by their keys: alice,bob:admin "
        "(':admin' also voids ratings and names moderators), or a FILE of lines NAME [admin]",
    )
    parser.add_argument(
        "--no-preload",
        dest="preload",
        action="store_false",
        help="start a fresh Python for every game instead of forking games from a "
        "parent that has loaded the game already (slower to start, more memory)",
    )
    parser.add_argument(
        "--games-per-process",
        type=games_per_process,
        default=1,
        metavar="K",
        help="run up to K players' games in one process, each in a thread (default 1: a "
        "process each); less memory a player, but a crash of that process ends all K games",
    )
    parser.add_argument(
        "--database",
        metavar="URL",
        help="a fleet: keep accounts, ratings, the archive and the tables in this PostgreSQL "
        "(postgresql://USER@HOST/DB; the password from ~/.pgpass or PGPASSWORD), shared "
        "with every other node on it (default: SQLite in the data directory, this node alone)",
    )
    parser.add_argument(
        "--public-address",
        metavar="HOST:PORT",
        help="where players reach this server, for the commands its hints show (a load "
        "balancer's in a fleet; default: the address each player's connection reached)",
    )
    parser.add_argument(
        "--fleet-secret",
        type=Path,
        metavar="FILE",
        help="with --database: seal the messages between nodes with the secret in FILE "
        "(at least 32 bytes, readable by this user only; the same on every node; default: "
        "the one --migrate keeps in the database, readable by its owner only)",
    )
    parser.add_argument(
        "--migrate",
        action="store_true",
        help="with --database: create or upgrade the database's schema, then exit",
    )
    parser.add_argument(
        "--web-port",
        type=port_number,
        metavar="P",
        help="also serve the game as a browser page on this port (same --host; a "
        "visitor is a guest, as ssh HOST without a key is; 0 picks a free one)",
    )
    parser.add_argument(
        "--web-behind-proxy",
        action="store_true",
        help="the page is reached through a reverse proxy on this machine: a visitor's "
        "address is the last one X-Forwarded-For gives (see docs/hosting.md)",
    )
    parser.add_argument(
        "--metrics-port",
        type=operator_address,
        metavar="[ADDRESS:]P",
        help="serve Prometheus metrics (/metrics) and health checks (/livez, /readyz) on "
        "this port, on 127.0.0.1 unless an address is given (0.0.0.0:9100); 0 picks a free one",
    )
    parser.add_argument(
        "--log-format",
        choices=("text", "json"),
        default="text",
        help="the log's lines: text (time event key=value ..., the default) or json "
        "(one JSON object a line, the same fields)",
    )
    parser.add_argument(
        "--import-archive",
        type=Path,
        metavar="FILE",
        help="with --database: copy a single server's archive (its archive.sqlite3: accounts, "
        "keys, ratings, games) into the fleet's empty database, print the counts, then exit",
    )
    parser.add_argument(
        "--drain-seconds",
        type=duration,
        default=60.0,
        metavar="TIME",
        help="on SIGTERM (or serve --drain), how long the server waits for its players to "
        "finish and go before it adjourns the games left and stops (default 60s)",
    )
    parser.add_argument(
        "--drain",
        action="store_true",
        help="drain the server running with the same --data-dir (SIGTERM to the pid in "
        "DIR/serve.pid), wait until it has stopped, then exit",
    )
    parser.add_argument(
        "--backup",
        type=Path,
        metavar="FILE",
        help="copy the archive of the single server using the same --data-dir to FILE, "
        "while it runs (SQLite's online backup: consistent, nobody stopped), then exit",
    )
    parser.add_argument(
        "--arena",
        type=arena_schedule,
        action="append",
        default=[],
        metavar="SCHEDULE",
        help='a recurring arena, e.g. "hourly 30m 3+2" (hourly on the hour, or daily at '
        "midnight UTC; its minutes and clock; then anti or reversi, casual, if wanted); "
        "as many as wanted",
    )
    # For tests and benchmarks: what each session runs instead of the game.
    parser.add_argument("--game-command", metavar="COMMAND", help=argparse.SUPPRESS)
    # For tests: the page's patience with a page that takes nothing, and with a
    # connection that sends no request (seconds).
    parser.add_argument("--web-unwritable-limit", type=duration, help=argparse.SUPPRESS)
    parser.add_argument("--web-header-timeout", type=duration, help=argparse.SUPPRESS)


def run(args: argparse.Namespace) -> int:
    from ..server.config import ServeError

    try:
        config = _config(args)
        if args.migrate:
            return _migrate(config.database)
        if args.import_archive is not None:
            return _import(config, args.import_archive)
        if args.backup is not None:
            return _backup(config, args.backup)
        if args.drain:
            from .serve_drain import drain_running

            return drain_running(config.data_dir, args.drain_seconds)
        import asyncio

        return asyncio.run(_serve(config, args))
    except ServeError as error:
        print(f"tui-reversi serve: {error}", file=sys.stderr)
        return 2


def _config(args: argparse.Namespace):
    from ..server.config import ServeConfig, ServeError

    if args.password_file is not None and args.auth != "password":
        raise ServeError("--password-file is only used with --auth password")
    if args.migrate and not args.database:
        raise ServeError("--migrate is only used with --database URL")
    if args.import_archive is not None and not args.database:
        raise ServeError("--import-archive is only used with --database URL")
    if args.import_archive is not None and args.migrate:
        raise ServeError("--import-archive and --migrate are run one at a time (--migrate first)")
    if args.backup is not None and args.drain:
        raise ServeError("--backup and --drain are run one at a time")
    if args.backup is not None and args.database:
        raise ServeError(
            "--backup copies a single server's archive; back a fleet's PostgreSQL up "
            "with pg_dump -Fc (docs/hosting.md, Backups)"
        )
    if args.database and not args.database.startswith(("postgresql://", "postgres://")):
        raise ServeError(f"--database takes a postgresql:// URL, not {args.database[:40]!r}")
    if args.fleet_secret is not None and not args.database:
        raise ServeError("--fleet-secret is only used with --database URL")
    if args.authorized_keys is not None and args.auth != "keys":
        raise ServeError("--authorized-keys is only used with --auth keys")
    public_address = None
    if args.public_address is not None:
        from ..net.ssh_command import parse_address

        try:
            public_address = parse_address(args.public_address)
        except ValueError as error:
            raise ServeError(f"--public-address: {error}") from None
    password = _password(args) if args.auth == "password" else None
    authorized_keys = None
    if args.auth == "keys":
        authorized_keys = args.authorized_keys or Path.home() / ".ssh" / "authorized_keys"
    data_dir = args.data_dir
    if data_dir is None:
        from platformdirs import user_data_dir

        data_dir = Path(user_data_dir("tui-reversi", appauthor=False)) / "server"
    game_command = tuple(shlex.split(args.game_command)) if args.game_command else ()
    return ServeConfig(
        data_dir=data_dir.expanduser().absolute(),
        host=args.host,
        port=args.port,
        host_key=args.host_key.expanduser().absolute() if args.host_key else None,
        auth=args.auth,
        password=password,
        authorized_keys=authorized_keys,
        max_sessions=args.max_sessions,
        max_per_address=args.max_per_address,
        max_startups=args.max_startups,
        idle_timeout=args.idle_timeout,
        session_limit=args.session_limit,
        hold_seat=args.hold_seat,
        on_drop=args.on_drop,
        tables_per_player=args.tables_per_player or ServeConfig.tables_per_player,
        spectators_per_table=args.spectators_per_table or ServeConfig.spectators_per_table,
        invitations_per_minute=args.invitations_per_minute,
        preload=args.preload,
        games_per_process=args.games_per_process,
        database=args.database,
        fleet_secret=args.fleet_secret.expanduser().absolute() if args.fleet_secret else None,
        public_address=public_address,
        game_command=game_command or ServeConfig.game_command,
        page_unwritable=args.web_unwritable_limit or ServeConfig.page_unwritable,
        page_header_timeout=args.web_header_timeout or ServeConfig.page_header_timeout,
        log_format=args.log_format,
        moderators=_moderators(args.moderators),
        arenas=tuple(args.arena),
    )


def _moderators(given: str | None) -> tuple[tuple[str, str], ...]:
    """--moderators as (name, role) pairs: from 'alice,bob:admin' or a file of lines
    'NAME [admin|moderator]' (# starts a comment). ServeError for a bad name or role."""
    from ..core.errors import reason
    from ..server.config import ServeError

    if not given:
        return ()
    path = Path(given).expanduser()
    if "/" in given or path.is_file():
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as error:
            why = reason(error) if isinstance(error, OSError) else "not UTF-8 text"
            raise ServeError(f"cannot read the moderators file {given}: {why}") from None
        entries = [line.split("#")[0].split() for line in text.splitlines()]
        pairs = [
            (words[0], words[1] if len(words) > 1 else "moderator") for words in entries if words
        ]
    else:
        pairs = [
            (name, role or "moderator")
            for name, _, role in (item.strip().partition(":") for item in given.split(","))
        ]
    for name, role in pairs:
        if role not in ("moderator", "admin"):
            raise ServeError(f"--moderators: {role[:20]!r} is not a role (moderator or admin)")
        if not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9._-]{0,31}", name):
            raise ServeError(f"--moderators: {name[:40]!r} is not a player's name")
    return tuple(pairs)


def _migrate(url: str) -> int:
    """`serve --database URL --migrate`: the schema brought up to date, said in a line."""
    from ..server.ledger.node_link import where
    from ..server.ledger.postgres import migrate_database

    found, now = migrate_database(url)
    if found == now:
        said = f"schema at version {now} already; nothing to do"
    elif found == 0:
        said = f"schema created at version {now}"
    else:
        said = f"schema upgraded from version {found} to {now}"
    print(f"tui-reversi serve: {where(url)}: {said}", flush=True)
    return 0


def _import(config, archive: Path) -> int:
    """`serve --database URL --import-archive FILE`: the copy made, checked by counts."""
    from ..server.ledger.archive_import import import_archive
    from ..server.ledger.node_link import where

    found, now = import_archive(archive.expanduser(), config.database, config.players_dir)
    print(f"tui-reversi serve: {archive} held {found}", flush=True)
    print(f"tui-reversi serve: {where(config.database)} holds {now} now: the same", flush=True)
    return 0


def _backup(config, target: Path) -> int:
    """`serve --backup FILE`: the archive copied while its server runs, said in a line."""
    from ..server.ledger.archive_backup import back_up

    made = back_up(config.archive_path, target.expanduser().absolute())
    print(f"tui-reversi serve: {made}", flush=True)
    return 0


def _password(args: argparse.Namespace) -> str:
    from ..core.errors import reason
    from ..server.config import ServeError

    if args.password_file is not None:
        try:
            lines = args.password_file.read_text(encoding="utf-8").splitlines()
        except UnicodeDecodeError:
            raise ServeError(
                f"cannot read the password file {args.password_file}: not UTF-8 text"
            ) from None
        except OSError as error:
            raise ServeError(
                f"cannot read the password file {args.password_file}: {reason(error)}"
            ) from None
        password = lines[0] if lines else ""
        where = f"the first line of {args.password_file}"
    else:
        password = os.environ.get(PASSWORD_VARIABLE, "")
        where = PASSWORD_VARIABLE
    if not password:
        if args.password_file is None:
            raise ServeError(f"--auth password needs --password-file FILE or {PASSWORD_VARIABLE}")
        raise ServeError(f"{where} is empty; the password cannot be empty")
    return password


async def _serve(config, args: argparse.Namespace) -> int:
    import asyncio
    import signal

    from ..server.config import format_duration
    from ..server.edge.arcade import Arcade
    from ..server.edge.service_manager import ServiceManager
    from .serve_drain import PidFile, until_either

    web_port, behind_proxy = args.web_port, args.web_behind_proxy
    drain_seconds: float = args.drain_seconds

    # Handlers first: a stop request that comes with the banner is not lost.
    # A first SIGTERM drains (an operator's restart); ctrl+c, SIGHUP or a second
    # signal stop at once.
    stop = asyncio.Event()
    drain = asyncio.Event()
    stopped_by: list[int] = []
    loop = asyncio.get_running_loop()

    def stop_on(number: int) -> None:
        stopped_by.append(number)
        if stopped_by == [signal.SIGTERM]:
            drain.set()
        else:
            stop.set()

    for number in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        loop.add_signal_handler(number, stop_on, number)
    arcade = Arcade(config)
    # The operator's port first: its /readyz says "starting" until the arcade listens.
    operator = await _serve_operator(arcade, args.metrics_port)
    page = None
    try:
        await arcade.start()
        if web_port is not None:
            try:
                page = await _serve_page(arcade, web_port, behind_proxy)
            except BaseException:
                await arcade.close()
                raise
    except BaseException:
        if operator is not None:
            await operator.close()
        raise
    _announce(arcade)
    if page is not None:
        print(
            f"tui-reversi serve: the page at {page.address} (guests play in a browser)", flush=True
        )
    if operator is not None:
        host, port = operator.address
        where = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
        print(
            f"tui-reversi serve: metrics at http://{where}/metrics, health at /livez and /readyz",
            flush=True,
        )
    pid_file = PidFile(config.data_dir)
    pid_file.write()
    manager = ServiceManager.from_environment()
    manager.ready(f"listening on {_addresses(arcade)}")
    try:
        await until_either(stop, drain)
        if not stop.is_set():
            arcade.say(
                f"tui-reversi serve: draining: no one new comes in; the players have "
                f"{format_duration(drain_seconds)} to finish"
            )
            if page is not None:
                await page.stop_listening()
            await until_either(stop, arcade.drain(drain_seconds))
    finally:
        manager.stopping()
        pid_file.remove()
        if stopped_by[:1] == [signal.SIGINT]:
            # A ctrl+c also ends a reader of the log in the same shell
            # (`serve 2>&1 | tee log`): once it has gone, the log says why
            # the server stops on the terminal instead.
            await asyncio.sleep(INTERRUPT_SETTLE)
        arcade.say("tui-reversi serve: stopping; hanging up every game")
        if page is not None:
            await page.stop_listening()  # its visitors are hung up with everyone else's
        await arcade.close()
        if page is not None:
            await page.close()
        if operator is not None:
            await operator.close()
    arcade.say("tui-reversi serve: stopped")
    return 0


async def _serve_operator(arcade, address: tuple[str, int] | None):
    """The operator's port (metrics and health checks), if asked for: prometheus_client
    and the metrics load only then."""
    if address is None:
        return None
    from ..server.edge.operator_port import start_operator_port

    return await start_operator_port(arcade, *address)


async def _serve_page(arcade, port: int, behind_proxy: bool):
    """The browser page beside the SSH port: each visitor is one more of the hall's
    terminals, at the edge's door (server/edge/browser.py)."""
    from ..core import ReversiError
    from ..screens.too_small import MIN_HEIGHT, MIN_WIDTH
    from ..server.config import ServeError
    from ..server.edge.public_page import page_config
    from ..web import page_address
    from ..web.page import start_page

    config = page_config(arcade, least_size=(MIN_WIDTH, MIN_HEIGHT), forwarded=behind_proxy)
    try:
        page = await start_page(config, arcade.config.host or "0.0.0.0", port)
    except ReversiError as error:
        raise ServeError(f"the page: {error}") from None
    arcade.page_address = lambda host: page_address(host, page.port, behind_proxy=behind_proxy)
    return page


# Seconds a ctrl+c gives the other programs it ends before the server says it stops.
INTERRUPT_SETTLE = 0.1


def _addresses(arcade) -> str:
    """Where the server listens, as `host:port, [v6]:port`."""
    return ", ".join(f"[{h}]:{p}" if ":" in h else f"{h}:{p}" for h, p in arcade.addresses)


def _announce(arcade) -> None:
    config = arcade.config
    made = "created" if arcade.host_key_created else "loaded"
    where = _addresses(arcade)
    lines = [f"host key {arcade.fingerprint} (ed25519, {made} {config.host_key_path})"]
    if arcade.loopback_only:
        lines.append(f"listening on {where}: this machine only (--host 0.0.0.0 lets others in)")
    else:
        lines.append(f"LISTENING ON {where}: open to every machine that can reach this one")
        if config.auth == "none":
            lines.append("auth none: anyone who can reach the port can play")
    lines.append(_play_with(config, arcade))
    lines.append(f"games start {arcade.game_start}")
    lines.append(arcade.keeping)
    lines.append(
        f"auth {config.auth}; at most {config.max_sessions} games, "
        f"{config.max_per_address} connections per address; players' files in {config.players_dir}"
    )
    for line in lines:
        print(f"tui-reversi serve: {line}", flush=True)


def _play_with(config, arcade) -> str:
    """'play with: ssh -p 2222 games.example.org', and where the players' hints point."""
    from ..net.ssh_command import ssh_command

    if config.public_address is not None:
        command = ssh_command(*config.public_address, terminal=False)
        return f"play with: {command} (the address players' hints name)"
    hosts = [host for host, _ in arcade.addresses]
    if arcade.loopback_only:
        return f"play with: {ssh_command('localhost', arcade.port, terminal=False)}"
    if not any(ipaddress.ip_address(host).is_unspecified for host in hosts):
        return f"play with: {ssh_command(hosts[0], arcade.port, terminal=False)}"
    behind = " or a balancer's" if config.database else ""
    return (
        f"play with: {ssh_command('THIS-HOST', arcade.port, terminal=False)}; players' hints "
        f"name the address each one reached (--public-address HOST:PORT names yours{behind})"
    )
