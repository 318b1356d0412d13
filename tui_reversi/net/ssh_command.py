"""How a person reaches a tui-reversi server with ssh: the command every hint shows.

The server writes it (it knows the address players reach it at and each one's
name) and gives a player's game the form without a user name, for a friend,
in the environment (`SSH_COMMAND_VARIABLE`): `ssh -t -p 2222 games.example.org`,
to which a hint adds `join CODE`.
"""

from __future__ import annotations

import ipaddress
import re
import shlex

SSH_COMMAND_VARIABLE = "TUI_REVERSI_SSH_COMMAND"

# A host name as DNS spells it (an IPv4 address is one too): labels of letters,
# digits and inner hyphens, at most 253 characters in all.
_LABEL = r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?"
_HOST_NAME = re.compile(rf"{_LABEL}(?:\.{_LABEL})*\.?")
# A user name a shell passes on as it is, and that ssh cannot take for an option.
_PLAIN_USER = re.compile(r"[A-Za-z0-9_][A-Za-z0-9._+-]*")  # ('+': alice+key, a new key's)


def parse_address(text: str) -> tuple[str, int]:
    """`host:port` or `[v6]:port` -> (host, port); ValueError with one sentence if not."""
    host, _, port = text.strip().rpartition(":")
    bracketed = host.startswith("[") and host.endswith("]")
    if bracketed:
        host = host[1:-1]
    if bracketed and not _is_ipv6(host):
        why = f"{host!r} is no IPv6 address"
    elif not bracketed and not (_HOST_NAME.fullmatch(host) and len(host) <= 253):
        why = "say HOST:PORT (games.example.org:22, 203.0.113.5:2222 or [2001:db8::5]:22)"
    elif not (port.isdigit() and 1 <= int(port) <= 65535):
        why = "the port must be 1-65535"
    else:
        return host, int(port)
    raise ValueError(f"{text[:60]!r} is not an address players can reach: {why}")


def _is_ipv6(text: str) -> bool:
    try:
        ipaddress.IPv6Address(text)
    except ValueError:
        return False
    return True


def ssh_command(
    host: str, port: int, user: str | None = None, *, terminal: bool = True, key: str = ""
) -> str:
    """`ssh -t -p 2222 alice@host`: what reaches the server at (host, port) as `user`
    (None: the person's own login name); `-t` only for a command that needs a
    terminal (a game, a table), `-p` only when the port is not 22, `-i key` if given."""
    words = ["ssh"] + (["-t"] if terminal else []) + (["-i", key] if key else [])
    words += [] if port == 22 else ["-p", str(port)]
    if user is None:
        return " ".join([*words, host])
    if _PLAIN_USER.fullmatch(user):
        return " ".join([*words, f"{user}@{host}"])
    return " ".join([*words, "-l", shlex.quote(user), host])
