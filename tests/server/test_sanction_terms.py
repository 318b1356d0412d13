"""The rules a ban or a mute is read by (hall/sanction_terms.py), on made-up
inputs: durations, whom (a name, a key, an address prefix), and which
addresses a prefix holds against; and the command line's --moderators."""

from __future__ import annotations

import ipaddress
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tui_reversi.server.config import ServeError
from tui_reversi.server.hall.sanction_terms import (
    LONGEST_BAN,
    LONGEST_MUTE,
    SHORTEST,
    WIDEST_V4,
    WIDEST_V6,
    SanctionRefused,
    address_within,
    format_span,
    parse_duration,
    subject_of,
)
from tui_reversi.tools.serve import _moderators

UNITS = {"m": 60, "h": 3600, "d": 86400, "w": 7 * 86400}


@given(st.integers(0, 99999), st.sampled_from(sorted(UNITS)), st.sampled_from(["ban", "mute"]))
def test_a_duration_is_read_within_its_bounds_or_refused_in_one_sentence(count, unit, kind):
    seconds = count * UNITS[unit]
    longest = LONGEST_BAN if kind == "ban" else LONGEST_MUTE
    typed = f"{count}{unit}"
    if SHORTEST <= seconds <= longest:
        assert parse_duration(typed, kind) == seconds
        assert parse_duration(format_span(seconds), kind) == seconds  # (said as typed)
    else:
        with pytest.raises(SanctionRefused, match=f"a {kind} lasts from 1m to "):
            parse_duration(typed, kind)


@given(st.text(max_size=12))
def test_anything_else_is_not_a_duration(text):
    if text.strip().lower() == "forever":
        return
    if re.fullmatch(r"(?:[0-9]{1,5}[mhdw]){1,4}", text.strip().lower()):
        return
    with pytest.raises(SanctionRefused) as refused:
        parse_duration(text, "ban")
    assert "\n" not in str(refused.value)


def test_forever_is_for_bans_only():
    assert parse_duration("forever", "ban") is None
    with pytest.raises(SanctionRefused, match="is not a duration"):
        parse_duration("forever", "mute")


@given(st.ip_addresses(v=4), st.integers(0, 32))
def test_an_ipv4_prefix_holds_against_exactly_its_addresses(address, length):
    typed = f"{address}/{length}"
    if length < WIDEST_V4:
        with pytest.raises(SanctionRefused, match=f"at most a /{WIDEST_V4}"):
            subject_of(typed)
        return
    scope, prefix = subject_of(typed)
    network = ipaddress.ip_network(typed, strict=False)
    assert (scope, prefix) == ("address", str(network))
    assert address_within(str(address), prefix)
    assert address_within(f"::ffff:{address}", prefix)  # (IPv4 on an IPv6 socket)
    outside = (
        network.broadcast_address + 1 if network.broadcast_address.packed != b"\xff" * 4 else None
    )
    if outside is not None:
        assert not address_within(str(outside), prefix)


@given(st.ip_addresses(v=6), st.integers(0, 128))
def test_an_ipv6_prefix_holds_against_exactly_its_addresses(address, length):
    typed = f"{address}/{length}"
    if length < WIDEST_V6:
        with pytest.raises(SanctionRefused):
            subject_of(typed)
        return
    scope, prefix = subject_of(typed)
    assert scope == "address" and address_within(str(address), prefix)
    network = ipaddress.ip_network(prefix)
    if network.network_address.packed != b"\x00" * 16:
        assert not address_within(str(network.network_address - 1), prefix)
    assert not address_within("192.0.2.1", prefix)


def test_names_and_keys_are_told_apart_from_addresses():
    assert subject_of("alice") == ("name", "alice")
    assert subject_of("al.ice") == ("name", "al.ice")
    assert subject_of("203.0.113.7") == ("address", "203.0.113.7/32")
    assert subject_of("2001:db8::1/64") == ("address", "2001:db8::/64")
    key = "SHA256:" + "A" * 43
    assert subject_of(key) == ("key", key)
    with pytest.raises(SanctionRefused, match="not a key's SHA256: fingerprint"):
        subject_of("SHA256:short")


def test_the_command_lines_moderators(tmp_path):
    assert _moderators("mia,ada:admin") == (("mia", "moderator"), ("ada", "admin"))
    listed = tmp_path / "moderators"
    listed.write_text("# who keeps order\nmia\nada admin  # the owner\n\n")
    assert _moderators(str(listed)) == (("mia", "moderator"), ("ada", "admin"))
    with pytest.raises(ServeError, match="'boss' is not a role"):
        _moderators("mia:boss")
    with pytest.raises(ServeError, match="is not a player's name"):
        _moderators("mia,,ada")
    with pytest.raises(ServeError, match="cannot read the moderators file"):
        _moderators(str(tmp_path / "missing" / "file"))
