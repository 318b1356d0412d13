"""The server's log without a network: whatever a client says is one escaped,
cut value in one line, and one address cannot write more than its allowance."""

import logging

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tui_reversi.server.edge.event_log import (
    ADDRESS_BURST,
    ADDRESS_BYTES_PER_SECOND,
    LINE_LENGTH,
    NAME_LENGTH,
    VALUE_LENGTH,
    EventLog,
    log_value,
    tame_library_logs,
)

from .log_reading import read_event

MARKER_ROOM = len("...(1000000 characters)")


@pytest.mark.parametrize(
    ("text", "logged"),
    [
        ("alice", "alice"),
        ("127.0.0.1:5022", "127.0.0.1:5022"),
        ("a b", '"a b"'),
        ("x\ny", '"x\\ny"'),
        ("", '""'),
        ("user=root", '"user=root"'),
        ('say "hi"', '"say \\"hi\\""'),
        ("\x1b]0;PWNED\x07", '"\\x1b]0;PWNED\\x07"'),
        ("José\u202e", '"Jos\\xe9\\u202e"'),
    ],
)
def test_a_value_is_plain_if_plain_else_quoted_and_escaped(text, logged):
    assert log_value(text) == logged


def test_a_long_value_is_cut_saying_how_long_it_was():
    assert log_value("a" * 1000) == '"' + "a" * VALUE_LENGTH + '...(1000 characters)"'
    assert log_value("\x07" * 1000, 10) == '"' + "\\x07" * 2 + '...(1000 characters)"'


@given(
    st.dictionaries(
        st.sampled_from(["user", "why", "text", "peer"]), st.text(max_size=3000), max_size=4
    )
)
def test_no_client_text_breaks_a_line_or_adds_a_field(fields):
    lines: list[str] = []
    EventLog(lines.append).write("disconnect", **fields)
    (line,) = lines
    assert all(" " <= char <= "~" for char in line)  # no control byte, nothing but ASCII
    assert len(line) <= LINE_LENGTH
    event, read = read_event(line)
    assert event == "disconnect" and read.keys() == fields.keys()
    for key, value in read.items():
        # Whole, or its beginning and how long it was.
        assert value == fields[key] or (
            value.endswith(f"...({len(fields[key])} characters)")
            and fields[key].startswith(value.rpartition("...(")[0])
        )


def test_a_user_name_is_cut_at_the_name_length():
    lines: list[str] = []
    EventLog(lines.append).write("connect", user="guest-" + "x" * 1000)
    _, fields = read_event(lines[0])
    assert fields["user"] == "guest-" + "x" * (NAME_LENGTH - 6) + "...(1006 characters)"


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_one_address_writes_its_allowance_then_one_notice_per_burst():
    lines: list[str] = []
    clock = Clock()
    log = EventLog(lines.append, clock)
    for _ in range(200):
        log.write("disconnect", address="6.6.6.6", why="x" * 150)
    written = sum(len(line) + 1 for line in lines)
    assert ADDRESS_BURST - 300 < written <= ADDRESS_BURST + 100
    assert [read_event(line)[0] for line in lines].count("log-suppressed") == 1
    log.write("connect", address="1.2.3.4", user="alice")  # another address: not held back
    assert read_event(lines[-1]) == ("connect", {"user": "alice"})
    clock.now += 60  # quiet a while: the allowance is back, and so is a later burst's notice
    count = len(lines)
    for _ in range(200):
        log.write("disconnect", address="6.6.6.6", why="x" * 150)
    later = lines[count:]
    assert sum(len(line) + 1 for line in later) <= ADDRESS_BURST + 100
    assert [read_event(line)[0] for line in later].count("log-suppressed") == 1
    assert ADDRESS_BYTES_PER_SECOND * 60 > ADDRESS_BURST  # (60 s refill it whole)


def test_asyncssh_logs_client_text_escaped_and_not_below_warning(caplog):
    tame_library_logs()
    caplog.set_level(logging.DEBUG)
    logging.getLogger("asyncssh").info("Received disconnect: %s", "\n2026 connect")
    logging.getLogger("asyncssh").warning("Odd: %s", "\n2026-01-01 connect\x1b[2J")
    (record,) = caplog.records
    assert record.getMessage() == '"Odd: \\n2026-01-01 connect\\x1b[2J"'


def test_what_a_library_logs_is_an_event_a_record_never_raw_text(capsys):
    lines: list[str] = []
    try:
        tame_library_logs(EventLog(lines.append))
        logging.getLogger("asyncio").error(
            "Task was destroyed but it is pending!\ntask: <Task pending coro=<_pump()>>"
        )
        logging.getLogger("aiohttp.server").error("Error handling request from 1.2.3.4")
    finally:
        tame_library_logs()  # (as the process had them)
    assert [read_event(line)[0] for line in lines] == ["library", "library"]
    assert read_event(lines[0])[1]["logger"] == "asyncio"
    assert "Task was destroyed" in read_event(lines[0])[1]["text"]
    assert capsys.readouterr().err == ""  # (not again by Python's last resort)
