"""Every message one node of a fleet says to another, one frozen dataclass each,
and their one codec to and from the JSON object a sealed payload carries
(fleet_seal.py seals and opens that object; hall/fleet_port.py routes them).

Each says what it says as the node that hears it reads it: "here" is that
node, "there" the node that sent it. A message does not name the node it is
from: the seal's envelope does, and opening a payload gives `Heard(node, message)`.
`Down` and `Rejoined` come from this node's own store (node_link.py), never
over the wire. A message of a kind not listed here, or whose fields are
missing or of another type, is `MalformedMessage`: the node that hears it
drops it and says so in one line.

Adding a message: a class here (its `kind` and fields, listed in KINDS), its
handler in the port's table (hall/fleet_port.py, or the hall class that owns
it, by `Fleet.handle`), and its line in docs/developing.md's list.
"""

from __future__ import annotations

import base64
import binascii
import dataclasses
import typing
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar, NamedTuple

from ...core.errors import ReversiError
from .table_phase import Phase
from .table_view import TableView


class MalformedMessage(ReversiError):
    """A message's object is of no kind known here, or its fields are not its kind's
    (the operator reads it in the log line of the message dropped)."""


@dataclass(frozen=True, slots=True)
class FleetMessage:
    """A message between nodes: each kind a subclass with its wire name."""

    kind: ClassVar[str] = ""


# -- a game relayed from its player's node to its table's node, and back ---------------------


@dataclass(frozen=True, slots=True)
class Sit(FleetMessage):
    """A game elsewhere takes the seat here promised to it by `secret` (an invitation,
    a pairing); what it asks is charged to its player's `address`, as here."""

    kind: ClassVar[str] = "sit"
    link: str
    secret: str
    address: str


@dataclass(frozen=True, slots=True)
class SitAt(FleetMessage):
    """A game elsewhere sits at table `code` here, as `name`: `how` is join, watch or resume."""

    kind: ClassVar[str] = "sit_at"
    link: str
    how: str
    code: str
    name: str
    address: str


@dataclass(frozen=True, slots=True)
class Line(FleetMessage):
    """Bytes of a relayed game's line, from its game or for it."""

    kind: ClassVar[str] = "line"
    link: str
    data: bytes


@dataclass(frozen=True, slots=True)
class Eof(FleetMessage):
    """The relayed game's line ended."""

    kind: ClassVar[str] = "eof"
    link: str


@dataclass(frozen=True, slots=True)
class Close(FleetMessage):
    """The table let the relayed game go."""

    kind: ClassVar[str] = "close"
    link: str


@dataclass(frozen=True, slots=True)
class PlayerWent(FleetMessage):
    """The relayed game's player went (a drop, not a crash)."""

    kind: ClassVar[str] = "dropped"
    link: str


@dataclass(frozen=True, slots=True)
class Moves(FleetMessage):
    """Table `code`'s moves on the node it was taken over from while that node was cut
    off, for the node that took it over (Tables.played_meanwhile)."""

    kind: ClassVar[str] = "moves"
    code: str
    moves: str


# -- a take-over across nodes (hall/take_over_elsewhere.py) -----------------------------------


@dataclass(frozen=True, slots=True)
class Take(FleetMessage):
    """`name`'s session there (from `address`) takes their game here over; `ask`
    names the answer."""

    kind: ClassVar[str] = "take"
    name: str
    address: str
    ask: str


@dataclass(frozen=True, slots=True)
class OwnPiece(FleetMessage):
    """A piece of the own game given over (its autosave), in order."""

    kind: ClassVar[str] = "own"
    ask: str
    data: bytes


@dataclass(frozen=True, slots=True)
class TakenSeat(FleetMessage):
    """The answer to `ask`: the seat given over, its secret at table `table` there."""

    kind: ClassVar[str] = "taken"
    ask: str
    secret: str
    table: TableView


@dataclass(frozen=True, slots=True)
class TakenOwn(FleetMessage):
    """The answer to `ask`: the player's own game, sent before in `pieces` OwnPieces."""

    kind: ClassVar[str] = "taken_own"
    ask: str
    pieces: int


