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

from .serve_options import PASSWORD_VARIABLE, add_arguments

__all__ = ["add_arguments", "run"]


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
