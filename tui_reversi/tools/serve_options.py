"""`tui-reversi serve`'s options: their types (durations, ports, an operator's
address, START:RATE:FULL) and the parser, each bad value one sentence.

Parsing stays light: what a value is checked against loads only when the
option is given.
"""

from __future__ import annotations

import argparse
import re
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
