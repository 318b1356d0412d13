"""What the operator chose for `tui-reversi serve`, and the rules derived from it.

Nothing here imports asyncssh, so the command line can check its arguments
(and the tests can check these rules) without it.
"""

from __future__ import annotations

import hashlib
import re
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from ..core import ReversiError
from ..storage.paths import FILES_ROOT_VARIABLE

# At the tables: how many one player may be at (open or playing; adjourned games
# aside), and how many people may watch one.
TABLES_PER_PLAYER = 3
SPECTATORS_PER_TABLE = 8

# Connections not authenticated yet, at the least: per address, and in all.
UNAUTHENTICATED_PER_ADDRESS = 3
UNAUTHENTICATED = 64

# Guests together hold at most this share of the places, and the guests of one
# address this share of what one address may have: the rest is for keys' players.
GUEST_SHARE = 3 / 4

# Admission at the door under pressure, as OpenSSH's MaxStartups START:RATE:FULL:
# past START connections waiting, a new one is dropped with RATE percent chance,
# rising to all of them at FULL (the full mark by default: max_unauthenticated).
STARTUPS_RATE = 30

# Client-sent variables a game may use; everything else a client sends is dropped.
CLIENT_VARIABLES = ("COLORTERM", "NO_COLOR", "TERM_PROGRAM", "TERM_PROGRAM_VERSION")

DEFAULT_TERM = "xterm-256color"
PATH = "/usr/local/bin:/usr/bin:/bin"

_SAFE_TERM = re.compile(r"[A-Za-z0-9][A-Za-z0-9._+-]{0,63}")
_SAFE_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,31}")
_PRINTABLE = re.compile(r"[^\x00-\x1f\x7f]{0,256}")


class ServeError(ReversiError):
    """A problem the operator can fix (bad flag, unreadable key file): one sentence."""


# `serve --games-per-process K`: past this, one host's crash would cost too many games.
MAX_GAMES_PER_PROCESS = 32


