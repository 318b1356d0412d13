"""Every message between a fleet's nodes is sealed: PostgreSQL lets any role
that can connect NOTIFY any channel, so a node believes only what carries the
fleet's secret. A payload is `v1 MAC BODY`: BODY the JSON of the sending node,
the channel it is for, the time it was sealed, its number in that node's
sequence and the message (fleet_messages.py's codec);
MAC the HMAC-SHA256 of BODY under the secret every node is given (postgres.py
reads it: `serve --fleet-secret FILE`, or the database's, made by --migrate).

A node drops, and logs in one line (charged to no address), a payload whose MAC
is wrong, one sealed more than WINDOW seconds ago (or ahead: the nodes' clocks
must agree within it), and one whose number it has had from that node already
(a replay: the numbers are remembered for WINDOW, after which the time refuses
it), and one that carries no message it knows (fleet_messages.py). `seal` and
`open` are the one place a payload is made and read; both name the channel,
never by default: a payload sealed for one channel is refused on another.
"""

from __future__ import annotations

import hashlib
import hmac
import itertools
import json
import time
from collections import deque
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ...core.errors import reason
from ..bucket import Rate, TokenBucket
from ..config import ServeError
from ..tally import NOTIFY_DELAY, TALLY
from .fleet_messages import FleetMessage, Heard, MalformedMessage, decode, encode

VERSION = "v1"
# How far a message's seal may be from this node's clock (seconds), either way.
WINDOW = 30.0
# The secret's least length (bytes): 256 bits of it, as the MAC's.
LEAST_SECRET = 32
# Lines the log gets for dropped messages (a flood of forgeries is summed up, not copied).
DROPS_LOGGED = Rate(20, 1)

# Told of each message dropped: why (a few words), the node it claims, its size in bytes,
# and how many more were dropped since the last one told (past DROPS_LOGGED).
Dropped = Callable[[str, str | None, int, int], None]


class Seal:
    """Seals this node's messages and opens the others' (dropping what fails)."""

    def __init__(
        self, secret: bytes, node: str, dropped: Dropped, clock: Callable[[], float] = time.time
    ) -> None:
        self._secret = secret
        self._node = node
        self._dropped = dropped
        self._clock = clock
        self._numbers = itertools.count(1)
        self._seen: dict[str, set[int]] = {}  # node -> numbers had within WINDOW
        self._arrivals: deque[tuple[float, str, int]] = deque()  # (sealed at, node, number)
        self._told = TokenBucket(DROPS_LOGGED)
        self._untold = 0

    def seal(self, message: FleetMessage, to: str) -> str:
        """The payload that carries `message` from this node on channel `to`."""
        envelope = {
            "node": self._node,
            "to": to,
            "at": self._clock(),
            "seq": next(self._numbers),
            "m": encode(message),
        }
        body = json.dumps(envelope, separators=(",", ":"))
        return f"{VERSION} {self._mac(body)} {body}"

    def open(self, payload: str, to: str) -> Heard | None:
        """The node that sealed `payload`, heard on channel `to`, and the message it
        carries, if it is sealed by a node of this fleet for that channel, in time,
        not had before, and a message of a kind known here; else None, and the drop
        is told."""
        version, _, rest = payload.partition(" ")
        mac, _, body = rest.partition(" ")
        size = len(payload.encode("utf-8", "replace"))
        # (bytes: a str with a character past ASCII would make compare_digest raise)
        given = mac.encode("utf-8", "replace")
        if version != VERSION or not hmac.compare_digest(given, self._mac(body).encode()):
            self._drop("bad MAC", None, size)
            return None
        try:  # (sealed by a node: well formed, unless that node has a bug)
            envelope: dict[str, Any] = json.loads(body)
            node, at, number, carried = (envelope[key] for key in ("node", "at", "seq", "m"))
            at, number = float(at), int(number)
        except (ValueError, TypeError, KeyError):
            self._drop("a malformed envelope", None, size)
            return None
        node = str(node)
        if envelope.get("to") != to:  # (copied from another channel, where it was heard)
            self._drop("sent on another channel", node, size)
            return None
        now = self._clock()
        if abs(now - at) > WINDOW:
            late = f"{now - at:.0f} s ago" if now > at else f"{at - now:.0f} s ahead of here"
            self._drop(f"sealed {late}", node, size)
            return None
        self._forget_before(now - WINDOW)
        seen = self._seen.setdefault(node, set())
        if number in seen:
            self._drop(f"replayed (message {number})", node, size)
            return None
        seen.add(number)
        self._arrivals.append((at, node, number))
        TALLY.observe(NOTIFY_DELAY, max(0.0, now - at))  # (clocks a little apart: none)
        try:
            message = decode(carried)
        except MalformedMessage as error:
            self._drop(f"malformed: {error}", node, size)
            return None
        return Heard(node, message)

    def _mac(self, body: str) -> str:
        return hmac.new(self._secret, body.encode("utf-8", "replace"), hashlib.sha256).hexdigest()

    def _forget_before(self, moment: float) -> None:
        """The numbers sealed before `moment` are refused by their time now."""
        while self._arrivals and self._arrivals[0][0] < moment:
            _at, node, number = self._arrivals.popleft()
            seen = self._seen.get(node)
            if seen is not None:
                seen.discard(number)
                if not seen:
                    del self._seen[node]

    def _drop(self, why: str, node: str | None, size: int) -> None:
        if not self._told.take():
            self._untold += 1
            return
        untold, self._untold = self._untold, 0
        self._dropped(why, node, size, untold)


def secret_from_file(path: Path) -> bytes:
    """The secret in `path` (`serve --fleet-secret`), its spaces and line ends aside;
    ServeError, in one sentence, if it cannot be read, is short, or others may read it."""
    try:
        mode = path.stat().st_mode
        secret = path.read_bytes().strip()
    except OSError as error:
        raise ServeError(f"--fleet-secret: cannot read {path}: {reason(error)}") from None
    if mode & 0o077:
        raise ServeError(
            f"--fleet-secret: {path} may be read by others (mode {mode & 0o777:o}): chmod 600 it"
        )
    if len(secret) < LEAST_SECRET:
        raise ServeError(
            f"--fleet-secret: {path} holds {len(secret)} bytes, fewer than {LEAST_SECRET} "
            "(make one: head -c 32 /dev/urandom | base64 > FILE)"
        )
    return secret
