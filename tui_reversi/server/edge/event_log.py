"""The server's log: one event a line, `time event key=value ...` (or, with
`serve --log-format json`, one JSON object a line with the same fields), where
whatever a client said is data.

Every value goes through `log_value`, the one door for text into the log:
printable ASCII stays, anything else (ESC, BEL, CR, LF, other control
characters, non-ASCII) is written as a backslash escape, a value with a space,
quote or `=` is quoted, and a long one is cut with a marker. So no client can
end a line, start one that looks like the server's, or reach the terminal of
whoever reads the log. Events charged to an address (what its connections
did) share a token bucket of log bytes: past it they are dropped, and one
`log-suppressed` event says so once per burst. docs/hosting.md describes the
format and the limits. In JSON a value is JSON's string (or number), escaped
as JSON escapes (every character outside printable ASCII as a `\\u` escape) and cut
at the same lengths, by characters.
"""

from __future__ import annotations

import json
import logging
import re
import time
from collections.abc import Callable
from dataclasses import dataclass

# A value is cut past this many characters as written (escapes counted), then marked.
VALUE_LENGTH = 200
# A user name is cut shorter (SSH allows a kilobyte); a note (the server's own
# sentence, which may quote a player's name) may be longer.
NAME_LENGTH = 64
NOTE_LENGTH = 800
# No line is longer than this (its values are cut further if they would make it so).
LINE_LENGTH = 1000
# Log bytes one address may cause at once, and how fast that allowance comes back.
ADDRESS_BURST = 8192
ADDRESS_BYTES_PER_SECOND = 512
# Addresses whose allowance is remembered; past this, the ones with a full one are forgotten.
ADDRESSES_KEPT = 4096

_BARE = re.compile(r"[A-Za-z0-9._:/@+\[\]-]+")
_ESCAPES = {"\n": "\\n", "\r": "\\r", "\t": "\\t", '"': '\\"', "\\": "\\\\"}
_EVENT = re.compile(r"[a-z][a-z-]*")
# Fields cut at other lengths than VALUE_LENGTH.
_LENGTHS = {"user": NAME_LENGTH, "text": NOTE_LENGTH}


def log_value(text: str, limit: int = VALUE_LENGTH) -> str:
    """`text` as a value in a log line: bare if it is a plain word, else in double
    quotes with every character outside printable ASCII (and `"`, `\\`) escaped;
    past `limit` escaped characters it is cut and marked `...(N characters)`,
    N the length it had."""
    if _BARE.fullmatch(text) and len(text) <= limit:
        return text
    pieces: list[str] = []
    used = 0
    for char in text:
        piece = _escaped(char)
        if used + len(piece) > limit:
            return f'"{"".join(pieces)}...({len(text)} characters)"'
        pieces.append(piece)
        used += len(piece)
    return f'"{"".join(pieces)}"'


def _escaped(char: str) -> str:
    if char in _ESCAPES:
        return _ESCAPES[char]
    code = ord(char)
    if 0x20 <= code < 0x7F:
        return char
    if code < 0x100:
        return f"\\x{code:02x}"
    if code < 0x10000:
        return f"\\u{code:04x}"
    return f"\\U{code:08x}"


def _json_line(when: str, event: str, fields: dict[str, object], limits: dict[str, int]) -> str:
    """The event as one JSON object: `time`, `event`, then its fields, numbers
    as numbers and every other value as a string cut past its limit as
    `log_value` cuts one (its characters counted, not their escapes)."""
    entry: dict[str, object] = {"time": when, "event": event}
    for key, value in fields.items():
        if isinstance(value, int | float) and not isinstance(value, bool):
            entry[key] = value
            continue
        text, limit = str(value), limits[key]
        entry[key] = text if len(text) <= limit else f"{text[:limit]}...({len(text)} characters)"
    return json.dumps(entry, ensure_ascii=True, separators=(", ", ": "))


@dataclass
class _Allowance:
    """One address's log bytes: what it may still write, as of `when`."""

    tokens: float
    when: float
    suppressed: bool = False


