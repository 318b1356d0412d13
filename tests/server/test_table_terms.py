"""The terms a table is opened on (colour, clock, variant) and the limits on
tables, over real SSH on loopback where a player would see them."""

import io
import socket

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tui_reversi.core import Color, Variant
from tui_reversi.net.lobby_link import Invitation, LobbyLink
from tui_reversi.net.server_line import line
from tui_reversi.net.terms import ColourChoice, TableTerms, TermsRefused, TimeControl
from tui_reversi.server.hall.session_command import table_terms

from .conftest import Player
from .test_tables import Game, seat, table_code

terms_strategy = st.builds(
    TableTerms,
    st.sampled_from(ColourChoice),
    st.sampled_from(Variant),
    st.one_of(
        st.none(),
        st.builds(
            lambda minutes, seconds: TimeControl(minutes * 60.0, float(seconds)),
            st.integers(1, 180),
            st.integers(0, 60),
        ),
    ),
)


@given(terms_strategy, st.randoms())
def test_terms_written_as_words_read_back_the_same_in_any_order(terms, random):
    words = terms.words()
    pairs = [words[0:1]] + [words[at : at + 2] for at in range(1, len(words), 2)]
    random.shuffle(pairs)
    shuffled = [word for pair in pairs for word in pair]
    assert TableTerms.parse(shuffled) == (terms, [])


@given(terms_strategy)
def test_an_invitations_terms_reach_the_invited_game_as_the_inviter_chose_them(terms):
    with socket.socket(socket.AF_UNIX) as unused:  # (the line is read here, not sent)
        link = LobbyLink(unused, io.BytesIO(), "bob")
        news = link.receive(line("invited", 7, "alice", *terms.words()))
    assert news is not None and news.invited == Invitation(7, "alice", terms)


def test_terms_read_from_a_table_command_and_look_options_left_alone():
    assert table_terms("white clock 5+3 anti ascii theme nord") == (
        TableTerms(ColourChoice.WHITE, Variant.ANTI, TimeControl(300.0, 3.0)),
        "ascii theme nord",
    )
    assert table_terms("--variant=reversi random") == (
        TableTerms(ColourChoice.RANDOM, Variant.REVERSI),
        "",
    )
    assert table_terms("") == (TableTerms(), "")
    # A clock on its own: a word that starts with a digit.
    assert table_terms("3+2 white") == (
        TableTerms(ColourChoice.WHITE, clock=TimeControl(180.0, 2.0)),
        "",
    )
    assert table_terms("10")[0].clock == TimeControl(600.0, 0.0)
    assert table_terms("theme 1980s") == (TableTerms(), "theme 1980s")  # (a theme, not a clock)


@pytest.mark.parametrize(
    ("command", "sentence"),
    [
        ("purple", "'purple' is not a term of a table: table [black|white|random] [5+3]"),
        ("3+x", "'3+x' is not a time control: minutes (1-180), then +seconds a move (0-60)"),
        ("5+3 clock 3+2", "choose one clock, e.g. 5+3"),
        pytest.param("9" * 5000, "is not a time control", id="5000-digits"),
        ("black white", "choose one colour: black, white or random"),
        ("clock", "clock needs a value, e.g. clock 5+3"),
        ("clock 5x3", "'5x3' is not a time control"),
        ("variant chess", "there is no variant 'chess': choose one of othello, reversi, anti"),
        ("anti variant reversi", "choose one variant"),
        ("white hard", "'hard' is not a term of a table"),
    ],
)
def test_terms_that_cannot_be_read_are_one_sentence(command, sentence):
    from tui_reversi.server.hall.session_command import SessionRefused

    with pytest.raises(SessionRefused) as refused:
        table_terms(command)
    assert sentence in str(refused.value)
    assert refused.value.status != 0
    assert "\n" not in str(refused.value)