@dataclass(frozen=True, slots=True)
class NothingTaken(FleetMessage):
    """The answer to `ask`: the player has neither a seat nor an own game there."""

    kind: ClassVar[str] = "not_taken"
    ask: str


# -- the lobby and the pairing queue across nodes (hall/lobby_host.py, hall/pairing.py) ------


@dataclass(frozen=True, slots=True)
class Seat(FleetMessage):
    """`name`, in the lobby here, has the seat `secret` at table `table` there."""

    kind: ClassVar[str] = "seat"
    name: str
    secret: str
    table: TableView


@dataclass(frozen=True, slots=True)
class Paired(FleetMessage):
    """`seeker`, in the queue here, was paired there: their seat `secret` at new table `table`."""

    kind: ClassVar[str] = "paired"
    seeker: str
    secret: str
    table: TableView


@dataclass(frozen=True, slots=True)
class Unseat(FleetMessage):
    """The seat `secret` given from here is not taken (its player has gone; `left`: gone
    from the queue, so the game ends as if they had left)."""

    kind: ClassVar[str] = "unseat"
    secret: str
    left: bool = False


@dataclass(frozen=True, slots=True)
class Requeue(FleetMessage):
    """`seeker`, waiting here, was claimed for a pairing there that could not seat them:
    back in the queue."""

    kind: ClassVar[str] = "requeue"
    seeker: str


@dataclass(frozen=True, slots=True)
class QueueJoined(FleetMessage):
    """Someone joined the pairing queue there (on the lobby's channel)."""

    kind: ClassVar[str] = "queue"


@dataclass(frozen=True, slots=True)
class LobbyChanged(FleetMessage):
    """A node's share of the lobby changed (on the lobby's channel)."""

    kind: ClassVar[str] = "lobby"


@dataclass(frozen=True, slots=True)
class LobbyLine(FleetMessage):
    """A line for `name`'s game here from the lobby there (an invitation, its news)."""

    kind: ClassVar[str] = "guest"
    name: str
    data: bytes


@dataclass(frozen=True, slots=True)
class Answer(FleetMessage):
    """`name`, in the lobby there, answered invitation `number` held here."""

    kind: ClassVar[str] = "answer"
    name: str
    number: int
    accepted: bool


@dataclass(frozen=True, slots=True)
class Gone(FleetMessage):
    """`name`'s game has left the lobby there."""

    kind: ClassVar[str] = "gone"
    name: str


# -- a node that drains hands its tables over (hall/table_handover.py) ----------------------


@dataclass(frozen=True, slots=True)
class Handed(FleetMessage):
    """Table `code` is here from now on, handed by its node there, which drains: its game
    as the store keeps it (`clock` '' without one, each side's time left in milliseconds,
    `started` in ISO 8601), adjourned until its players sit down here."""

    kind: ClassVar[str] = "handed"
    code: str
    variant: str
    black: str
    white: str
    moves: str
    clock: str
    black_left: int
    white_left: int
    started: str


@dataclass(frozen=True, slots=True)
class HandedOn(FleetMessage):
    """Table `code` there is on node `to` now, handed on by its node, which drains: the
    games here seated at it sit at it there."""

    kind: ClassVar[str] = "handed_on"
    code: str
    to: str


@dataclass(frozen=True, slots=True)
class Stopping(FleetMessage):
    """The node the game relayed here by `link` plays from stops (its drain is over):
    its table adjourns, rather than hold a dropped seat that may forfeit."""

    kind: ClassVar[str] = "stopping"
    link: str


# -- from this node's own store, never from another node --------------------------------------


@dataclass(frozen=True, slots=True)
class Down(FleetMessage):
    """This node cannot reach the database."""

    kind: ClassVar[str] = "down"


@dataclass(frozen=True, slots=True)
class Rejoined(FleetMessage):
    """This node can reach the database again, and is in the fleet."""

    kind: ClassVar[str] = "rejoined"