class EventLog:
    """Writes events as lines to `sink` (key=value, or JSON objects `as_json`),
    each address within its allowance of bytes."""

    def __init__(
        self,
        sink: Callable[[str], None],
        clock: Callable[[], float] = time.monotonic,
        *,
        as_json: bool = False,
    ) -> None:
        self._sink = sink
        self._clock = clock
        self._as_json = as_json
        self._allowances: dict[str, _Allowance] = {}

    def write(self, event: str, /, address: str | None = None, **fields: object) -> None:
        """Log `event` with `fields` (None ones left out); charged to `address` if
        given, and dropped if that address has used its allowance up."""
        assert _EVENT.fullmatch(event), event
        line = self._line(event, fields)
        if address is None or self._charge(address, len(line) + 1):
            self._sink(line)
            return
        held = self._allowances[address]
        if not held.suppressed:
            held.suppressed = True
            allowance = f"{ADDRESS_BURST}B+{ADDRESS_BYTES_PER_SECOND}B/s"
            notice = self._line("log-suppressed", {"address": address, "allowance": allowance})
            held.tokens -= len(notice) + 1  # (the notice is charged too, as a debt)
            self._sink(notice)

    def _line(self, event: str, fields: dict[str, object]) -> str:
        present = {key: value for key, value in fields.items() if value is not None}
        when = time.strftime("%Y-%m-%d %H:%M:%S")
        share = LINE_LENGTH
        while True:
            limits = {key: min(share, _LENGTHS.get(key, VALUE_LENGTH)) for key in present}
            if self._as_json:
                line = _json_line(when, event, present, limits)
            else:
                values = [
                    f"{key}={log_value(str(value), limits[key])}" for key, value in present.items()
                ]
                line = " ".join([when, event, *values])
            if len(line) <= LINE_LENGTH or share <= 16:
                return line
            share //= 2  # (many long values: each is cut shorter)

    def _charge(self, address: str, cost: int) -> bool:
        """Take `cost` bytes from `address`'s allowance; False if it has not got them."""
        now = self._clock()
        allowance = self._allowances.get(address)
        if allowance is None:
            if len(self._allowances) >= ADDRESSES_KEPT:
                self._forget_full(now)
            allowance = self._allowances[address] = _Allowance(ADDRESS_BURST, now)
        refill = (now - allowance.when) * ADDRESS_BYTES_PER_SECOND
        allowance.tokens = min(ADDRESS_BURST, allowance.tokens + refill)
        allowance.when = now
        if allowance.tokens < cost:
            return False
        allowance.tokens -= cost
        allowance.suppressed = False
        return True

    def _forget_full(self, now: float) -> None:
        """Forget the addresses whose allowance has come back whole (as new ones'
        is), or, if none has, the one that wrote longest ago."""
        full = [
            address
            for address, allowance in self._allowances.items()
            if allowance.tokens + (now - allowance.when) * ADDRESS_BYTES_PER_SECOND >= ADDRESS_BURST
        ]
        for address in full or [min(self._allowances, key=lambda a: self._allowances[a].when)]:
            del self._allowances[address]


class _ClientTextAsData(logging.Filter):
    """Makes a library's log record one escaped line: a disconnect reason or
    user name a client sent, logged by asyncssh, is data there too."""

    def filter(self, record: logging.LogRecord) -> bool:
        text = record.getMessage()
        if record.exc_info:
            text += "\n" + logging.Formatter().formatException(record.exc_info)
            record.exc_info = record.exc_text = None
        record.whole_text = text  # (for _AsEvents, which escapes it itself)
        record.msg, record.args = log_value(text, LINE_LENGTH - 100), None
        return True


class _AsEvents(logging.Handler):
    """A library's log record as an event of the server's log (`library`), not
    raw text: asyncio's "Task was destroyed", aiohttp's errors."""

    def __init__(self, events: EventLog) -> None:
        super().__init__(logging.WARNING)
        self.events = events

    def emit(self, record: logging.LogRecord) -> None:
        text = getattr(record, "whole_text", None)
        if text is None:  # (a record of a library's child logger: no filter has seen it)
            text = record.getMessage()
            if record.exc_info:
                text += "\n" + logging.Formatter().formatException(record.exc_info)
        self.events.write("library", logger=record.name, level=record.levelname.lower(), text=text)


# The libraries whose records reach the log.
_LIBRARIES = ("asyncssh", "asyncio", "aiohttp")


def tame_library_logs(events: EventLog | None = None) -> None:
    """asyncssh logs client text (disconnect reasons, user names) at INFO and
    DEBUG: not at all from this server, and whatever it logs at WARNING or
    above (and asyncio's and aiohttp's errors) goes out escaped as `log_value`
    does; with `events`, as `library` events of that log, one a record."""
    logging.getLogger("asyncssh").setLevel(logging.WARNING)
    for name in _LIBRARIES:
        logger = logging.getLogger(name)
        if not any(isinstance(f, _ClientTextAsData) for f in logger.filters):
            logger.addFilter(_ClientTextAsData())
        for handler in [h for h in logger.handlers if isinstance(h, _AsEvents)]:
            logger.removeHandler(handler)  # (a server started before in this process)
        if events is not None:
            logger.addHandler(_AsEvents(events))
        logger.propagate = events is None  # (with events: not again, raw, by the last resort)