@dataclass(frozen=True)
class ServeConfig:
    """Everything `tui-reversi serve` was told; timeouts of 0 switch that limit off."""

    data_dir: Path
    host: str = "127.0.0.1"
    port: int = 2222
    host_key: Path | None = None
    auth: str = "none"
    password: str | None = field(default=None, repr=False)
    authorized_keys: Path | None = None
    max_sessions: int = 20
    max_per_address: int = 5
    idle_timeout: float = 900.0
    session_limit: float = 4 * 3600.0
    keepalive_interval: float = 15.0
    keepalive_count_max: int = 4
    login_timeout: float = 10.0
    hangup_grace: float = 5.0
    auth_failure_delay: float = 1.0
    # At a table: how long a dropped player's seat waits for them (0: the game ends at once).
    hold_seat: float = 120.0
    # When that time runs out: "forfeit" (the one who stayed wins) or "adjourn".
    on_drop: str = "forfeit"
    tables_per_player: int = TABLES_PER_PLAYER
    spectators_per_table: int = SPECTATORS_PER_TABLE
    # Invitations one player may send from the in-app lobby in a minute.
    invitations_per_minute: int = 5
    game_command: tuple[str, ...] = (sys.executable, "-m", "tui_reversi")
    # Fork games from a parent that has imported the app already (False: a fresh Python each).
    preload: bool = True
    # That parent, run as `python -m MODULE FD`: the game's side, outside this package.
    launcher_module: str = "tui_reversi.launcher"
    # Games a process runs at once, each in a thread (--games-per-process; 1: a process
    # each), and the class each is run with there ("MODULE:NAME" or "FILE.py:NAME").
    games_per_process: int = 1
    hosted_game: str = "tui_reversi.hosted_game:HostedGame"
    # Admission at the door (--max-startups START:RATE:FULL); None: from max_unauthenticated().
    max_startups: tuple[int, int, int] | None = None
    # A fleet's PostgreSQL (postgresql://...); None: the archive's SQLite under data_dir.
    database: str | None = field(default=None, repr=False)
    # The file of the secret a fleet's nodes seal their messages with; None: the database's.
    fleet_secret: Path | None = None
    # Where players reach this server (host, port), for the hints; None: where each one did.
    public_address: tuple[str, int] | None = None
    # The page's port (--web-port): a page that takes nothing of its game's output for
    # this long is let go, and a connection that sends no whole request in this long.
    page_unwritable: float = 30.0
    page_header_timeout: float = 10.0
    # The log's lines: "text" (time event key=value ...) or "json" (an object a line).
    log_format: str = "text"
    # The operator's recurring arenas, as written ("hourly 30m 3+2": hall/arena_schedule.py).
    arenas: tuple[str, ...] = ()
    # The moderators the operator named (--moderators): (name, 'moderator' or 'admin').
    moderators: tuple[tuple[str, str], ...] = ()

    @property
    def host_key_path(self) -> Path:
        return self.host_key or self.data_dir / "ssh_host_ed25519_key"

    @property
    def players_dir(self) -> Path:
        return self.data_dir / "players"

    @property
    def archive_path(self) -> Path:
        """A single server's archive (ledger/archive.py); a fleet's is its PostgreSQL."""
        return self.data_dir / "archive.sqlite3"

    def address_for(self, ssh_connection: str) -> tuple[str, int]:
        """Where a player reaches this server, for the hints they read: --public-address,
        else the address and port their connection reached (SSH_CONNECTION's last two
        words), which behind a balancer or NAT is this node's own."""
        if self.public_address is not None:
            return self.public_address
        words = ssh_connection.split()
        if len(words) != 4 or not words[3].isdigit():
            return self.host, self.port
        return words[2].removeprefix("::ffff:"), int(words[3])  # (an IPv4 client on IPv6)

    def max_unauthenticated_per_address(self) -> int:
        """Connections from one address not authenticated yet: a few, or half of
        what the address may have inside if the operator allows more."""
        return max(UNAUTHENTICATED_PER_ADDRESS, self.max_per_address // 2)

    def max_unauthenticated(self) -> int:
        """Connections not authenticated yet, from everywhere."""
        return max(UNAUTHENTICATED, self.max_connections() // 2)

    def startups(self) -> tuple[int, int, int]:
        """START:RATE:FULL for the door as a whole: the operator's, or a quarter of the
        full mark, 30 %, and max_unauthenticated()."""
        if self.max_startups is not None:
            return self.max_startups
        full = self.max_unauthenticated()
        return max(1, full // 4), STARTUPS_RATE, full

    def startups_per_address(self) -> tuple[int, int, int]:
        """START:RATE:FULL for one address: its last place at the door is a gamble."""
        full = self.max_unauthenticated_per_address()
        return max(1, full - 1), STARTUPS_RATE, full

    def guest_places(self) -> int:
        """Places guests may hold together (at least one, and one fewer than all)."""
        return max(1, min(int(self.max_sessions * GUEST_SHARE), self.max_sessions - 1))

    def guests_per_address(self) -> int:
        """Connections (and places) the guests of one address may hold."""
        return max(1, int(self.max_per_address * GUEST_SHARE))

    def people_per_address(self) -> int:
        """How many people one address stands for in the per-address budgets: one
        at the default --max-per-address, more when the operator allows more (a
        NAT, a load balancer in front of a fleet)."""
        return max(1, self.max_per_address // ServeConfig.max_per_address)

    def max_connections(self) -> int:
        """Authenticated connections at once: room for players plus a few looking at the lobby."""
        return self.max_sessions + max(10, self.max_sessions // 2)


def player_directory_name(user: str) -> str:
    """A directory name for an SSH user name: safe, stable, and distinct per name.

    Plain names (`alice`, `bob.smith`) are kept as they are; anything else is
    reduced to safe characters, marked with a leading `_` (which no plain name
    has) and suffixed with a hash of the full name, so `../x` and `__x` never
    meet in the same directory.
    """
    if _SAFE_NAME.fullmatch(user):
        return user
    slug = re.sub(r"[^A-Za-z0-9_-]", "_", user)[:24]
    digest = hashlib.sha256(user.encode("utf-8", "surrogatepass")).hexdigest()[:16]
    return f"_{slug}-{digest}"


def terminal_type(requested: str | None) -> str:
    """TERM for the child: the client's, if it looks like a terminal name."""
    if requested and _SAFE_TERM.fullmatch(requested):
        return requested
    return DEFAULT_TERM


def player_environment(
    *,
    home: Path,
    user: str,
    term: str | None,
    client_env: Mapping[str, str],
    ssh_connection: str,
) -> dict[str, str]:
    """The child's whole environment: fresh, UTF-8, per-player directories.

    The storage layer finds its files through platformdirs, which honours the
    XDG variables, so each player's saved games and settings live under `home`.
    """
    env = {
        "TERM": terminal_type(term),
        "LANG": "C.UTF-8",
        "PATH": PATH,
        "HOME": str(home),
        "USER": user,
        "LOGNAME": user,
        "XDG_DATA_HOME": str(home / "data"),
        "XDG_CONFIG_HOME": str(home / "config"),
        "XDG_STATE_HOME": str(home / "state"),
        "XDG_CACHE_HOME": str(home / "cache"),
        "SSH_CONNECTION": ssh_connection,
        # Import and export may name files only inside the player's own directory.
        FILES_ROOT_VARIABLE: str(home),
        # `python -m` would otherwise put the player's directory first on sys.path.
        "PYTHONSAFEPATH": "1",
    }
    for name in CLIENT_VARIABLES:
        value = client_env.get(name)
        if value is not None and _PRINTABLE.fullmatch(value):
            env[name] = value
    return env


def player_user_name(user: str) -> str:
    """The name shown to the game as USER: printable, at most 64 characters."""
    cleaned = "".join(ch for ch in user if ch.isprintable())[:64]
    return cleaned or "player"


def format_duration(seconds: float) -> str:
    """`90` -> `1 min 30 s`, `14400` -> `4 h`: for messages and log lines."""
    seconds = round(seconds)
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    parts = [f"{hours} h" if hours else "", f"{minutes} min" if minutes else ""]
    parts.append(f"{secs} s" if secs or not (hours or minutes) else "")
    return " ".join(part for part in parts if part)


def gone_reason(exc: Exception | None) -> str:
    """Why a client's connection ended, for the log: closed, dropped, or what went wrong."""
    if exc is None:
        return "client closed"
    text = str(exc)
    if text.lower() == "connection lost":
        return "connection dropped"  # TCP closed with no SSH goodbye: a killed client
    return f"connection lost: {text}"