class Heard(NamedTuple):
    """A message heard, and the node it is from (this one, for Down and Rejoined)."""

    node: str
    message: FleetMessage


# Told of each message heard.
Hearing = Callable[[Heard], None]

# Every kind, by its wire name.
KINDS: dict[str, type[FleetMessage]] = {
    kind.kind: kind
    for kind in (
        Sit,
        SitAt,
        Line,
        Eof,
        Close,
        PlayerWent,
        Moves,
        Take,
        OwnPiece,
        TakenSeat,
        TakenOwn,
        NothingTaken,
        Seat,
        Paired,
        Unseat,
        Requeue,
        QueueJoined,
        LobbyChanged,
        LobbyLine,
        Answer,
        Gone,
        Handed,
        HandedOn,
        Stopping,
        Down,
        Rejoined,
    )
}
# What each kind's fields hold (name -> type), read once.
_FIELDS: dict[type[FleetMessage], dict[str, Any]] = {
    kind: {
        field.name: typing.get_type_hints(kind)[field.name] for field in dataclasses.fields(kind)
    }
    for kind in KINDS.values()
}


def encode(message: FleetMessage) -> dict[str, Any]:
    """The JSON object that carries `message` (bytes in base64, a table as a list)."""
    body: dict[str, Any] = {"kind": message.kind}
    for name in _FIELDS[type(message)]:
        value = getattr(message, name)
        if isinstance(value, bytes):
            value = base64.b64encode(value).decode()
        elif isinstance(value, TableView):
            value = [*dataclasses.astuple(value)[:-1], list(value.waiting_for)]
        body[name] = value
    return body


def decode(body: object) -> FleetMessage:
    """The message a JSON object carries; MalformedMessage (one sentence) if it is of
    no known kind or its fields are not that kind's."""
    if not isinstance(body, dict):
        raise MalformedMessage("not an object")
    kind = KINDS.get(body.get("kind"))  # type: ignore[arg-type]
    if kind is None:
        raise MalformedMessage(f"of no known kind ({str(body.get('kind'))[:40]!r})")
    values: dict[str, Any] = {}
    for name, hint in _FIELDS[kind].items():
        if name not in body:
            if _has_default(kind, name):
                continue
            raise MalformedMessage(f"a {kind.kind} without its {name}")
        values[name] = _field(kind.kind, name, hint, body[name])
    return kind(**values)


def _has_default(kind: type[FleetMessage], name: str) -> bool:
    field = next(field for field in dataclasses.fields(kind) if field.name == name)
    return field.default is not dataclasses.MISSING


def _field(kind: str, name: str, hint: object, value: object) -> object:
    """One field's value from its JSON, checked against its type."""
    wrong = MalformedMessage(f"a {kind} whose {name} is not a {getattr(hint, '__name__', hint)}")
    if hint is bytes:
        if not isinstance(value, str):
            raise wrong
        try:
            return base64.b64decode(value, validate=True)
        except (binascii.Error, ValueError):
            raise wrong from None
    if hint is TableView:
        return _table(value, wrong)
    if hint is int:  # (a bool is an int to Python, not to the wire)
        if not isinstance(value, int) or isinstance(value, bool):
            raise wrong
        return value
    if not isinstance(value, hint):  # type: ignore[arg-type]
        raise wrong
    return value


def _table(value: object, wrong: MalformedMessage) -> TableView:
    """A table as a message carries it (a list of TableView's fields)."""
    if not isinstance(value, list) or len(value) != 9:
        raise wrong
    *words, move, node, waiting = value
    text = [*words, node]
    if not all(isinstance(word, str) for word in text) or not isinstance(move, int):
        raise wrong
    if isinstance(move, bool) or not isinstance(waiting, list):
        raise wrong
    if not all(isinstance(name, str) for name in waiting):
        raise wrong
    code, phase, black, white, variant, clock = words
    try:
        listed = Phase(phase)
        return TableView(code, listed, black, white, variant, clock, move, node, tuple(waiting))
    except ValueError:  # a phase this node does not know
        raise wrong from None
