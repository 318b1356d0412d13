"""The server's rules that need no network: names, environment, options, sizes."""

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tui_reversi.server.config import (
    format_duration,
    player_directory_name,
    player_environment,
    terminal_type,
)
from tui_reversi.server.hall.pty_process import clamp_size
from tui_reversi.server.hall.session_command import SessionRefused, game_options
from tui_reversi.storage.paths import FILES_ROOT_VARIABLE

SAFE_DIRECTORY = re.compile(r"[A-Za-z0-9_][A-Za-z0-9._-]{0,48}")


@pytest.mark.parametrize("user", ["alice", "Bob", "bob.smith", "x-1_2"])
def test_plain_user_names_are_their_own_directory_names(user):
    assert player_directory_name(user) == user


@given(st.text(max_size=80))
def test_any_user_name_becomes_one_safe_directory_name(user):
    name = player_directory_name(user)
    assert SAFE_DIRECTORY.fullmatch(name), name
    assert name not in (".", "..")


@given(st.text(max_size=40), st.text(max_size=40))
def test_different_user_names_never_share_a_directory(one, other):
    if one != other:
        assert player_directory_name(one) != player_directory_name(other)


def test_names_that_look_alike_stay_apart():
    names = {player_directory_name(user) for user in ("../x", "__x", ".._x", "_x", "x")}
    assert len(names) == 5


@pytest.mark.parametrize(
    ("requested", "expected"),
    [
        ("xterm-256color", "xterm-256color"),
        ("screen.xterm-256color", "screen.xterm-256color"),
        ("", "xterm-256color"),
        (None, "xterm-256color"),
        ("xterm\x1b]0;pwned\x07", "xterm-256color"),
        ("x" * 65, "xterm-256color"),
    ],
)
def test_the_terminal_type_is_the_clients_if_it_is_a_name(requested, expected):
    assert terminal_type(requested) == expected


def test_client_variables_with_control_characters_are_dropped(tmp_path):
    env = player_environment(
        home=tmp_path,
        user="u",
        term="xterm",
        client_env={"COLORTERM": "truecolor\x1b[2J", "NO_COLOR": "1"},
        ssh_connection="",
    )
    assert "COLORTERM" not in env and env["NO_COLOR"] == "1"


@pytest.mark.parametrize(
    ("command", "options"),
    [
        (None, []),
        ("   ", []),
        ("--ascii", ["--ascii"]),
        ("ascii black hard", ["--ascii", "--black", "hard"]),
        ("no-animation", ["--no-animation"]),
        ("variant=anti", ["--variant", "anti"]),
        ("--white easy --black=hard", ["--white", "easy", "--black", "hard"]),
        (
            "--variant reversi --theme high-contrast",
            ["--variant", "reversi", "--theme", "high-contrast"],
        ),
    ],
)
def test_game_options_from_the_ssh_command(command, options):
    assert game_options(command) == options


@pytest.mark.parametrize(
    ("command", "complaint"),
    [
        ("bash", "not a game option"),
        ("-la", "not a game option"),
        ("--load /etc/passwd", "not a game option"),
        ("--black", "needs a value"),
        ("--resume=1", "takes no value"),
        ("--black '$(reboot)'", "not a value"),
        ("--ascii 'unclosed", "cannot read"),
    ],
)
def test_anything_else_in_the_ssh_command_is_refused_with_status_2(command, complaint):
    with pytest.raises(SessionRefused) as refused:
        game_options(command)
    assert complaint in str(refused.value) and refused.value.status == 2


def test_window_sizes_a_client_claims_are_kept_sane():
    assert clamp_size(120, 40) == (120, 40)
    assert clamp_size(0, 0) == (80, 24)
    assert clamp_size(70000, 5) == (80, 5)


@pytest.mark.parametrize(
    ("seconds", "text"), [(0, "0 s"), (59.6, "1 min"), (90, "1 min 30 s"), (14400, "4 h")]
)
def test_durations_read_like_a_person_wrote_them(seconds, text):
    assert format_duration(seconds) == text


def test_a_served_game_keeps_the_players_files_in_their_own_folder(tmp_path):
    env = player_environment(
        home=tmp_path, user="u", term="xterm", client_env={}, ssh_connection=""
    )
    assert env[FILES_ROOT_VARIABLE] == str(tmp_path)