def test_random_draws_either_colour():
    assert ColourChoice.RANDOM.resolve(lambda colours: colours[1]) == Color.WHITE
    assert ColourChoice.RANDOM.resolve(lambda colours: colours[0]) == Color.BLACK
    assert {ColourChoice.RANDOM.resolve() for _ in range(200)} == {Color.BLACK, Color.WHITE}
    with pytest.raises(TermsRefused):
        TableTerms.parse(["random", "black"])


async def test_the_host_who_asks_for_white_plays_white_and_the_friend_black(serve):
    arcade = await serve(max_per_address=10)
    alice = await Game.connect(await seat(arcade, "alice", "table white clock 3+2 anti"))
    code = table_code(arcade)
    assert await alice.hear_until("ready") == [
        f"seated {code} white anti",
        "players - alice",
        "rated alice 1500?",
        "clock 180.0 180.0 -",
        "ready",
    ]
    bob = await Game.connect(await seat(arcade, "bob", f"join {code}"))
    assert (await bob.hear_until("ready"))[:2] == [f"seated {code} black anti", "players bob alice"]
    assert await alice.hear_until("news bob (rated 1500?) sits at the table as Black.")
    alice.say("move 0 d3")  # Black moves first, and Black is bob
    assert await alice.hear_until("refused It is not your turn.")
    bob.say("move 0 d3")
    assert await alice.hear_until("moved 0 d3")
    assert any(
        f"table {code} opened by alice as White (anti, clock 3+2)" in line
        for line in arcade.log_lines
    )


async def test_table_takes_a_clock_on_its_own_and_a_bad_one_is_one_sentence(serve):
    arcade = await serve(max_per_address=10)
    alice = await Game.connect(await seat(arcade, "alice", "table 3+2"))
    heard = await alice.hear_until("ready")
    assert "clock 180.0 180.0 -" in heard
    assert str(arcade.tables.tables[table_code(arcade)].time_control) == "3+2"
    player = await Player.connect(arcade, "bob", command="table 3+x")
    done = await player.finished()
    said = player.output.decode()
    assert done.exit_status == 2 and said.count("\n") == 1
    assert said.startswith(
        "tui-reversi: '3+x' is not a time control: minutes (1-180), then +seconds a move (0-60)"
    )


async def test_the_lobby_says_which_colour_an_open_table_leaves_free(serve):
    arcade = await serve(max_per_address=10)
    await seat(arcade, "dave", "table white")
    code = table_code(arcade)
    asker = await Player.connect(arcade, "erin", term=None, command="lobby")
    await asker.finished()
    assert f"  {code}  dave 1500? waits (White), othello, move 1" in asker.output.decode()


async def test_random_seats_the_host_at_the_colour_drawn(serve, monkeypatch):
    arcade = await serve()
    monkeypatch.setattr("secrets.choice", lambda colours: colours[-1])
    alice = await Game.connect(await seat(arcade, "alice", "table random"))
    code = table_code(arcade)
    assert (await alice.hear_until("ready"))[0] == f"seated {code} white othello"
    assert any("opened by alice as White" in line for line in arcade.log_lines)


async def test_a_table_command_with_a_bad_word_is_one_sentence_and_a_non_zero_exit(serve):
    arcade = await serve()
    player = await Player.connect(arcade, "alice", command="table purple clock 5+3")
    done = await player.finished()
    assert done.exit_status == 2
    text = player.output.decode()
    assert "tui-reversi: 'purple' is not a term of a table: table [black|white|random]" in text
    assert text.count("\n") == 1
    assert not arcade.tables.tables


async def test_a_player_may_be_at_as_many_tables_as_the_server_allows(serve):
    arcade = await serve(max_per_address=10, tables_per_player=2)
    for _ in range(2):
        await seat(arcade, "alice", "table")
    third = await Player.connect(arcade, "alice", command="table")
    done = await third.finished()
    assert done.exit_status != 0
    assert "you are at 2 tables already, the most this server allows; finish one first." in (
        third.output.decode()
    )
    assert len(arcade.tables.tables) == 2
    await seat(arcade, "bob", "table")  # the limit is per player
