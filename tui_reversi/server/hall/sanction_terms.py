"""What a moderator types to ban or mute, read as values: how long (`30m`, `2h`,
`7d`, `2w`, `forever`) and whom (a name, a key's `SHA256:` fingerprint, or an
address with a prefix: `203.0.113.0/24`, `2001:db8::/64`), and whether a
connection is one a sanction holds against. Anything else is refused in one
sentence (`SanctionRefused`).
"""

from __future__ import annotations

import ipaddress
import re
from datetime import UTC, datetime

from ...core import ReversiError
from ..ledger.moderation import Sanction

# How long a sanction may be: a minute at least; a ban at most LONGEST_BAN (or for
# good), a mute at most LONGEST_MUTE.
SHORTEST = 60.0
LONGEST_BAN = 3650 * 86400.0
LONGEST_MUTE = 30 * 86400.0
_UNITS = {"m": 60.0, "h": 3600.0, "d": 86400.0, "w": 7 * 86400.0}
_PART = re.compile(r"([0-9]{1,5})([mhdw])")
_DURATION = re.compile(r"(?:[0-9]{1,5}[mhdw]){1,4}")
FOREVER = "forever"
DURATION_USAGE = "say 30m, 2h, 7d or 2w (or forever, for a ban)"
# The widest prefixes a ban by address may take: a /16 of IPv4, a /32 of IPv6.
WIDEST_V4 = 16
WIDEST_V6 = 32
KEY_PREFIX = "SHA256:"


class SanctionRefused(ReversiError):
    """A sanction asked for wrongly, in one sentence."""


def parse_duration(text: str, kind: str) -> float | None:
    """`text` ('90m', '1d12h') as seconds for a `kind` ('ban' or 'mute'); None: for
    good (a ban only).
    Raises SanctionRefused."""
    word = text.strip().lower()
    if word == FOREVER and kind == "ban":
        return None
    if _DURATION.fullmatch(word) is None:
        raise SanctionRefused(f"{text[:20]!r} is not a duration: {DURATION_USAGE}.")
    seconds = sum(int(count) * _UNITS[unit] for count, unit in _PART.findall(word))
    longest = LONGEST_BAN if kind == "ban" else LONGEST_MUTE
    if not SHORTEST <= seconds <= longest:
        raise SanctionRefused(f"a {kind} lasts from 1m to {format_span(longest)}, not {text[:20]}.")
    return seconds


def format_span(seconds: float) -> str:
    """`5400` -> '1h30m', `172800` -> '2d': a duration as a moderator types one."""
    left = round(seconds / 60) * 60
    parts = []
    for unit, size in (("d", 86400), ("h", 3600), ("m", 60)):
        count, left = divmod(left, size)
        if count:
            parts.append(f"{int(count)}{unit}")
    return "".join(parts) or "0m"


def subject_of(text: str) -> tuple[str, str]:
    """Whom a sanction is against: ('address', a prefix written as a network),
    ('key', a SHA256: fingerprint) or ('name', a name). Raises SanctionRefused for
    an address prefix wider than WIDEST_V4 or WIDEST_V6."""
    if text.startswith(KEY_PREFIX):
        if len(text) < len(KEY_PREFIX) + 20 or not text[len(KEY_PREFIX) :].isascii():
            raise SanctionRefused(f"{text[:30]!r} is not a key's SHA256: fingerprint.")
        return "key", text
    if ("." in text or ":" in text) and any(ch.isdigit() for ch in text):
        try:
            network = ipaddress.ip_network(text, strict=False)
        except ValueError:
            network = None
        if network is not None:
            widest = WIDEST_V4 if network.version == 4 else WIDEST_V6
            if network.prefixlen < widest:
                raise SanctionRefused(
                    f"{text[:45]} is too wide: an address ban takes at most a /{widest}."
                )
            return "address", str(network)
    return "name", text


def holds_against(sanction: Sanction, name: str, key: str | None, address: str) -> bool:
    """True if `sanction` is against a player called `name`, proving `key` (its
    fingerprint, if any), connected from `address`."""
    if sanction.scope == "name":
        return sanction.subject == name
    if sanction.scope == "key":
        return key is not None and sanction.subject == key
    return address_within(address, sanction.subject)


def address_within(address: str, prefix: str) -> bool:
    """True if `address` is within `prefix` (an IPv4-mapped IPv6 address, as an IPv4
    client on an IPv6 socket has, is within an IPv4 prefix of its IPv4 address)."""
    try:
        found = ipaddress.ip_address(address)
        network = ipaddress.ip_network(prefix, strict=False)
    except ValueError:
        return False
    mapped = found.ipv4_mapped if isinstance(found, ipaddress.IPv6Address) else None
    if mapped is not None and network.version == 4:
        found = mapped
    return found.version == network.version and found in network


def until_text(until: float | None) -> str:
    """'until 2026-12-08 15:00 UTC', or 'for good'."""
    if until is None:
        return "for good"
    return f"until {datetime.fromtimestamp(until, UTC):%Y-%m-%d %H:%M} UTC"


def time_left(until: float | None, now: float) -> str:
    """'for another 9m', or 'for good'."""
    if until is None:
        return "for good"
    return f"for another {format_span(max(60.0, until - now))}"
