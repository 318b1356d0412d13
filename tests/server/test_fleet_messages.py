"""The fleet's messages (ledger/fleet_messages.py) through their one codec and
seal (ledger/fleet_seal.py): every kind comes out as it went in, and a payload
touched, sent on another channel, or carrying what no kind is, is dropped and
said, never raised."""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from tui_reversi.server.ledger.fleet_messages import (
    KINDS,
    FleetMessage,
    MalformedMessage,
    decode,
    encode,
)
from tui_reversi.server.ledger.fleet_seal import Seal

SECRET = b"s" * 32
TO = "tui_reversi_b"

messages = st.sampled_from(sorted(KINDS.values(), key=lambda kind: kind.kind)).flatmap(st.from_type)
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner),
    max_leaves=12,
)


def seals() -> tuple[Seal, Seal, list[tuple]]:
    """Node a's seal and node b's, one secret and one clock (a payload's length is
    the same each run); b's drops, as told."""
    drops: list[tuple] = []
    a = Seal(SECRET, "a", lambda *drop: None, lambda: 1_800_000_000.0)
    b = Seal(SECRET, "b", lambda *drop: drops.append(drop), lambda: 1_800_000_000.0)
    return a, b, drops


@given(messages)
def test_every_kind_of_message_comes_out_of_the_seal_as_it_went_in(message: FleetMessage):
    a, b, drops = seals()
    assert decode(json.loads(json.dumps(encode(message)))) == message
    assert b.open(a.seal(message, TO), TO) == ("a", message)
    assert not drops


@given(messages, st.data())
def test_a_touched_or_misaddressed_payload_is_refused_and_said(message: FleetMessage, data):
    a, b, drops = seals()
    payload = a.seal(message, TO)
    assert b.open(payload, "tui_reversi_c") is None
    assert drops[-1][0] == "sent on another channel"
    at = data.draw(st.integers(3, len(payload) - 1))  # (past "v1 ": the MAC or the body)
    other = "0" if payload[at] != "0" else "1"
    assert b.open(payload[:at] + other + payload[at + 1 :], TO) is None
    assert drops[-1][0] == "bad MAC"
    assert b.open(payload, TO) == ("a", message)  # (the real one, untouched, still opens)


@given(json_values)
def test_anything_else_sealed_is_a_malformed_message_never_a_crash(body):
    try:
        decoded = decode(body)
    except MalformedMessage as error:
        assert str(error)
    else:
        assert isinstance(decoded, FleetMessage)


@given(st.sampled_from(sorted(KINDS)), st.dictionaries(st.text(max_size=6), json_values))
def test_a_known_kind_with_fields_of_other_types_is_malformed_never_a_crash(kind, fields):
    try:
        decoded = decode({**fields, "kind": kind})
    except MalformedMessage as error:
        assert str(error)
    else:
        assert decoded.kind == kind and decode(encode(decoded)) == decoded


def test_a_node_drops_a_sealed_message_of_no_kind_it_knows_in_one_line():
    a, b, drops = seals()
    payload = a.seal(KINDS["lobby"](), TO)
    version, _, body = payload.split(" ", 2)
    envelope = json.loads(body)
    envelope["m"] = {"kind": "teleport", "to": "h8"}
    forged_body = json.dumps(envelope, separators=(",", ":"))
    forged = f"{version} {a._mac(forged_body)} {forged_body}"  # (a node of the fleet's bug)
    assert b.open(forged, TO) is None
    assert drops == [("malformed: of no known kind ('teleport')", "a", len(forged), 0)]


def test_the_developers_list_of_messages_is_the_modules():
    """docs/developing.md lists every kind, with its class and fields, and no other."""
    doc = (Path(__file__).parents[2] / "docs" / "developing.md").read_text()
    listed = set(re.findall(r"^  \| `(\w+)` \| `(\w+\([\w, ]*\))` \|", doc, re.MULTILINE))
    fields = {
        kind: f"{cls.__name__}({', '.join(f.name for f in dataclasses.fields(cls))})"
        for kind, cls in KINDS.items()
    }
    assert listed == set(fields.items())
