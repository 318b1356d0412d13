"""What a player asks for after the host, read once into a value (commands.py's
`read_command`): any string gives a value or one refusal sentence."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tui_reversi.core import Variant
from tui_reversi.net.terms import ColourChoice
from tui_reversi.server.hall.commands import (
    COMMANDS,
    CommandRefused,
    Printed,
    read_command,
)
from tui_reversi.server.hall.session_command import (
    Join,
    JoinTournament,
    NewTable,
    OwnGame,
    Play,
    Replay,
    Resume,
    SessionRefused,
    Watch,
)

SSH = "ssh -t -p 2222 alice@host"
WORDS = [command.name for command in COMMANDS] + [
    "ascii",
    "--black",
    "hard",
    "theme",
    "5+3",
    "anti",
    "white",
    "guests",
    "AB12",
    "--",
    "=",
    "'",
]


def read(command, terminal=True):
    return read_command(command, terminal=terminal, ssh=SSH)


@pytest.mark.parametrize(
    ("command", "asked"),
    [
        (None, OwnGame(())),
        ("  ", OwnGame(())),
        ("ascii black hard", OwnGame(("--ascii", "--black", "hard"))),
        ("join AB12 ascii", Join("AB12", ("--ascii",))),
        ("watch  AB12", Watch("AB12", ())),
        ("resume", Resume(None, ())),
        ("resume ascii", Resume(None, ("--ascii",))),
        ("resume AB12 theme dark", Resume("AB12", ("--theme", "dark"))),
        ("replay 12 ascii", Replay(("12",), ("--ascii",))),
        ("replay", Replay((), ())),
        ("tournament join 3 ascii", JoinTournament(3, ("--ascii",))),
    ],
)
def test_each_kind_is_read_with_its_code_and_look_options(command, asked):
    assert read(command) == asked


def test_a_tables_and_plays_terms_are_read_into_their_values():
    table = read("table white 5+3 anti ascii")
    assert isinstance(table, NewTable) and table.look == ("--ascii",)
    assert table.terms.colour is ColourChoice.WHITE and table.terms.variant is Variant.ANTI
    play = read("play 5+3 guests")
    assert isinstance(play, Play) and play.terms.allows_guests and play.terms.clock is not None


def test_printed_commands_keep_their_words_and_replay_prints_without_a_terminal():
    keys = read("keys add 1234", terminal=False)
    assert isinstance(keys, Printed) and keys.command.name == "keys"
    assert keys.words == ("add", "1234")
    replay = read("replay 12", terminal=False)
    assert isinstance(replay, Printed) and replay.words == ("12",)
    # A tournament's standings and `new` print, with a terminal too; its join needs one.
    for terminal in (True, False):
        standings = read("tournament 3", terminal=terminal)
        assert isinstance(standings, Printed) and standings.words == ("3",)
    assert read("tournament join 3", terminal=False) == Printed(
        read("tournament 3").command, ("join", "3")
    )


@pytest.mark.parametrize(
    ("command", "refusal", "sentence"),
    [
        ("bogus", CommandRefused, "'bogus' is neither a command nor a game option here."),
        ("tabel", CommandRefused, "did you mean table?"),
        ("join", SessionRefused, f"join needs the table's code: {SSH} join CODE"),
        ("table purple", SessionRefused, "is not a term of a table"),
        ("join AB12 black hard", SessionRefused, "at a table only"),
        ("replay 12 --black hard", SessionRefused, "in a replay only"),
        ("play black", SessionRefused, "play draws the colours"),
        ("ascii --white", SessionRefused, "--white needs a value"),
        ("tournament join x", SessionRefused, f"tournament join needs its number: {SSH}"),
        ("tournament join 3 new", SessionRefused, "at a table only"),
    ],
)
def test_a_mistake_is_one_sentence_of_its_kind(command, refusal, sentence):
    with pytest.raises(refusal) as raised:
        read(command)
    assert sentence in str(raised.value) and "\n" not in str(raised.value)


@given(
    st.one_of(st.text(max_size=60), st.lists(st.sampled_from(WORDS), max_size=6).map(" ".join)),
    st.booleans(),
)
def test_any_command_is_a_value_or_one_refusal_sentence(command, terminal):
    try:
        asked = read(command, terminal)
    except (CommandRefused, SessionRefused) as refusal:
        assert str(refusal) and "\n" not in str(refusal)
        return
    kinds = (OwnGame, NewTable, Join, Watch, Resume, Play, Replay, JoinTournament, Printed)
    assert isinstance(asked, kinds)
    if not terminal:  # (a game's command is read: the session says it needs a terminal)
        assert not isinstance(asked, Replay | JoinTournament)
